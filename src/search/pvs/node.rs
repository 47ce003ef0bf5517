//! The search below the root: a principal-variation node with its threat shortcuts (a five
//! to make or to block, a flexible four), mate-distance pruning, the table's cutoffs, the leaf
//! and interior VCF probes, internal iterative reduction, and late-move pruning and reduction.

use std::sync::atomic::Ordering;

use super::ordering::{classify, is_late, select_next};
use super::singular::SINGULAR_DEPTH;
use super::{evaluate, Control, Worker, MAX_PLY};
use crate::board::pattern::Combo;
use crate::position::Position;
use crate::search::movegen::{self, Situation};
use crate::search::score::{INFINITE, WIN_SCORE, WIN_THRESHOLD};
use crate::search::time::Clock;
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable, TtEntry};
use crate::types::Pos;

/// Nodes a leaf VCF may spend. It is spent at every leaf where the mover has a four, so it is
/// kept short. Against 64 at 0.2 s/move, 24 scored +19.6 +/- 20.6 Elo in freestyle (800 games)
/// and +26.7 +/- 32.7 in renju (300 games); at 1 s/move, 6 s/game in freestyle, +5.2 +/- 42.0
/// (200 games). 256 scored -36.7 +/- 40.2 against 64 (190 games, SPRT H0), and 12 scored -9.6
/// +/- 27.5 against 24 (400 games). At 1 s/move and 6 s/game in freestyle (300 games each): 1
/// node, so only a five already on the board counts (bench 1,987,054 nodes), scored +8.1 +/-
/// 35.8 against 24; 3, once the solver judged a four's reply before playing it, -5.8 +/- 35.1:
/// neither adopted.
const LEAF_VCF_NODES: u64 = 24;
/// Nodes a VCF may spend at an interior node [`INTERIOR_VCF_DEPTH`] or more plies from the
/// horizon where the mover has a four. The search spends one ply per four, so a VCF longer
/// than the depth left is otherwise seen only if the leaf VCF happens to finish it; with the
/// probe, 3-ply searches of the 834 public VCF problems (the root's solvers left out) prove
/// 812 wins instead of 745.
/// At 0.2 s/move against the engine without it (400 games each): freestyle +29.6 +/- 29.3 and
/// +8.7 +/- 29.0 Elo, standard +0.9 +/- 28.6 and +14.8 +/- 28.2, renju +5.2 +/- 28.0 and
/// +23.5 +/- 29.7, caro +6.1 +/- 28.3: +12.4 +/- 10.9 over the 2,800 games. No rule's figure
/// stands apart from the common one, so it runs under every rule. At 1 s/move, freestyle:
/// +20.9 +/- 59.1 (100 games). A budget of 2,000 nodes scored -14.9 +/- 29.9 against 400
/// (375 games, freestyle, SPRT H0), and 1,000 scored +5.2 +/- 22.6 in renju (400 games): not
/// adopted.
const INTERIOR_VCF_NODES: u64 = 400;
/// Fewest plies from the horizon at which the interior VCF probe runs. From 2 plies it
/// scored +0.9 +/- 26.0 Elo in freestyle (400 games, same conditions). From 4 plies, against
/// 3: freestyle +31.4 +/- 30.5 (400 games) and -36.8 +/- 40.1 (142, SPRT H0), standard
/// +2.6 +/- 28.0 (400), renju -28.3 +/- 35.7 (246, SPRT H0), caro +27.1 +/- 40.4 (180,
/// stopped): +2.0 +/- 15.1 over the 1,368 games.
pub(super) const INTERIOR_VCF_DEPTH: i32 = 3;
/// Plies from the horizon from which a non-PV node with no table move is searched a ply
/// shallower (internal iterative reduction), where the rule has it ([`RuleSettings::iir`]:
/// freestyle, standard and renju). From 3 plies instead of 4 it scored -15.6 +/- 29.9 in
/// freestyle (380 games, SPRT H0), from 5 plies +5.2 +/- 32.7 (400 games). At PV nodes too (a
/// PV node with no table move searched a ply shallower as well): -20.0 +/- 28.5 (freestyle, 400
/// games). Also where the table's entry is 4 or more plies shallower than the node: +12.2 +/-
/// 29.9 (freestyle, 0.2 s/move, 400 games; bench nodes -5 %), and on a match clock, 1 s/move
/// and 6 s/game, -6.9 +/- 34.7 (300 games): not adopted.
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
    /// search their later moves alike. Re-searching a reduced move that beat `alpha` a ply
    /// deeper when it beat the node's best so far by over 100 points, and a ply shallower
    /// when by under 10 (the bench reaching its depths in 15 % fewer nodes), scored -30.2
    /// +/- 33.7 Elo in freestyle and +1.2 +/- 34.8 in renju (1 s/move and 6 s/game, 300
    /// games each; -15.0 +/- 24.2 together): not adopted.
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
        // With no five and no four to answer with, the opponent cannot stop a flexible four
        // or a double four (one that is not a renju foul): a win in three plies.
        if opponent_fives == 0
            && pos.combo_count_at_least(op, Combo::Four) == 0
            && pos.has_legal_combo(me, &[Combo::FlexFour, Combo::DoubleFour])
        {
            return WIN_SCORE - ply_i - 3;
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
        // A forced block does not use up depth: the tree stays narrow and threats are read out.
        // Its child is still searched a ply shallower: searching it at the same depth (a four
        // and its block costing one ply) scored -96.2 +/- 64.2 Elo (101 games, SPRT H0), the
        // trees of depth 8 growing eightfold in the bench. Nor does a node at the horizon that
        // faces an open three (a flexible-four point of the opponent's) get a ply for its
        // defences: -157.2 +/- 49.8 Elo (freestyle, 0.2 s/move, 250 games, stopped), the threes
        // of both sides chaining the extension (the bench's depth-8 searches did not end within
        // three minutes). Capped at one such ply per path, it scored -60.1 +/- 39.4 (298 games,
        // stopped; the bench took 2.3 times the nodes for its depths), and at PV nodes only
        // -0.9 +/- 30.3 (400 games; bench nodes +15 %).
        let depth = if forced { depth.max(1) } else { depth };
        let pv_node = beta - alpha > 1;
        if depth <= 0 {
            // A leaf outside the principal variation first asks the table: an entry from an
            // earlier search of this position (every entry is at least a ply deep) cuts off as
            // at an interior node, so the leaf returns that deeper bound instead of its short
            // VCF and static value. Its bucket was prefetched before the move that led here.
            // The bench needs 20 % more nodes for its depths (2,438,849 -> 2,923,631): the
            // deeper bounds change which moves fail high and are searched again. Against the
            // engine without it, at 1 s/move and 6 s/game (300 games each): freestyle +11.6
            // +/- 39.9 and +25.5 +/- 38.9 Elo, renju +27.9 +/- 32.9, standard +5.8 +/- 36.5,
            // caro +15.1 +/- 35.9; +17.6 +/- 16.4 over the 1,500 games (LOS 98.3 %). Also
            // taking a bound that does not settle the window in place of the static value
            // when it lies on the right side of it (and an exact entry at a PV leaf; bench
            // 3,295,760 nodes), against this, same conditions: freestyle +4.6 +/- 35.4 and
            // -9.3 +/- 33.5, renju +15.1 +/- 35.6 and -6.9 +/- 35.4, standard +23.2 +/- 37.0,
            // +12.7 +/- 36.5 and -4.6 +/- 33.1, caro +20.9 +/- 34.5, +15.1 +/- 38.6 and -22.0
            // +/- 35.8, freestyle on 20x20 +13.9 +/- 34.7: +5.2 +/- 10.7 over the 3,300 games
            // (LOS 83 %; the first 1,200 had given +15.9 +/- 17.8): not adopted, for any rule.
            if !pv_node && excluded.is_none() {
                let cutoff = probe_in_node_terms(ctl.tt, pos, ply_i)
                    .and_then(|e| table_cutoff(&e, depth, alpha, beta));
                if let Some(score) = cutoff {
                    return score;
                }
            }
            if self.vcf_length(pos, 12, LEAF_VCF_NODES).is_some() {
                return WIN_SCORE - ply_i - 5;
            }
            return evaluate(pos);
        }

        // Far enough from the horizon, look for a VCF the remaining depth cannot read out.
        // The line ends with the five, so its length is the distance to the win.
        // Two more probes here were measured at 0.2 s/move in freestyle and not adopted: a VCT
        // (6 threats, 2,000 nodes) at PV nodes 4 or more plies from the horizon where the
        // mover has a flexible-three point, -23.5 +/- 33.8 Elo (341 games, SPRT H0; at every
        // node from 5 plies it cost 2.8 times the bench's nodes for the same moves and
        // scores); and a VCF of the opponent's as if it moved again (200 nodes, 3 or more
        // plies, nothing forced), found lines restricting the moves to their points and our
        // own fours, -6.9 +/- 27.9 (400 games). Nor was asking the table first, so that an
        // entry settling a null-window node spares the probe (such an entry comes from a
        // search at least as deep, whose own probe failed: a VCF found is not stored): bench
        // 2,923,631 -> 2,921,814 nodes, but 0.2 % more instructions, the solver's own table
        // making a repeated probe cheap; at 1 s/move and 6 s/game (300 games each) freestyle
        // +32.5 +/- 30.0, renju -2.3 +/- 29.5, standard -15.1 +/- 31.4, +5.5 +/- 17.5 over
        // the 900: not adopted. Again for freestyle alone, once the VCF ordered its fours by
        // value (bench 2,884,770 -> 2,883,336 nodes), same conditions: +13.9 +/- 33.9 and
        // -11.6 +/- 32.2 (+1.2 +/- 23.3 over the 600): not adopted.
        if depth >= INTERIOR_VCF_DEPTH && !forced && excluded.is_none() {
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

        // No ProbCut here: cutting off a non-PV node 5 or more plies from the horizon when one
        // of the mover's four best threats (a flexible three or better), searched 4 plies
        // shallower, beats beta by 150 points (the table's entry not saying otherwise) cut the
        // bench's nodes by 8 % but scored +5.2 +/- 31.7 Elo (freestyle, 0.2 s/move, 400
        // games), and on a match clock, 1 s/move and 6 s/game, -1.2 +/- 36.4 (300 games): not
        // adopted. Nor razoring: a non-PV node one ply from the horizon, nothing forced, where
        // the mover has no flexible-three point, four, four-three or double three and the
        // opponent no flexible-four point, returning its static value when that is 200 or
        // more below alpha (in the bench a child beat such a node's static value by over 200
        // in 0.5 % of them; bench 3,337,226 nodes), at 1 s/move and 6 s/game (300 games
        // each): freestyle +12.7 +/- 33.1 and +10.4 +/- 33.5, renju -6.9 +/- 32.3, standard
        // -33.7 +/- 35.0, caro +0.0 +/- 35.3; -3.0 +/- 15.1 over the 1,500 (LOS 35 %).
        //
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
        // Late-move pruning: in shallow non-PV nodes with nothing forced, reducible moves
        // (below) beyond the best-ordered few are not searched at all.
        // Measured with an "improving" flag (the mover's static evaluation above its value
        // two plies up), freestyle, 0.2 s/move, not adopted: two thirds of the limit where it
        // is not improving, -30.5 +/- 40.4 Elo (275 games, stopped); a ply more reduction
        // (below) from the ninth move of a non-PV node where it is not, +27.0 +/- 30.6,
        // -2.6 +/- 30.7 and, on the later engine, -11.3 +/- 29.7 (400 games each).
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
                // Late reducible moves are first searched shallower. (PV nodes reduced by one
                // ply at most scored -47.7 +/- 45.1 Elo, 199 games, SPRT H0; reducing from 2
                // plies instead of 3, -0.9 +/- 30.6, 400 games; from the fourth move instead of
                // the fifth, +22.1 +/- 22.4 over 800 games, but on top of the flexible-three
                // rule +12.2 +/- 37.0, 286 games, -24.7 +/- 34.8, 254 games, SPRT H0, and
                // without killers -13.9 +/- 30.9, 400 games; from the sixth without killers,
                // +8.7 +/- 31.2, 400 games; from the fourth again, on a match clock, 1 s/move
                // and 6 s/game, -4.6 +/- 39.4, 300 games, bench nodes -14 %: not adopted. The
                // second ply from the ninth move instead of the thirteenth, on the refitted
                // evaluation: -20.8 +/- 32.6, 335 games, SPRT H0, and on 20x20 -32.5 +/- 35.8,
                // 300 games; from the seventeenth, +1.7 +/- 30.1, 400 games. Freestyle, 400
                // games each, not adopted: a ply more for a move with no history for the mover
                // (it has not cut off for that side in this game), +9.6 +/- 31.1, +15.6 +/-
                // 29.4 and -13.9 +/- 32.0, +4.5 +/- 17.8 together (renju +18.3 +/- 30.2 and
                // +1.7 +/- 30.5, standard -29.6 +/- 30.4); a ply more at expected cut nodes
                // (non-PV nodes reached by a null-window search, the expectation alternating
                // down the tree), +6.1 +/- 30.0, and with the history rule +0.0 +/- 32.9; a ply
                // more where the table's move makes a four or takes the opponent's four point,
                // -8.7 +/- 30.0; a ply less for a move whose history for the mover has reached
                // 1,024 (about the top sixth of the reduced moves in a 0.2 s game), -17.4 +/-
                // 30.4; the second ply only from 5 plies from the horizon (bench nodes +29 %),
                // -11.3 +/- 30.9; a lone blocked four of the mover's (no three beside it, not
                // taking the opponent's four point) reduced like a quiet move but never pruned,
                // +4.3 +/- 26.4. At 1 s/move and 6 s/game, 300 games: a ply more, from 5
                // plies, for a move where neither side makes more than a two there (bench
                // nodes -1.2 %), freestyle -11.6 +/- 34.7.)
                let reduction = if is_late(depth, i) && may_reduce && !forced {
                    1 + (i >= 12) as i32
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
/// bound keeps the score outside the window. Letting a proven win or loss (a lower bound at a
/// win, an upper bound at a loss) cut off from any depth scored -13.0 +/- 25.4 Elo (freestyle,
/// 0.2 s/move, 400 games): not adopted.
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
