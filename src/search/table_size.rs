//! How large the transposition table is: the share of `INFO max_memory` (or the size
//! `INFO hash_size` asks), and the size a time control can fill, which the engine takes when
//! it is smaller.

use super::limits::Limits;

const MIB: u64 = 1 << 20;
/// Smallest table [`table_bytes`] chooses.
pub const MIN_TABLE_BYTES: usize = 1 << 20;
/// Largest table [`table_bytes`] chooses.
pub const MAX_TABLE_BYTES: usize = 1 << 30;
/// Table size when neither `hash_size` nor `max_memory` is given.
pub const DEFAULT_TABLE_BYTES: usize = 64 << 20;
/// Memory kept for the rest of the process (binary, pattern tables, stacks, buffers) when
/// sizing from `max_memory`.
pub const PROCESS_RESERVE_BYTES: u64 = 40 * MIB;
/// Percent of `max_memory` minus [`PROCESS_RESERVE_BYTES`] given to the table; the rest is
/// slack for allocator overhead and growth elsewhere.
pub const MEMORY_SHARE_PERCENT: u64 = 80;

/// The table size for the `INFO` options:
/// * `max_memory` (bytes, 0 = unlimited) caps the table at
///   ([`MEMORY_SHARE_PERCENT`] % of `max_memory - PROCESS_RESERVE_BYTES`), rounded down to
///   whole MiB — 248 MiB under Gomocup's 350 MiB;
/// * `hash_size` (KiB, 0 = not given) is used as asked, within that cap;
/// * with neither, the cap (if any) or [`DEFAULT_TABLE_BYTES`];
/// * always clamped to [`MIN_TABLE_BYTES`]..=[`MAX_TABLE_BYTES`].
pub fn table_bytes(limits: &Limits) -> usize {
    let memory_cap = (limits.max_memory_bytes > 0).then(|| {
        let usable = limits
            .max_memory_bytes
            .saturating_sub(PROCESS_RESERVE_BYTES);
        let share = u128::from(usable) * u128::from(MEMORY_SHARE_PERCENT) / 100;
        u64::try_from(share).unwrap_or(u64::MAX) / MIB * MIB
    });
    let bytes = match limits.hash_size_kib.filter(|&kib| kib > 0) {
        Some(kib) => kib.saturating_mul(1024).min(memory_cap.unwrap_or(u64::MAX)),
        None => memory_cap.unwrap_or(DEFAULT_TABLE_BYTES as u64),
    };
    bytes.clamp(MIN_TABLE_BYTES as u64, MAX_TABLE_BYTES as u64) as usize
}

/// Nodes per millisecond assumed when sizing the table for a time control.
const TABLE_NODES_PER_MS: usize = 1_000;
/// Moves' worth of nodes the table is sized to keep.
const TABLE_MOVES_KEPT: usize = 4;
/// Bytes per table entry (three entries per 32-byte bucket), rounded up.
const TABLE_ENTRY_BYTES: usize = 11;

/// A table size that fits the time control: about four moves' worth of nodes, rounded up to a
/// power of two (at least 1 MiB). A table far larger than a move can fill only costs page
/// faults on first touch (hundreds of milliseconds for hundreds of MiB), which a short time
/// control cannot afford. Sized from `timeout_turn`/`timeout_match`, not `time_left`, so it
/// stays the same through a game; each search thread counts for a thread's worth of nodes.
/// `None` when the game is untimed.
pub fn time_scaled_table_bytes(limits: &Limits) -> Option<usize> {
    const UNLIMITED: i64 = 2_147_483_647;
    let turn = limits.timeout_turn_ms.filter(|&t| t > 0 && t < UNLIMITED);
    let game = limits
        .timeout_match_ms
        .filter(|&m| m > 0 && m < UNLIMITED)
        .map(|m| m / 20);
    let per_move = match (turn, game) {
        (Some(t), Some(g)) => t.min(g),
        (Some(t), None) => t,
        (None, Some(g)) => g,
        (None, None) => return None,
    } as usize;
    let bytes = per_move
        .saturating_mul(limits.search_threads())
        .saturating_mul(TABLE_NODES_PER_MS * TABLE_MOVES_KEPT * TABLE_ENTRY_BYTES);
    Some(
        bytes
            .max(1 << 20)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pvs::max_threads;

    fn limits(max_memory: u64, hash_kib: Option<u64>) -> Limits {
        Limits {
            max_memory_bytes: max_memory,
            hash_size_kib: hash_kib,
            ..Limits::default()
        }
    }

    #[test]
    fn sizing_policy() {
        // Gomocup: 350 MiB for the whole process.
        let gomocup = 367_001_600;
        let bytes = table_bytes(&limits(gomocup, None));
        assert!(bytes as u64 + PROCESS_RESERVE_BYTES <= gomocup, "{bytes}");
        assert!(
            bytes >= 200 << 20,
            "{bytes} leaves most of the memory unused"
        );
        assert_eq!(bytes % (1 << 20), 0);
        let share = (gomocup - PROCESS_RESERVE_BYTES) * MEMORY_SHARE_PERCENT / 100;
        assert!(bytes as u64 <= share && bytes as u64 + (1 << 20) > share);
        // Nothing given: the default.
        assert_eq!(table_bytes(&limits(0, None)), DEFAULT_TABLE_BYTES);
        // Piskvork's cap for "more than 2047 MB" and huge values: at most 1 GiB.
        assert_eq!(table_bytes(&limits(2_147_483_647, None)), MAX_TABLE_BYTES);
        assert_eq!(table_bytes(&limits(u64::MAX, None)), MAX_TABLE_BYTES);
        // Tiny memory: the floor.
        assert_eq!(table_bytes(&limits(10 << 20, None)), MIN_TABLE_BYTES);
        // hash_size in KiB wins when it fits, and max_memory caps it.
        assert_eq!(table_bytes(&limits(0, Some(16 << 10))), 16 << 20);
        assert_eq!(table_bytes(&limits(gomocup, Some(16 << 10))), 16 << 20);
        assert_eq!(table_bytes(&limits(gomocup, Some(1 << 20))), bytes);
        assert_eq!(table_bytes(&limits(0, Some(0))), DEFAULT_TABLE_BYTES);
        assert_eq!(table_bytes(&limits(0, Some(1))), MIN_TABLE_BYTES);
        assert_eq!(table_bytes(&limits(0, Some(u64::MAX))), MAX_TABLE_BYTES);
    }

    #[test]
    fn table_size_follows_the_time_control() {
        let limits = |turn: Option<i64>, game: Option<i64>| Limits {
            timeout_turn_ms: turn,
            timeout_match_ms: game,
            ..Limits::default()
        };
        // 0.2 s per move: 200 * 1000 * 4 * 11 bytes = 8.8 MB -> 16 MiB.
        assert_eq!(
            time_scaled_table_bytes(&limits(Some(200), None)),
            Some(16 << 20)
        );
        // Fast game 5 s / 120 s: the per-move share is min(5000, 6000) -> 256 MiB.
        assert_eq!(
            time_scaled_table_bytes(&limits(Some(5000), Some(120_000))),
            Some(256 << 20)
        );
        // Untimed: no time-based cap.
        assert_eq!(time_scaled_table_bytes(&limits(None, Some(0))), None);
        assert_eq!(
            time_scaled_table_bytes(&limits(Some(2_147_483_647), None)),
            None
        );
        // Two threads fill twice the nodes, where the machine has them.
        let two_threads = Limits {
            threads: 2,
            ..limits(Some(200), None)
        };
        let expected = if max_threads() >= 2 {
            32 << 20
        } else {
            16 << 20
        };
        assert_eq!(time_scaled_table_bytes(&two_threads), Some(expected));
        // Tiny limits still get 1 MiB.
        assert_eq!(
            time_scaled_table_bytes(&limits(Some(1), None)),
            Some(1 << 20)
        );
    }
}
