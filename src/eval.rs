//! Static scoring of cells from their line shapes: the one-ply threat scorer, and the move
//! ordering of the search.
//!
//! All weights live in the tables below, so a tuning match changes numbers in one place.
//! The shape weights and the double-three bonus were fitted by `tests/tune.rs` to the results
//! of recorded freestyle games, twice: first to 14,080 games of earlier matches against
//! hand-set weights, then, from that fit, to 7,605 games of the search's later matches. The
//! threat-state bonuses were fitted on top of them, one table for renju and one for the other
//! rules (see [`THREAT_BONUS`]). Each fit was kept because matches said so (see
//! [`PATTERN_WEIGHT`]). The search's move ordering reads the same cell values.

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
/// open three 85, a four 145, a four-three 844, each plus its other lines.
///
/// The first fit, against the hand-set weights before it ([0, 0, 1, 4, 12, 10, 44, 40, 400,
/// 10 000], bonuses [0, 16, 0, 0, 160, 0, 320, 420, 0, 0], double three 1000), at 0.2 s/move
/// on 15x15, each an SPRT H1: freestyle +79.3 +/- 47.8 Elo (197 games), renju
/// +149.8 +/- 76.5 (97 games), standard +120.4 +/- 65.8 (133 games), caro +64.3 +/- 42.4
/// (284 games). It valued an open three at 43, a line's flexible three at 1.
///
/// The second fit (loss 0.1688 -> 0.1627 on 276,538 positions), against the first
/// ([0, 0, 1, 6, 11, 77, 1, 92, 290, 10 000], bonuses [0, -20, -51, 42, 12, 51, 633, -145, 6,
/// 0], double three 1566), same conditions: freestyle +183.5 +/- 93.2 Elo (62 games, SPRT
/// H1) and again +110.9 +/- 61.5 (136 games, SPRT H1), standard +58.9 +/- 39.5 (269 games,
/// SPRT H1), caro +93.5 +/- 54.7 (156 games, SPRT H1), renju -5.2 +/- 33.6 and
/// +16.5 +/- 34.4 (400 games each; +5.4 +/- 24.0 together). Renju takes it too: one table
/// for every rule, and the matches show no loss there. Fitting on from it for 2,000 more
/// steps lowered the loss only to 0.16245 while moving weights along directions the
/// positions hardly pin down (a line's flexible four fell below zero, its combined bonus rose
/// to 555): not matched.
///
/// Not adopted: renju weights of its own per colour, fitted the same way to 2,497 renju games
/// (loss 0.1830 -> 0.1696 there, and black's foul cells below zero), scored -67.7 +/- 53.0
/// against the first fit in renju (208 games, SPRT H0). A lower fitting loss is no promise of
/// strength; the match decides. Not adopted either: ordering moves by the hand-set weights
/// while the evaluation reads the fitted ones, +13.9 +/- 28.8 in freestyle (400 games), not
/// enough to keep a second table.
///
/// A third fit, to 5,293 freestyle games of the singular-extension matches (191,266
/// positions, loss 0.1731 -> 0.1712; line weights [0, 0, 1, 7, 18, 94, -31, 136, 160,
/// 10 000], bonuses [0, -7, -62, 97, 299, 3, 455, -55, 138, 0], with [`THREAT_BONUS`] fitted
/// alongside), scored -45.0 +/- 35.9 Elo against these weights (freestyle, 0.2 s/move, 318
/// games, stopped): not adopted. Those games were between near-identical builds.
///
/// Not adopted either: a bonus per empty cell for each pair of combined shapes (the
/// colour's and the other's there: a point where both sides have a shape attacks and
/// defends at once), kept in the value sums as the make/undo update went and fitted alone,
/// the other tables held, to 6,443 freestyle games of the later matches (225,627 positions).
/// On a fifth of the games held out the loss fell from 0.1879 to 0.1850, as much as
/// refitting these tables gave, but it scored -57.2 +/- 41.0 Elo in freestyle (0.2 s/move,
/// 294 games, stopped).
///
/// Nor a fit to the searches' own scores (`WUZI_TUNE_SCORE_SHARE` in `tests/tune.rs`): half
/// of each target the score of the mover's last completed depth in the records, read as an
/// expected result, half the game's result, over 8,737 freestyle games (303,242 positions,
/// 244,782 with a score). The shapes and threat states together ([0, 0, 1, 4, 15, 94, -20,
/// 121, 98, 10 000], bonuses [0, -4, -70, 78, 289, 39, 289, -253, 83, 0]) scored
/// -53.4 +/- 32.9 Elo, the threat states alone -22.6 +/- 30.3 (freestyle, 0.2 s/move, 400
/// games each). The first match of the full fit, -125.6 +/- 45.9 (202 games, SPRT H0), ran
/// before values were stored signed: its double four on two plain fours was worth less than
/// nothing and read back as about 2^26.
/// Measured with the move ordering held on the values below (a second table, built for that
/// match and not kept), the full fit scored -114.5 +/- 43.5 (264 games, SPRT H0): worse,
/// not better, so the ordering following the evaluation is not what cost it.
///
/// Nor a move ordering of its own (per shape of the mover and of the opponent), fitted by
/// `fit_ordering_to_match_records` in `tests/tune.rs` to the moves the searches played in
/// 8,737 freestyle games (222,040 positions with nothing forced). On the fifth held out, the
/// played move ranked first 19.2 % -> 22.2 % of the time and within the first ten
/// 72.5 % -> 76.1 %, but the bench took 40 % more nodes for its depths, and it scored
/// -3.5 +/- 30.5 Elo after 300 steps and -9.6 +/- 31.1 after 1,500 (freestyle, 0.2 s/move,
/// 400 games each).
pub const PATTERN_WEIGHT: [i32; Pattern::COUNT] = [0, 0, 1, 7, 26, 62, 43, 108, 300, 10_000];

/// Extra points for a combined shape, by [`Combo`] order: None, DoubleTwo, Three, FlexThree,
/// DoubleThree, Four, FourThree, DoubleFour, FlexFour, Five.
pub const COMBO_BONUS: [i32; Combo::COUNT] = [0, -17, -38, 42, 79, 37, 693, -187, 117, 0];

/// Evaluation bonus of the side to move for a double three when the opponent has no four to
/// answer with. Adding it (at 1000) measured +14.8 +/- 29.1 and +32.2 +/- 28.9 Elo in two
/// 400-game matches at 0.2 s/move, freestyle; its value was then fitted with the shapes.
/// [`THREAT_BONUS`] and [`RENJU_THREAT_BONUS`] took its place; they keep this value in the
/// double-three states their fits left alone.
pub const MOVER_DOUBLE_THREE_BONUS: i32 = 2165;

/// Number of threat states (see `search::pvs::threat_state`).
pub const THREAT_STATES: usize = 128;

/// Evaluation bonus of the side to move per threat state (`search::pvs::threat_state`, row
/// = bits 3..6, the opponent's threats; column = bits 0..2, the mover's), for freestyle,
/// standard, caro and caro-exact (see [`threat_bonus`]).
///
/// Before it the evaluation added [`MOVER_DOUBLE_THREE_BONUS`] where the mover has a double
/// three, 0 elsewhere. `tests/tune.rs` fitted the states alone from there, the shape tables
/// held (`WUZI_TUNE_STATES_ONLY=1`), to 12,899 freestyle, standard and caro games of the
/// recorded matches (475,430 positions, loss 0.157510 -> 0.156128); states seen in fewer
/// than 200 positions keep their old value, and unreachable ones (a four-three without a
/// four) stay 0. The mover's four-three is worth about 1 200 more than its four alone; with
/// no four of its own, facing the opponent's four, open three and double three at once, the
/// mover loses about 1 400.
/// Against the double-three bonus alone, 15x15 at 0.2 s/move: freestyle +15.6 +/- 30.5 Elo
/// (400 games) and +60.9 +/- 40.8 (248 games, SPRT H1), standard +6.9 +/- 32.2 and
/// +15.6 +/- 32.6 (400 games each), caro +16.5 +/- 33.1 and +20.0 +/- 32.4 (400 games
/// each); +20.0 +/- 13.6 together. Caro-exact, +19.1 +/- 33.0 (400 games). Freestyle at
/// 1 s/move: -15.6 +/- 44.5 (200 games) and +57.4 +/- 65.1 (110 games, a run cut off), about
/// +10 over the 310: no gain shown there. The same table in renju scored -48.6 +/- 45.5 (217
/// games, SPRT H0), hence [`RENJU_THREAT_BONUS`]. Fitted again, the shape tables held, to
/// 12,118 freestyle, standard and caro games of the later matches (389,161 positions, loss
/// 0.186797 -> 0.183138), it scored -71.3 +/- 34.4 against this table (freestyle, 0.2 s/move,
/// 400 games): not adopted.
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

/// Renju's threat-state bonus: fitted as [`THREAT_BONUS`] was, to 3,295 renju games alone
/// (loss 0.193952 -> 0.190376): black's fouls change what a threat is worth there. Fitted again
/// to 2,797 renju games of the later matches (74,998 positions, loss 0.206322 -> 0.202447), it
/// scored +0.0 +/- 33.6 Elo against this table (renju, 0.2 s/move, 400 games): not adopted.
/// Against the double-three bonus alone, renju, same conditions: +34.0 +/- 31.3 Elo (400
/// games).
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
/// [`OPPONENT_EIGHTHS`]: the mover counts a little higher because it moves first (7:5 scored
/// -88 +/- 34 Elo and 5:5 -91 +/- 53 against 6:5 with the hand-set weights). Swapping the mix
/// to 5:6 when the opponent has a flexible-four point and the mover no four (the tempo is the
/// opponent's then) scored -42.0 +/- 42.6 with the fitted weights (216 games, SPRT H0).
pub const MOVER_EIGHTHS: i32 = 6;

/// See [`MOVER_EIGHTHS`].
pub const OPPONENT_EIGHTHS: i32 = 5;

/// Defence is worth this many 16ths of attack: a point that blocks the opponent's shape is
/// slightly less urgent than making the same shape oneself (the mover gains the tempo).
/// 16 scored -5.2 +/- 31.2 Elo (400 games) with the hand-set weights; 12 scored
/// +15.6 +/- 31.7 (400 games, freestyle, 0.2 s/move) with the fitted ones and later, with
/// the threat-state tables, -13.9 +/- 29.9 (400 games): 14 stays. Under renju (0.2 s/move, 400
/// games each), 12 scored +16.5 +/- 32.6, +19.1 +/- 32.6, +6.1 +/- 31.5 and -6.1 +/- 30.9 (+8.4
/// +/- 15.9 over the 1,600, LOS 85 %) and 16 -47.2 +/- 29.6: not adopted.
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
