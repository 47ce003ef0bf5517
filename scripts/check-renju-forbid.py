#!/usr/bin/env python3
"""Runs the renju foul checker of the `renju` 0.1.0 package on PyPI (Tianyi Hao, MIT; a port
of Piskvork's judge) over the foul cases in tests/data/*forbidden*.jsonl and reports where it
agrees with them. pbrain-threatspace.py uses that checker to keep black's moves legal, so this
is the test that it can be trusted.

    pip install --target scripts/.renju renju==0.1.0
    python3 scripts/check-renju-forbid.py [-v]

Set RENJU_LIB to use another install folder. Exits 1 when a verdict disagrees.
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("RENJU_LIB", os.path.join(HERE, ".renju")))

from renju.check_forbid import get_foul_type  # noqa: E402

KINDS = {1: "DoubleThree", 2: "DoubleFour", 3: "Overline"}


def grid(rec):
    # The checker indexes board[x][y] for a call at (x, y); 1 = black, 2 = white.
    n = rec.get("size", 15)
    board = [[0] * n for _ in range(n)]
    for x, y in rec["black_xy"]:
        board[x][y] = 1
    for x, y in rec["white_xy"]:
        board[x][y] = 2
    return board


def foul(board, x, y):
    return get_foul_type([row[:] for row in board], x, y)


def main():
    verbose = "-v" in sys.argv[1:]
    data = os.path.join(HERE, "..", "tests", "data")
    total = agreed = 0
    failures = []
    for path in sorted(glob.glob(os.path.join(data, "*forbidden*.jsonl"))):
        name = os.path.basename(path)
        file_total = file_agreed = 0
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            rec = json.loads(line)
            board = grid(rec)
            n = len(board)
            verdicts = []  # (what, expected, got)
            if rec.get("complete_set"):
                expected = sorted(tuple(p) for p in rec["forbidden_xy"])
                got = sorted(
                    (x, y) for x in range(n) for y in range(n)
                    if board[x][y] == 0 and foul(board, x, y)
                )
                verdicts.append(("forbidden set", expected, got))
                for (x, y), kind in zip(rec["forbidden_xy"], rec.get("forbidden_kind", [])):
                    verdicts.append((f"{x},{y} kind", kind, KINDS.get(foul(board, x, y))))
            for check in rec.get("checks", []):
                x, y = check["xy"]
                # White is never fouled; the checker judges black only.
                got = check["color"] == "black" and board[x][y] == 0 and foul(board, x, y) != 0
                verdicts.append((f"{check['color']} {x},{y} forbidden", check["forbidden"], got))
                kind = check.get("kind")
                if kind and got:
                    verdicts.append((f"{x},{y} kind", kind, KINDS[foul(board, x, y)]))
            for what, expected, got in verdicts:
                file_total += 1
                if expected == got:
                    file_agreed += 1
                else:
                    failures.append(f"{name} {rec['id']}: {what}: expected {expected}, got {got}")
                if verbose:
                    print(f"{'ok  ' if expected == got else 'FAIL'} {rec['id']}: {what}")
        print(f"{name}: {file_agreed}/{file_total} verdicts agree")
        total += file_total
        agreed += file_agreed
    for f in failures:
        print("DISAGREE", f)
    print(f"total: {agreed}/{total} verdicts (fouls, kinds) agree, {total - agreed} disagree")
    return 0 if agreed == total else 1


if __name__ == "__main__":
    sys.exit(main())
