#!/usr/bin/env python3
"""Games for fitting the evaluation: batches of fast games, resumable, reproducible from a seed.

    scripts/datagen.py [options] [NAME=COMMAND[@RULE,RULE...] ...]

    e.g. nice scripts/datagen.py --batches 200 --tc 100/0 self \\
             rapfi=/opt/engines/pbrain-rapfi pentazen=/opt/engines/pbrain-pentazen@freestyle,renju

Batch i (0, 1, ...) plays --games games of wuzi against one opponent under one rule, the
opponents and rules taken in turn (i modulo their count), from the balanced openings with
random order and symmetry under seed SEED+i. `self` is wuzi (or the --first engine) against
a copy of itself; give each --first its own --out. Each batch is written to
DIR/batch-RULE-NAME-i.jsonl through a temporary file, so a batch that is there is complete:
running the command again plays only the batches that are missing (a batch that fails, e.g.
an engine too slow to start, is left for then; five in a row stop it). The records keep
every move, the result and the engines' MESSAGE lines (wuzi's and Rapfi's give their search
score), which is what the evaluation fit reads.

Options (defaults in brackets):
  --rules R,R     [freestyle,standard,renju]
  --batches N     batches to have in DIR when done [100]
  --games N       games per batch [20]
  --tc T/M        time control in ms [100/0]
  --seed S        base seed [1]
  --concurrency N games at a time [2]
  --wuzi PATH     the wuzi binary [target/release/pbrain-wuzi, built first]
  --first N=CMD   another engine in wuzi's place, e.g. rapfi=/opt/engines/pbrain-rapfi
                  self for positions from its self-play, scored on every move where it
                  prints its evaluation (Rapfi does) [wuzi]
  --out DIR       [data/games]
  --runner-args A more wuzi-match options, one string (e.g. "--tolerance-ms 3000
                  --max-memory 67108864" for engines slow to start or to size their tables)
  --only NAME[@RULE,RULE...]
                  play only the batches against NAME (under those rules), numbered as the
                  whole schedule numbers them [all]
  --from N        leave out the batches before batch N [0]

A quick screen of a change: replay another folder's batches against one engine with the new
build. With the first run's opponents, rules, seed and games, each batch is numbered the same
and has the same openings, colours and seed; then pair the games:
    scripts/datagen.py --batches 576 --from 408 --only rapfi@freestyle,renju --tc 80/0 \
        --seed 6001 --wuzi NEW --out /tmp/new rapfi=... self pentazen=...@freestyle,renju
    scripts/gauntlet.py --table --out /tmp/new --against data/set2
"""
import os
import shutil
import subprocess
import sys

from gauntlet import RULES, parse_opponent, split_options

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Batches that may fail in a row (left for a later run) before the run gives up.
MAX_FAILURES = 5


def fail(message):
    print(f"datagen: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    opts = {"rules": ["freestyle", "standard", "renju"], "batches": 100, "games": 20,
            "tc": "100/0", "seed": 1, "concurrency": 2, "wuzi": None, "out": "data/games",
            "runner-args": "", "first": None, "only": None, "from": 0}
    opponents = []
    items = split_options(argv)
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if item in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if item.startswith("--"):
            if i >= len(items):
                fail(f"{item} needs a value")
            key, value = item[2:], items[i]
            i += 1
            if key == "rules":
                opts["rules"] = value.split(",")
            elif key in ("batches", "games", "seed", "concurrency", "from"):
                try:
                    opts[key] = int(value)
                except ValueError:
                    fail(f"{item} takes a whole number, not {value!r}")
            elif key in ("tc", "wuzi", "out", "runner-args", "only"):
                opts[key] = value
            elif key == "first":
                parsed = parse_opponent(value)
                if parsed is None or parsed[2] is not None:
                    fail(f"--first takes NAME=COMMAND (no @RULES: it plays every batch), "
                         f"not {value!r}")
                opts["first"] = parsed[:2]
            else:
                fail(f"unknown option {item}")
            continue
        if item == "self":
            opponents.append(("self", None, None))
            continue
        opponent = parse_opponent(item)
        if opponent is None:
            fail(f"an opponent is self or NAME=COMMAND[@RULES], not {item!r}")
        opponents.append(opponent)
    for rule in opts["rules"]:
        if rule not in RULES:
            fail(f"unknown rule {rule!r}")
    if not opponents:
        opponents.append(("self", None, None))
    if opts["only"] is not None:
        name, _, rules = opts["only"].partition("@")
        rules = rules.split(",") if rules else opts["rules"]
        if name not in [n for n, _, _ in opponents]:
            fail(f"--only {name}: no opponent of that name")
        if any(rule not in RULES for rule in rules):
            fail(f"--only {opts['only']}: unknown rule")
        opts["only"] = (name, rules)
    return opts, opponents


def engine(command, name):
    """wuzi-match's arguments for an outside engine, run in its program's folder."""
    program = command.split()[0]
    return ["--engine", f"cmd={command}", f"name={name}",
            f"dir={os.path.dirname(os.path.abspath(program))}"]


def schedule(opts, opponents):
    """(opponent, rule) pairs in the order batches take them."""
    pairs = []
    for rule in opts["rules"]:
        for name, command, rules in opponents:
            if rules is None or rule in rules:
                pairs.append((name, command, rule))
    if not pairs:
        fail("no opponent plays any of the rules asked for")
    return pairs


def main():
    opts, opponents = parse_args(sys.argv[1:])
    if opts["wuzi"] is None:
        subprocess.check_call(["cargo", "build", "--release", "--bin", "pbrain-wuzi",
                               "--bin", "wuzi-match"], cwd=ROOT)
        opts["wuzi"] = os.path.join(ROOT, "target", "release", "pbrain-wuzi")
    else:
        subprocess.check_call(["cargo", "build", "--release", "--bin", "wuzi-match"], cwd=ROOT)
    os.makedirs(opts["out"], exist_ok=True)
    wuzi = os.path.join(opts["out"], "pbrain-wuzi")
    runner = os.path.join(opts["out"], "wuzi-match")
    # The player and the runner are fixed for the whole data set: later runs resume with the
    # same binaries, and rebuilding the checkout does not touch a running batch.
    if not os.path.exists(wuzi):
        shutil.copy2(opts["wuzi"], wuzi)
    if not os.path.exists(runner):
        shutil.copy2(os.path.join(ROOT, "target", "release", "wuzi-match"), runner)
    pairs = schedule(opts, opponents)
    if opts["first"] is None:
        first_name = "wuzi"
        first = ["--engine", f"cmd={wuzi}", "name=wuzi"]
        copy = ["--engine", f"cmd={wuzi}", "name=wuzi2"]
    else:
        first_name, command = opts["first"]
        first, copy = (engine(command, first_name), engine(command, first_name + "2"))
    failures = 0
    for i in range(opts["from"], opts["batches"]):
        name, command, rule = pairs[i % len(pairs)]
        if opts["only"] is not None:
            only_name, only_rules = opts["only"]
            if name != only_name or rule not in only_rules:
                continue
        path = os.path.join(opts["out"], f"batch-{rule}-{name}-{i}.jsonl")
        if os.path.exists(path):
            continue
        openings = os.path.join(ROOT, "tests", "data", f"balanced_{rule}_15.txt")
        opponent = copy if command is None else engine(command, name)
        partial = path + ".partial"
        if os.path.exists(partial):
            os.remove(partial)
        argv = [runner,
                *first, *opponent,
                "--rule", str(RULES[rule]), "--size", "15", "--tc", opts["tc"],
                "--openings", openings, "--random-order", "--symmetry",
                "--seed", str(opts["seed"] + i), "--games", str(opts["games"]),
                "--concurrency", str(opts["concurrency"]), "--skip-unparsable",
                "--quiet", "--report", "0", "--jsonl", partial, *opts["runner-args"].split()]
        print(f"== batch {i}: {first_name} vs {name}, {rule}", flush=True)
        status = subprocess.call(argv, stdout=subprocess.DEVNULL)
        if status != 0:
            # An engine slow to start under load stops a batch; a later run plays it again.
            failures += 1
            print(f"datagen: batch {i}: wuzi-match exited with status {status}", file=sys.stderr)
            if failures >= MAX_FAILURES:
                fail(f"{failures} batches in a row failed")
            continue
        failures = 0
        os.rename(partial, path)


if __name__ == "__main__":
    main()
