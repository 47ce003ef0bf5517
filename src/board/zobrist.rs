//! Zobrist keys from a fixed seed, so hashes are the same in every run (bench signatures
//! and transposition-table behaviour stay deterministic).

use std::sync::OnceLock;

use rand::{rngs::StdRng, Rng, SeedableRng};

use crate::types::{Color, Pos, CELL_COUNT};

struct Keys {
    stones: [[u64; CELL_COUNT]; 2],
    blocked: [u64; CELL_COUNT],
    side: u64,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Box<Keys>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = StdRng::seed_from_u64(0x5775_7a69_2d5a_6f62);
        let mut keys = Box::new(Keys {
            stones: [[0; CELL_COUNT]; 2],
            blocked: [0; CELL_COUNT],
            side: 0,
        });
        for color in 0..2 {
            for key in keys.stones[color].iter_mut() {
                *key = rng.gen();
            }
        }
        for key in keys.blocked.iter_mut() {
            *key = rng.gen();
        }
        keys.side = rng.gen();
        keys
    })
}

/// Key of a stone of `color` on `pos`.
#[inline]
pub fn stone_key(color: Color, pos: Pos) -> u64 {
    keys().stones[color.index()][pos.index()]
}

/// Key of a blocked point.
#[inline]
pub fn blocked_key(pos: Pos) -> u64 {
    keys().blocked[pos.index()]
}

/// Key toggled when white is to move.
#[inline]
pub fn side_key() -> u64 {
    keys().side
}
