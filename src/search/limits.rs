//! What a search may spend: the limits and options the protocol's `INFO` commands set, read by
//! the time manager, the table sizing and the searcher.

use super::pvs::max_threads;

/// Search limits and options received through `INFO`. `Default` means nothing was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `INFO timeout_turn`: milliseconds per move.
    pub timeout_turn_ms: Option<i64>,
    /// `INFO timeout_match`: milliseconds per game, 0 = unlimited.
    pub timeout_match_ms: Option<i64>,
    /// `INFO time_left`: milliseconds left on the match clock (may be negative).
    pub time_left_ms: Option<i64>,
    /// `INFO max_memory`: bytes, 0 = unlimited.
    pub max_memory_bytes: u64,
    /// `INFO max_depth`.
    pub max_depth: Option<u32>,
    /// `INFO max_node`.
    pub max_nodes: Option<u64>,
    /// `INFO hash_size`: transposition table size in KiB.
    pub hash_size_kib: Option<u64>,
    /// `INFO thread_num`.
    pub threads: usize,
    /// `INFO game_type`.
    pub game_type: i64,
    /// `INFO folder`: a directory for persistent files.
    pub folder: Option<String>,
}

impl Limits {
    /// Search threads to run: `thread_num`, at least 1 and at most [`max_threads`].
    pub fn search_threads(&self) -> usize {
        self.threads.clamp(1, max_threads())
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout_turn_ms: None,
            timeout_match_ms: None,
            time_left_ms: None,
            max_memory_bytes: 0,
            max_depth: None,
            max_nodes: None,
            hash_size_kib: None,
            threads: 1,
            game_type: 1,
            folder: None,
        }
    }
}
