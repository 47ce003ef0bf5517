//! Per-direction line bitboards.
//!
//! Every line of the board (rows, columns, both diagonals) is one `u32` per colour, one bit per
//! cell. Bit `PAD + c` holds the cell whose coordinate along the line is `c`, so a window of
//! `PAD` cells on each side of any cell can be read with one shift, however close the cell is to
//! the edge. Cells beyond the board (and blocked cells) are set in a per-line wall mask, which
//! lets pattern keys treat the edge exactly like a wall.
//!
//! Line numbering for a cell `(x, y)` on a board of height `h`:
//! - direction 0 (`-`, dx=1, dy=0): line `y`, coordinate `x`
//! - direction 1 (`|`, dx=0, dy=1): line `x`, coordinate `y`
//! - direction 2 (`\`, dx=1, dy=1): line `x - y + h - 1`, coordinate `x`
//! - direction 3 (`/`, dx=1, dy=-1): line `x + y`, coordinate `x`

use crate::types::{Color, Pos, MAX_SIZE};

/// Padding bits below the first cell of a line (and room above the last one).
pub const PAD: u32 = 5;
/// Number of line slots per direction.
pub const LINE_SLOTS: usize = 2 * MAX_SIZE;
/// The four line directions as `(dx, dy)` steps; the coordinate along each grows with `x`
/// (with `y` for the vertical direction).
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Stone and wall masks for every line of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    width: usize,
    height: usize,
    /// `stones[color][direction][line]`.
    stones: [[[u32; LINE_SLOTS]; 4]; 2],
    /// `walls[direction][line]`: bits outside the board, plus blocked cells.
    walls: [[u32; LINE_SLOTS]; 4],
}

impl Lines {
    /// Empty lines for a `width` x `height` board.
    pub fn new(width: usize, height: usize) -> Lines {
        let mut lines = Lines {
            width,
            height,
            stones: [[[0; LINE_SLOTS]; 4]; 2],
            walls: [[u32::MAX; LINE_SLOTS]; 4],
        };
        for dir in 0..4 {
            for line in 0..LINE_SLOTS {
                if let Some((lo, hi)) = lines.line_range(dir, line) {
                    let inside = ((1u64 << (hi - lo + 1)) - 1) << (lo + PAD as usize);
                    lines.walls[dir][line] = !(inside as u32);
                }
            }
        }
        lines
    }

    /// Inclusive range of coordinates along `line` in direction `dir`, or `None` if the line
    /// does not cross the board.
    fn line_range(&self, dir: usize, line: usize) -> Option<(usize, usize)> {
        let (w, h) = (self.width as i64, self.height as i64);
        let k = line as i64;
        let (lo, hi) = match dir {
            0 if k < h => (0, w - 1),
            1 if k < w => (0, h - 1),
            // Diagonals: y = x - k + h - 1 (dir 2) or y = k - x (dir 3); both need
            // x in [k - h + 1, k] for y to stay on the board.
            2 | 3 if k < w + h - 1 => ((k - h + 1).max(0), k.min(w - 1)),
            _ => return None,
        };
        (lo <= hi).then_some((lo as usize, hi as usize))
    }

    /// `(line, bit)` of a cell in direction `dir`; `bit` already includes [`PAD`].
    #[inline(always)]
    pub fn locate(&self, dir: usize, pos: Pos) -> (usize, u32) {
        let (x, y) = (pos.xu(), pos.yu());
        let (line, coord) = match dir {
            0 => (y, x),
            1 => (x, y),
            2 => (x + self.height - 1 - y, x),
            _ => (x + y, x),
        };
        (line, coord as u32 + PAD)
    }

    /// The stone mask of `color` on a line.
    #[inline(always)]
    pub fn stones(&self, color: Color, dir: usize, line: usize) -> u32 {
        self.stones[color.index()][dir][line]
    }

    /// The wall mask of a line (outside the board or blocked).
    #[inline(always)]
    pub fn walls(&self, dir: usize, line: usize) -> u32 {
        self.walls[dir][line]
    }

    /// Sets or clears the bits of one cell in a per-direction mask array.
    #[inline(always)]
    fn toggle(&mut self, target: Option<Color>, pos: Pos) {
        for dir in 0..4 {
            let (line, bit) = self.locate(dir, pos);
            match target {
                Some(color) => self.stones[color.index()][dir][line] ^= 1 << bit,
                None => self.walls[dir][line] ^= 1 << bit,
            }
        }
    }

    /// Puts a stone of `color` on an empty cell.
    #[inline]
    pub fn add(&mut self, color: Color, pos: Pos) {
        debug_assert!(!self.has_stone(color, pos));
        self.toggle(Some(color), pos);
    }

    /// Removes a stone of `color`.
    #[inline]
    pub fn remove(&mut self, color: Color, pos: Pos) {
        debug_assert!(self.has_stone(color, pos));
        self.toggle(Some(color), pos);
    }

    /// Marks a cell as blocked (a wall inside the board).
    pub fn block(&mut self, pos: Pos) {
        let (line, bit) = self.locate(0, pos);
        if self.walls[0][line] & (1 << bit) == 0 {
            self.toggle(None, pos);
        }
    }

    /// True if `color` has a stone on `pos`.
    #[inline]
    pub fn has_stone(&self, color: Color, pos: Pos) -> bool {
        let (line, bit) = self.locate(0, pos);
        self.stones[color.index()][0][line] & (1 << bit) != 0
    }

    /// Length of the run of `color` through `pos` in direction `dir`, counting `pos` as
    /// that colour's stone, and the bits just below and above the run.
    #[inline(always)]
    pub fn run(&self, color: Color, dir: usize, pos: Pos) -> Run {
        let (line, bit) = self.locate(dir, pos);
        Run::through(self.stones[color.index()][dir][line], line, bit)
    }
}

/// A run of same-coloured stones along one line, as found by [`Lines::run`].
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Number of stones in the run.
    pub len: u32,
    /// Line index (for the direction the run was taken in).
    pub line: usize,
    /// Bit of the cell just below the run.
    pub low_end: u32,
    /// Bit of the cell just above the run.
    pub high_end: u32,
}

impl Run {
    /// The run through `bit` of line `line` whose stones are `stones`, counting `bit` as a
    /// stone. `bit` must be at least [`PAD`] (a cell of the board), so the shifts stay in
    /// range.
    #[inline(always)]
    pub fn through(stones: u32, line: usize, bit: u32) -> Run {
        let mask = stones | (1 << bit);
        // Consecutive ones above `bit`, then below it.
        let up = (!(mask >> (bit + 1))).trailing_zeros();
        let down = (!(mask << (32 - bit))).leading_zeros();
        Run {
            len: 1 + up + down,
            line,
            low_end: bit - down - 1,
            high_end: bit + up + 1,
        }
    }

    /// Whether the run is long enough to win: five or more, or exactly five when only that
    /// wins (`exact`).
    #[inline(always)]
    pub fn is_five(&self, exact: bool) -> bool {
        self.len >= 5 && !(exact && self.len > 5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_a_distinct_bit_on_each_direction() {
        for (w, h) in [(5, 5), (15, 15), (20, 20), (22, 22), (7, 19), (22, 5)] {
            let lines = Lines::new(w, h);
            for dir in 0..4 {
                let mut seen = std::collections::HashSet::new();
                for y in 0..h {
                    for x in 0..w {
                        let (line, bit) = lines.locate(dir, Pos::new(x, y));
                        assert!(bit >= PAD && bit + PAD < 32);
                        assert_eq!(lines.walls(dir, line) & (1 << bit), 0, "{w}x{h} {x},{y}");
                        assert!(seen.insert((line, bit)));
                    }
                }
                // Exactly w*h in-board bits across all lines of the direction.
                let inside: u32 = (0..LINE_SLOTS)
                    .map(|l| (!lines.walls(dir, l)).count_ones())
                    .sum();
                assert_eq!(inside as usize, w * h);
            }
        }
    }

    #[test]
    fn runs_count_through_the_cell() {
        let mut lines = Lines::new(15, 15);
        for x in [3, 4, 6, 7] {
            lines.add(Color::Black, Pos::new(x, 2));
        }
        assert_eq!(lines.run(Color::Black, 0, Pos::new(5, 2)).len, 5);
        assert_eq!(lines.run(Color::Black, 1, Pos::new(5, 2)).len, 1);
        assert_eq!(lines.run(Color::White, 0, Pos::new(5, 2)).len, 1);
        lines.remove(Color::Black, Pos::new(7, 2));
        assert_eq!(lines.run(Color::Black, 0, Pos::new(5, 2)).len, 4);
        // Runs stop at the edge.
        for x in 0..4 {
            lines.add(Color::White, Pos::new(x, 14));
        }
        let run = lines.run(Color::White, 0, Pos::new(4, 14));
        assert_eq!(run.len, 5);
        assert_eq!(run.low_end, PAD - 1);
    }
}
