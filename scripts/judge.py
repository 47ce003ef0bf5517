#!/usr/bin/env python3
"""Move quality judged by a stronger engine: a quick, paired screen of a change before matches.

    scripts/judge.py positions OUT.jsonl [--plies N] [--from N] [--per-rule N] [--seed S]
                               RECORDS.jsonl...
    scripts/judge.py run POSITIONS.jsonl --out OUT.jsonl --judge PATH [--engine PATH]
                         [--env NAME=VALUE ...] [--turn MS] [--judge-ms MS] [--cache FILE]
    scripts/judge.py compare BASE.jsonl NEW.jsonl [NEW.jsonl ...]

Most games lost to Rapfi are lost in the first plies after the opening, in quiet positions
(`scripts/losses.py`). A match needs hundreds of games to see a change of a few per cent there;
this asks about those positions directly.

`positions` reads wuzi-match records (--jsonl) and keeps every position where `wuzi` was to
move within --plies (default 16) plies after the opening, from the --from-th (default 0): the
stones in move order (black first), the rule, the size and the record it came from.
--per-rule N keeps a seeded sample of N a rule.

`run` asks the engine (default target/release/pbrain-wuzi; a fresh process per position, started
in its own folder with the --env variables set) for its move at --turn ms a move (default 500,
as the matches play), then asks the judge (a fresh process each, in its own folder, as Rapfi
needs) for its score of the position after that move at --judge-ms (default 300). The judge's
`Eval V` is read as its expected score, 1 / (1 + exp(-V / 250)) (Rapfi's scale; a mate is 0 or
1), and the mover's is the rest; a judge that replies without a score (a forced or instant
move) is asked again after its reply. The verdicts are kept in --cache (default OUT's folder's
judge-cache.jsonl) by rule, stones and move, so a move two engines agree on is judged once and
compared on the same verdict. One JSON line per position: its index, the engine's move and the
mover's expected score.

`compare` pairs the files position by position with the first: how many moves differ, the
mean expected score of each (a move both chose counts with the first file's verdict), and the
mean difference on the differing positions with its standard error and a one-sided p from the
normal approximation.
"""
import json
import math
import os
import random
import sys

from gauntlet import RULES as PROTOCOL_RULES
from losses import parse_outside_score, records
from pbrain import ask, is_move

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The rules the judge (Rapfi) plays; caro records are passed over.
RULES = {rule: PROTOCOL_RULES[rule] for rule in ("freestyle", "standard", "renju")}
SCALE = 250.0


def fail(message):
    print(f"judge.py: {message}", file=sys.stderr)
    sys.exit(2)


def option(args, name, default, kind=str):
    """Removes `name VALUE` from args and returns VALUE (converted), or the default."""
    if name not in args:
        return default
    i = args.index(name)
    if i + 1 >= len(args):
        fail(f"{name} needs a value")
    value = args[i + 1]
    del args[i:i + 2]
    try:
        return kind(value)
    except ValueError:
        fail(f"{name}: {value!r}")


def positions(args):
    plies = option(args, "--plies", 16, int)
    first = option(args, "--from", 0, int)
    per_rule = option(args, "--per-rule", 0, int)
    seed = option(args, "--seed", 1, int)
    if len(args) < 2:
        fail("positions OUT.jsonl RECORDS.jsonl...")
    out, paths = args[0], args[1:]
    by_rule = {}
    for path, game in records(paths):
        if (game["rule"] not in RULES or "wuzi" not in (game["black"], game["white"])
                or game["width"] != game["height"]):
            continue
        wuzi_black = game["black"] == "wuzi"
        opening, moves = game["opening"], game["moves"]
        for k in range(first, min(plies, len(moves))):
            black_to_move = (len(opening) + k) % 2 == 0
            if black_to_move != wuzi_black:
                continue
            by_rule.setdefault(game["rule"], []).append({
                "rule": game["rule"],
                "size": game["width"],
                "stones": opening + moves[:k],
                "source": f"{os.path.basename(path)}:{game['game']}:{k}",
            })
    rng = random.Random(seed)
    kept = []
    for rule in sorted(by_rule):
        found = by_rule[rule]
        if per_rule and len(found) > per_rule:
            found = rng.sample(found, per_rule)
        kept.extend(found)
        print(f"{rule}: {len(found)} positions")
    with open(out, "w") as f:
        for p in kept:
            f.write(json.dumps(p) + "\n")


def talk(command, cwd, env, rule, size, stones, turn_ms):
    """One fresh engine process asked for its move on `stones` (the side to move's own as 1):
    returns (move, its MESSAGE lines), move None when it gave none."""
    n = len(stones)
    board = [f"{s},{1 if i % 2 == n % 2 else 2}" for i, s in enumerate(stones)]
    commands = [f"START {size}", f"INFO rule {RULES[rule]}", f"INFO timeout_turn {turn_ms}",
                "INFO timeout_match 1000000000", "BOARD", *board, "DONE"]
    reply = ask(command, commands, is_move, turn_ms / 1000 + 20, cwd=cwd, env=env)
    return reply.line, reply.messages


def expected(messages):
    """The last `Eval` in an engine's messages as its own expected score, or None."""
    for line in reversed(messages):
        parsed = parse_outside_score(line)
        if parsed:
            value, mate = parsed
            if mate is not None:
                return 1.0 if value > 0 else 0.0
            return 1.0 / (1.0 + math.exp(-value / SCALE))
    return None


def judge_move(judge, rule, size, stones, judge_ms):
    """The expected score of the side that made the last of `stones`, as the judge sees it.
    A judge that answers without a score (a forced or instant reply) is asked once more,
    after its reply, from the mover's side; None if it still gives none."""
    cwd = os.path.dirname(judge)
    reply, messages = talk(judge, cwd, None, rule, size, stones, judge_ms)
    score = expected(messages)
    if score is not None:
        return 1.0 - score
    if reply is None:
        return None
    _, messages = talk(judge, cwd, None, rule, size, stones + [reply], judge_ms)
    return expected(messages)


def run(args):
    out = option(args, "--out", None)
    judge = option(args, "--judge", None)
    engine = option(args, "--engine", os.path.join(ROOT, "target/release/pbrain-wuzi"))
    turn = option(args, "--turn", 500, int)
    judge_ms = option(args, "--judge-ms", 300, int)
    cache_path = option(args, "--cache", None)
    env = dict(os.environ)
    while "--env" in args:
        name, _, value = option(args, "--env", "").partition("=")
        env[name] = value
    if len(args) != 1 or not out or not judge:
        fail("run POSITIONS.jsonl --out OUT.jsonl --judge PATH [options]")
    cache_path = cache_path or os.path.join(os.path.dirname(os.path.abspath(out)),
                                            "judge-cache.jsonl")
    cache = {}
    if os.path.exists(cache_path):
        with open(cache_path) as f:
            for line in f:
                if line.strip():
                    e = json.loads(line)
                    cache[e["key"]] = e["score"]
    engine, judge = os.path.abspath(engine), os.path.abspath(judge)
    with open(args[0]) as f:
        suite = [json.loads(line) for line in f if line.strip()]
    total, done = 0.0, 0
    with open(out, "w") as results, open(cache_path, "a") as cache_file:
        for index, p in enumerate(suite):
            move, _ = talk(engine, os.path.dirname(engine), env, p["rule"], p["size"],
                           p["stones"], turn)
            score = None
            if move:
                key = f"{p['rule']}|{p['size']}|{' '.join(p['stones'])}|{move}"
                score = cache.get(key)
                if score is None:
                    score = judge_move(judge, p["rule"], p["size"], p["stones"] + [move],
                                       judge_ms)
                    if score is not None:
                        cache[key] = score
                        cache_file.write(json.dumps({"key": key, "score": score}) + "\n")
                        cache_file.flush()
            results.write(json.dumps({"index": index, "move": move, "score": score}) + "\n")
            results.flush()
            if score is not None:
                total += score
                done += 1
            if (index + 1) % 50 == 0:
                print(f"{index + 1}/{len(suite)}: mean {total / max(done, 1):.4f}",
                      file=sys.stderr)
    print(f"{done} positions judged, mean expected score {total / max(done, 1):.4f}")


def compare(args):
    if len(args) < 2:
        fail("compare BASE.jsonl NEW.jsonl...")

    def load(path):
        with open(path) as f:
            return {e["index"]: e for e in (json.loads(line) for line in f if line.strip())}

    base = load(args[0])
    for path in args[1:]:
        new = load(path)
        common = [i for i in base if i in new and base[i]["score"] is not None
                  and new[i]["score"] is not None]
        diffs = [new[i]["score"] - base[i]["score"] for i in common
                 if new[i]["move"] != base[i]["move"]]
        mean_base = sum(base[i]["score"] for i in common) / max(len(common), 1)
        # The same move gives the same position: its base verdict stands for both (runs
        # that did not share a cache may have judged it twice).
        mean_new = mean_base + sum(diffs) / max(len(common), 1)
        n = len(diffs)
        if n > 1:
            mean = sum(diffs) / n
            sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
            se = sd / math.sqrt(n)
            z = mean / se if se > 0 else 0.0
            p = 0.5 * math.erfc(z / math.sqrt(2))
            detail = f"differing mean {mean:+.4f} ± {1.96 * se:.4f}, p(new not better) {p:.3f}"
        else:
            detail = "too few differing moves"
        unjudged = sum(1 for e in new.values() if e["score"] is None)
        print(f"{path}: {len(common)} positions ({unjudged} unjudged), {n} moves differ; "
              f"mean {mean_base:.4f} -> "
              f"{mean_new:.4f} ({mean_new - mean_base:+.4f}); {detail}")


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return
    command, args = argv[0], list(argv[1:])
    commands = {"positions": positions, "run": run, "compare": compare}
    if command not in commands:
        fail(f"unknown command {command!r} (positions, run or compare)")
    try:
        commands[command](args)
    except (OSError, KeyError, ValueError) as e:
        # A missing file, a record or result line without the fields it needs, bad JSON.
        fail(f"{command}: {e if isinstance(e, OSError) else repr(e)}")


if __name__ == "__main__":
    main(sys.argv[1:])
