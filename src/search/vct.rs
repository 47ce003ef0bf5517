//! Victory by continuous threats (VCT): a threat-space search in which the attacker plays fours
//! and threes (moves that make a flexible four possible next), and the defender answers a four
//! at its only point, and a three at any point that blocks it or with any counter-four. A
//! counter-four must be blocked before the attack goes on, so a defender's own VCF refutes the
//! attack, and is tried first whenever the defender has a four to start one with. Defences
//! are tried best-ordered first. Bounded by attacker moves and nodes.
//!
//! A quiet move that threatens a VCF (a "fukumi" move: the attacker would win by fours if
//! allowed a second move) is an attack too, at most [`QUIET_THREATS`] times in one line. The
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
/// Node budget of the VCF tried at each attacker node.
const INNER_VCF_NODES: u64 = 200;
/// Quiet VCF threats allowed in one line of the attack.
const QUIET_THREATS: u8 = 2;
/// Quiet moves tried as VCF threats at one attacker node, best ordered first (see
/// [`VctSolver::quiet_threats`]).
const QUIET_CANDIDATES: usize = 24;

/// What the solver learnt about a position with the attacker to move, searched with `depth`
/// threats and `quiet` quiet threats left.
#[derive(Clone, Copy, Default)]
struct Entry {
    hash: u64,
    depth: u8,
    quiet: u8,
    /// The first move of the win (in the table of wins).
    first: Option<Pos>,
}

impl Entry {
    fn new(hash: u64, depth: u8, quiet: u8, first: Option<Pos>) -> Entry {
        Entry {
            hash,
            depth,
            quiet,
            first,
        }
    }
}

/// A VCT solver with a table of positions it has shown to have no VCT and a table of those
/// it has shown to win.
///
/// The table of wins lets each deepening step, and the next search in the game, read back
/// the wins the last one proved. With it (and the failures marked with the quiet threats
/// left, which they depend on), the 82 freestyle self-play positions of
/// tests/data/vct_selfplay.jsonl cost 2,280,178 nodes instead of 3,395,444, and of the 287
/// renju ones of vct_renju_selfplay.jsonl 287 are solved within 1,000,000 nodes instead of
/// 278 (263 instead of 249 within the root budget of a 1 s move, 245,700). Against the
/// engine without it, 0.2 s/move, 400 games each: renju +16.5 +/- 29.8 Elo, freestyle
/// -8.7 +/- 27.5; kept for what it solves, with no loss shown.
pub struct VctSolver {
    failed: Vec<Entry>,
    won: Vec<Entry>,
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
            failed: vec![Entry::default(); TABLE_SIZE],
            won: vec![Entry::default(); TABLE_SIZE],
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
        self.failed.fill(Entry::default());
        self.won.fill(Entry::default());
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
            // Block the defender's counter-four, then the defender moves again.
            if pos.combo_count(op, Combo::Five) > 1 {
                return false;
            }
            let Some(block) = pos.first_four_cell(op, Combo::Five) else {
                return false;
            };
            if pos.is_forbidden(block) {
                return false;
            }
            pos.make_move(block);
            let won = self.defender_node(pos, depth, abort);
            pos.undo_move();
            if won {
                *first = first.or(Some(block));
            }
            return won;
        }
        // The tables come before the inner VCF, which costs up to INNER_VCF_NODES where an
        // entry costs one probe. No VCT with more threats or quiet threats than searched means
        // none with fewer; a win with fewer is a win with more.
        let slot = pos.hash() as usize % TABLE_SIZE;
        let failed = self.failed[slot];
        if failed.hash == pos.hash() && failed.depth >= depth && failed.quiet >= self.quiet_left {
            return false;
        }
        let won = self.won[slot];
        if won.hash == pos.hash() && won.depth <= depth && won.quiet <= self.quiet_left {
            *first = first.or(won.first);
            return true;
        }
        let line = self.vcf.solve(pos, 20, INNER_VCF_NODES);
        // Counted whether or not it wins: the budget and the abort checks must see this work.
        self.nodes += self.vcf.nodes();
        if let Some(line) = line {
            *first = first.or(Some(line[0]));
            // A VCF wins with any depth: stored unless it would evict a deeper win.
            if self.won[slot].depth == 0 {
                self.won[slot] = Entry::new(pos.hash(), 0, 0, Some(line[0]));
            }
            return true;
        }
        if self.out_of_nodes() {
            return false;
        }
        if depth == 0 {
            // No VCF: no win with no threats left, whatever the quiet threats left (unless
            // it would evict a deeper failure).
            if self.failed[slot].depth == 0 {
                self.failed[slot] = Entry::new(pos.hash(), 0, u8::MAX, None);
            }
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
                self.won[slot] = Entry::new(pos.hash(), depth, self.quiet_left, Some(m));
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        if self.quiet_left > 0 && depth > 1 {
            self.quiet_left -= 1;
            let mut quiet_first = None;
            let won = self.quiet_threats(pos, depth, &mut quiet_first, abort);
            self.quiet_left += 1;
            if let (true, Some(m)) = (won, quiet_first) {
                *first = first.or(Some(m));
                self.won[slot] = Entry::new(pos.hash(), depth, self.quiet_left, Some(m));
                return true;
            }
            if self.out_of_nodes() {
                return false;
            }
        }
        // Stored only after the quiet threats too: the entry means "no VCT of this depth".
        // Quiet threats are tried from two threats left, so a failure with one holds for any.
        let quiet = if depth > 1 { self.quiet_left } else { u8::MAX };
        self.failed[slot] = Entry::new(pos.hash(), depth, quiet, None);
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
        for &p in &line[..played] {
            pos.make_move(p);
        }
        let mut cells = Vec::new();
        pos.four_cells(attacker, Combo::Five, &mut cells);
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
        cells.sort();
        cells.dedup();
        cells.retain(|&p| pos.board().is_empty(p));
        // Best-ordered first, as at a defender node.
        cells.sort_by_cached_key(|&p| (Reverse(movegen::order_score(pos, p)), p));
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
        if att_fives >= 2 {
            return true;
        }
        if att_fives == 1 {
            let Some(block) = pos.first_four_cell(att, Combo::Five) else {
                return false;
            };
            if pos.is_forbidden(block) {
                return true;
            }
            pos.make_move(block);
            let won = self.attacker_node(pos, depth, &mut None, abort);
            pos.undo_move();
            return won;
        }
        let mut defences = Vec::new();
        if movegen::generate(pos, &mut defences) != Situation::MustDefendThree {
            // The attacker's move threatened nothing the defender must answer.
            return false;
        }
        if pos.combo_count_at_least(me, Combo::Four) > 0 {
            // A VCF of the defender's own refutes the three at once; its counter-fours below
            // would find it too, but only after trying the blocks. Over the 82 self-play
            // positions of tests/data/vct_selfplay.jsonl the solver's nodes fell from
            // 8,289,100 to 6,004,089 (same 82 solved); +11.3 +/- 30.0 Elo in freestyle
            // (0.2 s/move, 400 games).
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
        // early. With these and the quiet threats' defences (below) ordered instead of taken
        // in board order, the 82 self-play positions cost 3,395,444 nodes instead of
        // 6,004,089 (same 82 solved), and the quintet fukumi problem 34,498 instead of 119,663;
        // +12.2 +/- 27.6 Elo in freestyle (0.2 s/move, 400 games).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::types::Rule;

    /// Black to move in freestyle with two twos that cross at (8,7): a double three there
    /// wins by threats, and black has no four for a VCF.
    fn double_three_position() -> Position {
        let black = [(5, 7), (6, 7), (8, 5), (8, 6)];
        let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
        let board = Board::from_stones(15, 15, Rule::Freestyle, &black, &white, Color::Black)
            .expect("a legal position");
        Position::new(&board)
    }

    #[test]
    fn a_proven_win_is_read_back_from_the_table_until_cleared() {
        let mut pos = double_three_position();
        let mut solver = VctSolver::new();
        let first = solver.solve(&mut pos, 8, 100_000);
        assert!(first.is_some(), "the double three wins");
        let nodes = solver.nodes();
        assert!(nodes > 1, "a win needs a search: {nodes} nodes");
        // The root is in the tables now (its win, and its failures at fewer threats): the
        // same answer from one node per deepening step at most.
        assert_eq!(solver.solve(&mut pos, 8, 100_000), first);
        assert!(
            solver.nodes() <= 8 && solver.nodes() < nodes,
            "{}",
            solver.nodes()
        );
        // A cleared table searches again.
        solver.clear();
        assert_eq!(solver.solve(&mut pos, 8, 100_000), first);
        assert_eq!(solver.nodes(), nodes);
    }

    #[test]
    fn a_win_is_not_reported_for_the_other_side() {
        // The table keys include the side to move: white, to move in the same position, has
        // no VCT even though black's win is stored.
        let mut pos = double_three_position();
        let mut solver = VctSolver::new();
        assert!(solver.solve(&mut pos, 8, 100_000).is_some());
        pos.toggle_side();
        assert_eq!(solver.solve(&mut pos, 8, 100_000), None);
    }
}
