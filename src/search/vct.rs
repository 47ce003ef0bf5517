//! Victory by continuous threats (VCT): a threat-space search in which the attacker plays fours
//! and threes (moves that make a flexible four possible next), and the defender answers a four
//! at its only point, and a three at any point that blocks it or with any counter-four. A
//! counter-four must be blocked before the attack goes on, so a defender's own VCF refutes the
//! attack, and is tried first whenever the defender has a four to start one with. Defences
//! are tried best-ordered first. Bounded by attacker moves and nodes.
//!
//! A quiet move that threatens a VCF (a "fukumi" move: the attacker would win by fours if
//! allowed a second move) is an attack too, at most `QUIET_THREATS` times in one line. The
//! defender then tries every point of that VCF (its fours, its forced replies and the final
//! five points), every own four and every point where it makes a three (whose forced replies
//! could turn into a counter-four), and the attack must go on against each.

use std::cmp::Reverse;

use super::movegen::{self, Situation};
use super::vcf::VcfSolver;
use crate::board::pattern::{Combo, Pattern};
use crate::position::Position;
use crate::types::{Color, Pos};

const TABLE_SIZE: usize = 1 << 16;
// The three limits below were each halved and doubled alone on the self-play sets of
// tests/data (the positions solved within the root VCT's budgets): none stood out (E-343,
// E-348), nor did a table of the defence that last refuted the attack (E-344).
/// Node budget of the VCF tried at each attacker node.
const INNER_VCF_NODES: u64 = 200;
/// Quiet VCF threats allowed in one line of the attack.
const QUIET_THREATS: u8 = 2;
/// Quiet moves tried as VCF threats at one attacker node, best ordered first (see
/// [`VctSolver::quiet_threats`]).
const QUIET_CANDIDATES: usize = 24;

/// A VCT solver with a table of positions it has shown to have no VCT. A second table, of
/// the positions shown to win, solved more but did not pay in matches (E-128, E-129, E-132).
pub struct VctSolver {
    failed: Vec<(u64, u8)>,
    vcf: VcfSolver,
    nodes: u64,
    next_check: u64,
    node_limit: u64,
    attacker: Color,
    /// Quiet threats the current line may still use.
    quiet_left: u8,
}

impl Default for VctSolver {
    fn default() -> Self {
        VctSolver::new()
    }
}

impl VctSolver {
    /// An empty solver.
    pub fn new() -> VctSolver {
        VctSolver {
            failed: vec![(0, 0); TABLE_SIZE],
            vcf: VcfSolver::new(),
            nodes: 0,
            next_check: 0,
            node_limit: 0,
            attacker: Color::Black,
            quiet_left: 0,
        }
    }

    /// Forgets stored results.
    pub fn clear(&mut self) {
        self.failed.iter_mut().for_each(|e| *e = (0, 0));
        self.vcf.clear();
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches a VCT for the side to move of at most `max_depth` attacker threats and
    /// `node_limit` nodes; returns the first move of a win.
    pub fn solve(&mut self, pos: &mut Position, max_depth: u32, node_limit: u64) -> Option<Pos> {
        self.solve_until(pos, max_depth, node_limit, &|| false)
    }

    /// [`solve`](Self::solve) that also gives up once `abort` returns true (checked every 256
    /// nodes).
    pub fn solve_until(
        &mut self,
        pos: &mut Position,
        max_depth: u32,
        node_limit: u64,
        abort: &dyn Fn() -> bool,
    ) -> Option<Pos> {
        self.nodes = 0;
        self.next_check = 0;
        self.node_limit = node_limit;
        self.attacker = pos.side_to_move();
        self.quiet_left = QUIET_THREATS;
        // Deepen one threat at a time: short wins are found before long lines are explored.
        for depth in 1..=max_depth.min(60) as u8 {
            let mut first = None;
            if self.attacker_node(pos, depth, &mut first, abort) {
                return first;
            }
            if self.out_of_nodes() {
                break;
            }
        }
        None
    }

    fn out_of_nodes(&self) -> bool {
        self.nodes >= self.node_limit
    }

    fn attacker_node(
        &mut self,
        pos: &mut Position,
        depth: u8,
        first: &mut Option<Pos>,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        self.nodes += 1;
        // A threshold, not a multiple: inner VCF nodes advance the count in jumps.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 256;
            if abort() {
                self.node_limit = 0;
            }
        }
        let me = pos.side_to_move();
        let op = me.opponent();
        debug_assert_eq!(me, self.attacker);
        if pos.combo_count(me, Combo::Five) > 0 {
            *first = first.or_else(|| pos.first_four_cell(me, Combo::Five));
            return true;
        }
        if pos.combo_count(op, Combo::Five) > 0 {
            // Block the defender's counter-four, then the defender moves again: with any stone
            // that stops its fives ([`Position::five_blocks`]: the five point, or under caro
            // also a stone beside it, and none when two fives cannot both be stopped), but not
            // with a renju foul.
            let mut blocks = Vec::new();
            pos.five_blocks(op, &mut blocks);
            for block in blocks {
                if pos.is_forbidden(block) {
                    continue;
                }
                pos.make_move(block);
                let won = self.defender_node(pos, depth, abort);
                pos.undo_move();
                if won {
                    *first = first.or(Some(block));
                    return true;
                }
            }
            return false;
        }
        let line = self.vcf.solve(pos, 20, INNER_VCF_NODES);
        // Counted whether or not it wins: the budget and the abort checks must see this work.
        self.nodes += self.vcf.nodes();
        if let Some(line) = line {
            *first = first.or(Some(line[0]));
            return true;
        }
        if depth == 0 || self.out_of_nodes() {
            return false;
        }
        let slot = pos.hash() as usize % TABLE_SIZE;
        if self.failed[slot] == (pos.hash(), depth)
            || (self.failed[slot].0 == pos.hash() && self.failed[slot].1 > depth)
        {
            return false;
        }
        let mut threats: Vec<(Pos, Combo, i32)> = Vec::new();
        // Row by row like the board's empty cells: the stable sort below keeps that order
        // among equal keys.
        pos.for_each_candidate(|p| {
            let combo = pos.shape(p, me).combo();
            if combo >= Combo::FlexThree {
                threats.push((p, combo, movegen::order_score(pos, p)));
            }
        });
        threats.sort_by_key(|&(_, c, score)| (Reverse(c), Reverse(score)));
        for (m, _, _) in threats {
            if pos.is_forbidden(m) {
                continue;
            }
            pos.make_move(m);
            let won = self.defender_node(pos, depth - 1, abort);
            pos.undo_move();
            if won {
                *first = first.or(Some(m));
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        if self.quiet_left > 0 && depth > 1 {
            self.quiet_left -= 1;
            let won = self.quiet_threats(pos, depth, first, abort);
            self.quiet_left += 1;
            if won {
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        // Stored only after the quiet threats too: the entry means "no VCT of this depth".
        self.failed[slot] = (pos.hash(), depth);
        false
    }

    /// Quiet attacker moves that threaten a VCF, each answered by every defence that could
    /// stop it; true if one wins against all of them.
    fn quiet_threats(
        &mut self,
        pos: &mut Position,
        depth: u8,
        first: &mut Option<Pos>,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        let me = pos.side_to_move();
        let op = me.opponent();
        // (point, own lines of two or more, own value)
        let mut quiet: Vec<(Pos, usize, i32)> = Vec::new();
        pos.for_each_candidate(|p| {
            let shape = pos.shape(p, me);
            // Lines where the move builds on at least two own stones.
            let lines = shape
                .patterns()
                .iter()
                .filter(|&&l| l >= Pattern::Two)
                .count();
            // Below a three, but building on own stones somewhere. A VCF threat usually needs
            // two own lines: moves that build on more lines come first, then the attacker's
            // own value. (The search's ordering score weighs defence too, which says little
            // about a threat of one's own; with the fitted evaluation weights it ranked the
            // fukumi problem's answer 26th.)
            if shape.combo() < Combo::FlexThree && lines > 0 {
                quiet.push((p, lines, shape.value()));
            }
        });
        quiet.sort_by_key(|&(p, lines, value)| (Reverse(lines), Reverse(value), p));
        quiet.truncate(QUIET_CANDIDATES);
        for (m, _, _) in quiet {
            if pos.is_forbidden(m) {
                continue;
            }
            pos.make_move(m);
            let defences = if pos.combo_count_at_least(op, Combo::Four) > 0 {
                // The defender has a four of its own: not a quiet situation.
                None
            } else {
                self.vcf_threat_defences(pos)
            };
            let won = match defences {
                Some(defences) => {
                    let mut all = true;
                    for d in defences {
                        if pos.is_forbidden(d) {
                            continue;
                        }
                        pos.make_move(d);
                        let won = self.attacker_node(pos, depth - 1, &mut None, abort);
                        pos.undo_move();
                        if !won || self.out_of_nodes() {
                            all = false;
                            break;
                        }
                    }
                    all
                }
                None => false,
            };
            pos.undo_move();
            if won {
                *first = first.or(Some(m));
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        false
    }

    /// With the defender to move after a quiet attacker move: if the attacker, moving again,
    /// would win by VCF, the defender's candidate answers (see the module notes); else `None`.
    fn vcf_threat_defences(&mut self, pos: &mut Position) -> Option<Vec<Pos>> {
        let defender = pos.side_to_move();
        let attacker = defender.opponent();
        pos.toggle_side();
        let line = self.vcf.solve(pos, 20, INNER_VCF_NODES);
        self.nodes += self.vcf.nodes();
        let Some(line) = line else {
            pos.toggle_side();
            return None;
        };
        // Replay all but the final five to find every five point the attack ends with.
        let played = line.len().saturating_sub(1);
        let mut cells = Vec::new();
        let mut blocks = Vec::new();
        for &p in &line[..played] {
            pos.make_move(p);
            if pos.rule().is_caro() && pos.side_to_move() == defender {
                // Caro fours are also stopped from beside their five points.
                pos.five_blocks(attacker, &mut blocks);
                cells.extend_from_slice(&blocks);
            }
        }
        pos.four_cells(attacker, Combo::Five, &mut blocks);
        cells.extend_from_slice(&blocks);
        cells.extend_from_slice(&line);
        for _ in 0..played {
            pos.undo_move();
        }
        pos.toggle_side();
        pos.for_each_candidate(|p| {
            if pos.shape(p, defender).combo() >= Combo::Three {
                cells.push(p);
            }
        });
        cells.retain(|&p| pos.board().is_empty(p));
        // Best-ordered first, as at a defender node. A point listed twice gets one key, so
        // its copies end up side by side for dedup.
        cells.sort_by_cached_key(|&p| (Reverse(movegen::order_score(pos, p)), p));
        cells.dedup();
        Some(cells)
    }

    /// The defender to move after an attacker threat: true if every defence loses.
    fn defender_node(&mut self, pos: &mut Position, depth: u8, abort: &dyn Fn() -> bool) -> bool {
        self.nodes += 1;
        let me = pos.side_to_move();
        let att = me.opponent();
        if pos.combo_count(me, Combo::Five) > 0 {
            return false;
        }
        let att_fives = pos.combo_count(att, Combo::Five);
        if att_fives > 0 {
            // Every stone that stops the attacker's fives must lose ([`Position::five_blocks`];
            // none: lost). Black's only block being a foul loses too.
            let mut blocks = Vec::new();
            pos.five_blocks(att, &mut blocks);
            for block in blocks {
                if pos.is_forbidden(block) {
                    continue;
                }
                pos.make_move(block);
                let won = self.attacker_node(pos, depth, &mut None, abort);
                pos.undo_move();
                if !won {
                    return false;
                }
            }
            return true;
        }
        let mut defences = Vec::new();
        if movegen::generate(pos, &mut defences) != Situation::MustDefendThree {
            // The attacker's move threatened nothing the defender must answer.
            return false;
        }
        if pos.combo_count_at_least(me, Combo::Four) > 0 {
            // A VCF of the defender's own refutes the three at once; its counter-fours below
            // would find it too, but only after trying the blocks (E-121).
            let refuted = self.vcf.solve(pos, 20, INNER_VCF_NODES).is_some();
            self.nodes += self.vcf.nodes();
            if refuted {
                return false;
            }
        }
        if defences.is_empty() {
            return true;
        }
        // Best-ordered defences first, so that a refuting one, when there is one, comes
        // early; so are the quiet threats' defences (below). Settled by matches: E-125.
        defences.sort_by_key(|&(p, score)| (Reverse(score), p));
        for (d, _) in defences {
            pos.make_move(d);
            let won = self.attacker_node(pos, depth, &mut None, abort);
            pos.undo_move();
            if !won || self.out_of_nodes() {
                return false;
            }
        }
        true
    }
}
