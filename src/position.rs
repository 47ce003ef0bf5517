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

use std::sync::OnceLock;

use crate::board::forbidden;
use crate::board::lines::{Run, DIRECTIONS, LINE_SLOTS, PAD};
use crate::board::pattern::{self, Combo, Pattern, PatternTable};
use crate::board::{Board, Cell};
use crate::eval::learned::{self, CellValues, ENGINE_VALUES};
use crate::eval::{CellShape, THREAT_STATES};
use crate::types::{Color, Pos, Rule, CELL_COUNT, MAX_SIZE, STRIDE};

/// Threat state of one empty cell for one colour: eight bytes, so a cell's pair of shapes
/// moves as one 16-byte value when the update saves and restores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct Shape {
    /// Shape per direction, four bits each: direction `d` in bits `4d..4d + 4`. Packed, the
    /// four shapes are the combination table's index, and the update replaces one direction
    /// with a mask and a shift (as an array of bytes, rebuilding the index and the array took
    /// a fifth of the make+undo instructions). Bits 16..32 hold the cell's evaluation value
    /// (signed), which the table's entry brings along; the index masks them off.
    packed: u32,
    /// The combination table's entry for `packed`: `value << 6 | foul << 5 | four << 4 |
    /// combo`, where `four` is set when the combo is at least [`Combo::Four`] and `foul` when
    /// [`Combo::is_foul_candidate`] holds for the patterns.
    entry: u32,
}

impl Shape {
    const DEAD: Shape = Shape {
        packed: 0,
        entry: 0,
    };

    /// Shape per direction.
    #[inline]
    pub fn patterns(&self) -> [Pattern; 4] {
        [0, 1, 2, 3].map(|d| self.pattern(d))
    }

    /// Shape along direction `dir`.
    #[inline(always)]
    fn pattern(&self, dir: usize) -> Pattern {
        Pattern::from_u8(((self.packed >> (4 * dir)) & 15) as u8)
    }

    /// Whether a stone here would build on a stone of its colour: some line's shape is above
    /// [`Pattern::One`] (a two or better). Where neither colour's shape does, the cell shares
    /// no window of five with any stone, except on lines already dead or only overlines.
    #[inline(always)]
    pub fn builds(&self) -> bool {
        // A nibble of 8 or more (flexible four, five) has its top bit set; below 8, setting
        // the top bit and taking 3 (no borrow crosses nibbles) keeps it set from 3 (a two) up.
        const TOP: u32 = 0x8888;
        self.packed & TOP != 0 || ((self.packed | TOP) - 0x3333) & TOP != 0
    }

    /// Combined shape over the four lines.
    #[inline(always)]
    pub fn combo(&self) -> Combo {
        Combo::from_low_bits(self.entry)
    }

    /// The combined shape's discriminant, an index below [`Combo::COUNT`].
    #[inline(always)]
    fn code(&self) -> usize {
        (self.entry & 15) as usize
    }

    /// Value of the shape (line weights plus combination bonus), which the move ordering
    /// reads. Signed: a fitted bonus may take a combination below zero, so the shift is
    /// arithmetic.
    #[inline(always)]
    pub fn value(&self) -> i32 {
        (self.entry as i32) >> VALUE_SHIFT
    }

    /// What the cell adds to its colour's evaluation sum ([`Position::value_sum`]): the
    /// classic [`Shape::value`] or a learned value (see [`learned`]).
    #[inline(always)]
    pub fn eval_value(&self) -> i32 {
        (self.packed as i32) >> 16
    }

    fn from_patterns(patterns: [Pattern; 4], table: &[Shape; COMBO_SLOTS]) -> Shape {
        Shape::from_packed(pack(patterns), table)
    }

    /// The shape whose four directions are the low 16 bits of `packed` (the rest is ignored).
    #[inline(always)]
    fn from_packed(packed: u32, table: &[Shape; COMBO_SLOTS]) -> Shape {
        table[packed as usize & (COMBO_SLOTS - 1)]
    }
}

/// Four shapes packed four bits per direction: [`Shape`]'s form and the combination table's
/// index.
fn pack(patterns: [Pattern; 4]) -> u32 {
    patterns
        .iter()
        .enumerate()
        .map(|(d, &p)| (p as u32) << (4 * d))
        .sum()
}

/// Bit of a combination entry set when the combo is at least [`Combo::Four`].
const FOUR_BIT: u32 = 1 << 4;
/// Bit of a combination entry set when the patterns may make a renju foul for black.
const FOUL_BIT: u32 = 1 << 5;
/// Shift of the value in a combination entry.
const VALUE_SHIFT: u32 = 6;

/// Length of the combination table: one slot per four-bit-per-direction key, so a masked
/// key needs no bounds check. Only 10^4 slots are ever read, ten consecutive entries in each
/// 64-byte row of sixteen.
const COMBO_SLOTS: usize = 1 << 16;

/// The shape of every four-pattern tuple, indexed by [`pack`], with the evaluation values
/// of `values` for `color`'s cells under `rule`: the combined shape and classic value in the
/// entry, packed as `value << 6 | foul << 5 | four << 4 | combo` in a `u32`, the value signed
/// (see [`combo_entry`]), and the evaluation value in the high half of `packed` (clamped to
/// 16 bits; only a cell making four fives at once would reach the bound). One table per
/// choice of values, slot of the learned tables (see [`learned::EvalSlot`]) or the classic
/// values, built once. A one-byte combo table with values kept by weight differences
/// measured no faster.
fn shape_table(values: CellValues, rule: Rule, color: Color) -> &'static [Shape; COMBO_SLOTS] {
    static TABLES: [OnceLock<Box<[Shape; COMBO_SLOTS]>>; 1 + learned::EvalSlot::COUNT] =
        [const { OnceLock::new() }; 1 + learned::EvalSlot::COUNT];
    let index = match (values, learned::EvalSlot::of(rule, color)) {
        (CellValues::Learned, Some(slot)) => 1 + slot as usize,
        _ => 0,
    };
    TABLES[index].get_or_init(|| {
        let n = Pattern::COUNT;
        let mut table = boxed_array(Shape::DEAD);
        for i in 0..n * n * n * n {
            let patterns = [i % n, i / n % n, i / (n * n) % n, i / (n * n * n)]
                .map(|p| Pattern::from_u8(p as u8));
            let combo = Combo::of(patterns);
            let value = CellShape { patterns, combo }.value();
            let foul = Combo::is_foul_candidate(patterns);
            let eval = learned::cell_value(values, rule, color, patterns)
                .clamp(i16::MIN.into(), i16::MAX.into());
            let packed = pack(patterns);
            table[packed as usize] = Shape {
                packed: packed | (eval as u32) << 16,
                entry: combo_entry(value, combo, foul),
            };
        }
        table
    })
}

/// One entry of [`shape_table`]. The value is stored signed (read back by an arithmetic
/// shift): fitted weights may make a combination worth less than nothing.
fn combo_entry(value: i32, combo: Combo, foul: bool) -> u32 {
    debug_assert!((-(1 << (31 - VALUE_SHIFT))..1 << (31 - VALUE_SHIFT)).contains(&value));
    let four = (combo >= Combo::Four) as u32;
    ((value << VALUE_SHIFT) as u32) | (foul as u32 * FOUL_BIT) | (four * FOUR_BIT) | combo as u32
}

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

/// A saved cell for undo: its shapes and its key pair in one direction.
#[derive(Clone, Copy)]
struct Saved {
    /// `index * 4 + direction`: the slot of [`Position`]'s key pairs.
    slot: u32,
    key: u32,
    shapes: [Shape; 2],
}

/// Per-ply undo frame: everything small enough to copy whole is copied rather than undone
/// cell by cell.
#[derive(Clone, Copy)]
struct Frame {
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
    const EMPTY: Frame = Frame {
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
const FRAME_SLOTS: usize = 512;
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
const SAVED_SLOTS: usize = 1 << 15;
const SAVED_MASK: usize = SAVED_SLOTS - 1;
const _: () = assert!(CELL_COUNT * 41 <= SAVED_SLOTS);

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

/// Flips the bit of the cell `index` in a per-row bitmap. Out of line and cold: inlined, the
/// compiler computed the row and bit for every changed cell and kept them on the stack,
/// though few changes add or remove a four.
#[cold]
#[inline(never)]
fn flip_bit(rows: &mut [u32; ROW_SLOTS], index: usize) {
    rows[(index / STRIDE) & (ROW_SLOTS - 1)] ^= 1 << (index % STRIDE);
}

/// Length of the key pair array: four directions per cell slot.
const KEY_SLOTS: usize = SLOTS * 4;

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

    /// Recomputes everything from the stones.
    fn rebuild(&mut self) {
        let (shapes, totals) = self.compute_from_scratch();
        self.shapes = shapes;
        self.totals = totals;
        self.keys = self.keys_from_scratch();
        self.fours = self.fours_from_shapes();
        self.candidates = self.candidates_from_scratch();
    }

    /// Candidate rows counted cell by cell: the twin of [`Position::candidate_rows`].
    fn candidates_from_scratch(&self) -> [u32; MAX_SIZE] {
        let mut rows = [0; MAX_SIZE];
        let (w, h) = (self.board.width() as i32, self.board.height() as i32);
        for p in self.board.empty_cells() {
            let near = (-2..=2).any(|dy| {
                (-2..=2).any(|dx| {
                    let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                    x >= 0
                        && y >= 0
                        && x < w
                        && y < h
                        && matches!(
                            self.board.cell(Pos::new(x as usize, y as usize)),
                            Cell::Stone(_)
                        )
                })
            });
            if near {
                rows[p.yu()] |= 1 << p.x;
            }
        }
        rows
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

    fn fours_from_shapes(&self) -> [[u32; ROW_SLOTS]; 2] {
        let mut fours = [[0; ROW_SLOTS]; 2];
        for p in self.board.empty_cells() {
            for color in Color::ALL {
                if self.shapes[p.index()][color.index()].combo() >= Combo::Four {
                    fours[color.index()][p.yu()] |= 1 << p.x;
                }
            }
        }
        fours
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

    /// The key pairs of the empty cells read from the lines: the twin of the incremental keys.
    fn keys_from_scratch(&self) -> Box<[u32; KEY_SLOTS]> {
        let mut keys = boxed_array(0);
        // The neighbours a key counts: the stone's window, moved to the centre of an 11-bit
        // window.
        let neighbours = self.window >> (PAD - 5);
        if let PatternTable::Ternary { weights, .. } = self.table {
            let lines = self.board.lines();
            for p in self.board.empty_cells() {
                for dir in 0..4 {
                    let (line, bit) = lines.locate(dir, p);
                    keys[p.index() * 4 + dir] = pattern::ternary_key_pair(
                        weights,
                        lines.stones(Color::Black, dir, line),
                        lines.stones(Color::White, dir, line),
                        lines.walls(dir, line),
                        bit,
                        neighbours,
                    );
                }
            }
        }
        keys
    }

    /// The from-scratch twin of the incremental shapes and totals.
    fn compute_from_scratch(&self) -> (Box<[[Shape; 2]; SLOTS]>, Totals) {
        let mut shapes = Box::new([[Shape::DEAD; 2]; SLOTS]);
        let mut totals = Totals::ZERO;
        for p in self.board.empty_cells() {
            for color in Color::ALL {
                let shape = Shape::from_patterns(
                    CellShape::at(&self.board, &self.table, p, color).patterns,
                    self.combos[color.index()],
                );
                shapes[p.index()][color.index()] = shape;
                totals.combo_count[color.index()][shape.combo() as usize] += 1;
                totals.value_sum[color.index()] += shape.eval_value();
            }
        }
        (shapes, totals)
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

    /// Passes: the other colour is to move, nothing else changes (threat solvers use it to
    /// ask what a side would do with two moves in a row). Undone by calling it again.
    pub fn toggle_side(&mut self) {
        let side = self.board.side_to_move();
        self.board.set_side_to_move(side.opponent());
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

    /// Panics if the incremental state differs from a full recomputation.
    pub fn assert_consistent(&self) {
        let (shapes, totals) = self.compute_from_scratch();
        assert_eq!(totals, self.totals, "totals differ from recomputation");
        let keys = self.keys_from_scratch();
        for p in self.board.empty_cells() {
            assert_eq!(
                shapes[p.index()],
                self.shapes[p.index()],
                "shapes differ at {p}"
            );
            let slots = p.index() * 4..p.index() * 4 + 4;
            assert_eq!(keys[slots.clone()], self.keys[slots], "keys differ at {p}");
        }
        assert_eq!(
            self.fours_from_shapes(),
            self.fours,
            "four cells differ from recomputation"
        );
        assert_eq!(
            self.candidates_from_scratch(),
            self.candidates,
            "candidates differ from recomputation"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values below zero survive the packing with every flag (a logical shift read them back
    /// as about 2^26).
    #[test]
    fn combo_entries_keep_negative_values() {
        for value in [-11, -1, 0, 1, 693, 40_000, -40_000] {
            for (combo, foul) in [(Combo::DoubleFour, true), (Combo::Three, false)] {
                let shape = Shape {
                    packed: 0,
                    entry: combo_entry(value, combo, foul),
                };
                assert_eq!(shape.value(), value);
                assert_eq!(shape.combo(), combo);
                assert_eq!(shape.entry & FOUL_BIT != 0, foul);
                assert_eq!(shape.entry & FOUR_BIT != 0, combo >= Combo::Four);
            }
        }
    }

    /// The bit test agrees with reading the four shapes one by one, for every packing.
    #[test]
    fn builds_reads_every_direction() {
        for packed in 0..1u32 << 16 {
            let nibbles = [0, 1, 2, 3].map(|d| (packed >> (4 * d)) & 15);
            if nibbles.iter().any(|&n| n as usize >= Pattern::COUNT) {
                continue;
            }
            let shape = Shape { packed, entry: 0 };
            let expected = shape.patterns().iter().any(|&p| p > Pattern::One);
            assert_eq!(shape.builds(), expected, "packed {packed:#06x}");
        }
    }

    /// A flex three seen through the counts: black can make a flex four, white must defend, and
    /// a make/undo round trip restores every count. (tests/incremental.rs runs the long random
    /// walks against the recomputation.)
    #[test]
    fn counts_follow_a_three_and_undo_restores_them() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y, c) in [
            (6, 7, Color::Black),
            (0, 0, Color::White),
            (7, 7, Color::Black),
            (14, 14, Color::White),
        ] {
            board.place(Pos::new(x, y), c);
        }
        board.set_side_to_move(Color::Black);
        let mut pos = Position::new(&board);
        let before = pos.totals;
        assert_eq!(pos.combo_count(Color::Black, Combo::FlexFour), 0);
        pos.make_move(Pos::new(8, 7));
        // Black's open three: 5,7 and 9,7 make flex fours for black.
        assert_eq!(pos.combo_count(Color::Black, Combo::FlexFour), 2);
        assert_eq!(
            pos.shape(Pos::new(9, 7), Color::Black).combo(),
            Combo::FlexFour
        );
        pos.assert_consistent();
        pos.undo_move();
        assert_eq!(pos.totals, before);
        pos.assert_consistent();
    }

    /// Black's four on row 7 under each rule, white to move: the cells where a white stone
    /// leaves black no five.
    fn five_blocks_on_row(rule: Rule, black: &[usize], white: &[usize]) -> Vec<Pos> {
        let stones = |xs: &[usize]| xs.iter().map(|&x| (x, 7)).collect::<Vec<_>>();
        let mut white = stones(white);
        white.push((0, 14));
        let board = Board::from_stones(15, 15, rule, &stones(black), &white, Color::White)
            .expect("a legal test position");
        let mut blocks = vec![Pos::new(14, 14)];
        Position::new(&board).five_blocks(Color::Black, &mut blocks);
        blocks.sort();
        blocks
    }

    #[test]
    fn caro_fives_are_stopped_from_beside_them() {
        let row = |xs: &[usize]| xs.iter().map(|&x| Pos::new(x, 7)).collect::<Vec<_>>();
        // `oxxxx._`: the five point, or the point after it, which closes that five.
        assert_eq!(
            five_blocks_on_row(Rule::Caro, &[3, 4, 5, 6], &[2]),
            row(&[7, 8])
        );
        assert_eq!(
            five_blocks_on_row(Rule::Freestyle, &[3, 4, 5, 6], &[2]),
            row(&[7])
        );
        // `o.xxxx.`: two five points, both stopped by a stone on the right one.
        assert_eq!(
            five_blocks_on_row(Rule::Caro, &[4, 5, 6, 7], &[2]),
            row(&[8])
        );
        assert_eq!(
            five_blocks_on_row(Rule::Freestyle, &[4, 5, 6, 7], &[2]),
            row(&[])
        );
        // `.xxxx.` with room on both sides: no one stone stops it.
        assert_eq!(five_blocks_on_row(Rule::Caro, &[4, 5, 6, 7], &[]), row(&[]));
        // No four: nothing to stop.
        assert_eq!(five_blocks_on_row(Rule::Caro, &[4, 5, 6], &[]), row(&[]));
    }

    /// Points as `(x, y)`, the form `Board::from_stones` takes.
    type Points = Vec<(usize, usize)>;

    /// Stones thrown `throws` times at random points of a `size` x `size` board, black and
    /// white in turn; a throw at a taken point is lost.
    fn random_stones(rng: &mut impl rand::Rng, size: usize, throws: usize) -> (Points, Points) {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        let mut taken = std::collections::HashSet::new();
        for i in 0..throws {
            let cell = (rng.gen_range(0..size), rng.gen_range(0..size));
            if taken.insert(cell) {
                if i % 2 == 0 {
                    black.push(cell)
                } else {
                    white.push(cell)
                }
            }
        }
        (black, white)
    }

    /// The caro blocks equal a test of every empty point, each put on a copy of the lines,
    /// on random crowded boards (many fours, some fives closed or open by one stone).
    #[test]
    fn caro_five_blocks_match_a_test_of_every_point() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let (mut positions, mut beside) = (0, 0);
        for round in 0..400 {
            let rule = if round % 2 == 0 {
                Rule::Caro
            } else {
                Rule::CaroExact
            };
            let size = [9, 15, 20][round % 3];
            let throws = rng.gen_range(size * 2..size * size / 2);
            let (black, white) = random_stones(&mut rng, size, throws);
            let board = Board::from_stones(size, size, rule, &black, &white, Color::Black)
                .expect("a legal test position");
            let pos = Position::new(&board);
            for attacker in [Color::Black, Color::White] {
                let mut fives = Vec::new();
                pos.four_cells(attacker, Combo::Five, &mut fives);
                let mut expected: Vec<Pos> = Vec::new();
                if !fives.is_empty() {
                    for cell in board.empty_cells() {
                        let mut lines = board.lines().clone();
                        lines.add(attacker.opponent(), cell);
                        if fives.iter().all(|&f| {
                            f == cell || !crate::board::is_win_on(&lines, rule, f, attacker)
                        }) {
                            expected.push(cell);
                        }
                    }
                    positions += 1;
                    beside += expected.iter().any(|c| !fives.contains(c)) as usize;
                }
                let mut blocks = vec![Pos::new(0, 0)];
                pos.five_blocks(attacker, &mut blocks);
                blocks.sort();
                expected.sort();
                assert_eq!(
                    blocks, expected,
                    "{rule:?} {size} {attacker:?} {black:?} {white:?}"
                );
            }
        }
        // The boards are crowded enough that the test reaches both kinds of block.
        assert!(positions > 100 && beside > 10, "{positions} {beside}");
    }

    /// `only_five_after` names the five point a move leaves exactly when playing the move
    /// and listing the five points gives one, on random crowded boards under the rules
    /// without caro's closed fives.
    #[test]
    fn only_five_after_matches_playing_the_move() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let (mut fours, mut ones) = (0, 0);
        for round in 0..300 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][round % 3];
            let size = [9, 15, 20][round / 3 % 3];
            let throws = rng.gen_range(size..size * size / 3);
            let (black, white) = random_stones(&mut rng, size, throws);
            for mover in [Color::Black, Color::White] {
                let Ok(board) = Board::from_stones(size, size, rule, &black, &white, mover) else {
                    continue;
                };
                let mut pos = Position::new(&board);
                if pos.combo_count(mover, Combo::Five) > 0 {
                    continue;
                }
                let mut cells = Vec::new();
                pos.four_cells(mover, Combo::Four, &mut cells);
                for cell in cells {
                    let named = pos.only_five_after(cell, mover);
                    pos.make_move(cell);
                    let mut fives = Vec::new();
                    pos.four_cells(mover, Combo::Five, &mut fives);
                    pos.undo_move();
                    let expected = (fives.len() == 1).then(|| fives[0]);
                    assert_eq!(named, expected, "{rule:?} {size} {mover:?} {cell}");
                    fours += 1;
                    ones += expected.is_some() as usize;
                }
            }
        }
        assert!(fours > 1000 && ones > 500 && ones < fours, "{fours} {ones}");
    }

    /// A white stone never makes a renju foul candidate of a point that was not one: the VCF
    /// solver judges black's block of a white four before the four stands on that. Each
    /// point cleared before the move is also checked with the exact foul test after it.
    #[test]
    fn a_white_stone_never_raises_the_foul_filter() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        let (mut raised_before, mut checked) = (0, 0);
        for round in 0..200 {
            let size = [9, 15][round % 2];
            let throws = rng.gen_range(size..size * size / 2);
            let (black, white) = random_stones(&mut rng, size, throws);
            let Ok(board) =
                Board::from_stones(size, size, Rule::Renju, &black, &white, Color::White)
            else {
                continue;
            };
            let mut pos = Position::new(&board);
            let empty: Vec<Pos> = board.empty_cells().collect();
            let before: Vec<bool> = empty.iter().map(|&p| pos.may_be_foul(p)).collect();
            raised_before += before.iter().filter(|&&b| b).count();
            for _ in 0..4 {
                let Some(&mv) = empty.get(rng.gen_range(0..empty.len())) else {
                    break;
                };
                pos.make_move(mv);
                for (&p, &was) in empty.iter().zip(&before) {
                    if p == mv || was {
                        continue;
                    }
                    assert!(!pos.may_be_foul(p), "{size} {mv} raised {p}");
                    assert!(
                        !pos.is_foul_for(p, Color::Black),
                        "{size} {mv} made {p} a foul"
                    );
                    checked += 1;
                }
                pos.undo_move();
            }
        }
        assert!(
            raised_before > 200 && checked > 50_000,
            "{raised_before} {checked}"
        );
    }
}
