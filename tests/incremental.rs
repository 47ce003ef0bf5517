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
