//! Move ordering in the tree: the table's move first, then the killers and the history term
//! on top of the generator's threat scores, each where the rule has it; and which moves count
//! as quiet (they teach the killers and history), late and reducible (the reductions and
//! late-move pruning take them by their place in this order).

use super::Worker;
use crate::board::pattern::Combo;
use crate::position::Position;
use crate::search::rules::RuleSettings;
use crate::types::{Color, Pos};

impl Worker {
    /// Scores the `moves` of a node `ply` plies from the root for their order: the table's
    /// move first, then the killers, then the threat score with the history term added.
    /// Clears the killers two plies down.
    #[inline]
    pub(super) fn order_moves(
        &mut self,
        moves: &mut [(Pos, i32)],
        tt_move: Option<Pos>,
        ply: usize,
        me: Color,
        settings: &RuleSettings,
    ) {
        // The history term is small next to the threat scores: a quiet cell scores a few
        // thousand here, and history stayed under 100 in the 0.2 s searches sampled. Entries
        // grow about 2.5 times a depth, so at long time controls the term weighs that much
        // more on its own (see [`HISTORY_CAP`]); heavier weights showed no harm nor gain.
        // Not adopted: E-045, E-180, E-222, E-234 (weights), E-046 (counter-move), E-195,
        // E-196, E-202 (follow-up history), E-253 (near the opponent's last move).
        //
        // Killers, under standard and caro only (see [`RuleSettings::killers`]): elsewhere
        // none are recorded, so the slots stay empty from the search's start.
        let use_killers = settings.killers;
        let killers = self.killers[ply];
        // The killers two plies down start empty for each node: left over from a cousin's
        // subtree, they ordered first moves that cut off somewhere else. Settled by matches:
        // E-211, E-214; not adopted: E-212 (a bonus instead of a place), E-221 (a third).
        if use_killers {
            self.killers[ply + 2] = [None; 2];
        }
        // History, under every rule but freestyle (see [`RuleSettings::history`]): there no
        // cutoff is credited and the term is not read.
        let use_history = settings.history;
        let history = &self.history[me.index()];
        for m in moves.iter_mut() {
            m.1 = if Some(m.0) == tt_move {
                i32::MAX
            } else if Some(m.0) == killers[0] {
                i32::MAX - 2
            } else if Some(m.0) == killers[1] {
                i32::MAX - 3
            } else if use_history {
                m.1 * 8 + history[m.0.index()] / 64
            } else {
                m.1 * 8
            };
        }
    }

    /// Credits the quiet move `m` of the side `me` that cut off at a node `ply` plies from the
    /// root and `depth` from the horizon: a killer of that ply and a history reward, where the
    /// rule keeps them.
    #[inline]
    pub(super) fn credit_cutoff(
        &mut self,
        m: Pos,
        ply: usize,
        me: Color,
        depth: i32,
        settings: &RuleSettings,
    ) {
        let use_killers = settings.killers;
        let use_history = settings.history;
        let k = &mut self.killers[ply];
        if use_killers && k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if use_history {
            reward(&mut self.history[me.index()][m.index()], depth);
        }
    }
}

/// Brings the best of `moves[i..]` (the higher score, then the lower point) to place `i`.
/// Selection instead of a full sort: most nodes cut off after a few moves.
#[inline]
pub(super) fn select_next(moves: &mut [(Pos, i32)], i: usize) {
    let mut pick = i;
    for j in i + 1..moves.len() {
        let (a, b) = (moves[j], moves[pick]);
        if a.1 > b.1 || (a.1 == b.1 && a.0 < b.0) {
            pick = j;
        }
    }
    moves.swap(i, pick);
}

/// Whether the `i`-th move (counted from 0) of a node `depth` plies from the horizon comes late
/// enough to be searched shallower first, if it is reducible: the fifth and later moves, from 3
/// plies. The tree's late-move reduction and the root's ([`RuleSettings::root_reduction`])
/// both take their moves by it.
#[inline]
pub(super) fn is_late(depth: i32, i: usize) -> bool {
    depth >= 3 && i >= 4
}

/// Plies less for the `i`-th move (counted from 0) of a node `depth` plies from the horizon,
/// when it is late ([`is_late`]) and reducible: `round(0.7 ln(depth) ln(i + 1))`, a ply less
/// at PV nodes, at least 1 and at most `depth - 2` (so the child keeps a ply). Deep nodes and
/// far-down moves are cut the most, where the classic one or two plies left the tree of
/// quiet moves nearly as wide as the full one. Settled by matches: E-391 (alone: E-389);
/// the formula in self-play alone, earlier: E-004.
#[inline]
pub(super) fn late_move_reduction(depth: i32, i: usize, pv_node: bool) -> i32 {
    let table = REDUCTIONS.get_or_init(|| {
        let mut table = [[0u8; REDUCTION_MOVES]; REDUCTION_DEPTHS];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate() {
                let plies = (REDUCTION_SCALE * (d as f64).ln() * ((n + 1) as f64).ln()).round();
                *r = plies.clamp(0.0, 255.0) as u8;
            }
        }
        table
    });
    let d = (depth.max(0) as usize).min(REDUCTION_DEPTHS - 1);
    let r = i32::from(table[d][i.min(REDUCTION_MOVES - 1)]) - i32::from(pv_node);
    r.clamp(1, (depth - 2).max(1))
}

/// Scale of [`late_move_reduction`]'s logarithms.
const REDUCTION_SCALE: f64 = 0.7;
/// Depths and move numbers [`late_move_reduction`] tabulates (larger ones read the last).
const REDUCTION_DEPTHS: usize = 64;
const REDUCTION_MOVES: usize = 256;
static REDUCTIONS: std::sync::OnceLock<[[u8; REDUCTION_MOVES]; REDUCTION_DEPTHS]> =
    std::sync::OnceLock::new();

/// Whether the side to move's move `m` is quiet (no four for either side: killers and history
/// learn from it) and reducible (quiet, and below `threat_floor` for the mover: it may be
/// pruned or reduced, see [`RuleSettings::own_threat_floor`]). One read of each side's shape
/// answers both.
#[inline]
pub(super) fn classify(pos: &Position, m: Pos, threat_floor: Combo) -> (bool, bool) {
    let me = pos.side_to_move();
    let mine = pos.shape(m, me).combo();
    let quiet = mine < Combo::Four && pos.shape(m, me.opponent()).combo() < Combo::Four;
    (quiet, quiet && mine < threat_floor)
}

/// Most a history entry holds. The ordering reads an entry over 64, so from here on a cell
/// gains nothing more. Entries grow about 2.5 times a depth and are kept for the whole game
/// (halving them at each search: E-213, not adopted): a 60 s search of a 20x20 opening took
/// one to 2,616,953 by depth 14, so an unbounded `i32` would wrap to a large negative value
/// (the busiest cell ordered last) in long games or analysis.
pub(super) const HISTORY_CAP: i32 = 1 << 20;

/// Credits a quiet move that cut off `depth` plies from the horizon.
#[inline]
pub(super) fn reward(entry: &mut i32, depth: i32) {
    *entry = (*entry + depth * depth).min(HISTORY_CAP);
}
