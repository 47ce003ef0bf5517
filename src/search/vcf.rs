//! Victory by continuous fours (VCF): the attacker plays only moves that make a four, the
//! defender's reply is forced (the single point that stops the five), and the attacker wins
//! when a move leaves two ways to five. It reads the incremental threat counts only, never the
//! full evaluation, and remembers disproven positions in its own table. A plain four's one
//! reply is read from the lines, so a reply the table has already disproven (or one past the
//! depth or node limit) is judged from the hash after both stones, and neither is played.
//!
//! Renju: black never plays a foul while attacking; a white four whose only defence is a black
//! foul point wins for white. A white four's reply is judged before the four only when black's
//! shapes there rule out a foul.

use std::cmp::Reverse;

use super::rules::RuleSettings;
use crate::board::pattern::Combo;
use crate::position::Position;
use crate::types::Pos;

const TABLE_SIZE: usize = 1 << 16;
/// The bits of a table entry that hold the depth (a slot is chosen by 16 low bits, so these
/// hash bits are the same for every position of the slot).
const DEPTH_MASK: u64 = 0xff;
// The packing is exact only while the slot's bits cover the depth's.
const _: () = assert!(TABLE_SIZE > DEPTH_MASK as usize);

/// A VCF solver with its own table of positions it has shown to have no VCF.
pub struct VcfSolver {
    /// Positions with no VCF of at most some number of attacker moves: the hash with its low
    /// byte replaced by that depth. The slot is taken from the hash's low bits, so the upper
    /// bits tell positions of one slot apart as the whole hash would; eight bytes an entry
    /// keep the table in cache better than a separate depth did (E-326).
    failed: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    line: Vec<Pos>,
    /// The rule's [`RuleSettings::vcf_fours_by_value`], read once per solve rather than at
    /// every node.
    fours_by_value: bool,
    /// Candidate and five-point buffers per recursion level, reused so nodes do not allocate.
    buffers: Vec<(Vec<Pos>, Vec<Pos>)>,
}

impl Default for VcfSolver {
    fn default() -> Self {
        VcfSolver::new()
    }
}

impl VcfSolver {
    /// An empty solver.
    pub fn new() -> VcfSolver {
        VcfSolver {
            failed: vec![0; TABLE_SIZE],
            nodes: 0,
            node_limit: u64::MAX,
            line: Vec::new(),
            fours_by_value: false,
            buffers: Vec::new(),
        }
    }

    /// Forgets every stored result (the rule or board changed).
    pub fn clear(&mut self) {
        self.failed.iter_mut().for_each(|e| *e = 0);
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches a VCF for the side to move of at most `max_depth` attacker moves, visiting at
    /// most `node_limit` nodes. Returns the winning line (attacker, defender, ..., attacker's
    /// last move) if one is found.
    pub fn solve(
        &mut self,
        pos: &mut Position,
        max_depth: u32,
        node_limit: u64,
    ) -> Option<Vec<Pos>> {
        self.solve_until(pos, max_depth, node_limit, &|| false)
    }

    /// [`solve`](Self::solve) that also gives up once `abort` returns true (checked every 256
    /// nodes), e.g. when the move's time is spent or a STOP arrived.
    pub fn solve_until(
        &mut self,
        pos: &mut Position,
        max_depth: u32,
        node_limit: u64,
        abort: &dyn Fn() -> bool,
    ) -> Option<Vec<Pos>> {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.line.clear();
        self.fours_by_value = RuleSettings::for_rule(pos.rule()).vcf_fours_by_value;
        if self.attack(pos, max_depth.min(u8::MAX as u32) as u8, abort) {
            let mut line = std::mem::take(&mut self.line);
            line.reverse();
            Some(line)
        } else {
            None
        }
    }

    fn attack(&mut self, pos: &mut Position, depth: u8, abort: &dyn Fn() -> bool) -> bool {
        self.count_node(abort);
        self.attack_counted(pos, depth, abort)
    }

    /// Counts a node, and every 256 nodes asks `abort`.
    #[inline(always)]
    fn count_node(&mut self, abort: &dyn Fn() -> bool) {
        self.nodes += 1;
        if self.nodes & 255 == 0 && abort() {
            // Unwinds like an exhausted budget: nothing is recorded as disproven.
            self.node_limit = 0;
        }
    }

    /// Whether the table holds a disproof of the position `hash` at `depth` or deeper.
    ///
    /// The load of the entry is the solver's largest single cost; prefetching the replies'
    /// entries did not pay (E-351).
    #[inline(always)]
    fn disproven(&self, hash: u64, depth: u8) -> bool {
        let entry = self.failed[(hash as usize) % TABLE_SIZE];
        // An empty entry (0) never matches: `depth` is at least 1 here.
        entry & !DEPTH_MASK == hash & !DEPTH_MASK && (entry & DEPTH_MASK) as u8 >= depth
    }

    /// [`attack`](Self::attack) for a node already counted.
    fn attack_counted(&mut self, pos: &mut Position, depth: u8, abort: &dyn Fn() -> bool) -> bool {
        let me = pos.side_to_move();
        if pos.combo_count(me, Combo::Five) > 0 {
            if let Some(p) = pos.first_four_cell(me, Combo::Five) {
                self.line.push(p);
                return true;
            }
        }
        if depth == 0 || self.nodes >= self.node_limit {
            return false;
        }
        if self.disproven(pos.hash(), depth) {
            return false;
        }
        let slot = (pos.hash() as usize) % TABLE_SIZE;
        let (mut candidates, mut fives) = self.buffers.pop().unwrap_or_default();
        let won = self.attack_moves(pos, depth, slot, abort, &mut candidates, &mut fives);
        self.buffers.push((candidates, fives));
        won
    }

    /// Caro, the defender to move against the attacker's four (`fives` its five cells, which
    /// the call overwrites): true if no one stone stops every five, or if each stone that
    /// does loses to a further VCF. Caro fives are also stopped from beside them (see
    /// [`Position::five_blocks`]), so a four may have several blocks; the line kept is the
    /// last block's.
    fn caro_four_wins(
        &mut self,
        pos: &mut Position,
        depth: u8,
        abort: &dyn Fn() -> bool,
        fives: &mut Vec<Pos>,
    ) -> bool {
        let five = fives[0];
        // The buffer is the caller's, whose next four refills it: no allocation per four.
        let blocks = fives;
        pos.five_blocks(pos.side_to_move().opponent(), blocks);
        let Some(&last) = blocks.last() else {
            self.line.push(five);
            return true;
        };
        let start = self.line.len();
        for &block in blocks.iter() {
            self.line.truncate(start);
            pos.make_move(block);
            let won = self.attack(pos, depth - 1, abort);
            pos.undo_move();
            if !won {
                self.line.truncate(start);
                return false;
            }
        }
        self.line.push(last);
        true
    }

    /// Whether the defender's forced reply to a four, a node already counted whose position
    /// has the hash `hash`, fails at once: no depth or nodes are left, or the table holds
    /// its disproof. (The block takes the attacker's only five point and gives it none.)
    #[inline(always)]
    fn reply_fails_at_once(&self, depth: u8, hash: u64) -> bool {
        depth == 1 || self.nodes >= self.node_limit || self.disproven(hash, depth - 1)
    }

    /// Plays the defender's forced `block` against the attacker's four, a node already
    /// counted, and searches on; keeps the block in the line when the attacker wins.
    fn defend(
        &mut self,
        pos: &mut Position,
        depth: u8,
        abort: &dyn Fn() -> bool,
        block: Pos,
    ) -> bool {
        pos.make_move(block);
        debug_assert_eq!(pos.combo_count(pos.side_to_move(), Combo::Five), 0);
        let won = self.attack_counted(pos, depth - 1, abort);
        pos.undo_move();
        if won {
            self.line.push(block);
        }
        won
    }

    /// The attacker's fours at one node; records a disproof in `slot` when all fail.
    fn attack_moves(
        &mut self,
        pos: &mut Position,
        depth: u8,
        slot: usize,
        abort: &dyn Fn() -> bool,
        candidates: &mut Vec<Pos>,
        fives: &mut Vec<Pos>,
    ) -> bool {
        let me = pos.side_to_move();
        let op = me.opponent();
        if pos.combo_count(op, Combo::Five) > 0 {
            // The defender threatens five: the attacker must block, and only a block that is
            // itself a four keeps the sequence going.
            // Under caro a five may also be stopped from beside it ([`Position::five_blocks`]).
            pos.five_blocks(op, candidates);
            candidates.retain(|&p| pos.shape(p, me).combo() >= Combo::Four);
            if candidates.is_empty() {
                return false;
            }
        } else {
            pos.four_cells(me, Combo::Four, candidates);
            // Strongest fours first: flex fours and double fours end the search at once.
            // Fours of one combination then go by the attacker's shape value where the rule
            // gains from it ([`RuleSettings::vcf_fours_by_value`]), else in board order (the
            // sort is stable). Settled by matches: E-345; other orders: E-359.
            let by_value = self.fours_by_value;
            candidates.sort_by_key(|&p| {
                let shape = pos.shape(p, me);
                Reverse((shape.combo(), if by_value { shape.value() } else { 0 }))
            });
        }
        // Under caro a four may have several blocks: there the reply is found by playing
        // the four.
        let prejudge = !pos.rule().is_caro();
        // A black renju defender's block may be a foul, which the exact test can only tell
        // with white's four on the board; a block the shapes clear of fouls now stays clear
        // once the four stands ([`Position::may_be_foul`]): about 97 % of white's fours
        // (E-338).
        let foul_defender = pos.rule().forbids(op);
        for &attack_move in candidates.iter() {
            if pos.is_forbidden(attack_move) {
                continue;
            }
            // A plain four's one block is read from the lines, so the reply node can be judged
            // before either stone is played: for about a third of the fours it fails at once
            // and neither is played, the same nodes in fewer instructions (E-330, E-331).
            let known_block = if prejudge {
                pos.only_five_after(attack_move, me)
                    .filter(|&block| !(foul_defender && pos.may_be_foul(block)))
            } else {
                None
            };
            let won = match known_block {
                Some(block) => self.judged_four(pos, depth, abort, attack_move, block, fives),
                None => self.played_four(pos, depth, abort, attack_move, fives),
            };
            if won {
                self.line.push(attack_move);
                return true;
            }
            if self.nodes >= self.node_limit {
                return false;
            }
        }
        self.failed[slot] = (pos.hash() & !DEPTH_MASK) | u64::from(depth);
        false
    }

    /// A plain four `attack_move` whose one block, `block`, is known before it is played:
    /// the reply node is counted and judged from the hash after both stones, and the stones
    /// are played only when it does not fail at once.
    #[inline(always)]
    fn judged_four(
        &mut self,
        pos: &mut Position,
        depth: u8,
        abort: &dyn Fn() -> bool,
        attack_move: Pos,
        block: Pos,
        fives: &mut Vec<Pos>,
    ) -> bool {
        self.count_node(abort);
        if self.reply_fails_at_once(depth, pos.hash_after_pair(attack_move, block)) {
            return false;
        }
        pos.make_move(attack_move);
        if cfg!(debug_assertions) {
            pos.four_cells(pos.side_to_move().opponent(), Combo::Five, fives);
            assert_eq!(fives.as_slice(), [block], "the four's one five point");
            assert!(!pos.is_forbidden(block), "a block cleared of fouls");
        }
        let won = self.defend(pos, depth, abort, block);
        pos.undo_move();
        won
    }

    /// A four `attack_move` whose reply is found by playing it (`fives`, which the call
    /// overwrites, gets its five points): caro's, a black renju defender's block the shapes
    /// could not clear of fouls, and a move that makes no five point or two.
    #[inline(always)]
    fn played_four(
        &mut self,
        pos: &mut Position,
        depth: u8,
        abort: &dyn Fn() -> bool,
        attack_move: Pos,
        fives: &mut Vec<Pos>,
    ) -> bool {
        pos.make_move(attack_move);
        pos.four_cells(pos.side_to_move().opponent(), Combo::Five, fives);
        let won = match fives.len() {
            0 => false,
            _ if pos.rule().is_caro() => self.caro_four_wins(pos, depth, abort, fives),
            n if n >= 2 => {
                self.line.push(fives[0]);
                true
            }
            _ if pos.is_forbidden(fives[0]) => {
                // Black's only defence is a foul: white wins by making five there.
                self.line.push(fives[0]);
                true
            }
            _ => {
                // Judged before the block is played (E-330); the block is played even when
                // it takes the attacker's only four point, so its disproof is recorded
                // (E-329).
                let block = fives[0];
                self.count_node(abort);
                if self.reply_fails_at_once(depth, pos.hash_after(block)) {
                    false
                } else {
                    self.defend(pos, depth, abort, block)
                }
            }
        };
        pos.undo_move();
        won
    }
}
