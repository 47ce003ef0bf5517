//! The root before the tree search: the answers that need none (a five, the only block of
//! the opponent's five, the only move, a VCF or VCT win) and the root defence, which drops the
//! moves after which the opponent wins by threats. Their node budgets fit the time limit.

use super::{evaluate, Control, Verify, Worker, ROOT_VCT_SCORE};
use crate::position::Position;
use crate::search::movegen::{self, Situation};
use crate::search::rules::Threats;
use crate::search::score::{SearchResult, WIN_SCORE};
use crate::search::time::Clock;
use crate::types::Pos;
use std::sync::atomic::Ordering;

/// Nodes the root VCF may spend before the main search.
const ROOT_VCF_NODES: u64 = 200_000;
/// Nodes the root VCT and each check of the root defence may spend when the search has no
/// clock (a depth limit scales it down), and the most a check of the root defence spends
/// (less when the time limit is short: [`ROOT_DEFENCE_NODES_PER_MS`]). A short VCT inside the
/// tree costs more time per depth than it gains (E-044, not adopted), so it runs at the root.
const ROOT_VCT_NODES: u64 = 40_000;
/// Nodes per millisecond of the soft limit the root VCT may spend in a timed search, with no
/// cap: the solver visits 2,000 to 3,000 nodes per millisecond, so this is up to about half
/// the time (its abort stops it at a third in any case). At 0.45 s it proves 29 instead of 20
/// of the 174 wins Rapfi announced in the freestyle games it won against wuzi (E-423; before,
/// 300 a millisecond: E-119, E-120; not adopted: E-053, E-130, E-300).
const ROOT_VCT_NODES_PER_MS: u64 = 1000;
/// Most attacker threats in a root VCT line. Ten instead of eight solves a few more positions
/// but was not adopted (E-133).
const ROOT_VCT_THREATS: u32 = 8;
/// Nodes per millisecond of the soft limit that the check of each iteration's best move may
/// spend ([`Worker::loses_to_threat`]), as the root VCT's budget was when the check was
/// measured (E-391). At the root VCT's 1,000 (E-423) one check could take the whole move and
/// leave the search at depth 1 to 3 where the opponent had a threat: E-434.
const ROOT_VERIFY_NODES_PER_MS: u64 = 300;
/// Each check of an iteration's best move stops after this share of the soft limit (an
/// eighth), and the move then counts as safe, so that the checks leave the tree most of the
/// move and one move is not checked again at every depth (E-435).
const ROOT_VERIFY_SHARE: u64 = 8;
/// Nodes per millisecond of the soft limit each check of the root defence may spend in a timed
/// search, up to [`ROOT_VCT_NODES`] (see [`root_vct_budgets`] for a larger budget measured).
const ROOT_DEFENCE_NODES_PER_MS: u64 = 40;

/// Node budgets of the root's threat-space searches (see [`root_vct_budgets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootBudgets {
    /// The root VCT's.
    pub vct: u64,
    /// Each check of the root defence's (not adopted larger: E-124, E-134, E-431).
    pub defence: u64,
    /// Each check of an iteration's best move, where the opponent has a threat.
    pub verify: u64,
}

/// The root's node budgets: shares of the soft limit in a timed search; with no clock, a
/// depth limit's share or `ROOT_VCT_NODES`, the same for all three.
pub fn root_vct_budgets(soft_limit_ms: Option<u64>, max_depth: Option<u32>) -> RootBudgets {
    let untimed = |nodes| RootBudgets {
        vct: nodes,
        defence: nodes,
        verify: nodes,
    };
    match (soft_limit_ms, max_depth) {
        (Some(ms), _) => RootBudgets {
            vct: ms * ROOT_VCT_NODES_PER_MS,
            defence: (ms * ROOT_DEFENCE_NODES_PER_MS).min(ROOT_VCT_NODES),
            verify: ms * ROOT_VERIFY_NODES_PER_MS,
        },
        (None, Some(depth)) => {
            untimed((1000 * u64::from(depth) * u64::from(depth)).min(ROOT_VCT_NODES))
        }
        (None, None) => untimed(ROOT_VCT_NODES),
    }
}

impl Worker {
    /// Generates the root's moves into `moves`, best-ordered, `excluded` left out, and answers
    /// at once when the tree search is not needed: no move to search, a forced or only move,
    /// a VCF or VCT win, or an instant search. Otherwise `None`, the moves refuted by the root
    /// defence dropped.
    pub(super) fn prepare_root<C: Clock>(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<(Pos, i32)>,
        excluded: &[Pos],
        ctl: &Control<C>,
        report: &mut dyn FnMut(&str),
    ) -> Option<SearchResult> {
        let (time, stop) = (ctl.time, ctl.stop);
        let situation = if excluded.is_empty() {
            movegen::generate(pos, moves)
        } else {
            movegen::generate_excluding(pos, moves, excluded)
        };
        if moves.is_empty() {
            // Every point is excluded, forbidden or the position is lost: any legal point.
            let board = pos.board();
            let fallback = board
                .empty_cells()
                .find(|p| !excluded.contains(p) && !pos.is_forbidden(*p))
                .or_else(|| board.empty_cells().next())
                .expect("search on a full board");
            return Some(self.result(fallback, -WIN_SCORE, 0));
        }
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut best = moves[0].0;
        // Forced answers: no search needed.
        match situation {
            Situation::CanWin => return Some(self.result(best, WIN_SCORE - 1, 1)),
            Situation::MustBlockFive if moves.len() == 1 => {
                return Some(self.result(best, evaluate(pos), 1));
            }
            _ if moves.len() == 1 => return Some(self.result(best, evaluate(pos), 1)),
            _ => {}
        }
        if situation != Situation::MustBlockFive && !time.is_instant() {
            // The solvers may use a share of the soft limit, and stop at once on STOP.
            let share = |divisor: u64| {
                let cutoff = time.soft_limit_ms().map(|soft| soft / divisor);
                move || {
                    stop.load(Ordering::Relaxed) || cutoff.is_some_and(|c| time.elapsed_ms() >= c)
                }
            };
            let vcf_abort = share(4);
            let vcf_budget = self.within_node_limit(ROOT_VCF_NODES, ctl.max_nodes);
            if let Some(mut line) = self.vcf.solve_until(pos, 100, vcf_budget, &vcf_abort) {
                if !excluded.contains(&line[0]) {
                    self.nodes += self.vcf.nodes();
                    // The solver takes the first VCF it finds, not the shortest: look for a
                    // line of fewer attacker moves until there is none, so the win comes
                    // soonest and a puzzle gets its shortest solution. The table's disproofs
                    // from the searches before hold at the smaller depths. Of the 767 public
                    // VCF problems answered by a VCF at 1 s/move, 186 get a shorter line; the
                    // same positions are won, so no strength is expected (E-363, E-364).
                    while line.len() > 1 {
                        let fewer = line.len().div_ceil(2) as u32 - 1;
                        let budget = self.within_node_limit(ROOT_VCF_NODES, ctl.max_nodes);
                        let shorter = self.vcf.solve_until(pos, fewer, budget, &vcf_abort);
                        self.nodes += self.vcf.nodes();
                        match shorter {
                            Some(shorter) if !excluded.contains(&shorter[0]) => line = shorter,
                            _ => break,
                        }
                    }
                    let score = WIN_SCORE - line.len() as i32;
                    self.root_line.clone_from(&line);
                    report(&format!(
                        "VCF found: {} moves, first {}",
                        line.len().div_ceil(2),
                        line[0]
                    ));
                    return Some(self.result(line[0], score, line.len() as u32));
                }
            }
            self.nodes += self.vcf.nodes();
            let budgets = root_vct_budgets(time.soft_limit_ms(), time.max_depth());
            let vct_budget = self.within_node_limit(budgets.vct, ctl.max_nodes);
            let vct_abort = share(3);
            if let Some(first) = self
                .vct
                .solve_until(pos, ROOT_VCT_THREATS, vct_budget, &vct_abort)
            {
                if !excluded.contains(&first) {
                    self.nodes += self.vct.nodes();
                    report(&format!("VCT found: first {first}"));
                    return Some(self.result(first, ROOT_VCT_SCORE, 1));
                }
            }
            self.nodes += self.vct.nodes();
            if let Some(threats) = ctl.settings.root_defence {
                // Up to a third of the soft limit from the start, as the root VCT's: a VCT that
                // ran to its end leaves no time for the defence, which then does not run (half
                // before E-435).
                let defence_abort = share(3);
                let threatened = self.drop_refuted_moves(
                    pos,
                    moves,
                    threats,
                    budgets.defence,
                    ctl.max_nodes,
                    &defence_abort,
                );
                if threatened {
                    self.verify = Some(Verify {
                        threats,
                        budget: self.within_node_limit(budgets.verify, ctl.max_nodes),
                        safe: Vec::new(),
                    });
                }
                best = moves[0].0;
            }
        }
        if time.is_instant() {
            return Some(self.result(best, moves[0].1, 0));
        }
        None
    }

    /// `budget`, or less so that a solver given it cannot take the search past its node limit
    /// (`INFO max_node`, `analyze --nodes`), which binds the root's solvers as it does the tree.
    fn within_node_limit(&self, budget: u64, max_nodes: Option<u64>) -> u64 {
        max_nodes.map_or(budget, |n| budget.min(n.saturating_sub(self.nodes)))
    }

    /// Drops the root moves after which the opponent has a win of kind `threats`, when the
    /// opponent would have one if it moved now. Moves are checked best-ordered first until
    /// `abort`; unchecked moves are kept, and so is every move if all of them lose (the search
    /// then chooses among them as before). Each check gets `budget`, or what is left below
    /// `max_nodes`; the checks stop at `abort` or when the search's node count reaches
    /// `max_nodes`. Returns whether the opponent had such a win.
    fn drop_refuted_moves(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<(Pos, i32)>,
        threats: Threats,
        budget: u64,
        max_nodes: Option<u64>,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        pos.toggle_side();
        let first = self.within_node_limit(budget, max_nodes);
        let threat = self.side_to_move_wins(pos, threats, first, abort);
        pos.toggle_side();
        if !threat {
            return false;
        }
        let mut refuted = Vec::new();
        for &(m, _) in moves.iter() {
            if abort() || max_nodes.is_some_and(|n| self.nodes >= n) {
                break;
            }
            let check = self.within_node_limit(budget, max_nodes);
            pos.make_move(m);
            let loses = self.side_to_move_wins(pos, threats, check, abort);
            pos.undo_move();
            if loses {
                refuted.push(m);
            }
        }
        if refuted.len() < moves.len() {
            moves.retain(|(m, _)| !refuted.contains(m));
        }
        true
    }

    /// Whether `best`, not known safe, lets the opponent, to move after it, win by the threat
    /// [`Verify`] names; a move that does not is remembered as safe when the check ran to its
    /// budget ([`ROOT_VERIFY_NODES_PER_MS`]) or its share of the time ([`ROOT_VERIFY_SHARE`]),
    /// not when the soft limit or STOP cut it short.
    /// Settled by matches: E-391 (alone: E-380, E-390); the budget and share: E-434, E-435.
    pub(super) fn loses_to_threat<C: Clock>(
        &mut self,
        pos: &mut Position,
        best: Pos,
        ctl: &Control<C>,
    ) -> bool {
        let Some(verify) = self.verify.as_ref() else {
            return false;
        };
        if verify.safe.contains(&best) {
            return false;
        }
        let threats = verify.threats;
        let budget = self.within_node_limit(verify.budget, ctl.max_nodes);
        // A check cut short by the node limit proves nothing safe.
        let whole = budget == verify.budget;
        let time = ctl.time;
        let out_of_time = || {
            ctl.stop.load(Ordering::Relaxed)
                || time
                    .soft_limit_ms()
                    .is_some_and(|soft| time.elapsed_ms() >= soft)
        };
        let deadline = time
            .soft_limit_ms()
            .map(|soft| time.elapsed_ms() + soft / ROOT_VERIFY_SHARE);
        let abort = || out_of_time() || deadline.is_some_and(|d| time.elapsed_ms() >= d);
        pos.make_move(best);
        let loses = self.side_to_move_wins(pos, threats, budget, &abort);
        pos.undo_move();
        if !loses && whole && !out_of_time() {
            if let Some(verify) = self.verify.as_mut() {
                verify.safe.push(best);
            }
        }
        loses
    }

    /// Whether the side to move has a win of kind `threats` within `budget` nodes (counted in
    /// the search's total).
    fn side_to_move_wins(
        &mut self,
        pos: &mut Position,
        threats: Threats,
        budget: u64,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        match threats {
            Threats::Fours => {
                let won = self.vcf.solve_until(pos, 100, budget, abort).is_some();
                self.nodes += self.vcf.nodes();
                won
            }
            Threats::FoursAndThrees => {
                let won = self.vct.solve_until(pos, 8, budget, abort).is_some();
                self.nodes += self.vct.nodes();
                won
            }
        }
    }
}
