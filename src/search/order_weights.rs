//! Ordering weights for the candidates of a position where nothing is forced: a weight for
//! each of a cell's four line shapes ([`Pattern`]) and for its combined shape ([`Combo`]), for
//! the side to move and for the opponent, per rule (and under renju per colour to move, as
//! black's fouls change what either side must stop). Fitted by `fit_ordering_to_match_records`
//! (tests/tune.rs) to the moves of outside engines.

use crate::board::pattern::{Combo, Pattern};
use crate::eval::{COMBO_BONUS, DEFENCE_SIXTEENTHS, PATTERN_WEIGHT};
use crate::position::Position;
use crate::types::{Color, Pos, Rule};

/// One table of ordering weights.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OrderWeights {
    /// Per line shape: the mover's row, then the opponent's.
    pub lines: [[i32; Pattern::COUNT]; 2],
    /// Per combined shape: the mover's row, then the opponent's.
    pub combos: [[i32; Combo::COUNT]; 2],
}

impl OrderWeights {
    /// The weights that give [`crate::search::movegen::order_score`]: each side's cell value,
    /// the mover's times 16 and the opponent's times [`DEFENCE_SIXTEENTHS`].
    pub const CELL_VALUES: OrderWeights = {
        let mut w = OrderWeights {
            lines: [[0; Pattern::COUNT]; 2],
            combos: [[0; Combo::COUNT]; 2],
        };
        let scales = [16, DEFENCE_SIXTEENTHS];
        let mut side = 0;
        while side < 2 {
            let mut j = 0;
            while j < Pattern::COUNT {
                w.lines[side][j] = scales[side] * PATTERN_WEIGHT[j];
                j += 1;
            }
            let mut j = 0;
            while j < Combo::COUNT {
                w.combos[side][j] = scales[side] * COMBO_BONUS[j];
                j += 1;
            }
            side += 1;
        }
        w
    };

    /// The ordering score of the empty point `p` for the side to move.
    #[inline]
    pub fn score(&self, pos: &Position, p: Pos) -> i32 {
        let me = pos.side_to_move();
        let mut score = 0;
        for (side, color) in [me, me.opponent()].into_iter().enumerate() {
            let shape = pos.shape(p, color);
            score += shape
                .patterns()
                .iter()
                .map(|&pt| self.lines[side][pt as usize])
                .sum::<i32>()
                + self.combos[side][shape.combo() as usize];
        }
        score
    }
}

/// Freestyle, fitted to the moves PentaZen played in 1,200 games against wuzi at 0.2 s/move
/// (17,047 positions): first choice 25.7 % of held-out moves instead of the cell values'
/// 20.2 %, within the first ten 79.4 % instead of 71.2 %. It weighs stopping the opponent's
/// threes and double threes above making one's own, and a lone four low. E-413.
pub const FREESTYLE: OrderWeights = OrderWeights {
    lines: [
        [0, 0, 285, 397, 1864, 1878, 1845, 3665, 9395, 160000],
        [0, 0, 112, 184, 772, 1086, 107, 219, 8314, 140000],
    ],
    combos: [
        [0, -159, 59, 1758, 3647, -326, 5461, 5123, 6489, 0],
        [0, -133, 58, 2740, 5031, 3246, 6159, 6081, 1638, 0],
    ],
};

/// Standard (exact five): the cell values, no fit of its own yet.
pub const STANDARD: OrderWeights = OrderWeights::CELL_VALUES;

/// Renju, black to move: the cell values, no fit of its own yet.
pub const RENJU_BLACK: OrderWeights = OrderWeights::CELL_VALUES;

/// Renju, white to move: the cell values, no fit of its own yet.
pub const RENJU_WHITE: OrderWeights = OrderWeights::CELL_VALUES;

/// The table that orders the free positions of `rule` with `mover` to move; caro keeps the
/// cell values.
pub fn weights(rule: Rule, mover: Color) -> &'static OrderWeights {
    match (rule, mover) {
        (Rule::Freestyle, _) => &FREESTYLE,
        (Rule::Standard, _) => &STANDARD,
        (Rule::Renju, Color::Black) => &RENJU_BLACK,
        (Rule::Renju, Color::White) => &RENJU_WHITE,
        (Rule::Caro | Rule::CaroExact, _) => &OrderWeights::CELL_VALUES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::movegen::order_score;

    /// [`OrderWeights::CELL_VALUES`] scores every empty point as `order_score` does, under
    /// each rule, along a game that builds threes and fours of both colours.
    #[test]
    fn cell_value_table_is_the_cell_value_score() {
        let moves = [
            (7, 7),
            (8, 8),
            (7, 8),
            (8, 7),
            (7, 6),
            (9, 9),
            (6, 6),
            (7, 9),
            (8, 6),
            (5, 5),
            (6, 5),
            (9, 6),
        ];
        let mut checked = 0;
        for rule in Rule::ALL {
            let mut pos = Position::new(&Board::new(15, 15, rule).expect("a 15x15 board"));
            for &(x, y) in &moves {
                pos.make_move(Pos::new(x, y));
                for y in 0..15 {
                    for x in 0..15 {
                        let p = Pos::new(x, y);
                        if pos.board().is_empty(p) {
                            let table = OrderWeights::CELL_VALUES.score(&pos, p);
                            assert_eq!(table, order_score(&pos, p), "{rule:?} at {p:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
