//! Static scoring of cells from their line shapes: the one-ply threat scorer, and the move
//! ordering of the search.
//!
//! All weights live in the tables below, fitted to the results of recorded games (Texel's
//! method) and kept only when matches said so: a lower fitting loss is no promise of
//! strength. They are the classic values: `wuzi-tune fit` (`src/tune/fit.rs`) starts the
//! learned shape-code tables from them, and the evaluation reads them under caro (the other
//! rules read the learned tables, see [`learned::ENGINE_VALUES`]). The cell
//! values also order forced replies and the free positions of the rules without a fitted
//! ordering (`search::order_weights`) under every rule.

use crate::board::pattern::{Combo, Pattern, PatternTable};
use crate::board::Board;
use crate::types::{Color, Pos, Rule};

pub mod learned;
pub mod shape_code;
mod weights;

/// Points a line shape is worth to the side that would play it, by [`Pattern`] order:
/// Dead, Overline, One, Two, FlexTwo, Three, FlexThree, Four, FlexFour, Five.
///
/// Fitted with [`COMBO_BONUS`] and [`MOVER_DOUBLE_THREE_BONUS`]. The two tables overlap, so
/// read a cell's worth as its line weights plus its combined bonus: a blocked three 24, an
/// open three 85, a four 145, a four-three 844, each plus its other lines. One table serves
/// every rule. Settled by matches: E-033..E-036 (the first fit), E-077..E-080 (this one);
/// other fits and orderings not adopted: E-038, E-039, E-081, E-114, E-149, E-152, E-161,
/// E-162.
pub const PATTERN_WEIGHT: [i32; Pattern::COUNT] = [0, 0, 1, 7, 26, 62, 43, 108, 300, 10_000];

/// Extra points for a combined shape, by [`Combo`] order: None, DoubleTwo, Three, FlexThree,
/// DoubleThree, Four, FourThree, DoubleFour, FlexFour, Five.
pub const COMBO_BONUS: [i32; Combo::COUNT] = [0, -17, -38, 42, 79, 37, 693, -187, 117, 0];

/// The mover's double three when the opponent has no four to answer with (E-009), fitted with
/// the shapes. The threat-state tables took its place and keep it where their fits did not.
pub const MOVER_DOUBLE_THREE_BONUS: i32 = 2165;

/// Number of threat states (see `search::pvs::threat_state`).
pub const THREAT_STATES: usize = 128;

/// Evaluation bonus of the side to move per threat state (`search::pvs::threat_state`, row
/// = bits 3..6, the opponent's threats; column = bits 0..2, the mover's), for freestyle,
/// standard, caro and caro-exact (see [`threat_bonus`]).
///
/// Fitted with the shape tables held to freestyle, standard and caro games: states seen in
/// fewer than 200 positions keep their earlier value, and unreachable ones (a four-three
/// without a four) stay 0. The mover's four-three is worth about 1 200 more than its four
/// alone; with no four of its own, facing the opponent's four, open three and double three
/// at once, the mover loses about 1 400.
/// Settled by matches: E-085..E-087, E-090, E-091; a refit not adopted: E-226.
#[rustfmt::skip]
pub const THREAT_BONUS: [i32; THREAT_STATES] = [
    -15, -65, 0, 1165, 2165, 1826, 2165, 3173,
    103, -37, 0, 456, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    96, 202, 0, 1442, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -22, -46, 0, 759, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -467, 125, 0, 1595, 2165, 2165, 2165, 2165,
    -5, 123, 0, 1248, 2165, 2715, 2165, 2165,
    -127, 82, 0, 1179, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -927, 62, 0, 1525, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -1378, -320, 0, 1346, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -1156, 594, 0, 1676, 2165, 2165, 2165, 2165,
];

/// Renju's threat-state bonus, fitted as [`THREAT_BONUS`] was, to renju games alone: black's
/// fouls change what a threat is worth there. Settled by matches: E-088, E-089 (the shared
/// table in renju); refits not adopted: E-225, E-227.
#[rustfmt::skip]
pub const RENJU_THREAT_BONUS: [i32; THREAT_STATES] = [
    24, 181, 0, 678, 2165, 2165, 2165, 2165,
    74, 16, 0, 606, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    114, 227, 0, 0, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -214, -124, 0, 625, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    -649, -97, 0, 0, 2165, 2165, 2165, 2165,
    -149, 257, 0, 0, 2165, 2165, 2165, 2165,
    -420, -19, 0, 0, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    0, 193, 0, 0, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    0, -282, 0, 0, 2165, 2165, 2165, 2165,
    0, 0, 0, 0, 2165, 2165, 2165, 2165,
    0, 584, 0, 0, 2165, 2165, 2165, 2165,
];

/// The threat-state bonus table `rule` plays with. Every rule is named, so that a new one
/// has to choose its table.
#[inline]
pub fn threat_bonus(rule: Rule) -> &'static [i32; THREAT_STATES] {
    match rule {
        Rule::Renju => &RENJU_THREAT_BONUS,
        Rule::Freestyle | Rule::Standard | Rule::Caro | Rule::CaroExact => &THREAT_BONUS,
    }
}

/// The evaluation weighs the mover's shape sum by this many eighths, and the opponent's by
/// [`OPPONENT_EIGHTHS`]: the mover counts a little higher because it moves first. Settled
/// by matches: E-005, E-006, E-054.
pub const MOVER_EIGHTHS: i32 = 6;

/// See [`MOVER_EIGHTHS`].
pub const OPPONENT_EIGHTHS: i32 = 5;

/// Defence is worth this many 16ths of attack: a point that blocks the opponent's shape is
/// slightly less urgent than making the same shape oneself (the mover gains the tempo).
/// Settled by matches: E-040, E-041, E-150, E-243, E-244.
pub const DEFENCE_SIXTEENTHS: i32 = 14;

/// The four line shapes and the combined shape a colour would make on one empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellShape {
    /// Shape per direction.
    pub patterns: [Pattern; 4],
    /// Combined shape.
    pub combo: Combo,
}

impl CellShape {
    /// What `color` would make by playing the empty point `pos`.
    pub fn at(board: &Board, table: &PatternTable, pos: Pos, color: Color) -> CellShape {
        let lines = board.lines();
        let mut patterns = [Pattern::Dead; 4];
        for (dir, p) in patterns.iter_mut().enumerate() {
            let (line, bit) = lines.locate(dir, pos);
            *p = table.pattern(lines, color, dir, line, bit);
        }
        CellShape {
            patterns,
            combo: Combo::of(patterns),
        }
    }

    /// The points this shape is worth to the side that would make it.
    pub fn value(&self) -> i32 {
        let lines: i32 = self
            .patterns
            .iter()
            .map(|&p| PATTERN_WEIGHT[p as usize])
            .sum();
        lines + COMBO_BONUS[self.combo as usize]
    }
}

/// One-ply threat score of `pos` for the side to move: what playing there makes for itself
/// plus most of what it takes away from the opponent.
pub fn cell_score(own: &CellShape, opp: &CellShape) -> i32 {
    own.value() * 16 + opp.value() * DEFENCE_SIXTEENTHS
}
