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
/// line weighs 43); each failed bound widens by it, and it triples after every failure. 100
/// against 60, at 0.2 s/move (400 games each): freestyle +26.1 +/- 30.6 Elo, renju +9.6 +/-
/// 30.8, standard +16.5 +/- 27.7, caro -26.1 +/- 32.4 and +41.0 +/- 31.5; +14.1 +/- 13.6 over
/// the 2,000 games (LOS 97.9 %). Caro's two matches together, +8.4 +/- 22.6, give no reason
/// for a window of its own. Also freestyle 20x20, +9.3 +/- 35.3 (300 games), and freestyle at
/// 0.5 s/move, +8.7 +/- 42.6 (200 games). The bench reaches its depths in 11 % fewer nodes:
/// fewer re-searches. 150 against 100 scored -2.6 +/- 29.8 (freestyle, 400 games), and 30
/// against 60 -38.6 +/- 36.1 (300 games, freestyle, stopped). Not adopted either (0.2 s/move,
/// 400 games each): doubling instead of tripling after each failure, freestyle +13.0 +/- 27.0
/// and -20.0 +/- 28.8 (-2.5 +/- 19.7 together), renju -12.2 +/- 27.0; the window from depth 4
/// instead of 5, freestyle +16.5 +/- 31.9 and -5.2 +/- 32.2 (+5.6 +/- 22.6 together), renju
/// -29.6 +/- 31.6. Nor widening from the score that failed instead of from the bound, with
/// the upper bound brought halfway down to the lower after a fail low (Stockfish's rule):
/// -3.5 +/- 27.0 (freestyle, 400 games).
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
        while depth <= max_depth {
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
    /// best moved to the front, each to the full depth except, under every rule but renju, the
    /// fifth and later reducible ones, which are first searched a ply shallower (see
    /// [`RuleSettings::root_reduction`]). Ordering the moves after the best by the size of
    /// their trees in the last iteration scored -18.7 +/- 31.8 Elo (freestyle, 0.2 s/move, 316
    /// games, SPRT H0): not adopted. Nor, on a match clock (1 s/move and 6 s/game, 300 games
    /// each), a second ply of reduction for the thirteenth and later reducible root moves from
    /// 5 plies deep (freestyle, -15.1 +/- 35.0), or reducing from the fourth move instead of
    /// the fifth: freestyle +10.4 +/- 30.4, +9.3 +/- 33.8, +16.2 +/- 33.4, +23.2 +/- 32.6 and
    /// +8.1 +/- 35.1 (+13.5 +/- 14.7 over the 1,500, LOS 96.4 %, short of the 97 % set as the
    /// bar for a freestyle-only setting before the fifth run), standard -3.5 +/- 33.1 and -8.1
    /// +/- 33.5, caro +25.5 +/- 34.5 and +1.2 +/- 35.5 (+9.2 +/- 11.1 over the 2,700, LOS
    /// 94.8 %).
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
/// score. Either is taken over `best`. The earlier rule took a move that beat the first only
/// when its score was also above the last depth's (scores swing between odd and even
/// depths), and ignored fail highs. Against it, at 0.2 s/move: freestyle +22.6 +/-
/// 29.7 Elo, renju +27.9 +/- 26.6 (400 games each), freestyle on 20x20 +18.5 +/- 28.0 (300
/// games); +23.2 +/- 16.2 over the 1,100 (LOS 99.8 %). Once adopted, standard +13.9 +/- 29.1
/// (400 games; +21.0 +/- 14.1 over the 1,500); at 1 s/move, freestyle +0.0 +/- 55.8 (100
/// games). A timed search plays a move other than its last complete depth's best 8.9 % of the
/// time instead of 3.5 % (freestyle; standard 9.3 % instead of 3.7 %). Taking also a root move
/// whose null-window search beat the first, its full-window search stopped, raised that to
/// 12.2 % and scored +1.7 +/- 28.7 (freestyle, 400 games): not adopted. Nor forgetting the move
/// that failed high once a later pass of the same depth fails low: +6.1 +/- 21.8 (freestyle,
/// 400 games). Under freestyle that pass searches a ply shallower than the one that failed
/// high, so the move that held at the full depth keeps its claim.
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
