#!/usr/bin/env python3
"""A pbrain (Gomocup protocol) adapter for an engine from outside this repository: the
ThreatSpace player of the `gomoku` 0.1.0 package on PyPI (by Allen Zhang), a threat-space
search after Allis: it plays forced fives and flex fours, follows a winning threat sequence
when it finds one, limits itself to the defences when the opponent has one, and otherwise
scores moves by the threats they make and keep.

The packages are installed by pip, not copied here:

    pip install --target scripts/.threatspace gomoku==0.1.0 gmpy2
    pip install --target scripts/.renju renju==0.1.0        # for rule 4 only
    target/release/wuzi-match --engine cmd=target/release/pbrain-wuzi name=wuzi \\
        --engine "cmd=python3 scripts/pbrain-threatspace.py" name=threatspace \\
        --rule 4 --size 15 --tc 10000/0 --openings tests/data/balanced_renju_15.txt \\
        --games 20

Set THREATSPACE_LIB and RENJU_LIB to use other install folders. The engine knows 15x15 only
(it answers ERROR to any other START) and INFO rule 0 (freestyle), 1 (standard: exactly five
wins) and 4 (renju); to another rule it answers ERROR instead of its next move. ThreatSpace
plays freestyle whatever the rule: under standard every move it makes is still legal, under
renju black's are not. Its moves are checked here:
- a move onto a taken point (it can replay a stale winning line) is replaced by a
  recomputation, and failing that by a random free point;
- under renju, a black move onto a forbidden point (double three, double four, overline, as
  judged by the checker of the `renju` 0.1.0 package; scripts/check-renju-forbid.py tests it)
  is replaced by a recomputation in which ThreatSpace sees only the other points: its forced
  moves, its winning line and its scored candidates skip forbidden points. Failing that, a
  random free point that is not forbidden.
So the adapter itself never loses a game by an illegal move or a foul. Each replaced move is
counted on stderr (`threatspace: replaced ...`), which wuzi-match shows with --engine-stderr.
"""
import os
import random
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.environ.get("THREATSPACE_LIB", os.path.join(HERE, ".threatspace"))
RENJU_LIB = os.environ.get("RENJU_LIB", os.path.join(HERE, ".renju"))
sys.path.insert(0, LIB)
PROTOCOL_OUT = sys.stdout
# The package prints its reasoning to stdout; only protocol replies may reach it.
sys.stdout = sys.stderr
# gomoku.player imports a web front end this adapter does not use.
sys.modules.setdefault("flask_socketio", types.SimpleNamespace(SocketIO=None, emit=None, join_room=None))

import gomoku.player.threat_space as threat_space  # noqa: E402
from gomoku.board import Board  # noqa: E402

threat_space.VERBOSE = 0
SIZE = 15
FREESTYLE, STANDARD, RENJU = 0, 1, 4
RULES = (FREESTYLE, STANDARD, RENJU)
# Moves of ThreatSpace replaced by the adapter, by cause, over this process's life.
REPLACED = {"occupied": 0, "forbidden": 0, "random": 0}


def replaced(cause, detail):
    REPLACED[cause] += 1
    counts = ", ".join(f"{k} {v}" for k, v in REPLACED.items())
    print(f"threatspace: replaced ({cause}): {detail} [so far: {counts}]", file=sys.stderr)


def get_foul_type(board, x, y):
    # Imported on first use: only renju needs the `renju` package.
    if RENJU_LIB not in sys.path:
        sys.path.insert(0, RENJU_LIB)
    from renju.check_forbid import get_foul_type as check

    return check(board, x, y)


class LegalThreatSpace(threat_space.ThreatSpace):
    """ThreatSpace that, while `legal` is set, sees only the points `legal` accepts (package
    indices, row * 15 + col) at the root of its move choice."""

    def __init__(self):
        super().__init__()
        self.legal = None
        self.root = None

    def valid_moves(self, b):
        moves = super().valid_moves(b)
        if self.legal is not None and b is self.root:
            moves = [m for m in moves if self.legal(m)]
        return moves

    def score_moves(self, b, limit_moves=None):
        if self.legal is not None and b is self.root and limit_moves:
            limit_moves = {m for m in limit_moves if self.legal(m)}
        return super().score_moves(b, limit_moves=limit_moves)

    def forced_moves(self, b):
        if self.legal is None or b is not self.root:
            return super().forced_moves(b)
        # The package's order: make five, block five, make a straight four.
        for threats in (
            threat_space.get_fives(b),
            threat_space.get_fives(b, current=False),
            [t for t in threat_space.get_fours(b) if t.type == threat_space.ThreatType.STRAIGHT_FOUR],
        ):
            for t in threats:
                if self.legal(t.gain_square):
                    return t.gain_square
        return None

    def make_move(self, b):
        self.root = b
        if self.legal is not None and self.winning_line and not self.legal(self.winning_line[-1].gain_square):
            self.winning_line = []
        return super().make_move(b)


_search = threat_space.threat_space_search
_player = []  # the LegalThreatSpace being asked, for the search filter below


def threat_space_search(b, current=True, *args, **kwargs):
    """The package's search; while a filter is on, the root's own winning lines must start on a
    legal point."""
    seqs = _search(b, current, *args, **kwargs)
    player = _player[0] if _player else None
    if seqs and current and player is not None and player.legal is not None and b is player.root:
        seqs = [seq for seq in seqs if seq and player.legal(seq[0].gain_square)]
    return seqs


threat_space.threat_space_search = threat_space_search


def say(line):
    PROTOCOL_OUT.write(line + "\n")
    PROTOCOL_OUT.flush()


class Game:
    def __init__(self, rule=FREESTYLE, black=(), white=()):
        self.rule = rule
        self.black = list(black)  # (x, y) in protocol coordinates
        self.white = list(white)
        self.player = LegalThreatSpace()
        _player[:] = [self.player]

    def occupied(self):
        return set(self.black) | set(self.white)

    def play(self, x, y):
        (self.black if len(self.black) == len(self.white) else self.white).append((x, y))

    def board(self):
        # The package's player 1 moves first; its squares are (row, col) = (y, x).
        b = Board()
        b.moves(p1=[(y, x) for x, y in self.black], p2=[(y, x) for x, y in self.white])
        b.turns = len(self.black) + len(self.white)
        return b

    def black_to_move(self):
        return len(self.black) == len(self.white)

    def forbidden_test(self):
        """A test (x, y) -> bool of black's renju fouls in this position, or None when the side
        to move has none (another rule, or white to move)."""
        if self.rule != RENJU or not self.black_to_move():
            return None
        grid = [[0] * SIZE for _ in range(SIZE)]  # the checker's board[x][y]: 1 black, 2 white
        for x, y in self.black:
            grid[x][y] = 1
        for x, y in self.white:
            grid[x][y] = 2
        seen = {}

        def forbidden(x, y):
            if (x, y) not in seen:
                seen[(x, y)] = get_foul_type(grid, x, y) != 0
            return seen[(x, y)]

        return forbidden

    def engine_move(self):
        try:
            m = self.player.make_move(self.board())
        except Exception as err:  # the package's own failure: fall back below
            print(f"threatspace: {err!r}", file=sys.stderr)
            return None
        if isinstance(m, tuple):
            r, c = m
        elif isinstance(m, int):
            r, c = divmod(m, SIZE)
        else:
            return None
        if 0 <= r < SIZE and 0 <= c < SIZE and (c, r) not in self.occupied():
            return c, r
        return None

    def think(self):
        move = self.engine_move()
        if move is None:
            replaced("occupied", "no free point chosen; recomputing without the winning line")
            self.player.winning_line = []
            move = self.engine_move()
        forbidden = self.forbidden_test()
        if forbidden is not None and move is not None and forbidden(*move):
            replaced("forbidden", f"{move[0]},{move[1]} is forbidden for black; recomputing")
            taken = self.occupied()

            def legal(index):
                r, c = divmod(index, SIZE)
                return 0 <= r < SIZE and (c, r) not in taken and not forbidden(c, r)

            self.player.winning_line = []
            self.player.legal = legal
            try:
                move = self.engine_move()
            finally:
                self.player.legal = None
            if move is not None and forbidden(*move):
                move = None
        if move is None:
            free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in self.occupied()]
            if forbidden is not None:
                free = [p for p in free if not forbidden(*p)] or free
            move = random.choice(free)
            replaced("random", f"random point {move[0]},{move[1]}")
        self.play(*move)
        say(f"{move[0]},{move[1]}")


def main():
    game = None
    rule = FREESTYLE
    board_lines = None
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        words = line.upper().split()
        if board_lines is not None:
            if words[0] == "DONE" and rule not in RULES:
                board_lines = None
                say(f"ERROR rule {rule} is not supported (0, 1 and 4 are)")
            elif words[0] == "DONE":
                own = [p for p, who in board_lines if who == 1]
                opp = [p for p, who in board_lines if who != 1]
                # Equal counts: the side to move is black.
                game = Game(rule, own, opp) if len(own) == len(opp) else Game(rule, opp, own)
                board_lines = None
                game.think()
            else:
                try:
                    x, y, who = (int(v) for v in line.split(","))
                    board_lines.append(((x, y), who))
                except ValueError:
                    say(f"ERROR bad BOARD line {line}")
            continue
        cmd = words[0]
        if cmd == "START":
            if len(words) == 2 and words[1] == str(SIZE):
                game = Game(rule)
                say("OK")
            else:
                say(f"ERROR only {SIZE}x{SIZE} boards")
        elif cmd == "RESTART":
            game = Game(rule)
            say("OK")
        elif cmd in ("BEGIN", "TURN") and rule not in RULES:
            say(f"ERROR rule {rule} is not supported (0, 1 and 4 are)")
        elif cmd == "BEGIN" and game is not None:
            game.think()
        elif cmd == "TURN" and game is not None and len(words) == 2:
            try:
                x, y = (int(v) for v in words[1].split(","))
            except ValueError:
                say(f"ERROR bad TURN {line}")
                continue
            game.play(x, y)
            game.think()
        elif cmd == "BOARD":
            board_lines = []
        elif cmd == "INFO":
            # No reply to INFO, ever: a wrong rule is reported in place of the next move.
            if len(words) == 3 and words[1] == "RULE":
                try:
                    rule = int(words[2])
                except ValueError:
                    rule = words[2]
                if game is not None:
                    game.rule = rule
        elif cmd == "ABOUT":
            say('name="threatspace", version="gomoku 0.1.0 (PyPI)", author="Allen Zhang"')
        elif cmd == "END":
            return
        else:
            say(f"UNKNOWN {line}")


if __name__ == "__main__":
    main()
