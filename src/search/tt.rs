//! Transposition table: a fixed-size hash of search results, keyed by the board's Zobrist
//! hash.
//!
//! The table is an array of 32-byte buckets (two per cache line) of [`WAYS`] entries each.
//! A position's bucket comes from the high bits of its hash (a multiply-shift, so the bucket
//! count need not be a power of two); the low 32 bits are stored as a check key. Two different
//! positions share a bucket and key only once in ~2^32 probes of that bucket, so a hit can be
//! wrong: the caller must check that a returned move is still legal before playing it.
//!
//! Each entry packs the check key, the best move (a [`Pos`] index, [`NO_MOVE`] for none), the
//! score (`i16`; scores stay within ±[`WIN_SCORE`]), the depth (`i8`) and one byte holding the
//! bound and the generation of the search that wrote it. Replacement, on a store:
//! * the same position is overwritten unless the stored result is from this search and
//!   deeper by more than the keep margin ([`TranspositionTable::set_keep_margin`], by
//!   default [`KEEP_DEPTH_MARGIN`]) and the new one is not exact; a result without a move
//!   keeps the old move;
//! * otherwise an empty slot is used, else an entry from an older search (the shallowest of
//!   them), else the shallowest entry of this search.
//!
//! Proven wins and losses are stored relative to the node ([`score_to_tt`]/[`score_from_tt`])
//! so that a position reached at another ply reads the right distance to the end.
//!
//! [`table_bytes`] turns the `INFO` options into a size; see its documentation for the policy.
//!
//! Search threads share the table (`&self` to probe and store). A bucket is four atomic
//! words: each entry's check key, move and score share one word, and the fourth holds the
//! three depths and meta bytes. Words are read and written with relaxed ordering and no lock,
//! so a probe racing a store to the same bucket may pair one entry's key with another
//! store's depth and bound. That is rare and costs at worst a wrong bound at one node, the
//! same trade the other lockless tables make; one thread sees exactly what it stored.
//!
//! [`WIN_SCORE`]: super::score::WIN_SCORE
//! [`table_bytes`]: super::table_size::table_bytes

use std::sync::atomic::{AtomicU64, Ordering};

use super::score::WIN_THRESHOLD;
use crate::types::{Pos, CELL_COUNT, MAX_SIZE, STRIDE};

/// What a stored score says about the true value of the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

impl Bound {
    /// The 2-bit code in an entry's meta byte; 0 marks an empty slot.
    fn code(self) -> u8 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_code(code: u8) -> Option<Bound> {
        match code {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// A stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best (or refuting) move found, if any. May be illegal on a key collision.
    pub best: Option<Pos>,
    /// Score in the table's form: convert proven scores with [`score_from_tt`].
    pub score: i32,
    /// Remaining depth of the search that produced the score.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
}

/// Entries per bucket.
pub const WAYS: usize = 3;
/// The move field of an entry without a move.
pub const NO_MOVE: u16 = u16::MAX;
/// The default keep margin: a non-exact store at most this many plies shallower than a
/// same-position entry of the current search overwrites it; a store shallower still keeps
/// the deeper result (see [`TranspositionTable::set_keep_margin`]).
pub const KEEP_DEPTH_MARGIN: i32 = 2;

/// Generations are 6 bits (the meta byte's upper bits); ages are counted modulo 64.
const GENERATION_MASK: u8 = 0x3F;
const BOUND_MASK: u8 = 0x03;

/// A bucket as the table logic reads and writes it: three 10-byte entries in parallel arrays.
#[derive(Clone, Copy, Default, Debug)]
struct Bucket {
    keys: [u32; WAYS],
    moves: [u16; WAYS],
    scores: [i16; WAYS],
    depths: [i8; WAYS],
    /// `generation << 2 | bound code`; 0 = empty slot.
    meta: [u8; WAYS],
}

impl Bucket {
    fn generation(&self, slot: usize) -> u8 {
        self.meta[slot] >> 2
    }

    fn is_empty(&self, slot: usize) -> bool {
        self.meta[slot] == 0
    }

    /// The word of entry `slot`: check key, move and score.
    fn entry_word(&self, slot: usize) -> u64 {
        u64::from(self.keys[slot])
            | u64::from(self.moves[slot]) << 32
            | u64::from(self.scores[slot] as u16) << 48
    }

    /// The fourth word: the depth byte of each entry, then its meta byte.
    fn depth_meta_word(&self) -> u64 {
        (0..WAYS).fold(0, |word, slot| {
            word | u64::from(self.depths[slot] as u8) << (8 * slot)
                | u64::from(self.meta[slot]) << (8 * (WAYS + slot))
        })
    }
}

/// A bucket as stored: four words, two buckets per cache line. All-zero is the empty bucket.
#[derive(Default, Debug)]
#[repr(C, align(32))]
struct AtomicBucket([AtomicU64; WAYS + 1]);

/// Bytes per bucket.
const BUCKET_BYTES: usize = std::mem::size_of::<AtomicBucket>();
const _: () = assert!(BUCKET_BYTES == 32, "a bucket must stay 32 bytes");

impl AtomicBucket {
    fn load(&self) -> Bucket {
        let mut bucket = Bucket::default();
        let tail = self.0[WAYS].load(Ordering::Relaxed);
        for slot in 0..WAYS {
            let word = self.0[slot].load(Ordering::Relaxed);
            bucket.keys[slot] = word as u32;
            bucket.moves[slot] = (word >> 32) as u16;
            bucket.scores[slot] = (word >> 48) as u16 as i16;
            bucket.depths[slot] = (tail >> (8 * slot)) as u8 as i8;
            bucket.meta[slot] = (tail >> (8 * (WAYS + slot))) as u8;
        }
        bucket
    }

    /// Writes entry `slot` of `bucket` and the depth/meta word.
    fn save(&self, bucket: &Bucket, slot: usize) {
        self.0[slot].store(bucket.entry_word(slot), Ordering::Relaxed);
        self.0[WAYS].store(bucket.depth_meta_word(), Ordering::Relaxed);
    }
}

/// The transposition table.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Buckets,
    generation: u8,
    keep_margin: i32,
}

impl TranspositionTable {
    /// A cleared table of at most `bytes` bytes (at least one bucket).
    pub fn new(bytes: usize) -> Self {
        TranspositionTable {
            buckets: allocate(bytes),
            generation: 0,
            keep_margin: KEEP_DEPTH_MARGIN,
        }
    }

    /// Changes the size to at most `bytes`, clearing the table; a no-op if the bucket count
    /// stays the same.
    pub fn resize(&mut self, bytes: usize) {
        if bucket_count(bytes) == self.buckets.len() {
            return;
        }
        // Free the old table first so that the peak memory is not the sum of both sizes.
        self.buckets = Buckets::default();
        self.buckets = allocate(bytes);
        self.generation = 0;
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        // A fresh zeroed allocation instead of writing every bucket: freeing and mapping new
        // pages is immediate, filling hundreds of MiB is not.
        let count = self.buckets.len();
        self.buckets = Buckets::default();
        self.buckets = allocate(count * BUCKET_BYTES);
        self.generation = 0;
    }

    /// Starts a new search: entries written before become older and are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
    }

    /// Sets the keep margin: a non-exact store at most `margin` plies shallower than a
    /// same-position entry of the current search overwrites it, a shallower one keeps the
    /// deeper result. The search sets it per rule (`RuleSettings::tt_keep_margin`).
    pub fn set_keep_margin(&mut self, margin: i32) {
        self.keep_margin = margin;
    }

    /// The entry for the position with this hash, if stored.
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        let bucket = self.buckets.get(self.index(hash)).load();
        let key = check_key(hash);
        (0..WAYS)
            .find(|&slot| !bucket.is_empty(slot) && bucket.keys[slot] == key)
            .and_then(|slot| {
                Some(TtEntry {
                    best: decode_move(bucket.moves[slot]),
                    score: i32::from(bucket.scores[slot]),
                    depth: i32::from(bucket.depths[slot]),
                    bound: Bound::from_code(bucket.meta[slot] & BOUND_MASK)?,
                })
            })
    }

    /// Asks the processor to start loading the bucket of `hash` into the cache, so that a
    /// probe shortly after does not wait for memory. A hint only: it changes no result, and
    /// does nothing on processors other than x86-64.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const AtomicBucket = self.buckets.get(self.index(hash));
            // SAFETY: a prefetch is a hint that never faults, and the pointer is to a live
            // bucket of the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Stores a search result; see the module header for what it replaces. `score` must be in
    /// the table's form ([`score_to_tt`]) and within ±[`WIN_SCORE`]; `depth` is clamped to
    /// the `i8` range.
    ///
    /// [`WIN_SCORE`]: super::score::WIN_SCORE
    pub fn store(&self, hash: u64, best: Option<Pos>, score: i32, depth: i32, bound: Bound) {
        debug_assert!(
            score.abs() <= i32::from(i16::MAX),
            "score {score} out of range"
        );
        let generation = self.generation;
        let key = check_key(hash);
        let stored = self.buckets.get(self.index(hash));
        let mut bucket = stored.load();
        let new_move = best.map_or(NO_MOVE, encode_move);

        let same = (0..WAYS).find(|&slot| !bucket.is_empty(slot) && bucket.keys[slot] == key);
        let slot = match same {
            Some(slot) => {
                let keep_deeper = bound != Bound::Exact
                    && bucket.generation(slot) == generation
                    && depth + self.keep_margin < i32::from(bucket.depths[slot]);
                if keep_deeper {
                    if bucket.moves[slot] == NO_MOVE {
                        bucket.moves[slot] = new_move;
                        stored.save(&bucket, slot);
                    }
                    return;
                }
                slot
            }
            None => victim(&bucket, generation),
        };

        if same.is_none() || new_move != NO_MOVE {
            bucket.moves[slot] = new_move;
        }
        bucket.keys[slot] = key;
        bucket.scores[slot] = score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
        bucket.depths[slot] = depth.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8;
        bucket.meta[slot] = (generation << 2) | bound.code();
        stored.save(&bucket, slot);
    }

    /// Bytes used by the entries.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Per mille of the entries written by the current search, sampled over the first
    /// thousand buckets (the `hashfull` statistic of engine GUIs).
    pub fn hashfull_permille(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used = (0..sample)
            .map(|i| self.buckets.get(i).load())
            .flat_map(|b| (0..WAYS).map(move |slot| (b, slot)))
            .filter(|&(b, slot)| !b.is_empty(slot) && b.generation(slot) == self.generation)
            .count();
        (used * 1000 / (sample * WAYS)) as u32
    }

    /// The bucket of a hash: the high bits, scaled to the bucket count (multiply-shift).
    fn index(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize
    }
}

/// The slot a new position goes into: an empty one, else the shallowest entry of an older
/// search, else the shallowest entry of this search (the oldest among equals).
fn victim(bucket: &Bucket, generation: u8) -> usize {
    if let Some(slot) = (0..WAYS).find(|&slot| bucket.is_empty(slot)) {
        return slot;
    }
    (0..WAYS)
        .min_by_key(|&slot| {
            let age = generation.wrapping_sub(bucket.generation(slot)) & GENERATION_MASK;
            (age == 0, bucket.depths[slot], std::cmp::Reverse(age))
        })
        .unwrap_or(0)
}

fn check_key(hash: u64) -> u32 {
    // The low half: the bucket index uses the high bits, so the two are independent.
    hash as u32
}

fn encode_move(pos: Pos) -> u16 {
    debug_assert!(pos.index() < CELL_COUNT);
    pos.index() as u16
}

fn decode_move(code: u16) -> Option<Pos> {
    let index = usize::from(code);
    (code != NO_MOVE && index < CELL_COUNT && index % STRIDE < MAX_SIZE)
        .then(|| Pos::from_index(index))
}

fn bucket_count(bytes: usize) -> usize {
    (bytes / BUCKET_BYTES).max(1)
}

/// A cleared bucket array of at most `bytes`; halves the size while the allocation fails
/// rather than aborting the process.
fn allocate(bytes: usize) -> Buckets {
    let mut count = bucket_count(bytes);
    loop {
        if let Some(buckets) = Buckets::zeroed(count) {
            return buckets;
        }
        assert!(count > 1, "cannot allocate one transposition-table bucket");
        log::warn!(
            "transposition table: cannot allocate {} bytes, halving",
            count * BUCKET_BYTES
        );
        count /= 2;
    }
}

/// Words in a bucket.
const BUCKET_WORDS: usize = BUCKET_BYTES / 8;

/// The buckets, in a zeroed allocation of words aligned by hand.
///
/// Large zeroed allocations from `calloc` are fresh pages that read as zero, so a table of
/// hundreds of MiB costs nothing until the search writes to it, and clearing it is freeing
/// and mapping again. That holds only for an alignment the system allocator's `calloc`
/// gives (16 bytes on x86-64): for the buckets' own 32, Rust's `alloc_zeroed` takes
/// `aligned_alloc` and writes zeros over every page, 50 ms for the default 64 MiB and about
/// a quarter of a second for Gomocup's 350 MB, at each new game and in the first move's
/// time. So the words are allocated as `u64`s, one bucket more, and the buckets start at the
/// first 32-byte boundary inside.
#[derive(Debug, Default)]
struct Buckets {
    /// The buckets' words and one bucket's worth more, for the alignment.
    words: Vec<AtomicU64>,
    /// Index of the first bucket's first word.
    start: usize,
}

impl Buckets {
    /// `count` empty buckets, or `None` if the memory cannot be had.
    fn zeroed(count: usize) -> Option<Buckets> {
        let total = count.checked_add(1)?.checked_mul(BUCKET_WORDS)?;
        let layout = std::alloc::Layout::array::<AtomicU64>(total).ok()?;
        // SAFETY: the layout has a non-zero size (`total` >= 4 words). All-zero bytes are a
        // valid `AtomicU64` (it has the representation of a `u64`). The pointer was allocated
        // by the global allocator with exactly the layout of `total` words, which is what
        // `Vec::from_raw_parts` needs for length and capacity `total`.
        let words = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
            if ptr.is_null() {
                return None;
            }
            Vec::from_raw_parts(ptr, total, total)
        };
        let past_boundary = words.as_ptr() as usize % BUCKET_BYTES;
        let start = (BUCKET_BYTES - past_boundary) % BUCKET_BYTES / 8;
        Some(Buckets { words, start })
    }

    /// The bucket count (the words less the spare bucket).
    fn len(&self) -> usize {
        (self.words.len() / BUCKET_WORDS).saturating_sub(1)
    }

    /// Bucket `i`; panics if `i` is out of range.
    #[inline]
    fn get(&self, i: usize) -> &AtomicBucket {
        assert!(i < self.len(), "bucket {i} of {}", self.len());
        // SAFETY: `start + (i + 1) * BUCKET_WORDS` is at most `start + len() * BUCKET_WORDS`,
        // within `words.len()` (one bucket's words are spare and `start` is less than that),
        // so the bucket's four words lie inside the allocation; they start on a 32-byte
        // boundary, the alignment of `AtomicBucket`, which is `repr(C)` over exactly four
        // `AtomicU64`s. The reference borrows `self`, so it cannot outlive the allocation.
        unsafe {
            &*self
                .words
                .as_ptr()
                .add(self.start + i * BUCKET_WORDS)
                .cast::<AtomicBucket>()
        }
    }
}

/// A score in the table's form: proven wins and losses counted from the node `ply` plies
/// below the root instead of from the root.
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

/// A stored score back in the search's form at a node `ply` plies below the root.
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::WIN_SCORE;

    /// Hashes that land in the same bucket of a one-bucket table, told apart by their keys.
    fn hash(key: u32) -> u64 {
        0xDEAD_BEEF_0000_0000 | u64::from(key)
    }

    fn one_bucket() -> TranspositionTable {
        let tt = TranspositionTable::new(BUCKET_BYTES);
        assert_eq!(tt.size_bytes(), BUCKET_BYTES);
        tt
    }

    #[test]
    fn buckets_are_aligned_empty_and_bounded() {
        for count in [1, 2, 3, 1000, 1 << 16] {
            let buckets = Buckets::zeroed(count).expect("memory");
            assert_eq!(buckets.len(), count);
            for i in [0, count / 2, count - 1] {
                let bucket = buckets.get(i);
                assert_eq!(bucket as *const AtomicBucket as usize % BUCKET_BYTES, 0);
                let loaded = bucket.load();
                assert!((0..WAYS).all(|slot| loaded.is_empty(slot)));
            }
            // Neighbouring buckets do not overlap.
            if count > 1 {
                let gap = buckets.get(1) as *const AtomicBucket as usize
                    - buckets.get(0) as *const AtomicBucket as usize;
                assert_eq!(gap, BUCKET_BYTES);
            }
            let past_end = std::panic::catch_unwind(|| {
                buckets.get(count);
            });
            assert!(
                past_end.is_err(),
                "bucket {count} of {count} was handed out"
            );
        }
    }

    fn depth_of(tt: &TranspositionTable, key: u32) -> Option<i32> {
        tt.probe(hash(key)).map(|e| e.depth)
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1 << 16);
        let cases = [
            (
                0x0123_4567_89AB_CDEF,
                Some(Pos::new(7, 7)),
                123,
                5,
                Bound::Exact,
            ),
            (0xFEDC_BA98_7654_3210, None, -4567, 0, Bound::Lower),
            (
                0x0F0F_0F0F_F0F0_F0F0,
                Some(Pos::new(21, 21)),
                -WIN_SCORE,
                -3,
                Bound::Upper,
            ),
            (
                0x1111_2222_3333_4444,
                Some(Pos::new(0, 0)),
                WIN_SCORE,
                127,
                Bound::Exact,
            ),
        ];
        for &(h, best, score, depth, bound) in &cases {
            tt.store(h, best, score, depth, bound);
        }
        for &(h, best, score, depth, bound) in &cases {
            let e = tt.probe(h).expect("stored");
            assert_eq!(
                e,
                TtEntry {
                    best,
                    score,
                    depth,
                    bound
                }
            );
        }
        assert_eq!(tt.probe(0x5555_5555_5555_5555), None);
        // Same bucket, other key: a miss, not the neighbour's entry.
        assert_eq!(tt.probe(cases[0].0 ^ 1), None);
    }

    /// Threads storing and probing one bucket at once: whatever a probe returns, the move
    /// and score are those stored with its key (they share the key's word), so a race can
    /// cost a depth or bound, never another position's move or score.
    #[test]
    fn racing_threads_never_mix_a_key_with_another_score() {
        let tt = one_bucket();
        let score_of = |key: u32| (key as i32 * 37) % 5000 - 2500;
        let move_of = |key: u32| Pos::new(key as usize % 15, key as usize / 15 % 15);
        let mismatches = std::sync::atomic::AtomicUsize::new(0);
        let hits = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for thread in 0..4u32 {
                let (tt, mismatches, hits) = (&tt, &mismatches, &hits);
                scope.spawn(move || {
                    for i in 0..50_000u32 {
                        let key = 1 + (i * 7 + thread * 13) % 40;
                        let bound = [Bound::Exact, Bound::Lower, Bound::Upper][i as usize % 3];
                        tt.store(
                            hash(key),
                            Some(move_of(key)),
                            score_of(key),
                            (i % 20) as i32,
                            bound,
                        );
                        let probed = 1 + (i * 11 + thread) % 40;
                        if let Some(e) = tt.probe(hash(probed)) {
                            hits.fetch_add(1, Ordering::Relaxed);
                            if e.score != score_of(probed) || e.best != Some(move_of(probed)) {
                                mismatches.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert!(hits.into_inner() > 0);
        assert_eq!(mismatches.into_inner(), 0);
    }

    #[test]
    fn depth_outside_i8_is_clamped() {
        let tt = one_bucket();
        tt.store(hash(1), None, 0, 1000, Bound::Exact);
        tt.store(hash(2), None, 0, -1000, Bound::Exact);
        assert_eq!(depth_of(&tt, 1), Some(127));
        assert_eq!(depth_of(&tt, 2), Some(-128));
    }

    #[test]
    fn replacement_evicts_the_shallowest() {
        let tt = one_bucket();
        tt.store(hash(1), None, 0, 5, Bound::Exact);
        tt.store(hash(2), None, 0, 2, Bound::Exact);
        tt.store(hash(3), None, 0, 8, Bound::Exact);
        tt.store(hash(4), None, 0, 3, Bound::Lower);
        assert_eq!(depth_of(&tt, 2), None, "the shallowest goes");
        assert_eq!(depth_of(&tt, 1), Some(5));
        assert_eq!(depth_of(&tt, 3), Some(8));
        assert_eq!(depth_of(&tt, 4), Some(3));
    }

    #[test]
    fn replacement_evicts_older_searches_first() {
        let mut tt = one_bucket();
        tt.store(hash(1), None, 0, 5, Bound::Exact);
        tt.store(hash(2), None, 0, 9, Bound::Exact);
        tt.new_search();
        tt.store(hash(3), None, 0, 1, Bound::Exact);
        // Key 3 is the shallowest but current; key 1 is the shallowest of the old search.
        tt.store(hash(4), None, 0, 2, Bound::Exact);
        assert_eq!(depth_of(&tt, 1), None);
        assert_eq!(depth_of(&tt, 3), Some(1));
        tt.store(hash(5), None, 0, 3, Bound::Exact);
        assert_eq!(
            depth_of(&tt, 2),
            None,
            "a deep old entry still goes before a new one"
        );
        assert!(depth_of(&tt, 3).is_some() && depth_of(&tt, 4).is_some());
        // Now only entries of this search: the shallowest goes.
        tt.store(hash(6), None, 0, 4, Bound::Exact);
        assert_eq!(
            [3, 4, 5, 6].map(|k| depth_of(&tt, k).is_some()),
            [false, true, true, true]
        );
    }

    #[test]
    fn generations_wrap_around() {
        let mut tt = one_bucket();
        tt.store(hash(1), None, 0, 3, Bound::Exact);
        for _ in 0..64 {
            tt.new_search();
        }
        // 64 searches later the generation number is back; the entry counts as current.
        assert_eq!(tt.hashfull_permille(), 1000 / WAYS as u32);
        tt.new_search();
        assert_eq!(tt.hashfull_permille(), 0);
        assert_eq!(depth_of(&tt, 1), Some(3), "old entries stay readable");
    }

    #[test]
    fn a_zero_keep_margin_keeps_any_deeper_bound_of_this_search() {
        let mut tt = one_bucket();
        tt.set_keep_margin(0);
        let (a, b) = (Pos::new(3, 4), Pos::new(5, 6));
        tt.store(hash(1), Some(a), 50, 8, Bound::Lower);
        // A bound a ply shallower keeps the deeper one (margin 2 would overwrite it).
        tt.store(hash(1), Some(b), 20, 7, Bound::Upper);
        let e = tt.probe(hash(1)).expect("stored");
        assert_eq!((e.depth, e.score, e.best), (8, 50, Some(a)));
        // As deep, the newer result wins; an exact one always does.
        tt.store(hash(1), Some(b), 20, 8, Bound::Upper);
        assert_eq!(tt.probe(hash(1)).map(|e| e.bound), Some(Bound::Upper));
        tt.store(hash(1), Some(a), 5, 3, Bound::Exact);
        assert_eq!(depth_of(&tt, 1), Some(3));
        tt.set_keep_margin(KEEP_DEPTH_MARGIN);
        tt.store(hash(1), Some(b), 9, 9, Bound::Lower);
        tt.store(hash(1), Some(a), 1, 9 - KEEP_DEPTH_MARGIN, Bound::Upper);
        assert_eq!(depth_of(&tt, 1), Some(9 - KEEP_DEPTH_MARGIN));
    }

    #[test]
    fn same_position_keeps_a_deeper_result_of_this_search() {
        let mut tt = one_bucket();
        let a = Pos::new(3, 4);
        let b = Pos::new(5, 6);
        tt.store(hash(1), Some(a), 50, 8, Bound::Exact);
        tt.store(hash(1), Some(b), 10, 2, Bound::Lower);
        let e = tt.probe(hash(1)).expect("stored");
        assert_eq!((e.depth, e.score, e.best), (8, 50, Some(a)));
        // Within the margin, the newer result wins.
        tt.store(hash(1), Some(b), 20, 8 - KEEP_DEPTH_MARGIN, Bound::Upper);
        let e = tt.probe(hash(1)).expect("stored");
        assert_eq!((e.depth, e.bound, e.best), (6, Bound::Upper, Some(b)));
        // An exact result always replaces; without a move it keeps the old one.
        tt.store(hash(1), None, -7, 1, Bound::Exact);
        let e = tt.probe(hash(1)).expect("stored");
        assert_eq!((e.depth, e.score, e.best), (1, -7, Some(b)));
        // A deeper entry from an older search is replaced.
        tt.store(hash(2), Some(a), 0, 20, Bound::Lower);
        tt.new_search();
        tt.store(hash(2), Some(b), 0, 1, Bound::Lower);
        assert_eq!(depth_of(&tt, 2), Some(1));
        // Only one slot per position.
        assert!(depth_of(&tt, 1).is_some() && depth_of(&tt, 2).is_some());
    }

    #[test]
    fn mate_scores_round_trip_through_other_plies() {
        for ply in [0, 1, 7, 40] {
            for score in [
                0,
                355,
                -355,
                WIN_THRESHOLD - 1,
                -(WIN_THRESHOLD - 1),
                WIN_SCORE - 50,
                -(WIN_SCORE - 50),
            ] {
                assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
            }
        }
        // A win in 3 plies from a node at ply 10 scores WIN_SCORE - 13 at the root. Stored
        // relative to the node, it reads as a win in 3 at ply 2: WIN_SCORE - 5.
        let stored = score_to_tt(WIN_SCORE - 13, 10);
        assert_eq!(stored, WIN_SCORE - 3);
        assert_eq!(score_from_tt(stored, 2), WIN_SCORE - 5);
        let stored = score_to_tt(-(WIN_SCORE - 13), 10);
        assert_eq!(score_from_tt(stored, 2), -(WIN_SCORE - 5));
        // Ordinary scores pass unchanged.
        assert_eq!(score_to_tt(1234, 9), 1234);

        let tt = TranspositionTable::new(1 << 12);
        tt.store(42, None, score_to_tt(-(WIN_SCORE - 20), 6), 3, Bound::Upper);
        let e = tt.probe(42).expect("stored");
        assert_eq!(score_from_tt(e.score, 6), -(WIN_SCORE - 20));
    }

    #[test]
    fn size_never_exceeds_the_request() {
        for bytes in [0, 1, 31, 32, 33, 1000, 1 << 20, (1 << 20) + 17, 3 << 20] {
            let tt = TranspositionTable::new(bytes);
            assert!(tt.size_bytes() <= bytes.max(BUCKET_BYTES), "{bytes}");
            assert!(
                tt.size_bytes() + BUCKET_BYTES > bytes,
                "{bytes} wastes space"
            );
        }
    }

    #[test]
    fn resize_and_clear() {
        let mut tt = TranspositionTable::new(1 << 16);
        for k in 0..500u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                1,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull_permille() > 0);
        let probe = 7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert!(tt.probe(probe).is_some());

        // Same size: nothing changes.
        tt.resize(1 << 16);
        assert!(tt.probe(probe).is_some());
        // New size: a new, empty table.
        tt.resize(1 << 17);
        assert_eq!(tt.size_bytes(), 1 << 17);
        assert!(tt.probe(probe).is_none());
        assert_eq!(tt.hashfull_permille(), 0);

        tt.store(probe, Some(Pos::new(1, 2)), 3, 4, Bound::Lower);
        assert!(tt.probe(probe).is_some());
        tt.clear();
        assert!(tt.probe(probe).is_none());
        assert_eq!(tt.size_bytes(), 1 << 17);
    }

    #[test]
    fn hashfull_counts_the_current_search() {
        let mut tt = TranspositionTable::new(100 * BUCKET_BYTES);
        assert_eq!(tt.hashfull_permille(), 0);
        let mut k = 1u64;
        for _ in 0..(100 * WAYS) {
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tt.store(k, None, 0, 1, Bound::Exact);
        }
        let full = tt.hashfull_permille();
        // Random keys over 300 slots fill most but, with collisions, rarely all of them.
        assert!((400..=1000).contains(&full), "{full}");
        tt.new_search();
        assert_eq!(tt.hashfull_permille(), 0);
    }
}
