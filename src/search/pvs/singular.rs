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
/// ([`RuleSettings::singular`], which gives the matches). Not adopted: E-203, E-229, E-241,
/// E-249, E-283 (from 5 plies), E-260 (from 7).
///
/// [`RuleSettings::singular`]: crate::search::rules::RuleSettings::singular
pub(super) const SINGULAR_DEPTH: i32 = 6;
/// Margin per ply of depth below the table's score that every other move must stay under for
/// the table's move to be singular. Scores are in the evaluation's units, where an open three
/// on a line weighs 43. Not adopted: E-115, E-117, E-200 (margins 2 and 6), E-108
/// (multi-cut), E-110, E-111 (a double extension).
const SINGULAR_MARGIN: i32 = 4;

impl Worker {
    /// The table's move and the plies its search gains or loses ([`tt_move_extension`]), when
    /// the entry (its score in the node's terms) is a lower bound or exact score from at most
    /// three plies shallower and no proven result: the node is searched half as deep without
    /// that move, against a window [`SINGULAR_MARGIN`] per ply under the entry's score.
    /// Not adopted: E-284 (entries up to four plies shallower).
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
/// The ply less makes the bench reach its depths in 14 % fewer nodes. Settled by matches:
/// E-265..E-272 (E-109 on earlier engines); not adopted: E-273, E-281 (two plies less at
/// non-PV nodes), E-274, E-275 (a ply less in more cases).
pub(super) fn tt_move_extension(test: i32, singular_beta: i32, tt_score: i32, beta: i32) -> i32 {
    if test < singular_beta {
        1
    } else if tt_score >= beta {
        -1
    } else {
        0
    }
}
