#!/usr/bin/env python3
"""The loss suite: positions from games wuzi lost to an attack, to measure whether it sees them.

    scripts/loss-suite.py extract OUT.jsonl RECORDS.jsonl...
    scripts/loss-suite.py run SUITE.jsonl [--time MS] [--check-ms MS] [--wuzi PATH]
                                          [--checker PATH] [--attack-only] [--verbose]

`extract` reads wuzi-match records (--jsonl) of games wuzi lost and keeps, for each, the first
position where the winner announced a forced win in its MESSAGE lines (Rapfi's `Eval +M21`,
PentaZen's `ev +v21`): the stones in move order (black first) up to the winner's move there,
the rule, the announced length and the record and game it came from (`source`). The last stone of each position
is wuzi's move that allowed the win.

`run` asks the wuzi binary about every position through `pbrain-wuzi analyze`:

  attack   at the announced position, with wuzi in the winner's place: does a search of
           --time ms (default 450, what a 0.5 s move leaves) prove the win? When the
           winner's move there is forced (a block, answered without a search), the loser's
           side after it is asked instead, and a proven loss counts.
  defence  one ply earlier, with wuzi to move where it lost: does it play another move, and
           after its move does the checker (another analyze, --check-ms, default 1500) find
           no win for the opponent? A position counts as defended when it does not.

--attack-only skips the defence (a quarter of the time). The checker is --checker (default:
the same binary); keep it fixed when comparing builds. The
figures depend on the machine's load: compare builds in the same run conditions.
"""
import json
import os
import re
import subprocess
import sys

from losses import records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANNOUNCED_WIN = [re.compile(r"\bEval \+M(\d+)"), re.compile(r"\bev \+v(\d+)")]


def fail(message):
    print(f"loss-suite: {message}", file=sys.stderr)
    sys.exit(2)


def extract(out, paths):
    kept = 0
    with open(out, "w") as sink:
        for path, game in records(paths):
            wuzi = "black" if game["black"] == "wuzi" else "white"
            winner = game["winner"]
            if winner in (None, "none", wuzi):
                continue
            stones = game["opening"] + game["moves"]
            for message in game["messages"]:
                if message["color"] != winner:
                    continue
                found = next((m for r in ANNOUNCED_WIN if (m := r.search(message["text"]))),
                             None)
                if found and message["ply"] > len(game["opening"]):
                    sink.write(json.dumps({
                        "rule": game["rule"], "size": game["width"],
                        "stones": stones[:message["ply"]],
                        "announced_plies": int(found.group(1)),
                        "source": f"{os.path.basename(path)} game {game['game']}",
                    }) + "\n")
                    kept += 1
                    break
    print(f"{kept} positions -> {out}")


def analyze(binary, rule, size, stones, ms):
    argv = [binary, "analyze", "--rule", rule, "--size", str(size), "--time", str(ms), "--json"]
    done = subprocess.run(argv + stones, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"analyze failed on {' '.join(stones)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


# Scores at or beyond this are proven (`WIN_THRESHOLD` in src/search/score.rs). A win the
# root's VCT proves has no length (`mate` is null), so the score decides, not `mate`.
PROVEN = 29_000


def proves_win(result):
    return result["score"] is not None and result["score"] >= PROVEN


def proves_loss(result):
    return result["score"] is not None and result["score"] <= -PROVEN


def attack_proved(opts, rule, size, stones):
    """Whether wuzi, in the winner's place, proves the win. A forced answer (a block) comes
    without a search, so then the side that lost is asked after it: a proven loss counts."""
    result = analyze(opts["wuzi"], rule, size, stones, opts["time"])
    if result["nodes"] == 0 and result.get("mate") is None:
        after = analyze(opts["wuzi"], rule, size, stones + [result["best_xy"]], opts["time"])
        return proves_loss(after)
    return proves_win(result)


def run(suite, opts):
    positions = [json.loads(line) for line in open(suite) if line.strip()]
    if not positions:
        fail(f"{suite} holds no positions")
    attack = defended = other = sees = 0
    for p in positions:
        rule, size, stones = p["rule"], p["size"], p["stones"]
        won = attack_proved(opts, rule, size, stones)
        attack += won
        if opts["attack_only"]:
            if opts["verbose"]:
                print(f"{p['source']}: attack {'won' if won else 'not seen'}")
            continue
        before, played = stones[:-1], stones[-1]
        answer = analyze(opts["wuzi"], rule, size, before, opts["time"])
        move = answer["best_xy"]
        other += move != played
        sees += proves_loss(answer)
        check = analyze(opts["checker"], rule, size, before + [move], opts["check"])
        safe = not proves_win(check)
        defended += safe
        if opts["verbose"]:
            print(f"{p['source']}: attack {'won' if won else 'not seen'}; "
                  f"played {played}, now {move} ({answer['score']}), "
                  f"{'defended' if safe else 'still lost'}")
    n = len(positions)
    print(f"attack: {attack}/{n} wins proved in {opts['time']} ms")
    if opts["attack_only"]:
        return
    print(f"defence: {defended}/{n} positions left with no opponent win found in "
          f"{opts['check']} ms; {other}/{n} moves other than the game's; {sees}/{n} losses seen")


def main(argv):
    if len(argv) >= 2 and argv[0] == "extract":
        return extract(argv[1], argv[2:])
    if len(argv) >= 2 and argv[0] == "run":
        opts = {"time": 450, "check": 1500, "wuzi": None, "checker": None, "verbose": False,
                "attack_only": False}
        items = argv[2:]
        i = 0
        while i < len(items):
            key = items[i]
            if key in ("--verbose", "--attack-only"):
                opts[key[2:].replace("-", "_")] = True
                i += 1
                continue
            if key not in ("--time", "--check-ms", "--wuzi", "--checker") or i + 1 >= len(items):
                fail(f"unknown or incomplete option {key!r} (see --help)")
            value = items[i + 1]
            name = {"--time": "time", "--check-ms": "check"}.get(key, key[2:])
            if name in ("time", "check"):
                if not value.isdigit():
                    fail(f"{key} takes milliseconds, got {value!r}")
                value = int(value)
            opts[name] = value
            i += 2
        opts["wuzi"] = opts["wuzi"] or os.path.join(ROOT, "target", "release", "pbrain-wuzi")
        opts["checker"] = opts["checker"] or opts["wuzi"]
        return run(argv[1], opts)
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return
    fail("usage: loss-suite.py extract OUT RECORDS... | run SUITE [options] (see --help)")


if __name__ == "__main__":
    main(sys.argv[1:])
