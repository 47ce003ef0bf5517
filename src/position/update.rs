//! The incremental update: a move recomputes the shapes of the empty cells within reach of it
//! on its four lines, saving what it changes on undo stacks; taking it back restores them.

use super::shape::{Shape, FOUR_BIT};
use super::{Position, Totals, KEY_SLOTS, ROW_SLOTS, SLOT_MASK};
use crate::board::lines::{DIRECTIONS, PAD};
use crate::board::pattern::{self, Pattern, PatternTable};
use crate::types::{Color, Pos, CELL_COUNT, MAX_SIZE, STRIDE};

/// A saved cell for undo: its shapes and its key pair in one direction.
#[derive(Clone, Copy)]
pub(super) struct Saved {
    /// `index * 4 + direction`: the slot of [`Position`]'s key pairs.
    pub(super) slot: u32,
    pub(super) key: u32,
    pub(super) shapes: [Shape; 2],
}

/// Per-ply undo frame: everything small enough to copy whole is copied rather than undone
/// cell by cell.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    saved_start: u32,
    totals: Totals,
    /// First of the [`FOUR_ROWS`] four-cell rows saved (a move changes shapes only within
    /// five rows of it).
    four_row: u8,
    fours: [[u32; FOUR_ROWS]; 2],
    /// First of the [`CANDIDATE_ROWS`] candidate rows saved (the 5x5 square of the move).
    candidate_row: u8,
    candidates: [u32; CANDIDATE_ROWS],
}

impl Frame {
    /// A slot no move has written yet.
    pub(super) const EMPTY: Frame = Frame {
        saved_start: 0,
        totals: Totals::ZERO,
        four_row: 0,
        fours: [[0; FOUR_ROWS]; 2],
        candidate_row: 0,
        candidates: [0; CANDIDATE_ROWS],
    };
}

/// Length of the undo frame stack: a power of two at least the number of points of the
/// largest board (every `make_move` fills an empty point, so no more frames are ever live),
/// indexed by masked positions. Frames are written and read in place: pushing and popping a
/// whole frame (about 190 bytes) compiled to a `memcpy` call each way.
pub(super) const FRAME_SLOTS: usize = 512;
const FRAME_MASK: usize = FRAME_SLOTS - 1;
const _: () = assert!(MAX_SIZE * MAX_SIZE <= FRAME_SLOTS);

/// Four-cell rows an undo frame saves: the move's row and five on each side.
const FOUR_ROWS: usize = 11;
/// Candidate rows an undo frame saves: the move's row and two on each side.
const CANDIDATE_ROWS: usize = 5;

/// First row of a `count`-row band centred on row `y`, moved inside the arrays.
#[inline(always)]
fn band_start(y: usize, count: usize) -> usize {
    y.saturating_sub(count / 2).min(MAX_SIZE - count)
}

/// Length of the undo stack of saved cells: a power of two, indexed by masked positions so a
/// push needs no capacity check. It cannot overflow: every `make_move` fills an empty cell, so
/// at most [`CELL_COUNT`] moves are ever stacked, each saving its own cell and at most 40
/// window cells.
pub(super) const SAVED_SLOTS: usize = 1 << 15;
const SAVED_MASK: usize = SAVED_SLOTS - 1;
const _: () = assert!(CELL_COUNT * 41 <= SAVED_SLOTS);

/// Flips the bit of the cell `index` in a per-row bitmap. Out of line and cold: inlined, the
/// compiler computed the row and bit for every changed cell and kept them on the stack,
/// though few changes add or remove a four.
#[cold]
#[inline(never)]
fn flip_bit(rows: &mut [u32; ROW_SLOTS], index: usize) {
    rows[(index / STRIDE) & (ROW_SLOTS - 1)] ^= 1 << (index % STRIDE);
}

/// [`pattern::key_delta`] of a black and of a white stone, for `k` in `0..16` (zero past 10),
/// so a masked `k` indexes them without a bounds check.
const KEY_DELTAS: [[u32; 16]; 2] = {
    let mut deltas = [[0; 16]; 2];
    let mut k = 0;
    while k <= 10 {
        deltas[0][k] = pattern::key_delta(Color::Black, k);
        deltas[1][k] = pattern::key_delta(Color::White, k);
        k += 1;
    }
    deltas
};

/// Step of the dense cell index per step along each direction of [`DIRECTIONS`].
const INDEX_STEP: [isize; 4] = {
    let mut steps = [0; 4];
    let mut d = 0;
    while d < 4 {
        steps[d] = DIRECTIONS[d].0 as isize + DIRECTIONS[d].1 as isize * STRIDE as isize;
        d += 1;
    }
    steps
};

impl Position {
    /// Plays `pos` for the side to move and updates the threat state.
    pub fn make_move(&mut self, pos: Pos) {
        let (four_row, candidate_row) = (
            band_start(pos.yu(), FOUR_ROWS),
            band_start(pos.yu(), CANDIDATE_ROWS),
        );
        let frame = &mut self.frames[self.frame_len & FRAME_MASK];
        self.frame_len += 1;
        frame.saved_start = self.saved_len as u32;
        frame.totals = self.totals;
        frame.four_row = four_row as u8;
        for (saved, rows) in frame.fours.iter_mut().zip(&self.fours) {
            saved.copy_from_slice(&rows[four_row..four_row + FOUR_ROWS]);
        }
        frame.candidate_row = candidate_row as u8;
        frame
            .candidates
            .copy_from_slice(&self.candidates[candidate_row..candidate_row + CANDIDATE_ROWS]);
        // The cell leaves the set of empty cells.
        let index = pos.index() & SLOT_MASK;
        let here = self.shapes[index];
        self.saved[self.saved_len & SAVED_MASK] = Saved {
            slot: (index * 4) as u32,
            key: self.keys[index * 4],
            shapes: here,
        };
        self.saved_len += 1;
        for (c, shape) in here.iter().enumerate() {
            self.totals.combo_count[c][shape.combo() as usize] -= 1;
            self.totals.value_sum[c] -= shape.eval_value();
            self.fours[c][pos.yu()] &= !(1 << pos.x);
        }
        self.board.make_move(pos);
        // New candidates: the empty cells of the 5x5 square around the stone (undo restores
        // the saved rows).
        let (lo, hi) = (
            pos.yu().saturating_sub(2),
            (pos.yu() + 2).min(self.board.height() - 1),
        );
        let square = (0b11111u32 << pos.x) >> 2;
        let lines = self.board.lines();
        for y in lo..=hi {
            let occupied = lines.stones(Color::Black, 0, y)
                | lines.stones(Color::White, 0, y)
                | lines.walls(0, y);
            self.candidates[y] |= square & !(occupied >> PAD);
        }
        self.candidates[pos.yu()] &= !(1 << pos.x);
        self.update_lines(pos);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move.
    pub fn undo_move(&mut self) {
        assert!(self.frame_len > 0, "undo_move without make_move");
        self.frame_len -= 1;
        let frame = &self.frames[self.frame_len & FRAME_MASK];
        self.board.undo_move();
        let start = frame.saved_start as usize;
        for i in (start..self.saved_len).rev() {
            let saved = &self.saved[i & SAVED_MASK];
            let slot = saved.slot as usize & (KEY_SLOTS - 1);
            self.shapes[slot / 4] = saved.shapes;
            self.keys[slot] = saved.key;
        }
        self.saved_len = start;
        self.totals = frame.totals;
        let four_row = frame.four_row as usize;
        for (rows, saved) in self.fours.iter_mut().zip(&frame.fours) {
            rows[four_row..four_row + FOUR_ROWS].copy_from_slice(saved);
        }
        let candidate_row = frame.candidate_row as usize;
        self.candidates[candidate_row..candidate_row + CANDIDATE_ROWS]
            .copy_from_slice(&frame.candidates);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Recomputes the shapes of the empty cells within five of `pos` on its four lines.
    fn update_lines(&mut self, pos: Pos) {
        // One copy of the loop per table kind, so the lookup is not re-dispatched per cell.
        match self.table {
            PatternTable::Ternary { tables, .. } => {
                // A copy, not a reference: the 64 bytes sit in the loop's stack frame instead
                // of a pointer held in a register (a reference measured 1 % more instructions).
                let deltas = KEY_DELTAS[self.board.side_to_move().opponent().index()];
                self.update_lines_with(pos, |key, k, _, _, _, _| {
                    let key = key + deltas[k & 15];
                    (key, pattern::ternary_patterns(&tables, key))
                })
            }
            PatternTable::Binary { tables } => {
                self.update_lines_with(pos, |key, _, black, white, walls, bit| {
                    (key, pattern::binary_both(&tables, black, white, walls, bit))
                })
            }
        }
    }

    /// The update loop. `patterns_both(key, k, black, white, walls, bit)` gives the cell's new
    /// key pair and the shapes black and white make there, for the empty cell at `bit` of a
    /// line with the given masks, `k - 5` cells from the new stone, whose key pair in that
    /// direction was `key`.
    #[inline(always)]
    fn update_lines_with(
        &mut self,
        pos: Pos,
        patterns_both: impl Fn(u32, usize, u32, u32, u32, u32) -> (u32, [Pattern; 2]),
    ) {
        // Fields are split into locals so the compiler keeps pointers and counts in registers
        // instead of reloading them after every store through `self`.
        let mut totals = self.totals;
        let combos = self.combos;
        let shapes = &mut *self.shapes;
        let keys = &mut *self.keys;
        let saved = &mut *self.saved;
        let mut saved_len = self.saved_len;
        let fours = &mut self.fours;
        let lines = self.board.lines();
        let centre = pos.index() as isize;
        let window = self.window;
        // The body is expanded once per direction, so the direction is a constant in each copy:
        // the pattern it replaces is at a fixed offset instead of a store and reload through a
        // dynamically indexed copy on the stack.
        macro_rules! update_direction {
            ($dir:literal) => {{
                const DIR: usize = $dir;
                const SHIFT: u32 = 4 * DIR as u32;
                let step = INDEX_STEP[DIR];
                let (line, bit) = lines.locate(DIR, pos);
                let black = lines.stones(Color::Black, DIR, line);
                let white = lines.stones(Color::White, DIR, line);
                let walls = lines.walls(DIR, line);
                // The empty cells of the window (the centre now holds the new stone).
                let mut empty = !(black | white | walls) & (window << (bit - PAD));
                let base = centre - bit as isize * step;
                while empty != 0 {
                    let b = empty.trailing_zeros();
                    empty &= empty - 1;
                    let index = (base + b as isize * step) as usize & SLOT_MASK;
                    let slot = index * 4 + DIR;
                    let key = keys[slot];
                    let (new_key, fresh) =
                        patterns_both(key, (b + 5 - bit) as usize, black, white, walls, b);
                    keys[slot] = new_key;
                    let cell = &mut shapes[index];
                    // Every visited cell's key changes (under caro, which has no keys, saving
                    // the unchanged ones costs little), so every one is saved.
                    saved[saved_len & SAVED_MASK] = Saved {
                        slot: slot as u32,
                        key,
                        shapes: *cell,
                    };
                    saved_len += 1;
                    let fresh = fresh.map(|p| (p as u32) << SHIFT);
                    for c in 0..2 {
                        let old = cell[c];
                        if fresh[c] == old.packed & (15 << SHIFT) {
                            continue;
                        }
                        let packed = (old.packed & !(15 << SHIFT)) | fresh[c];
                        let new = Shape::from_packed(packed, combos[c]);
                        // Raw combo codes: no conversion to `Combo` in the hot loop.
                        let (old_code, new_code) = (old.code(), new.code());
                        totals.combo_count[c][old_code] -= 1;
                        totals.combo_count[c][new_code] += 1;
                        totals.value_sum[c] += new.eval_value() - old.eval_value();
                        cell[c] = new;
                        if (old.entry ^ new.entry) & FOUR_BIT != 0 {
                            flip_bit(&mut fours[c], index);
                        }
                    }
                }
            }};
        }
        update_direction!(0);
        update_direction!(1);
        update_direction!(2);
        update_direction!(3);
        self.totals = totals;
        self.saved_len = saved_len;
    }
}
