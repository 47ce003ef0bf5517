//! Basic vocabulary shared by every layer: colours, board points and game rules.
//!
//! Coordinates follow the Gomocup protocol: `x` is the column counted from the left,
//! `y` the row counted from the top, both from zero.

use std::fmt;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side.
pub const MAX_SIZE: usize = 22;

/// A stone colour. Black always moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into colour-keyed arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A point of the board, `x` = column, `y` = row, both from the top-left corner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Pos {
    /// Column, from 0 at the left.
    pub x: u8,
    /// Row, from 0 at the top.
    pub y: u8,
}

/// Row stride of the dense cell index returned by [`Pos::index`].
pub const STRIDE: usize = 32;
/// Length of arrays indexed by [`Pos::index`].
pub const CELL_COUNT: usize = STRIDE * MAX_SIZE;

impl Pos {
    /// A point from column `x` and row `y`.
    ///
    /// # Panics
    /// In debug builds, if either coordinate is not below [`MAX_SIZE`].
    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos {
            x: x as u8,
            y: y as u8,
        }
    }

    /// Dense index `y * STRIDE + x`, for arrays of [`CELL_COUNT`] entries.
    #[inline]
    pub fn index(self) -> usize {
        self.y as usize * STRIDE + self.x as usize
    }

    /// The point with the given dense index.
    #[inline]
    pub fn from_index(index: usize) -> Pos {
        Pos::new(index % STRIDE, index / STRIDE)
    }

    /// Column as `usize`.
    #[inline]
    pub fn xu(self) -> usize {
        self.x as usize
    }

    /// Row as `usize`.
    #[inline]
    pub fn yu(self) -> usize {
        self.y as usize
    }

    /// Chebyshev distance (king moves) between two points.
    #[inline]
    pub fn distance(self, other: Pos) -> usize {
        let dx = (self.x as i32 - other.x as i32).unsigned_abs();
        let dy = (self.y as i32 - other.y as i32).unsigned_abs();
        dx.max(dy) as usize
    }
}

impl fmt::Display for Pos {
    /// Protocol form `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The game rule, as chosen by `INFO rule`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Five or more in a row wins (`rule 0`).
    Freestyle,
    /// Exactly five wins, for both colours (`rule 1`).
    Standard,
    /// Renju (`rule 4`; `2` accepted as Yixin-Board sends it): white wins with five or more,
    /// black only with exactly five, and black's double-three, double-four and overline are
    /// forbidden.
    Renju,
    /// Caro (`rule 8`): five or more wins, but a five with opponent stones at both ends does
    /// not; the board edge is not a stone.
    Caro,
    /// Caro with exactly five (`rule 9`).
    CaroExact,
}

impl Rule {
    /// Every rule, in protocol-code order.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// The rule for an `INFO rule` value: 0, 1, 2 (renju, as Yixin-Board sends it), 4, 8, 9.
    pub fn from_gomocup(code: i64) -> Option<Rule> {
        match code {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// The canonical `INFO rule` value (0, 1, 4, 8 or 9).
    pub fn gomocup_code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// True when some moves are forbidden (black under renju).
    pub fn has_forbidden(self) -> bool {
        self == Rule::Renju
    }

    /// True when `color` has forbidden moves (black under renju).
    pub fn forbids(self, color: Color) -> bool {
        self.has_forbidden() && color == Color::Black
    }

    /// True when a line longer than five does not win for `color`.
    pub fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Standard | Rule::CaroExact => true,
            Rule::Renju => color == Color::Black,
            Rule::Freestyle | Rule::Caro => false,
        }
    }

    /// True when a five closed by opponent stones at both ends does not win.
    pub fn is_caro(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroExact)
    }

    /// Short lower-case name: `freestyle`, `standard`, `renju`, `caro`, `caro-exact`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// The rule for a name as printed by [`Rule::name`] or a protocol code as text.
    pub fn from_name(name: &str) -> Option<Rule> {
        let lower = name.trim().to_ascii_lowercase();
        match lower.as_str() {
            "freestyle" | "gomoku" => Some(Rule::Freestyle),
            "standard" | "exact" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro" => Some(Rule::Caro),
            "caro-exact" | "caro_exact" | "carostandard" => Some(Rule::CaroExact),
            other => other.parse::<i64>().ok().and_then(Rule::from_gomocup),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_gomocup(rule.gomocup_code() as i64), Some(rule));
            assert_eq!(Rule::from_name(rule.name()), Some(rule));
        }
        assert_eq!(Rule::from_gomocup(2), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(3), None);
        assert_eq!(Rule::from_gomocup(-1), None);
    }

    #[test]
    fn pos_index_round_trip() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!(Pos::from_index(p.index()), p);
                assert!(p.index() < CELL_COUNT);
            }
        }
        assert_eq!(Pos::new(3, 11).to_string(), "3,11");
    }
}
