#!/usr/bin/env python3
"""Where wuzi's lost games were lost: the move after which the winner's own score turned
decisive, and what kind of mistake it was.

    scripts/losses.py [--opponent NAME] [--decisive N] [--soon PLIES] [--positions OUT] JSONL...

Reads wuzi-match records (--jsonl) of games between `wuzi` and an engine that reports its
score in MESSAGE lines (Rapfi's `... | Eval -222 | ...`, `Eval +M13`; wuzi's own
`depth D score S ...`). For each game wuzi lost, the turning point is the first of the
winner's moves from which its reported score stays at or above --decisive (default 300) to
the end; wuzi's move just before it is the losing move. Each loss is put in one class:

  missed-win   the winner's score before the losing move was at or below -decisive, or
               wuzi's own score claimed a win: wuzi had the game and let it go;
  attack       the winner announced a forced win (a mate score) within --soon plies
               (default 8) of the turning point: an attack wuzi did not see coming;
  positional   the rest: the winner's score grew without an immediate forced win.

Prints one line per loss and the counts per class. --positions OUT writes one JSON line per
loss: the stones before the losing move (black first, "x,y"), the rule, wuzi's move and
score there, the winner's reply, its score after and its mate announcement, for a test set.
"""
import json
import re
import sys

EVAL = re.compile(r"\bEval ([+-]?M?\*?\d*)")


def records(paths):
    """Every game of the wuzi-match --jsonl files `paths`, as (path, game), in file order."""
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    yield path, json.loads(line)


def parse_outside_score(text):
    """Rapfi-style `Eval 123`, `Eval +M13`, `Eval -M8`: (value, mate plies or None)."""
    m = EVAL.search(text)
    if not m:
        return None
    word = m.group(1)
    if "M" in word:
        plies = word.split("M", 1)[1].strip("*")
        plies = int(plies) if plies else 0
        return (30000 if word.startswith("+") else -30000, plies)
    try:
        return (int(word), None)
    except ValueError:
        return None


def parse_wuzi_score(text):
    words = text.split()
    if words[:1] == ["MESSAGE"]:
        words = words[1:]
        text = text.split(None, 1)[1] if len(words) else ""

    if len(words) >= 4 and words[0] == "depth" and words[2] == "score":
        s = words[3]
        if s.startswith("win"):
            return (30000, int(s[3:] or 0))
        if s.startswith("loss"):
            return (-30000, int(s[4:] or 0))
        try:
            return (int(s), None)
        except ValueError:
            return None
    if text.startswith("vcf win") or text.startswith("vct win"):
        return (30000, None)
    return None


def scores_by_ply(game, colour, parser):
    """The last score each ply's mover of `colour` reported, keyed by stones on the board."""
    out = {}
    for m in game.get("messages", []):
        if m.get("color") != colour:
            continue
        s = parser(m.get("text", ""))
        if s is not None:
            out[m["ply"]] = s
    return out


def analyse(game, opponent, decisive, soon):
    wuzi_colour = "black" if game["black"] == "wuzi" else "white"
    opp_colour = "white" if wuzi_colour == "black" else "black"
    if game["black"] != opponent and game["white"] != opponent:
        return None
    if game.get("winner") != opp_colour:
        return None
    opp = scores_by_ply(game, opp_colour, parse_outside_score)
    own = scores_by_ply(game, wuzi_colour, parse_wuzi_score)
    if not opp:
        return {"class": "no-scores"}
    plies = sorted(opp)
    turning = None
    for p in reversed(plies):
        if opp[p][0] >= decisive:
            turning = p
        else:
            break
    if turning is None:
        return {"class": "no-turn"}
    losing_ply = turning - 1  # stones on the board when wuzi chose its losing move
    before = [p for p in plies if p < turning]
    opp_before = opp[before[-1]][0] if before else 0
    own_at = own.get(losing_ply)
    mate_at = next((p for p in plies if p >= turning and opp[p][1] is not None), None)
    if opp_before <= -decisive or (own_at and own_at[0] >= 30000):
        kind = "missed-win"
    elif mate_at is not None and mate_at - turning <= soon:
        kind = "attack"
    else:
        kind = "positional"
    stones = game["opening"] + game["moves"]
    first_move_ply = len(game["opening"])
    index = losing_ply - first_move_ply
    return {
        "class": kind,
        "game": game["game"],
        "rule": game["rule"],
        "size": game["width"],
        "wuzi": wuzi_colour,
        "losing_ply": losing_ply,
        "moves_after_opening": index,
        "stones": stones[:losing_ply],
        "wuzi_move": stones[losing_ply] if losing_ply < len(stones) else None,
        "wuzi_score": own_at[0] if own_at else None,
        "reply": stones[turning] if turning < len(stones) else None,
        "opp_before": opp_before,
        "opp_after": opp[turning][0],
        "opp_mate_ply": mate_at,
        "opp_mate_in": opp[mate_at][1] if mate_at is not None else None,
        "end_ply": len(stones),
    }


def main(argv):
    opponent, decisive, soon, out, files = None, 300, 8, None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a in ("--opponent", "--decisive", "--soon", "--positions"):
            if i + 1 >= len(argv):
                print(f"losses: {a} needs a value", file=sys.stderr)
                return 2
            v = argv[i + 1]
            i += 2
            try:
                if a == "--opponent":
                    opponent = v
                elif a == "--decisive":
                    decisive = int(v)
                elif a == "--soon":
                    soon = int(v)
                else:
                    out = v
            except ValueError:
                print(f"losses: {a} takes a whole number, not {v!r}", file=sys.stderr)
                return 2
            continue
        files.append(a)
        i += 1
    if not files:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    results = []
    for path, game in records(files):
        name = opponent or (game["white"] if game["black"] == "wuzi" else game["black"])
        r = analyse(game, name, decisive, soon)
        if r is not None:
            r["file"] = path
            results.append(r)
    counts = {}
    for r in results:
        counts[r["class"]] = counts.get(r["class"], 0) + 1
        if "losing_ply" not in r:
            print(f"{r['file']}: {r['class']}")
            continue
        mate = f"mate {r['opp_mate_in']} at ply {r['opp_mate_ply']}" if r["opp_mate_ply"] else "no mate"
        print(f"{r['file']} game {r['game']} {r['rule']} wuzi={r['wuzi']}: losing move "
              f"{r['wuzi_move']} at ply {r['losing_ply']} (move {r['moves_after_opening'] + 1} "
              f"after the opening), wuzi said {r['wuzi_score']}, winner {r['opp_before']} -> "
              f"{r['opp_after']}, {mate}, game ended at ply {r['end_ply']}: {r['class']}")
    print("losses:", len(results), " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    if out:
        with open(out, "w") as f:
            for r in results:
                if "losing_ply" in r:
                    f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
