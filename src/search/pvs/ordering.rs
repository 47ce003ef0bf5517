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
        // thousand here, and history stayed under 100 in the 0.2 s searches sampled. With the
        // fitted weights, history weighing 16 times more (cap 2^15, divided by 4) scored -10.4
        // +/- 45.9 Elo (200 games), later (cap 2^20, divided by 4) +24.4 +/- 32.4 and -36.6 +/-
        // 33.5 (400 games each; -6.2 +/- 20.8 over the 1,000, not adopted), and, once the
        // killers were dropped, 4 times more (divided by 16) +2.6 +/- 28.2 (400 games), and a
        // counter-move slot after the killers (the quiet reply that last cut off after the
        // opponent's move) -6.9 +/- 32.0 (400 games), and a follow-up history (cutoff credits
        // per colour, opponent's last move and reply, added to the history term) -20.0 +/- 29.1
        // (400 games; on 20x20, -9.3 +/- 34.7 in 300), and keyed instead by the mover's own
        // move two plies up, -16.5 +/- 30.1 (400 games), at 0.2 s/move, freestyle. Entries grow
        // about 2.5 times a depth, so at long time controls the term weighs that much more on
        // its own (see [`HISTORY_CAP`]); the 16-times matches show no harm from that. Under
        // freestyle, which orders without history, a bonus for the points within two of the
        // opponent's last move (as much as 8 points of the mover's own cell value) scored +11.3
        // +/- 33.2 and -30.5 +/- 31.7 (0.2 s/move, 400 games each; -10.6 +/- 22.9 together):
        // not adopted.
        //
        // Killers, under standard and caro only (see [`RuleSettings::killers`]): elsewhere
        // none are recorded, so the slots stay empty from the search's start.
        let use_killers = settings.killers;
        let killers = self.killers[ply];
        // The killers two plies down start empty for each node: left over from a cousin's
        // subtree, they ordered first moves that cut off somewhere else. Bench 5,259,825 ->
        // 4,605,681 nodes; against the engine that kept them, at 0.2 s/move: freestyle +26.1
        // +/- 32.3 and +34.0 +/- 30.7, renju +56.1 +/- 30.2, standard +40.1 +/- 30.9 (400
        // games each), freestyle on 20x20 +20.9 +/- 36.7 (300 games), caro +30.5 +/- 30.0 (400
        // games); +35.6 +/- 12.9 over the 2,300 games; at 1 s/move, freestyle +56.1 +/- 55.9
        // (100 games). With them cleared, a killer's bonus on top of its threat score (1,500
        // for the first, 1,125 for the second) instead of its place right after the table's
        // move cut the bench by a further 17 %, but scored -6.1 +/- 32.2 (freestyle, 400
        // games), and a third killer -33.1 +/- 33.5 (same conditions): not adopted.
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
/// (halving them at each new search scored -9.6 +/- 26.9 Elo, freestyle, 0.2 s/move, 400
/// games): a 60 s search of a 20x20 opening took one to 2,616,953 by depth 14, so an unbounded
/// `i32` would wrap to a large negative value (the busiest cell ordered last) in long games or
/// analysis.
pub(super) const HISTORY_CAP: i32 = 1 << 20;

/// Credits a quiet move that cut off `depth` plies from the horizon.
#[inline]
pub(super) fn reward(entry: &mut i32, depth: i32) {
    *entry = (*entry + depth * depth).min(HISTORY_CAP);
}
