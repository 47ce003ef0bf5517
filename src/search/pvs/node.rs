//! The search below the root: a principal-variation node with its threat shortcuts (a five
//! to make or to block, a flexible four, a four-three or double three with no four to meet
//! it), mate-distance pruning, the table's cutoffs, the leaf and interior VCF probes,
//! reverse futility pruning, internal iterative reduction, a cap on the moves searched, and
//! late-move pruning and reduction.

use std::sync::atomic::Ordering;

use super::ordering::{classify, is_late, late_move_reduction, select_next};
use super::singular::SINGULAR_DEPTH;
use super::{evaluate, Control, Worker, MAX_PLY};
use crate::board::pattern::Combo;
use crate::position::Position;
use crate::search::movegen::{self, Situation};
use crate::search::score::{INFINITE, WIN_SCORE, WIN_THRESHOLD};
use crate::search::time::Clock;
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable, TtEntry};
use crate::types::Pos;

/// Nodes a leaf VCF may spend. It runs at every leaf where the mover has a four, so it is
/// kept short. Settled by matches: E-015, E-018, E-019; not adopted: E-016, E-020, E-336,
/// E-337.
const LEAF_VCF_NODES: u64 = 24;
/// Nodes a VCF may spend at an interior node [`INTERIOR_VCF_DEPTH`] or more plies from the
/// horizon where the mover has a four. The search spends one ply per four, so a VCF longer
/// than the depth left is otherwise seen only if the leaf VCF happens to finish it; with the
/// probe, 3-ply searches of the 834 public VCF problems (the root's solvers left out) prove
/// 812 wins instead of 745. It runs under every rule, none standing apart.
/// Settled by matches: E-057, E-063; not adopted: E-059, E-242.
const INTERIOR_VCF_NODES: u64 = 400;
/// Fewest plies from the horizon at which the interior VCF probe runs.
/// Not adopted: E-058 (2 plies), E-060 (4 plies).
pub(super) const INTERIOR_VCF_DEPTH: i32 = 3;
/// Deepest remaining depth at which reverse futility pruning returns a node's static value
/// (see [`Worker::node`]). Settled by matches: E-391 (alone: E-389).
const REVERSE_FUTILITY_DEPTH: i32 = 4;
/// Margin per ply of remaining depth by which the static value must beat beta for reverse
/// futility pruning, in the evaluation's units (an open three on a line weighs 43).
const REVERSE_FUTILITY_MARGIN: i32 = 60;
/// Plies from the horizon from which a non-PV node with no table move is searched a ply
/// shallower (internal iterative reduction), where the rule has it ([`RuleSettings::iir`]:
/// freestyle, standard and renju). Not adopted: E-072, E-160, E-178, E-285, E-288.
///
/// [`RuleSettings::iir`]: crate::search::rules::RuleSettings::iir
const IIR_DEPTH: i32 = 4;

impl Worker {
    #[inline]
    fn check_limits<C: Clock>(&mut self, ctl: &Control<C>) {
        // A threshold, not a multiple: leaf VCF nodes advance the count in jumps.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
        } else {
            return;
        }
        if let Some(published) = ctl.published {
            published.nodes.store(self.nodes, Ordering::Relaxed);
        }
        if ctl.stop.load(Ordering::Relaxed)
            || ctl.time.hard_limit_reached()
            || ctl.max_nodes.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// The score of `pos` for the side to move, searched `depth` plies with the window
    /// `alpha..beta`, `ply` plies from the root.
    #[inline]
    pub(super) fn negamax<C: Clock>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &Control<C>,
    ) -> i32 {
        self.node(pos, depth, alpha, beta, ply, ctl, None)
    }

    /// The score of a move already made at a node `ply` plies from the root with `depth`
    /// plies left, for that node's side, when the move is not the first: a null-window search
    /// `reduction` plies shallower, again at the full depth if that beats `alpha` and was
    /// reduced, and with the full window if the score lands inside it. The root and the tree
    /// search their later moves alike. Not adopted: E-314 (deeper or shallower re-searches).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn later_move<C: Clock>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &Control<C>,
    ) -> i32 {
        let child = ply + 1;
        let mut s = -self.negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha, child, ctl);
        if s > alpha && reduction > 0 {
            s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, child, ctl);
        }
        if s > alpha && s < beta {
            s = -self.negamax(pos, depth - 1, -beta, -alpha, child, ctl);
        }
        s
    }

    /// [`negamax`](Self::negamax), with every move but `excluded`: the singular-extension
    /// test searches the node again without the table's move, and then neither reads a
    /// cutoff from the table (its entry is the full node's) nor stores its result there, nor
    /// runs the VCF probe (whose line may start with the excluded move).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn node<C: Clock>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        ctl: &Control<C>,
        excluded: Option<Pos>,
    ) -> i32 {
        self.nodes += 1;
        self.check_limits(ctl);
        if self.aborted {
            return 0;
        }
        let me = pos.side_to_move();
        let op = me.opponent();
        let ply_i = ply as i32;
        // Mate-distance pruning: nothing here can beat a win already found closer to the root.
        alpha = alpha.max(-(WIN_SCORE - ply_i));
        beta = beta.min(WIN_SCORE - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        if pos.combo_count(me, Combo::Five) > 0 {
            return WIN_SCORE - ply_i - 1;
        }
        let opponent_fives = pos.combo_count(op, Combo::Five);
        // Two fives cannot both be blocked, except under caro, where one stone may stop both
        // (see [`Position::five_blocks`]): there the move generator lists the stones that do,
        // and a node with none is lost below.
        if opponent_fives >= 2 && !pos.rule().is_caro() {
            return -(WIN_SCORE - ply_i - 2);
        }
        // Points where the opponent makes a four or a five: none means it has no tempo to
        // answer a threat with.
        let opponent_has_four = opponent_fives > 0 || pos.combo_count_at_least(op, Combo::Four) > 0;
        // With no five and no four to answer with, the opponent cannot stop a flexible four
        // or a double four (one that is not a renju foul): a win in three plies.
        if !opponent_has_four && pos.has_legal_combo(me, &[Combo::FlexFour, Combo::DoubleFour]) {
            return WIN_SCORE - ply_i - 3;
        }
        // Nor can it stop a four-three or a double three: a win in five plies, since the one
        // stone that answers cannot block both lines. Not for a colour with renju fouls (the
        // later points may be fouls), nor under caro (blocked fives). Settled by matches:
        // E-407.
        if !opponent_has_four
            && !pos.rule().forbids(me)
            && !pos.rule().is_caro()
            && (pos.combo_count(me, Combo::FourThree) > 0
                || pos.combo_count(me, Combo::DoubleThree) > 0)
        {
            return WIN_SCORE - ply_i - 5;
        }
        if pos.board().is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return evaluate(pos);
        }
        // Any five the opponent still has here must be stopped: two of them only under caro,
        // the other rules having returned above.
        let forced = opponent_fives > 0;
        // A node facing a five is never a leaf: it searches its block at least a ply deep, so
        // the tree stays narrow and threats are read out. The block's child is still a ply
        // shallower, and a node at the horizon facing an open three gets no extra ply: both let
        // threats chain the extension and grow the tree, and a deeper block proves more attacks
        // without winning more games. Not adopted: E-047, E-258, E-263, E-264, E-411, E-424,
        // E-484.
        let depth = if forced { depth.max(1) } else { depth };
        let pv_node = beta - alpha > 1;
        if depth <= 0 {
            // A leaf outside the principal variation first asks the table: an entry from an
            // earlier search of this position (every entry is at least a ply deep) cuts off as
            // at an interior node, so the leaf returns that deeper bound instead of its short
            // VCF and static value. Its bucket was prefetched before the move that led here.
            // Settled by matches: E-308; not adopted: E-309 (bounds that do not settle the
            // window in place of the static value).
            if !pv_node && excluded.is_none() {
                let cutoff = probe_in_node_terms(ctl.tt, pos, ply_i)
                    .and_then(|e| table_cutoff(&e, depth, alpha, beta));
                if let Some(score) = cutoff {
                    return score;
                }
            }
            // Off the principal variation, a static value that already reaches beta cuts off
            // without the VCF: a win would cut off too. Before this gate the leaf VCFs took
            // about a third of a search's time (E-423).
            let eval = evaluate(pos);
            if (pv_node || eval < beta) && self.vcf_length(pos, 12, LEAF_VCF_NODES).is_some() {
                return WIN_SCORE - ply_i - 5;
            }
            return eval;
        }
        // The static value of a non-PV node with nothing forced, which the VCF probe's gate
        // and reverse futility pruning read.
        let static_eval = (!pv_node && !forced && excluded.is_none()).then(|| evaluate(pos));

        // Far enough from the horizon, look for a VCF the remaining depth cannot read out.
        // The line ends with the five, so its length is the distance to the win. The probe
        // runs before the table is asked: a found VCF is not stored, and the solver's own
        // table makes a repeated probe cheap. Not adopted: E-061 (a VCT probe), E-062 (the
        // opponent's VCF), E-310, E-350 (the table first). Off the principal variation it
        // runs only below beta, as the leaf's does (E-423).
        if depth >= INTERIOR_VCF_DEPTH
            && !forced
            && excluded.is_none()
            && static_eval.is_none_or(|eval| eval < beta)
        {
            if let Some(length) = self.vcf_length(pos, 100, INTERIOR_VCF_NODES) {
                return WIN_SCORE - ply_i - length as i32;
            }
        }
        let tt_entry = probe_in_node_terms(ctl.tt, pos, ply_i);
        let mut tt_move = None;
        if let Some(e) = tt_entry {
            tt_move = e.best;
            if !pv_node && excluded.is_none() {
                if let Some(score) = table_cutoff(&e, depth, alpha, beta) {
                    return score;
                }
            }
        }

        // Reverse futility: a quiet non-PV node near the horizon whose static value beats
        // beta by a margin per ply is taken to hold without a search. Not when the opponent
        // has an open three to answer: the static value does not see that threat through
        // (asked last, only of a node that would be cut).
        // Settled by matches: E-391 (alone: E-389); in self-play alone, earlier: E-025.
        if let Some(eval) = static_eval.filter(|_| depth <= REVERSE_FUTILITY_DEPTH) {
            if eval.abs() < WIN_THRESHOLD
                && eval - REVERSE_FUTILITY_MARGIN * depth >= beta
                && !pos.has_legal_combo(op, &[Combo::FlexFour])
            {
                return eval;
            }
        }
        // No ProbCut (E-276, E-282) and no razoring (E-311): not adopted.
        //
        // The most moves this node searches (see [`move_count_cap`]), from its depth before the
        // reduction below; taken only by a node that was not cut off above.
        let move_cap = if ctl.settings.move_cap() {
            move_count_cap(depth)
        } else {
            usize::MAX
        };
        // Internal iterative reduction: a non-PV node the table knows no move for is searched
        // a ply shallower, since its ordering is a guess and a later visit finds the table
        // filled. Every rule but caro (see [`RuleSettings::iir`]).
        let settings = &ctl.settings;
        let depth =
            if tt_move.is_none() && !pv_node && !forced && depth >= IIR_DEPTH && settings.iir {
                depth - 1
            } else {
                depth
            };
        // Singular extension, or a ply less for the table's move (see
        // [`Worker::singular_test`]). It runs before the moves are generated: its search of
        // this node takes and returns this ply's move buffer.
        let tt_extension =
            if depth >= SINGULAR_DEPTH && settings.singular && !forced && excluded.is_none() {
                tt_entry.and_then(|e| self.singular_test(pos, e, depth, beta, ply, ctl))
            } else {
                None
            };
        if self.aborted {
            return 0;
        }
        // Per-ply move buffers are reused: no allocation per node.
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        // Below the root, with nothing forced, idle points are left out (see
        // [`RuleSettings::skip_idle_points`]) unless every point is idle. The generator
        // leaves them out as it goes: a second pass over the list took 2.5 % of the samples
        // of timed freestyle searches (same nodes; 0.3 % fewer instructions at depth 7). A
        // singular test's search, which excludes the table's move, keeps that pass, since
        // whether another point builds is judged once the move is excluded.
        let skip_idle = ply > 0 && settings.skip_idle_points;
        let situation = if skip_idle && excluded.is_none() {
            movegen::generate_skipping_idle(pos, &mut moves)
        } else {
            movegen::generate(pos, &mut moves)
        };
        if let Some(x) = excluded {
            moves.retain(|m| m.0 != x);
            if situation == Situation::Free && skip_idle {
                movegen::keep_building(pos, &mut moves);
            }
        }
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            // No legal defence (e.g. black's only block is a foul, or the only move is the
            // excluded one): lost.
            return -(WIN_SCORE - ply_i - 2);
        }
        self.order_moves(&mut moves, tt_move, ply, me, settings);

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        // Late-move pruning, where no move cap applies (caro): in shallow non-PV nodes with
        // nothing forced, reducible moves (below) beyond the best-ordered few are not searched
        // at all. No "improving" flag: not adopted, E-104, E-105.
        let late_limit = if !pv_node && situation == Situation::Free {
            settings.late_move_limit(depth)
        } else {
            usize::MAX
        };
        // Quiet and reducible moves: see [`classify`]. The threat floor is a flexible three
        // under freestyle, standard and renju. A node facing a three never reduces: each of
        // its moves makes a four or takes a four point of the opponent's, so none is quiet.
        let threat_floor = settings.own_threat_floor;
        let mut pruned = false;
        let mut i = 0;
        while i < moves.len() {
            // The move cap: threats and blocks count like quiet moves, at every node below the
            // root (the root searches its moves by itself), the principal variation's too,
            // once a move has not lost.
            if i >= move_cap && best_score > -WIN_THRESHOLD {
                break;
            }
            if !pruned && i >= late_limit && best_score > -WIN_THRESHOLD {
                // Past the limit, with a score above a loss to fall back on, reducible moves
                // are not searched: drop them all at once rather than select each only to skip
                // it. Selection orders by score and point, so the moves kept are searched
                // in the same order.
                pruned = true;
                let mut kept = i;
                for j in i..moves.len() {
                    if !classify(pos, moves[j].0, threat_floor).1 {
                        moves.swap(kept, j);
                        kept += 1;
                    }
                }
                moves.truncate(kept);
                if i == moves.len() {
                    break;
                }
            }
            select_next(&mut moves, i);
            let m = moves[i].0;
            let (quiet, may_reduce) = classify(pos, m, threat_floor);
            // Every child's bucket is fetched, even a leaf's, which never reads it: skipping
            // quiet moves one ply from the horizon left the bench's median nodes/s within
            // noise (3,010,598 -> 3,020,990, five interleaved runs each).
            ctl.tt.prefetch(pos.hash_after(m));
            pos.make_move(m);
            let score = if i == 0 {
                // The table's move, when there is one, is ordered first.
                let extension = tt_extension.filter(|&(t, _)| t == m).map_or(0, |(_, e)| e);
                -self.negamax(pos, depth - 1 + extension, -beta, -alpha, ply + 1, ctl)
            } else {
                // Late reducible moves, 3 or more plies out, are searched shallower, by
                // [`late_move_reduction`] (E-391). Before it, a ply from the fifth move and
                // two from the thirteenth; not adopted then (see docs/experiments.md):
                // E-031, E-074, E-075, E-076, E-223, E-228, E-289 (where reductions start),
                // E-084, E-146, E-201, E-254 (the second ply), E-163, E-164, E-165, E-166,
                // E-172, E-173, E-179, E-277, E-366 (a ply more or less for some moves).
                let reduction = if is_late(depth, i) && may_reduce && !forced {
                    late_move_reduction(depth, i, pv_node)
                } else {
                    0
                };
                self.later_move(pos, depth, reduction, alpha, beta, ply, ctl)
            };
            pos.undo_move();
            if self.aborted {
                self.move_buffers[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            self.credit_cutoff(m, ply, me, depth, settings);
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        self.move_buffers[ply] = moves;
        if excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        ctl.tt.store(
            pos.hash(),
            best_move,
            score_to_tt(best_score, ply_i),
            depth,
            bound,
        );
        best_score
    }

    /// The length in plies (ending with the five) of a VCF of at most `max_depth` fours for
    /// the side to move, if it has a four and the solver finds one within `budget` nodes. The
    /// nodes count in the search's total, so the limit checks see the work (renju VCF nodes
    /// are not cheap).
    #[inline]
    fn vcf_length(&mut self, pos: &mut Position, max_depth: u32, budget: u64) -> Option<usize> {
        if pos.combo_count_at_least(pos.side_to_move(), Combo::Four) == 0 {
            return None;
        }
        let line = self.vcf.solve(pos, max_depth, budget);
        self.nodes += self.vcf.nodes();
        line.map(|l| l.len())
    }
}

/// The table's entry for `pos` with its score in the terms of a node `ply` plies from the root
/// (proven scores by distance from there).
#[inline]
fn probe_in_node_terms(tt: &TranspositionTable, pos: &Position, ply: i32) -> Option<TtEntry> {
    tt.probe(pos.hash()).map(|e| TtEntry {
        score: score_from_tt(e.score, ply),
        ..e
    })
}

/// The score with which entry `e` settles a node `depth` plies from the horizon searched with
/// the window (`alpha`, `beta`), if it does: an entry cuts off at its depth or deeper when its
/// bound keeps the score outside the window, proven scores too (E-256, not adopted).
#[inline]
fn table_cutoff(e: &TtEntry, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    let cut = e.depth >= depth
        && match e.bound {
            Bound::Exact => true,
            Bound::Lower => e.score >= beta,
            Bound::Upper => e.score <= alpha,
        };
    cut.then_some(e.score)
}

/// Most moves searched at a node below the root `depth` plies from the horizon once one of
/// them has not lost: `3 + depth^1.32` (4, 5, 7, 9, 11 from 1 to 5 plies; 23 at 10), as in
/// Rapfi's move-count pruning. The ordering puts the table's move and the threats first, so
/// the tree keeps its best-ordered few and reaches deeper: the bench's nodes to depth 8
/// halve. Settled by matches against other engines: E-433 (halved again where the static
/// value has not improved on the mover's node two plies up: E-432, not adopted).
pub(super) fn move_count_cap(depth: i32) -> usize {
    3 + (depth.max(0) as f64).powf(1.32) as usize
}
