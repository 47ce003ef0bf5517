#!/usr/bin/env python3
"""Runs puzzles and renju foul cases through the real engine over the Gomocup protocol, as a
manager or a grader would send them, and grades each answer: a puzzle's against its winning
first moves, a foul case's `YXSHOWFORBID` against its verdicts.

    cargo build --release
    python3 scripts/puzzles.py                    # the VCF, quintet and foul suites
    python3 scripts/puzzles.py --turn 200 tests/data/vcf_public.jsonl
    python3 scripts/puzzles.py --engine path/to/pbrain-other.exe --jobs 1 FILE...
    python3 scripts/puzzles.py --symmetry        # each puzzle in its 8 rotations and mirrors

Each puzzle is one fresh engine process: `START`, `INFO rule`, `INFO timeout_turn`, then a
`BOARD` block with the stones black first, alternating (a colour's extra stones last), and the
move it answers. Puzzle files are JSON lines with `black_xy`, `white_xy`, `side_to_move`,
`rule`, `size` and the winning first moves in `helper_vcf_first_moves_xy` (every one that
wins) or `solution_line_xy` (the published line; its first move only). Prints the misses, then
per file the solve rate and the median and slowest answer, process start included.

A foul case (a record with `forbidden_xy` and `complete_set`, or with `checks`, as in
tests/data/*forbidden*.jsonl) is sent as `YXBOARD` (same order) and `YXSHOWFORBID`; the
points listed must be the whole set, or agree with each of black's checked points.

`scripts/tactics.sh` grades the solvers themselves under node limits; this grades what a user
of the engine sees. Exits 1 when a puzzle gets no move at all (or a foul case no `FORBID`).
"""
import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from gauntlet import RULES
from pbrain import ask, is_move

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def block(rec):
    """The BOARD lines of a puzzle: black first, alternating, the receiver's stones as 1."""
    black = [tuple(p) for p in rec["black_xy"]]
    white = [tuple(p) for p in rec["white_xy"]]
    own = "black" if rec.get("side_to_move", "black") == "black" else "white"
    lines = []
    for i in range(max(len(black), len(white))):
        for colour, stones in (("black", black), ("white", white)):
            if i < len(stones):
                x, y = stones[i]
                lines.append(f"{x},{y},{1 if colour == own else 2}")
    return lines


def answer(engine, rec, turn_ms):
    """The engine's move for a puzzle (None if it gave none), the time it took and the
    lines it printed that were neither MESSAGE nor OK."""
    commands = [
        f"START {rec.get('size', 15)}",
        f"INFO rule {RULES[rec.get('rule', 'renju')]}",
        f"INFO timeout_turn {turn_ms}",
        "INFO timeout_match 0",
        "BOARD",
        *block(rec),
        "DONE",
    ]
    reply, elapsed, _, other = ask(engine, commands, is_move, turn_ms / 1000 + 10)
    move = tuple(int(p) for p in reply.split(",")) if reply else None
    return move, elapsed, other


def forbidden(engine, rec):
    """The points the engine's `YXSHOWFORBID` lists for a foul case (None if it gave no
    `FORBID` line), the time it took and the other lines it printed."""
    commands = [
        f"START {rec.get('size', 15)}",
        "INFO rule 4",
        "YXBOARD",
        *block(rec),
        "DONE",
        "YXSHOWFORBID",
    ]
    reply, elapsed, _, other = ask(engine, commands, lambda l: l.startswith("FORBID"), 10)
    if reply is None:
        return None, elapsed, other
    digits = reply[len("FORBID"):].strip().rstrip(".")
    points = {(int(digits[i:i + 2]), int(digits[i + 2:i + 4])) for i in range(0, len(digits), 4)}
    return points, elapsed, other


def transformed(rec, k):
    """The puzzle rotated k quarter turns (k < 4), then mirrored left to right (k >= 4)."""
    n = rec.get("size", 15)

    def move(p):
        x, y = p
        for _ in range(k % 4):
            x, y = n - 1 - y, x
        return [n - 1 - x, y] if k >= 4 else [x, y]

    out = dict(rec, id=f"{rec['id']} (symmetry {k})")
    for key in ("black_xy", "white_xy", "helper_vcf_first_moves_xy", "solution_line_xy",
                "forbidden_xy"):
        if key in rec:
            out[key] = [move(p) for p in rec[key]]
    if "checks" in rec:
        out["checks"] = [dict(c, xy=move(c["xy"])) for c in rec["checks"]]
    return out


def is_foul_case(rec):
    return "checks" in rec or ("forbidden_xy" in rec and rec.get("complete_set"))


def foul_verdicts(rec, points):
    """(right, wrong) verdicts of a foul case for the listed `points`: the whole set counts
    as one, and each of black's checked points as one."""
    right, wrong = 0, []
    if "forbidden_xy" in rec and rec.get("complete_set"):
        expected = {tuple(p) for p in rec["forbidden_xy"]}
        if points == expected:
            right += 1
        else:
            wrong.append(f"set {sorted(points or [])} instead of {sorted(expected)}")
    for check in rec.get("checks", []):
        if check.get("color", "black") != "black":
            continue
        listed = points is not None and tuple(check["xy"]) in points
        if listed == check["forbidden"]:
            right += 1
        else:
            wrong.append(f"{tuple(check['xy'])} {'listed' if listed else 'not listed'}")
    return right, wrong


def grade_fouls(args, path, recs):
    """Prints the wrong verdicts and the file's tally; returns how many cases got no
    answer."""
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: forbidden(args.engine, r), recs))
    right, wrong, times, silent = 0, 0, [], 0
    for rec, (points, elapsed, other) in zip(recs, results):
        times.append(elapsed * 1000)
        silent += points is None
        good, bad = foul_verdicts(rec, points)
        right += good
        wrong += len(bad)
        for why in bad:
            print(f"wrong {rec['id']}: {why} {' '.join(other)}".rstrip())
    times.sort()
    print(
        f"{os.path.basename(path)}: {right}/{right + wrong} verdicts right over {len(recs)} "
        f"positions, median {times[len(times) // 2]:.1f} ms, slowest {times[-1]:.1f} ms"
    )
    return silent


def winning_moves(rec):
    if "helper_vcf_first_moves_xy" in rec:
        return {tuple(p) for p in rec["helper_vcf_first_moves_xy"]}
    return {tuple(rec["solution_line_xy"][0])}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", default=[
        os.path.join(ROOT, "tests/data/vcf_public.jsonl"),
        os.path.join(ROOT, "tests/data/quintet_mate.jsonl"),
        os.path.join(ROOT, "tests/data/realcore_forbidden.jsonl"),
        os.path.join(ROOT, "tests/data/quintet_forbidden.jsonl"),
        os.path.join(ROOT, "tests/data/alphagomoku_renju_forbidden.jsonl"),
    ])
    exe = "pbrain-wuzi.exe" if os.name == "nt" else "pbrain-wuzi"
    parser.add_argument("--engine", default=os.path.join(ROOT, "target", "release", exe))
    parser.add_argument("--turn", type=int, default=1000, help="INFO timeout_turn, ms")
    parser.add_argument("--jobs", type=int, default=2, help="engines run at once")
    parser.add_argument("--symmetry", action="store_true",
                        help="also play each puzzle rotated and mirrored (8 forms)")
    args = parser.parse_args()
    silent = 0
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            recs = [json.loads(line) for line in f if line.strip()]
        if args.symmetry:
            recs = [transformed(rec, k) for rec in recs for k in range(8)]
        if recs and all(is_foul_case(rec) for rec in recs):
            silent += grade_fouls(args, path, recs)
            continue
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda r: answer(args.engine, r, args.turn), recs))
        solved, times = 0, []
        for rec, (move, elapsed, other) in zip(recs, results):
            times.append(elapsed * 1000)
            if move in winning_moves(rec):
                solved += 1
            else:
                silent += move is None
                moves = sorted(winning_moves(rec))
                print(f"miss {rec['id']}: {move} not in {moves} {' '.join(other)}".rstrip())
        times.sort()
        print(
            f"{os.path.basename(path)}: solved {solved}/{len(recs)} "
            f"({100 * solved / max(len(recs), 1):.1f}%) at {args.turn} ms per move, "
            f"median {times[len(times) // 2]:.1f} ms, slowest {times[-1]:.1f} ms"
        )
    sys.exit(1 if silent else 0)


if __name__ == "__main__":
    main()
