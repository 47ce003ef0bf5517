//! Threat questions answered from the four-cell bitmaps and the lines: where a colour makes a
//! four or a five, whether it has a legal one, which stones stop a five (caro's closed ends
//! included), and the five point a four would leave.

use super::Position;
use crate::board::lines::{Run, DIRECTIONS, LINE_SLOTS};
use crate::board::pattern::{Combo, Pattern};
use crate::types::{Color, Pos};

impl Position {
    /// The first empty cell, row by row, where `color` makes `at_least` or stronger (`Four`
    /// or above: only four-cells are scanned).
    pub fn first_four_cell(&self, color: Color, at_least: Combo) -> Option<Pos> {
        debug_assert!(at_least >= Combo::Four);
        let mut found = None;
        self.for_each_four_cell(color, |p| {
            if found.is_none() && self.shape(p, color).combo() >= at_least {
                found = Some(p);
            }
        });
        found
    }

    /// Whether `color` has an empty cell it may play (not a renju foul for it) where it makes
    /// one of `combos` (each a four or above). The counts answer it unless `color` has fouls
    /// to avoid; then only the four-cells are scanned.
    pub fn has_legal_combo(&self, color: Color, combos: &[Combo]) -> bool {
        debug_assert!(combos.iter().all(|&c| c >= Combo::Four));
        if combos.iter().all(|&c| self.combo_count(color, c) == 0) {
            return false;
        }
        if !self.rule().forbids(color) {
            return true;
        }
        let mut found = false;
        self.for_each_four_cell(color, |p| {
            found = found
                || (combos.contains(&self.shape(p, color).combo()) && !self.is_foul_for(p, color));
        });
        found
    }

    /// Replaces `out` with every empty cell where `color` makes `at_least` or stronger
    /// (`Four` or above), row by row.
    pub fn four_cells(&self, color: Color, at_least: Combo, out: &mut Vec<Pos>) {
        debug_assert!(at_least >= Combo::Four);
        out.clear();
        self.for_each_four_cell(color, |p| {
            if self.shape(p, color).combo() >= at_least {
                out.push(p);
            }
        });
    }

    /// Replaces `out` with the empty cells where a stone of `attacker`'s opponent leaves
    /// `attacker` no five to make: its five cell when it has exactly one, none when it has two
    /// or more. Under caro a stone also stops a five by closing it at its far end (only
    /// opponent stones close a caro five), so the cell beside a five may stop it, and one
    /// stone may stop two fives at once (in `o.xxxx.` the right point closes the left one's
    /// five); every such cell is listed, in the order found.
    pub fn five_blocks(&self, attacker: Color, out: &mut Vec<Pos>) {
        self.four_cells(attacker, Combo::Five, out);
        if !self.rule().is_caro() {
            if out.len() > 1 {
                out.clear();
            }
            return;
        }
        // The five cells stay at the front of `out` while the blocks are found, and are taken
        // off at the end: no allocation.
        let fives = out.len();
        let board = &self.board;
        let lines = board.lines();
        let rule = self.rule();
        // A stone stops a five only on its cell or just beyond an end of one of its winning
        // runs, where it closes that end. Those cells are marked on the lines of every
        // direction through them; the other cells of a five's window are passed over without
        // a test.
        let mut closers = [[0u32; LINE_SLOTS]; 4];
        let mut mark = |cell: Pos| {
            for (dir, masks) in closers.iter_mut().enumerate() {
                let (line, bit) = lines.locate(dir, cell);
                masks[line] |= 1 << bit;
            }
        };
        for &five in &out[..fives] {
            mark(five);
            for (dir, dir_step) in DIRECTIONS.into_iter().enumerate() {
                let Some(run) = crate::board::winning_run(lines, rule, five, attacker, dir, None)
                else {
                    continue;
                };
                let (_, bit) = lines.locate(dir, five);
                for end in [run.low_end, run.high_end] {
                    if let Some(cell) = board.step(five, dir_step, i64::from(end) - i64::from(bit))
                    {
                        mark(cell);
                    }
                }
            }
        }
        // A stone that stops a five lies on it or at one of its ends: within five of its five
        // cell on the five's line. The cells are visited in that order (five by five,
        // direction by direction, along the line), which the solvers' searches follow.
        for i in 0..fives {
            let five = out[i];
            for (dir, dir_step) in DIRECTIONS.into_iter().enumerate() {
                let (line, bit) = lines.locate(dir, five);
                // Bits rise along the direction; a line keeps PAD wall bits beyond each end.
                let mut near = closers[dir][line] & (0x7ff << (bit - 5));
                while near != 0 {
                    let b = near.trailing_zeros();
                    near &= near - 1;
                    // Marked cells are on the board.
                    let Some(cell) = board.step(five, dir_step, i64::from(b) - i64::from(bit))
                    else {
                        continue;
                    };
                    if !board.is_empty(cell) || out[fives..].contains(&cell) {
                        continue;
                    }
                    let stops = out[..fives].iter().all(|&f| {
                        f == cell
                            || !crate::board::is_win_with(lines, rule, f, attacker, Some(cell))
                    });
                    if stops {
                        out.push(cell);
                    }
                }
            }
        }
        out.drain(..fives);
    }

    /// The one empty cell where `color` would make five once it has played the empty `pos`,
    /// when the move makes a plain four; `None` when it makes no five point or two or more.
    /// `color` must have no five point now (so each new one makes its five through `pos`),
    /// and the rule must not be caro (whose fives may be closed). Read from the lines
    /// without playing the move: the VCF solver asks it to judge a four's forced reply
    /// before playing either stone.
    pub fn only_five_after(&self, pos: Pos, color: Color) -> Option<Pos> {
        debug_assert!(!self.rule().is_caro());
        debug_assert_eq!(self.combo_count(color, Combo::Five), 0);
        let shape = self.shape(pos, color);
        let lines = self.board.lines();
        let exact = self.rule().exact_five(color);
        let mut found = None;
        for (dir, step) in DIRECTIONS.into_iter().enumerate() {
            // A line whose shape is below a four gains no five point from the move.
            if shape.pattern(dir) < Pattern::Four {
                continue;
            }
            let (line, bit) = lines.locate(dir, pos);
            let own = lines.stones(color, dir, line) | 1 << bit;
            let occupied = own | lines.stones(color.opponent(), dir, line) | lines.walls(dir, line);
            // The empty cells within four of the move (walls fill the PAD bits at each end,
            // so every bit tested is at least PAD and at most 31 - PAD).
            let mut empty = !occupied & (0x1ff << (bit - 4));
            while empty != 0 {
                let e = empty.trailing_zeros();
                empty &= empty - 1;
                // The run through `e` once both stones stand.
                if Run::through(own, line, e).is_five(exact) {
                    if found.is_some() {
                        return None;
                    }
                    found = self.board.step(pos, step, i64::from(e) - i64::from(bit));
                }
            }
        }
        found
    }
}
