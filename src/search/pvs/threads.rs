//! Lazy SMP's shared state: how many threads a search may run, and what each helper thread
//! publishes for the main one (its node count and its last completed iteration).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::Control;
use crate::search::time::Clock;
use crate::types::Pos;

/// What a helper thread publishes for the main one: its node count (for the reports) and
/// its last completed iteration.
#[derive(Default)]
pub(super) struct HelperShare {
    pub(super) nodes: AtomicU64,
    /// Depth, score and move of the last completed iteration (see [`pack_iteration`]); 0 until
    /// one completes.
    pub(super) completed: AtomicU64,
}

/// One word for a completed iteration: depth (at least 1), score and move.
pub(super) fn pack_iteration(depth: u32, score: i32, best: Pos) -> u64 {
    u64::from(depth) << 48 | u64::from(score as u32) << 16 | best.index() as u64
}

/// The depth, score and move of [`pack_iteration`], or `None` for the empty word.
pub(super) fn unpack_iteration(word: u64) -> Option<(u32, i32, Pos)> {
    let depth = (word >> 48) as u32;
    (depth > 0).then(|| {
        (
            depth,
            (word >> 16) as u32 as i32,
            Pos::from_index((word & 0xFFFF) as usize),
        )
    })
}

impl<C: Clock> Control<'_, C> {
    /// Nodes of every thread: `own` plus what the helpers last published.
    pub(super) fn total_nodes(&self, own: u64) -> u64 {
        own + self
            .helpers
            .iter()
            .map(|h| h.nodes.load(Ordering::Relaxed))
            .sum::<u64>()
    }
}

/// Most search threads used, whatever `thread_num` asks: the machine's hardware threads
/// (more would only time-slice the same cores), and at most [`MAX_THREADS`].
pub fn max_threads() -> usize {
    static HARDWARE: OnceLock<usize> = OnceLock::new();
    let hardware = *HARDWARE.get_or_init(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    hardware.clamp(1, MAX_THREADS)
}

/// Upper bound of the thread count.
pub const MAX_THREADS: usize = 64;

/// Bytes a helper thread's own tables take (two VCF tables and a VCT table of 1 MiB each,
/// its buffers, and a thread stack); the engine keeps them out of the table's share of
/// `max_memory`.
pub const HELPER_BYTES: usize = 5 << 20;
