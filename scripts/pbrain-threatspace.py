#!/usr/bin/env python3
"""A pbrain (Gomocup protocol) adapter for an engine from outside this repository: the
ThreatSpace player of the `gomoku` 0.1.0 package on PyPI (by Allen Zhang), a threat-space
search after Allis: it plays forced fives and flex fours, follows a winning threat sequence
when it finds one, limits itself to the defences when the opponent has one, and otherwise
scores moves by the threats they make and keep.

The package is installed by pip, not copied here:

    pip install --target scripts/.threatspace gomoku==0.1.0 gmpy2
    target/release/wuzi-match --engine cmd=target/release/pbrain-wuzi name=wuzi \\
        --engine "cmd=python3 scripts/pbrain-threatspace.py" name=threatspace \\
        --rule 0 --size 15 --tc 5000/0 --openings tests/data/balanced_freestyle_15.txt \\
        --games 20

Set THREATSPACE_LIB to use another install folder. The engine knows 15x15 freestyle only
(it answers ERROR to any other START). Its moves are checked here: a move onto a taken
point (it can replay a stale winning line) is replaced by a recomputation, and failing
that by a random free point, so the adapter itself never loses a game by an illegal move.
"""
import os
import random
import sys
import types

LIB = os.environ.get(
    "THREATSPACE_LIB", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".threatspace")
)
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


def say(line):
    PROTOCOL_OUT.write(line + "\n")
    PROTOCOL_OUT.flush()


class Game:
    def __init__(self, black=(), white=()):
        self.black = list(black)  # (x, y) in protocol coordinates
        self.white = list(white)
        self.player = threat_space.ThreatSpace()

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
            self.player.winning_line = []
            move = self.engine_move()
        if move is None:
            free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in self.occupied()]
            move = random.choice(free)
        self.play(*move)
        say(f"{move[0]},{move[1]}")


def main():
    game = None
    board_lines = None
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        words = line.upper().split()
        if board_lines is not None:
            if words[0] == "DONE":
                own = [p for p, who in board_lines if who == 1]
                opp = [p for p, who in board_lines if who != 1]
                # Equal counts: the side to move is black.
                game = Game(own, opp) if len(own) == len(opp) else Game(opp, own)
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
                game = Game()
                say("OK")
            else:
                say(f"ERROR only {SIZE}x{SIZE} boards")
        elif cmd == "RESTART":
            game = Game()
            say("OK")
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
            pass
        elif cmd == "ABOUT":
            say('name="threatspace", version="gomoku 0.1.0 (PyPI)", author="Allen Zhang"')
        elif cmd == "END":
            return
        else:
            say(f"UNKNOWN {line}")


if __name__ == "__main__":
    main()
