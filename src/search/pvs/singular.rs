//! Singular extensions: the table's move is searched a ply deeper when the node hangs on it
//! (every other move stays well below its score), and a ply shallower when another move also
//! reaches the window and the table's score already cuts off.

use super::{Control, Worker};
use crate::position::Position;
use crate::search::score::WIN_THRESHOLD;
use crate::search::time::Clock;
use crate::search::tt::{Bound, TtEntry};
use crate::types::Pos;

/// Fewest plies from the horizon at which the table's move may be extended as singular (see
/// [`Worker::node`]), under the rules that have singular extensions
/// ([`RuleSettings::singular`], which gives the matches). From 5 plies instead, freestyle,
/// 0.2 s/move: +31.4 +/- 32.5 and -4.3 +/- 29.9 Elo (400 games each; about +13 over the 800),
/// later +0.9 +/- 29.3, +12.2 +/- 30.1 and -22.6 +/- 30.9 (400 games each; +2.9 +/- 13.6
/// over the 2,000, LOS 66 %); on 20x20, +9.3 +/- 36.4, +9.3 +/- 38.1, +9.3 +/- 39.2 and
/// +27.9 +/- 37.0 (300 games each; +14.1 +/- 18.8 over the 1,200, LOS 93 %). All 3,200 games:
/// +6.8 +/- 11.0 (LOS 89 %), not adopted. Once the killers were dropped, a fifth run on 20x20
/// scored -4.6 +/- 33.5 (300 games; +9.6 +/- 16.4 over the 1,500 there, LOS 88 %): not adopted
/// for the larger boards either; nor once freestyle ordered without history there: +2.3 +/-
/// 35.0 and -41.9 +/- 36.9 (300 games each; +1.3 +/- 13.8 over the 2,100 on 20x20). In renju:
/// -16.5 +/- 30.5 (400 games). From 7 plies, at 0.2 s/move (400 games each): freestyle +25.2
/// +/- 31.5 and -8.7 +/- 32.1, renju -34.9 +/- 30.3, standard -9.6 +/- 31.5; -7.5 +/- 15.7 over
/// the 1,600 games (freestyle alone +8.6 +/- 22.5): not adopted. From 5 plies again once the
/// test also gave the table's move a ply less ([`tt_move_extension`]): +9.6 +/- 30.9
/// (freestyle, 400 games; bench nodes +29 %), not adopted.
///
/// [`RuleSettings::singular`]: crate::search::rules::RuleSettings::singular
pub(super) const SINGULAR_DEPTH: i32 = 6;
/// Margin per ply of depth below the table's score that every other move must stay under for
/// the table's move to be singular. Scores are in the evaluation's units, where an open three
/// on a line weighs 43. Multi-cut on top (a non-PV node whose search without the table's move
/// still reaches the test's window, and that window at or above beta, returning it) scored
/// -13.9 +/- 28.6 Elo in freestyle (0.2 s/move, 400 games): not adopted. Nor, in the same
/// matches, two plies of extension at a non-PV node where the other moves stay 30 points
/// further below, at most four on a path (+17.4 +/- 31.5), or that with the shortening of
/// [`tt_move_extension`] (-10.4 +/- 31.9). A margin of 2 per ply: -7.8 +/- 29.9, and of 6:
/// -3.5 +/- 30.8 (same conditions, 400 games each), and 2 on 20x20: -2.3 +/- 36.2 (300
/// games), so 4 stays.
const SINGULAR_MARGIN: i32 = 4;

impl Worker {
    /// The table's move and the plies its search gains or loses ([`tt_move_extension`]), when
    /// the entry (its score in the node's terms) is a lower bound or exact score from at most
    /// three plies shallower and no proven result: the node is searched half as deep without
    /// that move, against a window [`SINGULAR_MARGIN`] per ply under the entry's score.
    /// Entries from up to four plies shallower scored +6.1 +/- 30.1 Elo (freestyle,
    /// 0.2 s/move, 400 games; bench nodes +2.6 %): not adopted.
    pub(super) fn singular_test<C: Clock>(
        &mut self,
        pos: &mut Position,
        entry: TtEntry,
        depth: i32,
        beta: i32,
        ply: usize,
        ctl: &Control<C>,
    ) -> Option<(Pos, i32)> {
        let m = entry.best?;
        if entry.depth < depth - 3
            || entry.bound == Bound::Upper
            || entry.score.abs() >= WIN_THRESHOLD
        {
            return None;
        }
        let singular_beta = entry.score - SINGULAR_MARGIN * depth;
        let s = self.node(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            ctl,
            Some(m),
        );
        if self.aborted {
            return None;
        }
        match tt_move_extension(s, singular_beta, entry.score, beta) {
            0 => None,
            extension => Some((m, extension)),
        }
    }
}

/// Plies added to the search of the table's move from the singular test: `test` is the best
/// the other moves scored in it (searched half as deep against a null window at
/// `singular_beta`), `tt_score` the table's score for the node. One more when every other move
/// stays below the window (the node hangs on the table's move); one less when another move
/// reaches it and the table's score is at or above `beta` (the node has other ways to cut off,
/// so the table's move need not be read so deeply); none otherwise.
///
/// The ply less, against the engine without it, at 0.2 s/move on balanced openings (400 games
/// each): freestyle +37.5 +/- 30.7 and +35.7 +/- 28.6 Elo (and on earlier engines +16.5 +/-
/// 31.1, +7.8 +/- 32.2 and +1.7 +/- 32.3; +20.9 +/- 13.8 over the 2,000 games, LOS 99.9 %),
/// renju +13.9 +/- 30.2, standard +32.2 +/- 30.6, caro +9.6 +/- 33.3, freestyle on 20x20 -4.6
/// +/- 35.3 (300 games). The bench reaches its depths in 14 % fewer nodes. Once adopted:
/// freestyle at 1 s/move, +74.1 +/- 67.1 (100 games); freestyle on 20x20 again, +25.5 +/- 31.8
/// (300 games; +12.0 +/- 23.6 over the 600 there, +22.9 +/- 11.8 over all 2,600 games at
/// 0.2 s/move); on a match clock, freestyle at 1 s/move and 6 s/game +54.9 +/- 35.3 (300
/// games), and freestyle on 20x20 at 0.25 s/move and 6 s/game (Gomocup's fast game scaled
/// down) +32.5 +/- 45.5 (150 games).
///
/// Not adopted, each against this rule (freestyle, 0.2 s/move, 400 games): two plies less at a
/// non-PV node (Stockfish's larger step), +6.9 +/- 30.4 and -2.6 +/- 28.5 (+1.8 +/- 20.8 over
/// the 800), and on a match clock, 1 s/move and 6 s/game, -11.6 +/- 36.0 (300 games); a ply
/// less also when the other moves reached the table's score itself in the test, -4.3 +/- 32.6;
/// a ply less also at an expected cut node (a non-PV node reached by a null-window search, the
/// expectation alternating down the tree) where the test changes nothing, -12.2 +/- 29.9.
pub(super) fn tt_move_extension(test: i32, singular_beta: i32, tt_score: i32, beta: i32) -> i32 {
    if test < singular_beta {
        1
    } else if tt_score >= beta {
        -1
    } else {
        0
    }
}
