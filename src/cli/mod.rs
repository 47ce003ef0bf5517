//! The commands for people: `analyze` (a position in, the engine's answer out) and `play` (a
//! game against the engine in a terminal, or over a pipe), and the binary's help.

pub mod analyze;
mod line;
mod options;
pub mod play;
mod position_args;
mod view;

/// Command-line help; printed by `pbrain-wuzi help`.
pub const USAGE: &str = "\
usage: pbrain-wuzi [protocol | one-ply | analyze ... | play ... | bench [depth [threads]] | version | help]
  (no argument)  speak the Gomocup pbrain protocol on stdin/stdout
  one-ply        the same, but moves come from the one-ply threat scorer (a match baseline)
  analyze [--rule R] [--size N] [--time MS | --depth D | --nodes N] [--nbest K] [--json] POSITION
                 search a position: the best move, its score (win or loss in N plies when
                 proven, with the whole winning line), the principal variation, depth, nodes
                 and time; --nbest K the K best moves; --json one JSON object (best, best_xy,
                 score, mate, pv, depth, nodes, time_ms, and nbest when asked). 1000 ms unless
                 a limit is given.
                 POSITION is one of:
                   moves, black first: h8 i9 j7 (or 7,7 8,8 9,6), refereed move by move
                   --file F          a .psq or .sgf game (as wuzi-match and play save them)
                   --black h8 j9 ... --white i9 ... [--to-move black|white]
                                     stones set up as they stand, not refereed
                 --ply N keeps the first N moves of a move list or file.
  play [--rule R] [--size N] [--time MS] [--depth D | --nodes N] [--engine-first] [--seed S]
                 play wuzi in the terminal, or over a pipe; type help there for the commands.
                 wuzi thinks 1000 ms a move unless --time says otherwise; its opening moves
                 vary from game to game unless --seed S fixes its choices among equal moves
                 (games then repeat exactly when --depth or --nodes ends each search first)
  bench [depth [threads]]
                 search the fixed bench positions; the last line is the node count signature
                 (of one thread; more threads give the time-to-depth speedup instead)
  version        print the version
Points: h8 is the column's letter from a and the row's number from 1 at the top (h8 = 7,7,
the protocol's x,y from 0). Rules (R): freestyle or 0 (the default), standard or 1, renju or
4, caro or 8, caro-exact or 9. Board size (N): 15 by default, or WxH.
Errors go to stderr with exit status 2.
Logging goes to stderr and is off unless RUST_LOG is set (e.g. RUST_LOG=debug).
WUZI_SEED=N fixes the seed that picks among equal opening moves (replayable self-play).";
