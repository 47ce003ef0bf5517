//! Ordering weights for the candidates of a position where nothing is forced: a weight for
//! each of a cell's four line shapes ([`Pattern`]) and for its combined shape ([`Combo`]), for
//! the side to move and for the opponent, per rule (and under renju per colour to move, as
//! black's fouls change what either side must stop). Freestyle's and renju's are fitted by
//! `wuzi-tune order` (`src/tune/order.rs`) to the moves of outside engines; standard
//! orders by freestyle's (E-438) and caro by the cell values.

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
    /// The cell values of both sides ([`crate::eval`]'s shape weights), the mover's times 16
    /// and the opponent's times [`DEFENCE_SIXTEENTHS`]: forced replies, the VCT solver, and
    /// the free positions of the rules without a fit of their own.
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
/// threes and double threes above making one's own, and a lone four low. E-413. Standard
/// orders by it too, with the rest of freestyle's settings (E-438; a fit of its own to
/// Rapfi's moves had played no better than the cell values: E-415).
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

/// Renju, black to move, fitted to black's moves in 397 games of Rapfi against itself at
/// 0.1 s/move (4,182 positions; `scripts/datagen.py --first rapfi=... --rules
/// standard,renju --seed 7001 self`): first choice 23.5 % of held-out moves instead of 20.5 %,
/// within the first ten 80.0 % instead of 76.6 %. A double three that is no foul (one of
/// its threes cannot become a flexible four) weighs low. E-416.
pub const RENJU_BLACK: OrderWeights = OrderWeights {
    lines: [
        [0, 0, 316, 398, 1506, 1586, 1711, 1576, 9478, 160000],
        [0, 0, 95, 94, 609, 1008, -143, 609, 4200, 140000],
    ],
    combos: [
        [0, 77, 149, 1563, -7000, 1687, 6822, -2992, 6550, 0],
        [0, -284, 86, 2527, 4531, 2550, 5675, 6873, 1638, 0],
    ],
};

/// Renju, white to move, fitted to white's moves in the same games (4,056 positions): first
/// choice 23.1 % instead of 18.3 %, within the first ten 76.2 % instead of 74.4 %. Black's
/// overline and flexible-four points, fouls where nothing is forced, weigh below nothing.
/// E-416.
pub const RENJU_WHITE: OrderWeights = OrderWeights {
    lines: [
        [0, 0, 333, 597, 1919, 2266, 1999, 6078, 10734, 160000],
        [0, -4493, 250, 256, 1105, 1521, 324, 635, -1760, 140000],
    ],
    combos: [
        [0, -639, -211, 2421, 5023, -1364, 5391, 8279, 7697, 0],
        [0, -313, -253, 2812, 3312, 3063, 7084, 2828, -1010, 0],
    ],
};

/// The table that orders the free positions of `rule` with `mover` to move; caro keeps the
/// cell values.
pub fn weights(rule: Rule, mover: Color) -> &'static OrderWeights {
    match (rule, mover) {
        (Rule::Freestyle | Rule::Standard, _) => &FREESTYLE,
        (Rule::Renju, Color::Black) => &RENJU_BLACK,
        (Rule::Renju, Color::White) => &RENJU_WHITE,
        (Rule::Caro | Rule::CaroExact, _) => &OrderWeights::CELL_VALUES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// [`OrderWeights::CELL_VALUES`] scores every empty point as each side's cell value
    /// (`Shape::value`), the mover's times 16 and the opponent's times
    /// [`DEFENCE_SIXTEENTHS`], under each rule, along a game that builds threes and fours of
    /// both colours.
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
                            let me = pos.side_to_move();
                            let values = pos.shape(p, me).value() * 16
                                + pos.shape(p, me.opponent()).value() * DEFENCE_SIXTEENTHS;
                            let table = OrderWeights::CELL_VALUES.score(&pos, p);
                            assert_eq!(table, values, "{rule:?} at {p:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
