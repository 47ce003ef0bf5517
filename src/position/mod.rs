//! The search's position: a [`Board`] plus incrementally maintained threat state.
//!
//! For every empty cell and both colours it keeps the shape a stone there would make on each
//! of the four lines, the combined shape over the four lines and that shape's value. Per colour
//! it keeps how many empty cells hold each combined shape and the sum of their values, so
//! "can I make five", "must I block", "do I have a flex four" and the static evaluation are O(1).
//!
//! A stone can change the shapes only of the empty cells within five cells of it along its four
//! lines (the pattern tables read five neighbours on each side; four under freestyle, see
//! [`PatternTable::reach`]), and only on that one line each: `make_move` recomputes exactly
//! those (at most 40 cells x 2 colours, one direction each) and saves the previous values;
//! `undo_move` restores the saved values instead of recomputing. Each empty cell also keeps,
//! per direction, the pattern tables' keys of its neighbourhood, to which a new stone adds a
//! constant, so the update reads the tables without taking the line apart.
//! Debug builds compare the result with a full recomputation after every make and undo.

use crate::board::forbidden;
use crate::board::lines::PAD;
use crate::board::pattern::{Combo, PatternTable};
use crate::board::Board;
use crate::eval::learned::{self, CellValues, ENGINE_VALUES};
use crate::eval::THREAT_STATES;
use crate::types::{Color, Pos, Rule, CELL_COUNT, MAX_SIZE, STRIDE};

mod scratch;
mod shape;
mod threats;
mod update;

pub use shape::Shape;
use shape::{shape_table, COMBO_SLOTS, FOUL_BIT};
use update::{Frame, Saved, FRAME_SLOTS, SAVED_SLOTS};

/// Slots of a colour's combination counts: every four-bit code, so a raw code indexes them
/// without a bounds check (codes from [`Combo::COUNT`] up are never counted).
const COMBO_CODES: usize = 16;

/// Counts and sums over the empty cells, per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Totals {
    combo_count: [[u16; COMBO_CODES]; 2],
    value_sum: [i32; 2],
}

impl Totals {
    /// No cells counted.
    const ZERO: Totals = Totals {
        combo_count: [[0; COMBO_CODES]; 2],
        value_sum: [0; 2],
    };
}

/// An array of `N` copies of `value` built on the heap (as a temporary on the stack, the undo
/// stacks would take hundreds of KiB of the engine thread's stack in debug builds).
fn boxed_array<T: Clone, const N: usize>(value: T) -> Box<[T; N]> {
    vec![value; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has N entries"))
}

/// Calls `f` for every set bit of a per-row bitmap (bit `x` of row `y` is the cell `(x, y)`),
/// row by row and left to right.
#[inline(always)]
fn for_each_set_bit(rows: &[u32], mut f: impl FnMut(Pos)) {
    for (y, &row) in rows.iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(Pos::new(x, y));
        }
    }
}

/// Size of the per-cell arrays: a power of two at least [`CELL_COUNT`], so an index masked
/// with [`SLOT_MASK`] is provably in range.
const SLOTS: usize = 1024;
const SLOT_MASK: usize = SLOTS - 1;
const _: () = assert!(CELL_COUNT <= SLOTS);

/// Rows of the four-cell bitmaps: a power of two above the last row a masked cell index can
/// name, so the update's row index needs no bounds check.
const ROW_SLOTS: usize = SLOTS / STRIDE;
const _: () = assert!(ROW_SLOTS.is_power_of_two() && ROW_SLOTS >= MAX_SIZE);

/// Length of the key pair array: four directions per cell slot.
const KEY_SLOTS: usize = SLOTS * 4;

/// A board with incremental threat state, for search.
#[derive(Clone)]
pub struct Position {
    board: Board,
    table: PatternTable,
    /// Bits `PAD - reach ..= PAD + reach` of a line: the cells a stone can affect, with the
    /// stone at bit `PAD` (see [`PatternTable::reach`]).
    window: u32,
    /// The shape tables of black's and of white's cells (see [`shape_table`]).
    combos: [&'static [Shape; COMBO_SLOTS]; 2],
    /// The threat-state bonuses of black and of white when to move.
    threats: [&'static [i32; THREAT_STATES]; 2],
    /// Indexed by [`Pos::index`]; see [`SLOTS`].
    shapes: Box<[[Shape; 2]; SLOTS]>,
    totals: Totals,
    /// Per colour and row, bit `x` set if the empty cell makes at least a four for that colour.
    /// Rows past the board's height stay zero; see [`ROW_SLOTS`].
    fours: [[u32; ROW_SLOTS]; 2],
    /// Per row, bit `x` set if the cell is empty and within two cells of a stone.
    candidates: [u32; MAX_SIZE],
    /// Per empty cell and direction (at `index * 4 + direction`), the ternary keys of black
    /// and white (see [`pattern::ternary_key_pair`]), kept up to date by adding each stone's
    /// [`pattern::key_delta`]: the update reads the pattern tables without extracting and
    /// weighing windows. A stone's own keys go stale while it stands, and are right again
    /// when it is taken back, since stones leave in the reverse order. Zero under caro,
    /// whose binary tables are read from the line masks.
    ///
    /// [`pattern::ternary_key_pair`]: crate::board::pattern::ternary_key_pair
    /// [`pattern::key_delta`]: crate::board::pattern::key_delta
    keys: Box<[u32; KEY_SLOTS]>,
    /// Undo stack of saved cells (see [`SAVED_SLOTS`]); `saved_len` entries are live.
    saved: Box<[Saved; SAVED_SLOTS]>,
    saved_len: usize,
    /// Undo frames, one per move played (see [`FRAME_SLOTS`]); `frame_len` are live.
    frames: Box<[Frame; FRAME_SLOTS]>,
    frame_len: usize,
}

impl Position {
    /// Threat state for a board, with the evaluation values the engine plays with.
    pub fn new(board: &Board) -> Position {
        Position::with_values(board, ENGINE_VALUES)
    }

    /// Threat state for a board, with the evaluation values `values`.
    pub fn with_values(board: &Board, values: CellValues) -> Position {
        let rule = board.rule();
        let mut pos = Position {
            board: board.clone(),
            table: PatternTable::for_rule(board.rule()),
            window: {
                let reach = PatternTable::reach(board.rule());
                ((1u32 << (2 * reach + 1)) - 1) << (PAD - reach)
            },
            combos: Color::ALL.map(|c| shape_table(values, rule, c)),
            threats: Color::ALL.map(|c| learned::threat_table(values, rule, c)),
            shapes: Box::new([[Shape::DEAD; 2]; SLOTS]),
            keys: boxed_array(0),
            totals: Totals::ZERO,
            fours: [[0; ROW_SLOTS]; 2],
            candidates: [0; MAX_SIZE],
            saved: boxed_array(Saved {
                slot: 0,
                key: 0,
                shapes: [Shape::DEAD; 2],
            }),
            saved_len: 0,
            frames: boxed_array(Frame::EMPTY),
            frame_len: 0,
        };
        pos.rebuild();
        pos
    }

    /// Rows of candidate bits: bit `x` of row `y` is set if `(x, y)` is empty and within two
    /// cells of a stone.
    #[inline]
    pub fn candidate_rows(&self) -> &[u32] {
        &self.candidates[..self.board.height()]
    }

    /// Rows of four-cell bits of `color`: bit `x` of row `y` is set if `color` makes at least a
    /// four on the empty cell `(x, y)`.
    #[inline]
    pub fn four_rows(&self, color: Color) -> &[u32] {
        &self.fours[color.index()][..self.board.height()]
    }

    /// Calls `f` for every empty cell where `color` makes at least a four, row by row.
    #[inline]
    pub fn for_each_four_cell(&self, color: Color, f: impl FnMut(Pos)) {
        for_each_set_bit(&self.fours[color.index()][..self.board.height()], f);
    }

    /// Calls `f` for every candidate cell (empty and within two cells of a stone), row by row
    /// and left to right: the cells of [`Board::empty_cells`] that [`Position::is_candidate`]
    /// accepts, in the same order, without visiting the others.
    #[inline]
    pub fn for_each_candidate(&self, f: impl FnMut(Pos)) {
        for_each_set_bit(self.candidate_rows(), f);
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    /// Colour to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// Zobrist hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// Zobrist hash after the side to move plays `pos`.
    #[inline]
    pub fn hash_after(&self, pos: Pos) -> u64 {
        self.board.hash_after(pos)
    }

    /// Zobrist hash after the side to move plays `first` and the opponent answers `second`.
    #[inline]
    pub fn hash_after_pair(&self, first: Pos, second: Pos) -> u64 {
        self.board.hash_after_pair(first, second)
    }

    /// Threat state of an empty cell for `color`.
    #[inline]
    pub fn shape(&self, pos: Pos, color: Color) -> &Shape {
        &self.shapes[pos.index() & SLOT_MASK][color.index()]
    }

    /// Number of empty cells where `color` would make `combo`.
    #[inline]
    pub fn combo_count(&self, color: Color, combo: Combo) -> u32 {
        self.totals.combo_count[color.index()][combo as usize] as u32
    }

    /// Number of empty cells where `color` would make `combo` or anything stronger.
    #[inline]
    pub fn combo_count_at_least(&self, color: Color, combo: Combo) -> u32 {
        self.totals.combo_count[color.index()][combo as usize..Combo::COUNT]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }

    /// Sum of the evaluation values of `color`'s shapes over all empty cells (see
    /// [`Shape::eval_value`]).
    #[inline]
    pub fn value_sum(&self, color: Color) -> i32 {
        self.totals.value_sum[color.index()]
    }

    /// The side to move's evaluation bonus for the threat state `state` (see
    /// `search::pvs::threat_state`).
    #[inline]
    pub fn threat_bonus(&self, state: usize) -> i32 {
        self.threats[self.side_to_move().index()][state & (THREAT_STATES - 1)]
    }

    /// True if `pos` is empty and within two cells of a stone.
    #[inline]
    pub fn is_candidate(&self, pos: Pos) -> bool {
        self.candidates[pos.yu()] >> pos.x & 1 != 0
    }

    /// True if the side to move may not play `pos` (black's renju foul). Cheap unless the
    /// shapes say the point might be a foul.
    pub fn is_forbidden(&self, pos: Pos) -> bool {
        self.is_foul_for(pos, self.side_to_move())
    }

    /// True if `color` may not play `pos` (black's renju foul), whoever is to move.
    pub fn is_foul_for(&self, pos: Pos, color: Color) -> bool {
        if !self.rule().forbids(color) {
            return false;
        }
        self.may_be_foul(pos) && forbidden::is_forbidden(&mut self.board.lines().clone(), pos)
    }

    /// False when black's shapes at the empty `pos` rule out a renju foul there (no
    /// overline, no flexible four, fewer than two threes and fours, or a five): the cheap
    /// filter before [`Position::is_foul_for`]'s exact test. Each line's shape only falls
    /// when a white stone is added, and the filter with it, so a point it clears stays clear
    /// of fouls after any white move: the VCF solver relies on that to judge black's block
    /// of a white four before the four is played.
    #[inline]
    pub fn may_be_foul(&self, pos: Pos) -> bool {
        self.shape(pos, Color::Black).entry & FOUL_BIT != 0
    }

    /// Passes: the other colour is to move, nothing else changes (threat solvers use it to
    /// ask what a side would do with two moves in a row). Undone by calling it again.
    pub fn toggle_side(&mut self) {
        let side = self.board.side_to_move();
        self.board.set_side_to_move(side.opponent());
    }
}

#[cfg(test)]
mod tests;
