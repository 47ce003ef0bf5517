//! Iterative deepening: each depth is searched with an aspiration window around the last
//! depth's score, widened after each failure; the root's move loop of each pass; the move kept
//! when a pass is stopped part-way; and the principal variation each completed depth reports.

use std::sync::atomic::Ordering;

use super::ordering::{classify, is_late};
use super::{pack_iteration, Control, Worker};
use crate::position::Position;
use crate::search::score::{format_score, INFINITE, WIN_THRESHOLD};
use crate::search::time::Clock;
use crate::search::tt::{score_to_tt, Bound, TranspositionTable};
use crate::types::Pos;

/// Half-width of the first aspiration window, in the evaluation's units (an open three on a
/// line weighs 43); each failed bound widens by it, and it triples after every failure. The
/// bench reaches its depths in 11 % fewer nodes than with 60: fewer re-searches. Settled by
/// matches: E-135, E-137, E-138; not adopted: E-103, E-136 (30, 150), E-140, E-141
/// (doubling), E-142, E-143 (from depth 4), E-189 (widening from the failed score).
const ASPIRATION_WINDOW: i32 = 100;
/// First depth searched with an aspiration window; shallower depths use the full window.
/// From depth 4 instead: see [`ASPIRATION_WINDOW`].
const ASPIRATION_DEPTH: u32 = 5;

impl Worker {
    /// Iterative deepening from `first_depth` to `max_depth` over the root `moves`, starting
    /// from `(best, best_score)`; returns the best move, its score and the last completed
    /// depth. `report` (the main thread's; none for a helper) gets a line per completed depth.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn iterate<C: Clock>(
        &mut self,
        pos: &mut Position,
        moves: &mut [(Pos, i32)],
        ctl: &Control<C>,
        first_depth: u32,
        max_depth: u32,
        (mut best, mut best_score): (Pos, i32),
        mut report: Option<&mut dyn FnMut(&str)>,
    ) -> (Pos, i32, u32) {
        let time = ctl.time;
        let mut completed = 0;
        let mut depth = first_depth;
        // Root moves found to lose to the opponent's threat are moved past `live`.
        let mut live = moves.len();
        while depth <= max_depth {
            let moves = &mut moves[..live];
            if depth > first_depth && !time.should_start_iteration() {
                break;
            }
            if ctl.published.is_some() {
                // A helper searches a ply deeper than the main thread: what it stores is
                // ready when the main thread gets there, and its result may be deeper.
                depth = depth
                    .max(ctl.pace.load(Ordering::Relaxed) + 1)
                    .min(max_depth);
            } else {
                ctl.pace.store(depth, Ordering::Relaxed);
            }
            // The window is ASPIRATION_WINDOW either side of the last depth's score.
            let (mut alpha, mut beta) = (-INFINITE, INFINITE);
            let mut delta = ASPIRATION_WINDOW;
            if depth >= ASPIRATION_DEPTH && best_score.abs() < WIN_THRESHOLD {
                alpha = best_score - delta;
                beta = best_score + delta;
            }
            // After a fail high the wider window may be searched shallower until a fail low
            // (see [`RuleSettings::fail_high_reduction`]).
            let mut reduction = 0;
            let mut failed_high = None;
            let mut first;
            let (score, iteration_best) = loop {
                first = moves.first().map_or(best, |m| m.0);
                let (score, m) = self.root(pos, moves, depth as i32 - reduction, alpha, beta, ctl);
                if self.aborted {
                    break (score, m);
                }
                if score <= alpha && alpha > -INFINITE {
                    reduction = 0;
                    alpha = (alpha - delta).max(-INFINITE);
                } else if score >= beta && beta < INFINITE {
                    failed_high = m;
                    reduction = ctl.settings.fail_high_reduction;
                    beta = (beta + delta).min(INFINITE);
                } else {
                    break (score, m);
                }
                delta *= 3;
            };
            if self.aborted {
                // A partly searched depth may still improve the move.
                best =
                    stopped_iteration_move(best, first, iteration_best, score, alpha, failed_high);
                break;
            }
            best = iteration_best.unwrap_or(best);
            best_score = score;
            completed = depth;
            // A best move that loses to the threat the opponent already had: search this
            // depth again without it.
            if ctl.published.is_none()
                && score.abs() < WIN_THRESHOLD
                && live > 1
                && self.loses_to_threat(pos, best, ctl)
            {
                if let Some(i) = moves.iter().position(|m| m.0 == best) {
                    moves[i..].rotate_left(1);
                    live -= 1;
                    best = moves[0].0;
                    continue;
                }
            }
            if let Some(share) = ctl.published {
                share
                    .completed
                    .store(pack_iteration(depth, score, best), Ordering::Relaxed);
            }
            if let Some(report) = report.as_mut() {
                let elapsed = time.elapsed_ms().max(1);
                let nodes = ctl.total_nodes(self.nodes);
                let pv = principal_variation(ctl.tt, pos, best, 16);
                report(&format!(
                    "depth {depth} score {} nodes {} nps {} time {}ms pv {}",
                    format_score(score),
                    nodes,
                    nodes * 1000 / elapsed,
                    elapsed,
                    pv.iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            if score.abs() >= WIN_THRESHOLD {
                break;
            }
            depth += 1;
        }
        (best, best_score, completed)
    }

    /// Searches the root moves; returns the score and the best move found (moves are reordered
    /// so the best comes first next time).
    ///
    /// The root moves are searched in the order of their one-ply scores with each iteration's
    /// best moved to the front, each to the full depth except, on boards up to 15x15, the
    /// fifth and later reducible ones, which are first searched a ply shallower (see
    /// [`RuleSettings::root_reduction`]). Not adopted: E-068 (ordering by tree size), E-291
    /// (a second ply), E-292, E-293, E-294 (from the fourth move).
    ///
    /// [`RuleSettings::root_reduction`]: crate::search::rules::RuleSettings::root_reduction
    fn root<C: Clock>(
        &mut self,
        pos: &mut Position,
        moves: &mut [(Pos, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ctl: &Control<C>,
    ) -> (i32, Option<Pos>) {
        let mut best_score = -INFINITE;
        let mut best_index = None;
        let settings = &ctl.settings;
        for (i, &(m, _)) in moves.iter().enumerate() {
            let reduce = settings.root_reduction
                && is_late(depth, i)
                && classify(pos, m, settings.own_threat_floor).1;
            pos.make_move(m);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, 1, ctl)
            } else {
                self.later_move(pos, depth, i32::from(reduce), alpha, beta, 0, ctl)
            };
            pos.undo_move();
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(i);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let best = best_index.map(|i| moves[i].0);
        if let Some(i) = best_index {
            moves[..=i].rotate_right(1);
            if !self.aborted {
                let bound = if best_score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                ctl.tt
                    .store(pos.hash(), best, score_to_tt(best_score, 0), depth, bound);
            }
        }
        (best_score, best)
    }
}

/// The move to play when an iteration is stopped part-way, `best` being the last complete
/// depth's. `first` is the move the stopped pass searched first, `searched` the best of the
/// moves it finished and `score` that move's score, `alpha` the pass's lower bound, and
/// `failed_high` the move of an earlier pass of the same depth that failed high.
///
/// A finished move other than the first whose score is above `alpha` beat the first at this
/// depth (a score at or below `alpha` is only an upper bound, no better than the first's);
/// failing that, a move that failed high scored above the window around the last depth's
/// score. Either is taken over `best`, where the earlier rule ignored fail highs and took a
/// move only above the last depth's score (scores swing between odd and even depths). A timed
/// search plays a move other than its last complete depth's best 8.9 % of the time instead of
/// 3.5 % (freestyle). Under freestyle a later pass searches a ply shallower than the one that
/// failed high, so the move that held at the full depth keeps its claim. Settled by matches:
/// E-250, E-251, E-257; not adopted: E-252, E-262.
pub(super) fn stopped_iteration_move(
    best: Pos,
    first: Pos,
    searched: Option<Pos>,
    score: i32,
    alpha: i32,
    failed_high: Option<Pos>,
) -> Pos {
    match (searched, failed_high) {
        (Some(m), _) if m != first && score > alpha => m,
        (_, Some(m)) => m,
        _ => best,
    }
}

/// The best line in the table, starting with `first`, at most `longest` moves.
pub(super) fn principal_variation(
    tt: &TranspositionTable,
    pos: &mut Position,
    first: Pos,
    longest: usize,
) -> Vec<Pos> {
    let mut pv = vec![first];
    pos.make_move(first);
    while pv.len() < longest {
        match tt.probe(pos.hash()).and_then(|e| e.best) {
            Some(m) if pos.board().is_empty(m) && !pos.is_forbidden(m) => {
                pv.push(m);
                pos.make_move(m);
            }
            _ => break,
        }
    }
    for _ in 0..pv.len() {
        pos.undo_move();
    }
    pv
}
