//! The board: stones, line bitboards, Zobrist hash, make/undo, and the rules' verdicts
//! (five, exact five, caro's blocked five, renju fouls).
//!
//! This module knows nothing about search. The engine keeps its own incremental threat state
//! on top of it; the referee of the match runner and the protocol layer use it directly.

pub mod forbidden;
pub mod lines;
pub mod pattern;
mod zobrist;

use anyhow::{bail, Result};

use crate::types::{Color, Pos, Rule, CELL_COUNT, MAX_SIZE, MIN_SIZE};
pub use lines::{Lines, DIRECTIONS};

/// What stands on a point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// Nothing: a move may go here.
    Empty,
    /// A stone.
    Stone(Color),
    /// A blocked point (BOARD field 3): no move may go here, and it blocks lines like a wall.
    Blocked,
}

/// The verdict on a move by the side to move, as a referee gives it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveCheck {
    /// Outside the board.
    OffBoard,
    /// On a stone or a blocked point.
    Occupied,
    /// A renju foul by black: the move loses.
    Forbidden,
    /// The move makes a winning line under the rule.
    Win,
    /// A legal move that does not end the game.
    Ordinary,
}

/// A Gomoku board of any size from 5 to 22 on each side.
#[derive(Clone, Debug)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: [Cell; CELL_COUNT],
    lines: Lines,
    side_to_move: Color,
    history: Vec<(Pos, Color)>,
    hash: u64,
    empty_count: usize,
}

impl Board {
    /// An empty board. Each side must be within 5..=22.
    ///
    /// # Errors
    /// If a side is out of range.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            bail!(
                "board size {width}x{height} is not supported (each side {MIN_SIZE}..{MAX_SIZE})"
            );
        }
        Ok(Board {
            width,
            height,
            rule,
            cells: [Cell::Empty; CELL_COUNT],
            lines: Lines::new(width, height),
            side_to_move: Color::Black,
            history: Vec::with_capacity(width * height),
            hash: 0,
            empty_count: width * height,
        })
    }

    /// A position from two stone lists (`(x, y)` pairs) and the side to move; stones are placed
    /// black list first, so the history is not a game order.
    ///
    /// # Errors
    /// If the size is out of range, or a stone is off the board or given twice.
    pub fn from_stones(
        width: usize,
        height: usize,
        rule: Rule,
        black: &[(usize, usize)],
        white: &[(usize, usize)],
        side_to_move: Color,
    ) -> Result<Board> {
        let mut board = Board::new(width, height, rule)?;
        for (stones, color) in [(black, Color::Black), (white, Color::White)] {
            for &(x, y) in stones {
                if !board.in_bounds(x as i64, y as i64) || !board.is_empty(Pos::new(x, y)) {
                    bail!("stone {x},{y} is off the {width}x{height} board or given twice");
                }
                board.place(Pos::new(x, y), color);
            }
        }
        board.set_side_to_move(side_to_move);
        Ok(board)
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule verdicts are given under.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Changes the rule (the stones stay).
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
    }

    /// The line bitboards.
    #[inline]
    pub fn lines(&self) -> &Lines {
        &self.lines
    }

    /// True if `(x, y)` is a point of this board.
    #[inline]
    pub fn in_bounds(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as u64) < self.width as u64 && (y as u64) < self.height as u64
    }

    /// The point `k` steps from `pos` along `(dx, dy)` (one of [`DIRECTIONS`]), if it is on
    /// this board.
    #[inline]
    pub fn step(&self, pos: Pos, (dx, dy): (i32, i32), k: i64) -> Option<Pos> {
        let x = pos.xu() as i64 + i64::from(dx) * k;
        let y = pos.yu() as i64 + i64::from(dy) * k;
        self.in_bounds(x, y)
            .then(|| Pos::new(x as usize, y as usize))
    }

    /// True if `pos` is a point of this board.
    #[inline]
    pub fn contains(&self, pos: Pos) -> bool {
        pos.xu() < self.width && pos.yu() < self.height
    }

    /// What stands on `pos`.
    #[inline]
    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    /// True if `pos` is on the board and free.
    #[inline]
    pub fn is_empty(&self, pos: Pos) -> bool {
        self.contains(pos) && self.cells[pos.index()] == Cell::Empty
    }

    /// The colour that moves next.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Sets the colour that moves next (after setting up a position).
    pub fn set_side_to_move(&mut self, color: Color) {
        if color != self.side_to_move {
            self.hash ^= zobrist::side_key();
        }
        self.side_to_move = color;
    }

    /// Stones in the order they were placed.
    #[inline]
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// Number of free points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty_count
    }

    /// The last stone placed.
    #[inline]
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|&(pos, _)| pos)
    }

    /// Zobrist hash of stones, blocked points and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash after the side to move plays `pos` (the search uses it to prefetch the
    /// child's table entry while the move is being made).
    #[inline]
    pub fn hash_after(&self, pos: Pos) -> u64 {
        self.hash ^ zobrist::stone_key(self.side_to_move, pos) ^ zobrist::side_key()
    }

    /// The hash after the side to move plays `first` and the opponent answers `second`.
    #[inline]
    pub fn hash_after_pair(&self, first: Pos, second: Pos) -> u64 {
        self.hash
            ^ zobrist::stone_key(self.side_to_move, first)
            ^ zobrist::stone_key(self.side_to_move.opponent(), second)
    }

    /// Places a stone of any colour; the side to move becomes the other colour.
    ///
    /// # Panics
    /// If `pos` is not an empty point of the board.
    pub fn place(&mut self, pos: Pos, color: Color) {
        assert!(self.is_empty(pos), "place on {pos}: not an empty point");
        self.set_side_to_move(color);
        self.make_move(pos);
    }

    /// The side to move plays `pos`; the side to move flips. Unchecked in release builds.
    #[inline]
    pub fn make_move(&mut self, pos: Pos) {
        debug_assert!(self.is_empty(pos), "make_move on {pos}: not an empty point");
        let color = self.side_to_move;
        self.cells[pos.index()] = Cell::Stone(color);
        self.lines.add(color, pos);
        self.history.push((pos, color));
        self.hash ^= zobrist::stone_key(color, pos) ^ zobrist::side_key();
        self.side_to_move = color.opponent();
        self.empty_count -= 1;
    }

    /// Takes back the last stone; the side to move becomes its colour.
    ///
    /// # Panics
    /// If the board has no stone.
    #[inline]
    pub fn undo_move(&mut self) {
        let (pos, color) = self.history.pop().expect("undo_move on an empty history");
        self.cells[pos.index()] = Cell::Empty;
        self.lines.remove(color, pos);
        self.hash ^= zobrist::stone_key(color, pos);
        if self.side_to_move == color.opponent() {
            self.hash ^= zobrist::side_key();
        }
        self.side_to_move = color;
        self.empty_count += 1;
    }

    /// Marks an empty point as blocked (BOARD field 3).
    ///
    /// # Panics
    /// If `pos` is not an empty point of the board.
    pub fn set_blocked(&mut self, pos: Pos) {
        assert!(
            self.is_empty(pos),
            "set_blocked on {pos}: not an empty point"
        );
        self.cells[pos.index()] = Cell::Blocked;
        self.lines.block(pos);
        self.hash ^= zobrist::blocked_key(pos);
        self.empty_count -= 1;
    }

    /// True if no free point is left.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.empty_count == 0
    }

    /// Every free point, row by row.
    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| {
            (0..self.width)
                .map(move |x| Pos::new(x, y))
                .filter(move |&p| self.cells[p.index()] == Cell::Empty)
        })
    }

    /// True if `color` playing on the empty point `pos` makes a winning line under the rule:
    /// five or more (freestyle, caro, renju white), exactly five (standard, caro-exact, renju
    /// black), and for caro not a five closed by opponent stones at both ends.
    pub fn is_win_move(&self, pos: Pos, color: Color) -> bool {
        is_win_on(&self.lines, self.rule, pos, color)
    }

    /// True if `pos` is a renju foul for black: overline, double four or double three (threes
    /// judged recursively, as in the RIF rules), and not a five. Always false for other rules
    /// and for occupied points.
    pub fn is_forbidden(&self, pos: Pos) -> bool {
        if !self.rule.has_forbidden() || !self.is_empty(pos) {
            return false;
        }
        forbidden::is_forbidden(&mut self.lines.clone(), pos)
    }

    /// Every forbidden point for the side to move (empty unless black under renju).
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if !self.rule.forbids(self.side_to_move) {
            return Vec::new();
        }
        let mut scratch = self.lines.clone();
        self.empty_cells()
            .filter(|&p| forbidden::is_forbidden(&mut scratch, p))
            .collect()
    }

    /// What happens if the side to move plays `pos`.
    pub fn check_move(&self, pos: Pos) -> MoveCheck {
        if !self.contains(pos) {
            return MoveCheck::OffBoard;
        }
        if self.cells[pos.index()] != Cell::Empty {
            return MoveCheck::Occupied;
        }
        let color = self.side_to_move;
        if self.is_win_move(pos, color) {
            MoveCheck::Win
        } else if color == Color::Black && self.is_forbidden(pos) {
            MoveCheck::Forbidden
        } else {
            MoveCheck::Ordinary
        }
    }

    /// True if the last stone placed completed a winning line for its colour.
    pub fn last_move_won(&self) -> bool {
        match self.history.last() {
            Some(&(pos, color)) => {
                let mut lines = self.lines.clone();
                lines.remove(color, pos);
                is_win_on(&lines, self.rule, pos, color)
            }
            None => false,
        }
    }
}

/// The rule's five test on bare lines: `color` playing the empty point `pos`.
pub fn is_win_on(lines: &Lines, rule: Rule, pos: Pos, color: Color) -> bool {
    is_win_with(lines, rule, pos, color, None)
}

/// [`is_win_on`] with the empty point `closer`, if any, counted as an opponent stone (see
/// [`winning_run`]).
#[inline(always)]
pub fn is_win_with(lines: &Lines, rule: Rule, pos: Pos, color: Color, closer: Option<Pos>) -> bool {
    (0..4).any(|dir| winning_run(lines, rule, pos, color, dir, closer).is_some())
}

/// The run `color` makes by playing the empty point `pos`, along direction `dir`, when it is a
/// winning line under the rule. `closer`, an empty point, counts as an opponent stone: under
/// caro it closes the run when it lies just beyond one of its ends (see
/// [`crate::position::Position::five_blocks`]); under the other rules nothing beside a run
/// changes whether it wins.
#[inline(always)]
pub fn winning_run(
    lines: &Lines,
    rule: Rule,
    pos: Pos,
    color: Color,
    dir: usize,
    closer: Option<Pos>,
) -> Option<lines::Run> {
    let run = lines.run(color, dir, pos);
    if !run.is_five(rule.exact_five(color)) {
        return None;
    }
    if rule.is_caro() && run.len == 5 {
        // Only opponent stones close a caro five; the edge and blocked points do not.
        let mut opponent = lines.stones(color.opponent(), dir, run.line);
        if let Some(closer) = closer {
            let (line, bit) = lines.locate(dir, closer);
            if line == run.line {
                opponent |= 1 << bit;
            }
        }
        let closed = (opponent >> run.low_end) & 1 == 1 && (opponent >> run.high_end) & 1 == 1;
        if closed {
            return None;
        }
    }
    Some(run)
}

#[cfg(test)]
mod tests;
