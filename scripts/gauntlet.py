#!/usr/bin/env python3
"""The gauntlet: wuzi against every engine named, under each rule the engine plays, in one table.

    scripts/gauntlet.py [options] NAME=COMMAND[@RULE,RULE...] ...

    e.g. scripts/gauntlet.py --games 40 --tc 500/0 \\
             rapfi=/opt/engines/pbrain-rapfi pentazen=/opt/engines/pbrain-pentazen@freestyle,renju

Each opponent plays wuzi under every rule of --rules that it supports (all of them unless
@RULE,... says which), from tests/data/balanced_RULE_SIZE.txt, each opening with both colours,
a fresh process per game, through wuzi-match. Games go to DIR/NAME-RULE-SEED.jsonl (--out,
default gauntlet/, beside a copy of the wuzi binary played); the table is made from every such file in DIR, so runs add up and
`--table` prints it again without playing. The command's folder is the opponent's working
directory (engines that read a config file from there find it).

Options (defaults in brackets):
  --rules R,R       freestyle, standard, renju, caro [freestyle,standard,renju]
  --size N          board size [15]
  --games N         games per opponent and rule [40]
  --tc TURN/MATCH   time control in ms, as wuzi-match's --tc [500/0]
  --concurrency N   games at a time [2]
  --memory MB       INFO max_memory sent, in MiB [128]
  --tolerance MS    grace on every limit, as wuzi-match's --tolerance-ms [3000]
  --seed S          seed for the opening order and symmetry [time]
  --wuzi PATH       the wuzi binary [target/release/pbrain-wuzi, built first]
  --out DIR         results folder [gauntlet]
  --table           only print the table of what DIR holds
  --against BASE    with --table, also compare DIR's games with BASE's game for game: the
                    same file (opponent, rule, seed) and game number, played from the same
                    opening with the same colours; prints the two scores, the mean
                    difference a game with its 95 % interval, and the likelihood of
                    superiority. A change is judged so against the base engine's run on the
                    same seeds (docs/engineering.md)
  --match-arg ARG   one more wuzi-match argument (repeatable), e.g. --match-arg=--reply-gap=40

Opponents' quirks are handled as a manager would: lines that are neither a move nor a known
reply are passed over (--skip-unparsable), every engine gets wuzi-match's reply gap, and the
tolerance is 3 s: an engine that sizes its hash table when the game starts (Rapfi, from
max_memory) can take over a second for START or its first move on a loaded machine.
"""
import glob
import math
import os
import shutil
import subprocess
import sys
import time

from losses import records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}
USAGE = __doc__.split("Options")[0].strip()


def fail(message):
    print(f"gauntlet: {message}", file=sys.stderr)
    sys.exit(2)


def parse_opponent(item):
    """(name, command, rules or None) of an opponent written NAME=COMMAND[@RULE,RULE...],
    or None when `item` is not written so (`scripts/datagen.py` reads its opponents the same
    way)."""
    name, sep, command = item.partition("=")
    if not sep or not name or not command:
        return None
    rules = None
    if "@" in command:
        command, rules = command.rsplit("@", 1)
        rules = rules.split(",")
    return name, command, rules


def split_options(argv):
    """The arguments with every `--name=value` split into `--name` and `value`."""
    items = []
    for arg in argv:
        items.extend(arg.split("=", 1) if arg.startswith("--") and "=" in arg else [arg])
    return items


def parse_args(argv):
    opts = {
        "rules": ["freestyle", "standard", "renju"],
        "size": 15,
        "games": 40,
        "tc": "500/0",
        "concurrency": 2,
        "memory": 128,
        "tolerance": 3000,
        "seed": int(time.time()),
        "wuzi": None,
        "out": "gauntlet",
        "table": False,
        "against": None,
        "match_args": [],
    }
    opponents = []
    items = split_options(argv)
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if item in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if item == "--table":
            opts["table"] = True
            continue
        if item.startswith("--"):
            if i >= len(items):
                fail(f"{item} needs a value")
            value = items[i]
            i += 1
            key = item[2:].replace("-", "_")
            if key == "rules":
                opts["rules"] = value.split(",")
            elif key == "match_arg":
                opts["match_args"].append(value)
            elif key in ("size", "games", "concurrency", "memory", "seed", "tolerance"):
                try:
                    opts[key] = int(value)
                except ValueError:
                    fail(f"{item} takes a whole number, not {value!r}")
            elif key in ("tc", "wuzi", "out", "against"):
                opts[key] = value
            else:
                fail(f"unknown option {item}\n{USAGE}")
            continue
        opponent = parse_opponent(item)
        if opponent is None:
            fail(f"an opponent is NAME=COMMAND[@RULES], not {item!r}")
        opponents.append(opponent)
    for rule in opts["rules"] + [r for _, _, rs in opponents for r in rs or []]:
        if rule not in RULES:
            fail(f"unknown rule {rule!r} (one of {', '.join(RULES)})")
    if not opponents and not opts["table"]:
        fail(USAGE)
    if opts["against"] is not None and not opts["table"]:
        fail("--against compares finished runs: give it with --table")
    return opts, opponents


def play(opts, name, command, rule):
    openings = os.path.join(ROOT, "tests", "data", f"balanced_{rule}_{opts['size']}.txt")
    if not os.path.exists(openings):
        print(f"gauntlet: no balanced openings for {rule} {opts['size']}x{opts['size']}; "
              f"{name} skipped under {rule}", file=sys.stderr)
        return
    program = command.split()[0]
    workdir = os.path.dirname(os.path.abspath(program))
    jsonl = os.path.join(opts["out"], f"{name}-{rule}-{opts['seed']}.jsonl")
    argv = [
        os.path.join(ROOT, "target", "release", "wuzi-match"),
        "--engine", f"cmd={opts['wuzi']}", "name=wuzi",
        "--engine", f"cmd={command}", f"name={name}", f"dir={workdir}",
        "--rule", str(RULES[rule]), "--size", str(opts["size"]), "--tc", opts["tc"],
        "--max-memory", str(opts["memory"] << 20), "--tolerance-ms", str(opts["tolerance"]),
        "--openings", openings, "--random-order", "--symmetry", "--seed", str(opts["seed"]),
        "--games", str(opts["games"]), "--concurrency", str(opts["concurrency"]),
        "--skip-unparsable", "--quiet", "--jsonl", jsonl,
    ] + opts["match_args"]
    print(f"== wuzi vs {name}, {rule}, {opts['games']} games -> {jsonl}", flush=True)
    status = subprocess.call(argv)
    if status != 0:
        fail(f"wuzi-match exited with status {status}")


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def summarise(games):
    """Score, Elo and its 95 % interval from games paired by opening (pentanomial)."""
    points = [g["points"] for g in games]
    n = len(points)
    mean = sum(points) / n
    pairs = {}
    for g in games:
        pairs.setdefault(g["pair"], []).append(g["points"])
    samples = [sum(p) / len(p) for p in pairs.values()]
    m = len(samples)
    if m > 1:
        var = sum((s - mean) ** 2 for s in samples) / (m - 1)
        half = 1.96 * math.sqrt(var / m)
    else:
        half = 0.5
    low, high = elo(mean - half), elo(mean + half)
    margin = (high - low) / 2 if math.isfinite(high - low) else math.inf
    return mean, elo(mean), margin


def wuzi_points(g):
    """wuzi's points in game `g`: 1, 0.5 or 0."""
    if g["winner"] is None or g["winner"] == "none":
        return 0.5
    return 1.0 if g["winner"] == ("black" if g["black"] == "wuzi" else "white") else 0.0


def table(out):
    rows = {}
    for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
        for _, g in records([path]):
            opponent = g["white"] if g["black"] == "wuzi" else g["black"]
            points = wuzi_points(g)
            key = (opponent, g["rule"], g["width"])
            row = rows.setdefault(key, [])
            lost_on_time = g["reason"] == "time-out"
            row.append({
                "points": points,
                "pair": (path, g.get("round", 1), (g["game"] + 1) // 2),
                "wuzi_time": lost_on_time and points == 0.0,
                "opp_time": lost_on_time and points == 1.0,
                "fault": g["reason"] in ("crash", "illegal move", "memory"),
            })
    if not rows:
        print(f"gauntlet: no games in {out}/", file=sys.stderr)
        return
    header = f"{'opponent':<12} {'rule':<10} {'size':>4} {'games':>5} {'W-L-D':>11} " \
             f"{'score':>6} {'Elo':>16} {'time losses':>12} {'faults':>6}"
    print(header)
    for (opponent, rule, size), games in sorted(rows.items()):
        wins = sum(g["points"] == 1.0 for g in games)
        losses = sum(g["points"] == 0.0 for g in games)
        draws = len(games) - wins - losses
        mean, rating, margin = summarise(games)
        time_losses = f"{sum(g['wuzi_time'] for g in games)}/{sum(g['opp_time'] for g in games)}"
        print(f"{opponent:<12} {rule:<10} {size:>4} {len(games):>5} "
              f"{f'{wins}-{losses}-{draws}':>11} {100 * mean:>5.1f}% "
              f"{f'{rating:+.0f} ± {margin:.0f}':>16} {time_losses:>12} "
              f"{sum(g['fault'] for g in games):>6}")
    print("Score and Elo are wuzi's; time losses are wuzi's/the opponent's; faults are crashes,"
          " illegal moves and memory losses of either side.")


def compare(out, base):
    """Prints how the games of `out` differ from those of `base`, game for game."""
    def line(label, pairs):
        n = len(pairs)
        old, new = sum(a for a, _ in pairs), sum(b for _, b in pairs)
        mean = (new - old) / n
        var = sum((b - a - mean) ** 2 for a, b in pairs) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n)
        los = 0.5 * (1 + math.erf(mean / math.sqrt(2 * var / n))) if var > 0 else 0.5
        print(f"{label:<28} {n:>5} {old:>6.1f} {new:>6.1f} {f'{mean:+.3f} ± {half:.3f}':>15}"
              f" {100 * los:>5.1f}%")

    print(f"\n{'game for game against ' + base:<28}")
    print(f"{'file':<28} {'games':>5} {'base':>6} {'this':>6} {'a game':>15} {'LOS':>6}")
    every, by_rule, unmatched = [], {}, 0
    for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
        other = os.path.join(base, os.path.basename(path))
        if not os.path.exists(other):
            continue
        before = {g["game"]: g for _, g in records([other])}
        pairs = []
        for _, g in records([path]):
            b = before.get(g["game"])
            if b is None or (b["opening"], b["black"]) != (g["opening"], g["black"]):
                unmatched += 1
                continue
            pairs.append((wuzi_points(b), wuzi_points(g)))
            by_rule.setdefault(g["rule"], []).append(pairs[-1])
        if pairs:
            line(os.path.basename(path)[:-len(".jsonl")], pairs)
            every.extend(pairs)
    if not every:
        print(f"gauntlet: no game of {out}/ has its twin in {base}/", file=sys.stderr)
        return
    if len(by_rule) > 1:
        for rule, pairs in sorted(by_rule.items()):
            line(f"all {rule}", pairs)
    line("all", every)
    if unmatched:
        print(f"{unmatched} games had no twin (another opening or colours) and were left out")


def main():
    opts, opponents = parse_args(sys.argv[1:])
    if not opts["table"]:
        if opts["wuzi"] is None:
            subprocess.check_call(["cargo", "build", "--release", "--bin", "pbrain-wuzi",
                                   "--bin", "wuzi-match"], cwd=ROOT)
            opts["wuzi"] = os.path.join(ROOT, "target", "release", "pbrain-wuzi")
        else:
            subprocess.check_call(["cargo", "build", "--release", "--bin", "wuzi-match"],
                                  cwd=ROOT)
        os.makedirs(opts["out"], exist_ok=True)
        # A copy, so that a rebuild while the games run does not change the player.
        copy = os.path.join(opts["out"], f"pbrain-wuzi-{opts['seed']}")
        shutil.copy2(opts["wuzi"], copy)
        opts["wuzi"] = copy
        for name, command, rules in opponents:
            for rule in opts["rules"]:
                if rules is None or rule in rules:
                    play(opts, name, command, rule)
    table(opts["out"])
    if opts["against"] is not None:
        compare(opts["out"], opts["against"])


if __name__ == "__main__":
    main()
