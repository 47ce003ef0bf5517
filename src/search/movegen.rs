//! Move generation for the search: the winning move when there is one, exactly the defences
//! when the opponent threatens, otherwise every point near the stones, scored for ordering
//! (by the cell values, or where nothing is forced by the weights of [`super::order_weights`]).

use super::order_weights::{self, OrderWeights};
use crate::board::lines::DIRECTIONS;
use crate::board::pattern::{Combo, Pattern};
use crate::position::Position;
use crate::types::Pos;

/// What the side to move faces, which decides the moves it may consider.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Situation {
    /// The side to move can make five now.
    CanWin,
    /// The opponent can make five next move: only blocking points.
    MustBlockFive,
    /// The opponent can make a flexible four next move (at a point that is not a renju foul):
    /// own fours and the opponent's four points.
    ///
    /// Answering a double-four point of the opponent's the same way (E-167), or keeping only
    /// the four points on the lines of its flexible fours (E-210, E-215), did not pay.
    MustDefendThree,
    /// Nothing forced.
    Free,
}

/// The situation of the side to move.
pub fn situation(pos: &Position) -> Situation {
    let me = pos.side_to_move();
    let op = me.opponent();
    if pos.combo_count(me, Combo::Five) > 0 {
        Situation::CanWin
    } else if pos.combo_count(op, Combo::Five) > 0 {
        Situation::MustBlockFive
    } else if pos.has_legal_combo(op, &[Combo::FlexFour]) {
        // Black's flexible-four point may be a renju foul (two fours on one line, `x.xXx.x`,
        // or an overline across it): then its three threatens nothing.
        Situation::MustDefendThree
    } else {
        Situation::Free
    }
}

/// Ordering score of an empty point for the side to move by the cell values of both sides
/// ([`OrderWeights::CELL_VALUES`]): forced replies and the VCT solver; free positions are
/// ordered by [`order_weights::weights`].
#[inline]
pub fn order_score(pos: &Position, p: Pos) -> i32 {
    OrderWeights::CELL_VALUES.score(pos, p)
}

/// Fills `moves` with the moves worth searching and their ordering scores (unsorted), and
/// returns the situation. Renju fouls of black are left out.
pub fn generate(pos: &Position, moves: &mut Vec<(Pos, i32)>) -> Situation {
    let situation = situation(pos);
    fill(pos, situation, moves, false, false);
    situation
}

/// Whether a stone of either colour at `p` would build on a stone of its own (see
/// [`crate::position::Shape::builds`]); a point where neither does is idle.
#[inline(always)]
pub fn builds(pos: &Position, p: Pos) -> bool {
    let me = pos.side_to_move();
    pos.shape(p, me).builds() || pos.shape(p, me.opponent()).builds()
}

/// [`generate`] that, when nothing is forced, leaves out the idle points ([`builds`]) unless
/// every point is idle: the same moves in the same order as [`generate`] followed by keeping
/// the building points when there are any, without a second pass over the list.
pub fn generate_skipping_idle(pos: &Position, moves: &mut Vec<(Pos, i32)>) -> Situation {
    let situation = situation(pos);
    let free = situation == Situation::Free;
    fill(pos, situation, moves, false, free);
    if free && moves.is_empty() {
        // No building point near the stones: every candidate as [`generate`] has them (with
        // its fallbacks), then the building ones among them if any.
        fill(pos, situation, moves, false, false);
        keep_building(pos, moves);
    }
    situation
}

/// Keeps only the points of `moves` that [`builds`], when there is any.
pub fn keep_building(pos: &Position, moves: &mut Vec<(Pos, i32)>) {
    if moves.iter().any(|m| builds(pos, m.0)) {
        moves.retain(|m| builds(pos, m.0));
    }
}

/// [`generate`] for a root with points left out (the moves `YXNBEST` has already found, the
/// points `YXBLOCK` blocked): every five, not only the first, and once all of the situation's
/// moves are left out, the candidates of a position where nothing is forced, so that the best
/// of the rest is searched. Returns the situation the moves answer: [`Situation::Free`] in
/// that last case.
pub fn generate_excluding(
    pos: &Position,
    moves: &mut Vec<(Pos, i32)>,
    excluded: &[Pos],
) -> Situation {
    let situation = situation(pos);
    for answered in [situation, Situation::Free] {
        fill(pos, answered, moves, true, false);
        moves.retain(|(p, _)| !excluded.contains(p));
        if !moves.is_empty() {
            return answered;
        }
    }
    situation
}

/// Fills `moves` with the moves that answer `situation`. A five ends the list unless
/// `all_fives`. With `building_only`, only the candidates near the stones that [`builds`],
/// and no fallback when there are none.
fn fill(
    pos: &Position,
    situation: Situation,
    moves: &mut Vec<(Pos, i32)>,
    all_fives: bool,
    building_only: bool,
) {
    moves.clear();
    let me = pos.side_to_move();
    let op = me.opponent();
    let board = pos.board();
    if situation == Situation::MustBlockFive && board.rule().is_caro() {
        // Caro fives are also stopped from beside them, and two of them may be stopped by
        // one stone: every such stone, and none when no one stone stops them all.
        let mut blocks = Vec::new();
        pos.five_blocks(op, &mut blocks);
        moves.extend(blocks.into_iter().map(|p| (p, order_score(pos, p))));
        return;
    }
    // The cells worth looking at: four-cells for forced situations (a forced reply may lie
    // anywhere on the board), candidate cells near the stones otherwise.
    let mut rows = [0u32; crate::types::MAX_SIZE];
    for (y, row) in rows.iter_mut().enumerate().take(board.height()) {
        *row = match situation {
            Situation::CanWin => pos.four_rows(me)[y],
            Situation::MustBlockFive => pos.four_rows(op)[y],
            Situation::MustDefendThree => pos.four_rows(me)[y] | pos.four_rows(op)[y],
            Situation::Free => pos.candidate_rows()[y],
        };
    }
    if situation == Situation::MustDefendThree && board.rule().is_caro() {
        // Caro: a stone beside a three may also stop it, by closing the five its flexible
        // four would make (see [`Position::five_blocks`]): every empty point within five of
        // the opponent's flexible-four points, on the lines where they make one.
        pos.for_each_four_cell(op, |f| {
            let patterns = pos.shape(f, op).patterns();
            for (&dir_step, &pattern) in DIRECTIONS.iter().zip(&patterns) {
                if pattern != Pattern::FlexFour {
                    continue;
                }
                for k in -5..=5i64 {
                    if let Some(p) = board.step(f, dir_step, k).filter(|&p| board.is_empty(p)) {
                        rows[p.yu()] |= 1 << p.x;
                    }
                }
            }
        });
    }
    // Free positions are ordered by the rule's fitted weights, forced replies by the cell
    // values.
    let weights = if situation == Situation::Free {
        order_weights::weights(board.rule(), me)
    } else {
        &OrderWeights::CELL_VALUES
    };
    for (y, &row) in rows.iter().enumerate().take(board.height()) {
        let mut bits = row;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let p = Pos::new(x, y);
            let keep = match situation {
                Situation::CanWin => pos.shape(p, me).combo() == Combo::Five,
                Situation::MustBlockFive => pos.shape(p, op).combo() == Combo::Five,
                Situation::MustDefendThree => true,
                Situation::Free => !building_only || builds(pos, p),
            };
            if keep && !pos.is_forbidden(p) {
                moves.push((p, weights.score(pos, p)));
                if situation == Situation::CanWin && !all_fives {
                    return;
                }
            }
        }
    }
    if building_only {
        return;
    }
    if moves.is_empty() && board.stone_count() == 0 {
        let centre = Pos::new(board.width() / 2, board.height() / 2);
        moves.push((centre, 0));
    }
    if moves.is_empty() && situation == Situation::Free {
        // Nothing near the stones (only fouls there): any legal point.
        for p in board.empty_cells() {
            if !pos.is_forbidden(p) {
                moves.push((p, 0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::types::{Color, Rule};

    #[test]
    fn a_three_whose_four_point_is_a_foul_threatens_nothing() {
        // Black's x.x?x.x on row 7: the point between makes two fours on one line, which
        // wins under freestyle and is a foul under renju. White is to move.
        let black = [(3, 7), (5, 7), (7, 7), (9, 7)];
        let white = [(0, 0), (14, 14), (0, 14)];
        let mut moves = Vec::new();
        for (rule, expected) in [
            (Rule::Freestyle, Situation::MustDefendThree),
            (Rule::Renju, Situation::Free),
        ] {
            let board = Board::from_stones(15, 15, rule, &black, &white, Color::White)
                .expect("a legal test position");
            let pos = Position::new(&board);
            assert_eq!(generate(&pos, &mut moves), expected, "{rule}");
        }
    }

    #[test]
    fn caro_threes_are_also_stopped_from_beside_them() {
        // Black's split three x.xx on row 7 makes its one flexible four at 5,7 (five points
        // 3,7 and 8,7). Under caro a white stone one beyond either five point, 2,7 or 9,7,
        // stops it too: then one block closes both fives.
        let black = [(4, 7), (6, 7), (7, 7)];
        let white = [(0, 0), (14, 14), (0, 14)];
        let mut moves = Vec::new();
        for (rule, beside) in [(Rule::Caro, true), (Rule::Freestyle, false)] {
            let board = Board::from_stones(15, 15, rule, &black, &white, Color::White)
                .expect("a legal test position");
            let pos = Position::new(&board);
            assert_eq!(
                generate(&pos, &mut moves),
                Situation::MustDefendThree,
                "{rule}"
            );
            let has = |x: usize| moves.iter().any(|&(p, _)| p == Pos::new(x, 7));
            for x in [3, 5, 8] {
                assert!(has(x), "{rule}: {x},7 missing");
            }
            assert_eq!(has(2) && has(9), beside, "{rule}");
        }
    }

    /// Leaving idle points out while generating gives the moves, in the order, of generating
    /// all and then keeping the building ones (when any builds), in random games under every
    /// rule, from the empty board on.
    #[test]
    fn skipping_idle_points_while_generating_matches_filtering_after() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let (mut dropped, mut free) = (0, 0);
        for game in 0..60 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro][game % 4];
            let size = [9, 15, 20][game / 4 % 3];
            let board = Board::new(size, size, rule).expect("board");
            let mut pos = Position::new(&board);
            let (mut all, mut skipped) = (Vec::new(), Vec::new());
            for _ in 0..size * size / 2 {
                let situation = generate(&pos, &mut all);
                assert_eq!(generate_skipping_idle(&pos, &mut skipped), situation);
                if situation == Situation::Free {
                    free += 1;
                    let before = all.len();
                    if all.iter().any(|m| builds(&pos, m.0)) {
                        all.retain(|m| builds(&pos, m.0));
                    }
                    dropped += before - all.len();
                }
                assert_eq!(skipped, all, "{rule} {size}");
                let Some(&(mv, _)) = all.get(rng.gen_range(0..all.len().max(1))) else {
                    break;
                };
                pos.make_move(mv);
                if pos.board().last_move_won() {
                    break;
                }
            }
        }
        assert!(free > 1000 && dropped > 10_000, "{free} {dropped}");
    }
}
