//! Seeded random make/undo walks over every rule on 15x15 and 20x20: the incremental threat
//! state must equal a full recomputation after every step (debug builds also check inside
//! make/undo), and undoing everything must give back the starting hash.

use rand::{rngs::StdRng, Rng, SeedableRng};
use wuzi::board::Board;
use wuzi::position::Position;
use wuzi::types::{Pos, Rule};

#[test]
fn thirty_thousand_random_steps_match_recomputation() {
    let mut rng = StdRng::seed_from_u64(20261121);
    let mut steps = 0usize;
    for rule in Rule::ALL {
        for size in [15usize, 20] {
            let board = Board::new(size, size, rule).unwrap();
            let start_hash = board.hash();
            let mut pos = Position::new(&board);
            for _ in 0..3000 {
                let stones = pos.board().stone_count();
                // Grow games to 60..150 stones, then shrink them again.
                let undo = stones > 0
                    && (pos.board().is_full()
                        || rng.gen_bool(if stones > 100 { 0.6 } else { 0.3 }));
                if undo {
                    pos.undo_move();
                } else {
                    let empties: Vec<Pos> = pos.board().empty_cells().collect();
                    let near: Vec<Pos> = empties
                        .iter()
                        .copied()
                        .filter(|&p| pos.is_candidate(p))
                        .collect();
                    let pool = if near.is_empty() || rng.gen_bool(0.1) {
                        &empties
                    } else {
                        &near
                    };
                    pos.make_move(pool[rng.gen_range(0..pool.len())]);
                }
                pos.assert_consistent();
                steps += 1;
            }
            while pos.board().stone_count() > 0 {
                pos.undo_move();
            }
            pos.assert_consistent();
            assert_eq!(pos.hash(), start_hash, "{rule} {size}");
        }
    }
    assert_eq!(steps, 30_000);
}

/// Random make/undo walks with each choice of evaluation values: after every step each
/// colour's evaluation sum equals the sum of the values of its empty cells, read one by one
/// from the cells' line shapes, and the threat bonus is the slot's table entry.
#[test]
fn evaluation_sums_match_cell_by_cell_values() {
    use wuzi::board::pattern::PatternTable;
    use wuzi::eval::learned::{cell_value, threat_table, CellValues};
    use wuzi::eval::CellShape;
    use wuzi::search::pvs::threat_state;
    use wuzi::types::Color;

    let mut rng = StdRng::seed_from_u64(75);
    let mut checked = 0usize;
    for values in [CellValues::Classic, CellValues::Learned] {
        for rule in Rule::ALL {
            let board = Board::new(15, 15, rule).unwrap();
            let table = PatternTable::for_rule(rule);
            let mut pos = Position::with_values(&board, values);
            for _ in 0..400 {
                let stones = pos.board().stone_count();
                if stones > 0 && rng.gen_bool(if stones > 80 { 0.6 } else { 0.3 }) {
                    pos.undo_move();
                } else {
                    let near: Vec<Pos> = pos
                        .board()
                        .empty_cells()
                        .filter(|&p| pos.is_candidate(p) || stones == 0)
                        .collect();
                    pos.make_move(near[rng.gen_range(0..near.len())]);
                }
                for color in Color::ALL {
                    let sum: i32 = pos
                        .board()
                        .empty_cells()
                        .map(|p| {
                            let shape = CellShape::at(pos.board(), &table, p, color);
                            cell_value(values, rule, color, shape.patterns)
                        })
                        .sum();
                    assert_eq!(pos.value_sum(color), sum, "{values:?} {rule} {color}");
                }
                let state = threat_state(&pos);
                let mover = pos.side_to_move();
                assert_eq!(
                    pos.threat_bonus(state),
                    threat_table(values, rule, mover)[state]
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4000);
}
