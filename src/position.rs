//! The search's position: a [`Board`] plus incrementally maintained threat state.
//!
//! For every empty cell and both colours it keeps the shape a stone there would make on each
//! of the four lines, the combined shape over the four lines and that shape's value. Per colour
//! it keeps how many empty cells hold each combined shape and the sum of their values, so
//! "can I make five", "must I block", "do I have a flex four" and the static evaluation are O(1).
//!
//! A stone can change the shapes only of the empty cells within five cells of it along its four
//! lines (the pattern tables read five neighbours on each side), and only on that one line each:
//! `make_move` recomputes exactly those (at most 40 cells x 2 colours, one direction each) and
//! saves the previous values; `undo_move` restores the saved values instead of recomputing.
//! Debug builds compare the result with a full recomputation after every make and undo.

use std::sync::OnceLock;

use crate::board::forbidden;
use crate::board::lines::DIRECTIONS;
use crate::board::pattern::{Combo, Pattern, PatternTable};
use crate::board::{Board, Cell};
use crate::eval::{CellShape, COMBO_BONUS, PATTERN_WEIGHT};
use crate::types::{Color, Pos, Rule, CELL_COUNT, MAX_SIZE};

/// Threat state of one empty cell for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Shape per direction.
    pub patterns: [Pattern; 4],
    /// Combined shape.
    pub combo: Combo,
    /// Value of the shape (line weights plus combination bonus).
    pub value: i32,
}

impl Shape {
    const DEAD: Shape = Shape {
        patterns: [Pattern::Dead; 4],
        combo: Combo::None,
        value: 0,
    };

    #[inline(always)]
    fn from_patterns(patterns: [Pattern; 4]) -> Shape {
        Shape::from_table(patterns, combo_table())
    }

    #[inline(always)]
    fn from_table(patterns: [Pattern; 4], table: &[u32]) -> Shape {
        let index = patterns[0] as usize
            + Pattern::COUNT
                * (patterns[1] as usize
                    + Pattern::COUNT
                        * (patterns[2] as usize + Pattern::COUNT * patterns[3] as usize));
        let entry = table[index];
        let (combo, value) = (Combo::from_u8((entry & 15) as u8), (entry >> 4) as i32);
        Shape {
            patterns,
            combo,
            value,
        }
    }
}

/// Sets or clears the four-cell bit of the cell with dense index `index`.
#[inline(always)]
fn set_bit(fours: &mut [[u32; MAX_SIZE]; 2], index: usize, color: usize, on: bool) {
    let (x, y) = (index % crate::types::STRIDE, index / crate::types::STRIDE);
    if on {
        fours[color][y] |= 1 << x;
    } else {
        fours[color][y] &= !(1 << x);
    }
}

/// Combined shape and value of every four-pattern tuple, indexed `p0 + 10 p1 + 100 p2 + 1000 p3`.
///
/// Entries are packed as `value << 4 | combo` in a `u32` (40 KB, so lookups stay in L1).
fn combo_table() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let n = Pattern::COUNT;
        let mut table = Vec::with_capacity(n * n * n * n);
        for i in 0..n * n * n * n {
            let patterns = [i % n, i / n % n, i / (n * n) % n, i / (n * n * n)]
                .map(|p| Pattern::from_u8(p as u8));
            let combo = Combo::of(patterns);
            let lines: i32 = patterns.iter().map(|&p| PATTERN_WEIGHT[p as usize]).sum();
            let value = lines + COMBO_BONUS[combo as usize];
            debug_assert!((0..1 << 27).contains(&value));
            table.push((value as u32) << 4 | combo as u32);
        }
        table
    })
}

/// Counts and sums over the empty cells, per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Totals {
    combo_count: [[u16; Combo::COUNT]; 2],
    value_sum: [i32; 2],
}

/// A saved cell for undo.
#[derive(Clone, Copy)]
struct Saved {
    index: u16,
    shapes: [Shape; 2],
}

/// Per-ply undo frame.
#[derive(Clone, Copy)]
struct Frame {
    saved_start: u32,
    totals: Totals,
}

/// A board with incremental threat state, for search.
#[derive(Clone)]
pub struct Position {
    board: Board,
    table: PatternTable,
    combos: &'static [u32],
    shapes: Vec<[Shape; 2]>,
    /// Number of stones within two cells (5x5 square) of each cell: move candidates.
    near: Vec<u8>,
    totals: Totals,
    /// Per colour and row, bit `x` set if the empty cell makes at least a four for that colour.
    fours: [[u32; MAX_SIZE]; 2],
    /// Per row, bit `x` set if the cell is empty and within two cells of a stone.
    candidates: [u32; MAX_SIZE],
    saved: Vec<Saved>,
    frames: Vec<Frame>,
}

impl Position {
    /// Threat state for a board.
    pub fn new(board: &Board) -> Position {
        let mut pos = Position {
            board: board.clone(),
            table: PatternTable::for_rule(board.rule()),
            combos: combo_table(),
            shapes: vec![[Shape::DEAD; 2]; CELL_COUNT],
            near: vec![0; CELL_COUNT],
            totals: Totals {
                combo_count: [[0; Combo::COUNT]; 2],
                value_sum: [0; 2],
            },
            fours: [[0; MAX_SIZE]; 2],
            candidates: [0; MAX_SIZE],
            saved: Vec::with_capacity(4096),
            frames: Vec::with_capacity(256),
        };
        pos.rebuild();
        pos
    }

    /// Recomputes everything from the stones.
    fn rebuild(&mut self) {
        let (shapes, near, totals) = self.compute_from_scratch();
        self.shapes = shapes;
        self.near = near;
        self.totals = totals;
        self.fours = self.fours_from_shapes();
        self.candidates = self.candidates_from_near();
    }

    fn candidates_from_near(&self) -> [u32; MAX_SIZE] {
        let mut rows = [0; MAX_SIZE];
        for p in self.board.empty_cells() {
            if self.near[p.index()] > 0 {
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

    fn fours_from_shapes(&self) -> [[u32; MAX_SIZE]; 2] {
        let mut fours = [[0; MAX_SIZE]; 2];
        for p in self.board.empty_cells() {
            for color in Color::ALL {
                if self.shapes[p.index()][color.index()].combo >= Combo::Four {
                    fours[color.index()][p.yu()] |= 1 << p.x;
                }
            }
        }
        fours
    }

    #[inline(always)]
    fn set_four_bit(&mut self, index: usize, color: usize, on: bool) {
        set_bit(&mut self.fours, index, color, on);
    }

    /// Calls `f` for every empty cell where `color` makes at least a four, row by row.
    #[inline]
    pub fn for_each_four_cell(&self, color: Color, mut f: impl FnMut(Pos)) {
        for (y, &row) in self.fours[color.index()][..self.board.height()]
            .iter()
            .enumerate()
        {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(Pos::new(x, y));
            }
        }
    }

    /// The from-scratch twin of the incremental state.
    fn compute_from_scratch(&self) -> (Vec<[Shape; 2]>, Vec<u8>, Totals) {
        let mut shapes = vec![[Shape::DEAD; 2]; CELL_COUNT];
        let mut near = vec![0u8; CELL_COUNT];
        let mut totals = Totals {
            combo_count: [[0; Combo::COUNT]; 2],
            value_sum: [0; 2],
        };
        for &(stone, _) in self.board.history() {
            self.for_each_near(stone, |index| near[index] += 1);
        }
        for p in self.board.empty_cells() {
            for color in Color::ALL {
                let shape = Shape::from_patterns(
                    CellShape::at(&self.board, &self.table, p, color).patterns,
                );
                shapes[p.index()][color.index()] = shape;
                totals.combo_count[color.index()][shape.combo as usize] += 1;
                totals.value_sum[color.index()] += shape.value;
            }
        }
        (shapes, near, totals)
    }

    fn for_each_near(&self, center: Pos, mut f: impl FnMut(usize)) {
        let (w, h) = (self.board.width() as i32, self.board.height() as i32);
        for dy in -2..=2 {
            for dx in -2..=2 {
                let (x, y) = (center.x as i32 + dx, center.y as i32 + dy);
                if x >= 0 && y >= 0 && x < w && y < h {
                    f(Pos::new(x as usize, y as usize).index());
                }
            }
        }
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

    /// Threat state of an empty cell for `color`.
    #[inline]
    pub fn shape(&self, pos: Pos, color: Color) -> &Shape {
        &self.shapes[pos.index()][color.index()]
    }

    /// Number of empty cells where `color` would make `combo`.
    #[inline]
    pub fn combo_count(&self, color: Color, combo: Combo) -> u32 {
        self.totals.combo_count[color.index()][combo as usize] as u32
    }

    /// Number of empty cells where `color` would make `combo` or anything stronger.
    #[inline]
    pub fn combo_count_at_least(&self, color: Color, combo: Combo) -> u32 {
        self.totals.combo_count[color.index()][combo as usize..]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }

    /// Sum of the values of `color`'s shapes over all empty cells.
    #[inline]
    pub fn value_sum(&self, color: Color) -> i32 {
        self.totals.value_sum[color.index()]
    }

    /// True if `pos` is empty and within two cells of a stone.
    #[inline]
    pub fn is_candidate(&self, pos: Pos) -> bool {
        self.near[pos.index()] > 0 && self.board.cell(pos) == Cell::Empty
    }

    /// True if the side to move may not play `pos` (black's renju foul). Cheap unless the
    /// shapes say the point might be a foul.
    pub fn is_forbidden(&self, pos: Pos) -> bool {
        if !self.rule().has_forbidden() || self.side_to_move() != Color::Black {
            return false;
        }
        let shape = self.shape(pos, Color::Black);
        Combo::is_foul_candidate(shape.patterns)
            && forbidden::is_forbidden(&mut self.board.lines().clone(), pos)
    }

    /// Plays `pos` for the side to move and updates the threat state.
    pub fn make_move(&mut self, pos: Pos) {
        self.frames.push(Frame {
            saved_start: self.saved.len() as u32,
            totals: self.totals,
        });
        // The cell leaves the set of empty cells.
        let index = pos.index();
        self.saved.push(Saved {
            index: index as u16,
            shapes: self.shapes[index],
        });
        for color in Color::ALL {
            let shape = self.shapes[index][color.index()];
            self.totals.combo_count[color.index()][shape.combo as usize] -= 1;
            self.totals.value_sum[color.index()] -= shape.value;
            self.set_four_bit(index, color.index(), false);
        }
        self.board.make_move(pos);
        let (w, h) = (self.board.width() as i32, self.board.height() as i32);
        for y in (pos.y as i32 - 2).max(0)..=(pos.y as i32 + 2).min(h - 1) {
            for x in (pos.x as i32 - 2).max(0)..=(pos.x as i32 + 2).min(w - 1) {
                let i = y as usize * crate::types::STRIDE + x as usize;
                self.near[i] += 1;
                if self.near[i] == 1 && self.board.cell(Pos::from_index(i)) == Cell::Empty {
                    self.candidates[y as usize] |= 1 << x;
                }
            }
        }
        self.candidates[pos.yu()] &= !(1 << pos.x);
        self.update_lines(pos);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move.
    pub fn undo_move(&mut self) {
        let frame = self.frames.pop().expect("undo_move without make_move");
        let pos = self.board.last_move().expect("undo_move on an empty board");
        self.board.undo_move();
        let (w, h) = (self.board.width() as i32, self.board.height() as i32);
        for y in (pos.y as i32 - 2).max(0)..=(pos.y as i32 + 2).min(h - 1) {
            for x in (pos.x as i32 - 2).max(0)..=(pos.x as i32 + 2).min(w - 1) {
                let i = y as usize * crate::types::STRIDE + x as usize;
                self.near[i] -= 1;
                if self.near[i] == 0 {
                    self.candidates[y as usize] &= !(1 << x);
                }
            }
        }
        if self.near[pos.index()] > 0 {
            self.candidates[pos.yu()] |= 1 << pos.x;
        }
        for i in (frame.saved_start as usize..self.saved.len()).rev() {
            let saved = self.saved[i];
            let index = saved.index as usize;
            self.shapes[index] = saved.shapes;
            for c in 0..2 {
                self.set_four_bit(index, c, saved.shapes[c].combo >= Combo::Four);
            }
        }
        self.saved.truncate(frame.saved_start as usize);
        self.totals = frame.totals;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Recomputes the shapes of the empty cells within five of `pos` on its four lines.
    fn update_lines(&mut self, pos: Pos) {
        // Counts are accumulated in a local copy: updating them through `self` would be a
        // chain of memory read-modify-writes the compiler cannot keep in registers.
        let mut totals = self.totals;
        let lines = self.board.lines();
        for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let (line, bit) = lines.locate(dir, pos);
            let black = lines.stones(Color::Black, dir, line);
            let white = lines.stones(Color::White, dir, line);
            let walls = lines.walls(dir, line);
            let blocked = black | white | walls;
            for k in -5i32..=5 {
                let b = (bit as i32 + k) as u32;
                if k == 0 || blocked & (1 << b) != 0 {
                    continue;
                }
                let index = (pos.y as i32 + dy * k) as usize * crate::types::STRIDE
                    + (pos.x as i32 + dx * k) as usize;
                let old = self.shapes[index];
                let fresh = self.table.patterns_both(black, white, walls, b);
                if fresh[0] == old[0].patterns[dir] && fresh[1] == old[1].patterns[dir] {
                    // Most cells of the window keep their shapes: nothing to save or redo.
                    continue;
                }
                self.saved.push(Saved {
                    index: index as u16,
                    shapes: old,
                });
                for c in 0..2 {
                    if fresh[c] == old[c].patterns[dir] {
                        continue;
                    }
                    let mut patterns = old[c].patterns;
                    patterns[dir] = fresh[c];
                    let new = Shape::from_table(patterns, self.combos);
                    totals.combo_count[c][old[c].combo as usize] -= 1;
                    totals.combo_count[c][new.combo as usize] += 1;
                    totals.value_sum[c] += new.value - old[c].value;
                    self.shapes[index][c] = new;
                    set_bit(&mut self.fours, index, c, new.combo >= Combo::Four);
                }
            }
        }
        self.totals = totals;
    }

    /// Panics if the incremental state differs from a full recomputation.
    pub fn assert_consistent(&self) {
        let (shapes, near, totals) = self.compute_from_scratch();
        assert_eq!(totals, self.totals, "totals differ from recomputation");
        for p in self.board.empty_cells() {
            assert_eq!(
                shapes[p.index()],
                self.shapes[p.index()],
                "shapes differ at {p}"
            );
            assert_eq!(
                near[p.index()],
                self.near[p.index()],
                "near count differs at {p}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            pos.shape(Pos::new(9, 7), Color::Black).combo,
            Combo::FlexFour
        );
        pos.assert_consistent();
        pos.undo_move();
        assert_eq!(pos.totals, before);
        pos.assert_consistent();
    }
}
