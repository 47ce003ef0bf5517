#!/usr/bin/env python3
"""Writes tests/data/renju_judge_verdicts.txt: random 15x15 renju positions, black to move,
with the verdict of Piskvork's foul judge on every empty point (the checker of the `renju`
0.1.0 package on PyPI, a port of the judge Gomocup referees with). tests/renju_judge.rs
holds wuzi's judge to every verdict.

    pip install --target scripts/.renju renju==0.1.0
    python3 scripts/renju-fixture.py [--seed 77] [--count 5000] [--out FILE]

The checker is pure Python: 5,000 positions take about ten minutes of one core. Set RENJU_LIB
to use another install folder. The same seed and count give the same file byte for byte:
position i draws from its own generator, seeded with the string "SEED-i". Each position has 4
to 30 stones a side and no line of five or more of either colour. In most, black's stones are
crowded into a small window, where threes and fours meet, so that about half of the positions
have a forbidden point; the others spread both colours over a wider window or the whole board.

Format (see tests/data/README.md): lines starting with `#` are comments; every other line is
`BLACK WHITE FORBIDDEN`, three fields in pos notation (`h8` = x 7, y 7; the letter is the
column x from `a`, the number the row y + 1 from the top), stones sorted by (x, y). FORBIDDEN
lists every empty point where the judge finds a foul for black (`-` when there is none); every
other empty point is allowed.
"""
import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("RENJU_LIB", os.path.join(HERE, ".renju")))

from renju.check_forbid import get_foul_type  # noqa: E402

SIZE = 15
CHECKER = "renju 0.1.0 (PyPI), renju.check_forbid.get_foul_type"
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def run_length(board, x, y, colour):
    """Longest line of `colour` through (x, y) if `colour` stood there."""
    best = 0
    for dx, dy in DIRECTIONS:
        n = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < SIZE and 0 <= cy < SIZE and board[cx][cy] == colour:
                n += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        best = max(best, n)
    return best


def window(rng, span):
    """A random square of `span` cells a side on the board: (x0, y0, span)."""
    return rng.randint(0, SIZE - span), rng.randint(0, SIZE - span), span


def draw(rng, area):
    x0, y0, span = area
    return x0 + rng.randrange(span), y0 + rng.randrange(span)


def position(rng):
    """Black's and white's stones (lists of (x, y)), as many of each, no five on the board."""
    per_side = rng.randint(4, 30)
    style = rng.random()
    if style < 0.6:
        # Black crowded, white around it: most fouls come from here.
        black_area = window(rng, rng.randint(5, 8))
        x0, y0, span = black_area
        grow = rng.randint(1, 3)
        lo_x, lo_y = max(0, x0 - grow), max(0, y0 - grow)
        white_span = min(SIZE - max(lo_x, lo_y), span + 2 * grow)
        white_area = (lo_x, lo_y, white_span)
    elif style < 0.85:
        black_area = white_area = window(rng, rng.randint(8, 12))
    else:
        black_area = white_area = (0, 0, SIZE)
    while True:
        board = [[0] * SIZE for _ in range(SIZE)]
        stones = {1: [], 2: []}
        ok = True
        for _ in range(per_side):
            for colour, area in ((1, black_area), (2, white_area)):
                for _attempt in range(200):
                    x, y = draw(rng, area)
                    if board[x][y] == 0 and run_length(board, x, y, colour) < 5:
                        break
                else:
                    # The window is too full for another stone: widen it to the whole board.
                    free = [
                        (x, y) for x in range(SIZE) for y in range(SIZE)
                        if board[x][y] == 0 and run_length(board, x, y, colour) < 5
                    ]
                    if not free:
                        ok = False
                        break
                    x, y = rng.choice(free)
                board[x][y] = colour
                stones[colour].append((x, y))
            if not ok:
                break
        if ok:
            return board, sorted(stones[1]), sorted(stones[2])


def verdicts(board):
    """Every empty point the judge calls a foul for black, sorted by (x, y)."""
    return [
        (x, y) for x in range(SIZE) for y in range(SIZE)
        if board[x][y] == 0 and get_foul_type(board, x, y) != 0
    ]


def notation(points):
    return "".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in points) or "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument(
        "--out", default=os.path.join(HERE, "..", "tests", "data", "renju_judge_verdicts.txt")
    )
    args = parser.parse_args()
    with_fouls = 0
    lines = [
        f"# Piskvork's renju foul judge ({CHECKER}) on every empty point of {args.count}",
        f"# random 15x15 positions, black to move. Made by: scripts/renju-fixture.py "
        f"--seed {args.seed} --count {args.count}",
        "# BLACK WHITE FORBIDDEN (pos notation; '-' = no forbidden point)",
    ]
    for i in range(args.count):
        rng = random.Random(f"{args.seed}-{i}")
        board, black, white = position(rng)
        fouls = verdicts(board)
        with_fouls += bool(fouls)
        lines.append(f"{notation(black)} {notation(white)} {notation(fouls)}")
        if (i + 1) % 250 == 0:
            print(f"{i + 1}/{args.count} positions, {with_fouls} with fouls", file=sys.stderr)
    with open(args.out, "w", encoding="ascii", newline="\n") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{args.count} positions, {with_fouls} with a forbidden point -> {args.out}")


if __name__ == "__main__":
    main()
