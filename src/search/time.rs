//! Time management: turns the `INFO` limits into a soft and a hard limit for one move.
//!
//! The search creates one [`TimeManager`] per move, with a [`Clock`] started when the think
//! command (`TURN`, `BEGIN`, `BOARD`) was *read*, not when the game began: managers suspend
//! the process between moves, so only that moment says how much of the turn is gone
//! (PROTOCOL.md §6.3). Between iterations it calls
//! [`should_start_iteration`](TimeManager::should_start_iteration); inside the search, every
//! ~1024 nodes, [`hard_limit_reached`](TimeManager::hard_limit_reached).
//!
//! # Policy
//!
//! The limits fall into three modes:
//!
//! * **Timed.** When the turn limit binds (it is at most the move's share of the match
//!   clock, or there is no match clock), the hard limit is `timeout_turn` minus a reserve for
//!   process overhead and the manager's measuring: [`TURN_RESERVE_MS`] plus
//!   [`RESERVE_PERCENT`] % of it, but never less than [`MIN_BUDGET_MS`]. The soft limit (no
//!   new iteration after it) is [`SOFT_PERCENT_TURN`] % of the hard one: time not used is
//!   lost, and a partly searched iteration still improves the move (the search plays a move
//!   that beat the previous best at the new depth, or one that failed high).
//!
//!   When the match clock binds, the move's share is `time_left / moves_left` with
//!   `moves_left = clamp(empty / 2, MATCH_SPACE_MIN, MATCH_SPACE)` (7..=25): each side has at
//!   most half the empty cells left to play, and the clamp plans for a long game early and
//!   keeps a few moves in hand late. The soft limit is [`MATCH_SOFT_SHARES`] shares (minus the
//!   reserve); the hard limit lets the last iteration run on to [`MATCH_STRETCH`] shares,
//!   within the turn limit and never past a [`MATCH_SPACE_MIN`]-th of the clock left. Each
//!   move's share is taken from the clock then left, so a long move makes the next ones
//!   shorter.
//!
//!   The clock also keeps a tail of [`TAIL_MS_PER_MOVE`] for each move the side may still
//!   have to play (half the empty cells), and no hard limit reaches into it. Before it, no
//!   hard limit fell below the [`MIN_BUDGET_MS`] floor, whatever was left: in Gomocup's fast
//!   game on 15x15 under renju, two of 16 games filled the board with 0.30 s of the 120 s
//!   left, their last moves taking that floor. Late in a game, below about 0.15 s, the soft
//!   limit is zero and a move searches one depth (about 1 ms on 15x15), so no game here came
//!   nearer, but nothing bounded it: with every move run to its hard limit and 2 ms over,
//!   the clock of a 15x15 game ran out at move 104. Piskvork and GomocupJudge forgive a
//!   clock below zero within their tolerance; c-gomoku-cli scores a loss. The tail is 0.34 s
//!   on an empty 15x15 board and shrinks as it fills; it binds only at the end of a long
//!   game, once little more than the tail is left.
//!
//!   Two shares for the soft limit put the match clock to use, where the earlier policy
//!   (hard limit = share, soft = half of it, no iteration started unless one 2.5 times the
//!   last could end in time) used about a fifth of it. Settled by matches: E-012, E-013, E-014, E-017;
//!   not adopted: E-112, E-113, E-116 (scaling by the best move's stability), E-118 (three
//!   and four shares), E-297 (more time when the score falls), E-352 (at most 20 moves),
//!   E-356 (a fifth of the clock as the cap), E-357 (scaling by the best move's nodes).
//!
//!   Iterations start whenever the soft limit has not passed, with no estimate of the next
//!   iteration's time. Settled by matches: E-007, E-008.
//! * **Instant.** `timeout_turn 0` while a match limit exists means "play instantly, static
//!   evaluation only" (§6.2); a `time_left` of zero or below means the clock has run out and
//!   any answer should come as fast as possible, and so does a clock with no more than its
//!   tail left. Both limits are zero and no iteration starts: the caller answers with its
//!   static move.
//! * **Untimed.** No turn limit (absent, 0, or `2147483647`) and no match limit
//!   (`timeout_match` absent or 0 and `time_left` absent or `2147483647`). The clock is never
//!   read for a decision, so a fixed-depth or fixed-node search is deterministic (the bench
//!   relies on it). The search stops at `max_depth`, at `max_node`, or, if neither is given, at
//!   [`DEFAULT_DEPTH`].
//!
//! `time_left` is the freshest match clock the caller knows: managers may not resend it, so the
//! protocol layer subtracts its own used time between moves. When it is missing but
//! `timeout_match` is set, `timeout_match` stands in for it. `max_depth` and `max_node` bind in
//! every mode; 0 means "no limit" for both, as for the time keys.

use std::time::Instant;

use super::limits::Limits;

/// A millisecond clock running since the think command was read.
pub trait Clock {
    /// Milliseconds since the start.
    fn elapsed_ms(&self) -> u64;
}

/// Lets a caller keep ownership of its clock and lend it to the manager (tests use this to
/// advance a fake clock while the manager holds it).
impl<C: Clock + ?Sized> Clock for &C {
    fn elapsed_ms(&self) -> u64 {
        (**self).elapsed_ms()
    }
}

/// The real clock: monotonic time since a given instant.
#[derive(Clone, Copy, Debug)]
pub struct InstantClock {
    start: Instant,
}

impl InstantClock {
    /// A clock counting from `start` (the moment the think command was read).
    pub fn new(start: Instant) -> InstantClock {
        InstantClock { start }
    }
}

impl Clock for InstantClock {
    fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// Milliseconds kept back from every budget for process overhead, pipes and the manager's
/// own measuring (Rapfi reserves 30 ms per move). With [`RESERVE_PERCENT`], the longest of
/// 14,858 moves at 0.2 s/move took 181 ms (E-408; 40 ms and 5 % before).
pub const TURN_RESERVE_MS: u64 = 25;
/// Percent of the budget kept back on top of [`TURN_RESERVE_MS`]: long budgets jitter more.
pub const RESERVE_PERCENT: u64 = 3;
/// The smallest hard limit of a timed move, whatever the reserve: enough for a shallow search.
pub const MIN_BUDGET_MS: u64 = 10;
/// Most moves the match clock is shared over.
pub const MATCH_SPACE: u64 = 25;
/// Fewest moves the match clock is shared over, so a late move never takes all of it.
pub const MATCH_SPACE_MIN: u64 = 7;
/// Soft limit in percent of the budget when the turn limit binds. Not adopted: E-259 (100),
/// E-261 (75).
pub const SOFT_PERCENT_TURN: u64 = 90;
/// Shares of the match clock after which no new iteration starts, when the match clock binds.
pub const MATCH_SOFT_SHARES: u64 = 2;
/// How many shares of the match clock one move may run on to when the match clock binds
/// (within the turn limit and a [`MATCH_SPACE_MIN`]-th of the clock left, which binds first
/// while the clock is shared over [`MATCH_SPACE`] moves: about 3.6 shares). Four instead of
/// three, so that the iteration started just before the soft limit may finish; the longest
/// move at 1 s/move and 6 s/game stays inside the 910 ms hard limit of the 1 s turn. At
/// Gomocup's 30 s/180 s the first moves' hard limit is 24.4 s instead of 20.5 s. Settled by
/// matches: E-353; not adopted: E-356 (a larger cap than the seventh).
pub const MATCH_STRETCH: u64 = 4;
/// Milliseconds of the match clock kept for each move the side to move may still have to
/// play, this one included (half the empty cells, rounded up), for what an instant move
/// costs on the manager's clock: c-gomoku-cli scores a loss as soon as the clock is below
/// zero after a move, whatever its tolerance. Only the last moves of a long game reach it
/// (see the module header).
pub const TAIL_MS_PER_MOVE: u64 = 3;
/// Depth cap of a search with no time, depth or node limit at all.
pub const DEFAULT_DEPTH: u32 = 12;
/// Time values at or above this mean "unlimited" (what managers send for an untimed clock).
pub const UNLIMITED_MS: i64 = i32::MAX as i64;

/// What the limits allow for this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// No time limit: only depth and nodes bind, and the clock is never read.
    Untimed,
    /// Answer at once without searching.
    Instant,
    /// Soft and hard limits in milliseconds since the clock's start.
    Timed { soft: u64, hard: u64 },
}

/// Time and search limits of one move.
#[derive(Debug)]
pub struct TimeManager<C: Clock = InstantClock> {
    clock: C,
    mode: Mode,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
}

impl<C: Clock> TimeManager<C> {
    /// The limits of a move from the `INFO` values. `stones` = stones on the board, `empty` =
    /// empty cells left; `clock` runs since the think command was read.
    pub fn new(limits: &Limits, stones: usize, empty: usize, clock: C) -> Self {
        let mode = plan(limits, empty);
        let max_nodes = limits.max_nodes.filter(|&n| n > 0);
        let max_depth = limits.max_depth.filter(|&d| d > 0).or(
            // Without any bound the iterative deepening would never end.
            if mode == Mode::Untimed && max_nodes.is_none() {
                Some(DEFAULT_DEPTH)
            } else {
                None
            },
        );
        log::debug!(
            "time: {mode:?}, max depth {max_depth:?}, max nodes {max_nodes:?} \
             ({stones} stones, {empty} empty)"
        );
        TimeManager {
            clock,
            mode,
            max_depth,
            max_nodes,
        }
    }

    /// Milliseconds since the think command was read.
    pub fn elapsed_ms(&self) -> u64 {
        self.clock.elapsed_ms()
    }

    /// After this many milliseconds no new iteration starts; `None` = no time limit.
    pub fn soft_limit_ms(&self) -> Option<u64> {
        match self.mode {
            Mode::Untimed => None,
            Mode::Instant => Some(0),
            Mode::Timed { soft, .. } => Some(soft),
        }
    }

    /// After this many milliseconds the search is aborted; `None` = no time limit.
    pub fn hard_limit_ms(&self) -> Option<u64> {
        match self.mode {
            Mode::Untimed => None,
            Mode::Instant => Some(0),
            Mode::Timed { hard, .. } => Some(hard),
        }
    }

    /// True if there is any time limit; false means only depth and nodes bind.
    pub fn is_timed(&self) -> bool {
        self.mode != Mode::Untimed
    }

    /// True if only a static, instant answer is allowed (`timeout_turn 0` with a match limit,
    /// or no match time left).
    pub fn is_instant(&self) -> bool {
        self.mode == Mode::Instant
    }

    /// Between iterations: false once the soft limit has passed. Without a time limit this is
    /// always true and the clock is not read; the depth and node caps
    /// ([`max_depth`](Self::max_depth), [`node_limit_reached`](Self::node_limit_reached)) are
    /// the caller's loop bounds.
    pub fn should_start_iteration(&self) -> bool {
        match self.mode {
            Mode::Untimed => true,
            Mode::Instant => false,
            Mode::Timed { soft, .. } => self.clock.elapsed_ms() < soft,
        }
    }

    /// Inside the search: true once the hard limit has passed. Cheap enough for every ~1024
    /// nodes; never reads the clock without a time limit.
    pub fn hard_limit_reached(&self) -> bool {
        match self.mode {
            Mode::Untimed => false,
            Mode::Instant => true,
            Mode::Timed { hard, .. } => self.clock.elapsed_ms() >= hard,
        }
    }

    /// The deepest iteration to search: `max_depth` if given, [`DEFAULT_DEPTH`] if nothing at
    /// all limits the search, otherwise `None` (time or nodes end it).
    pub fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }

    /// The node budget (`max_node`), if any.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }

    /// True once `nodes` has used up the node budget.
    pub fn node_limit_reached(&self, nodes: u64) -> bool {
        self.max_nodes.is_some_and(|limit| nodes >= limit)
    }
}

impl<C: Clock + Clone> TimeManager<C> {
    /// The limits of the next of `parts` searches that share this manager's time (the best `n`
    /// moves, or the candidates of a swap2 decision), on the same clock: what is left until each
    /// limit is split evenly, at least [`MIN_BUDGET_MS`] of it while that much is left, so time
    /// one search leaves unused goes to the next ones and the last ends by the shared limits.
    /// Depth and node caps bind each search alike; untimed and instant managers are copied.
    pub fn split(&self, parts: u64) -> TimeManager<C> {
        let mode = match self.mode {
            Mode::Timed { soft, hard } => {
                let now = self.clock.elapsed_ms();
                let slice = |limit: u64| {
                    let left = limit.saturating_sub(now);
                    now + (left / parts.max(1)).max(MIN_BUDGET_MS).min(left)
                };
                let hard = slice(hard);
                Mode::Timed {
                    soft: slice(soft).min(hard),
                    hard,
                }
            }
            mode => mode,
        };
        TimeManager {
            clock: self.clock.clone(),
            mode,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
        }
    }

    /// Whether another search sharing this manager's time ([`split`](Self::split)) would get
    /// [`MIN_BUDGET_MS`] before the hard limit: always without a time limit, never when
    /// instant. A search with less would stop before its first depth.
    pub fn has_time_to_share(&self) -> bool {
        match self.mode {
            Mode::Untimed => true,
            Mode::Instant => false,
            Mode::Timed { hard, .. } => self.clock.elapsed_ms() + MIN_BUDGET_MS <= hard,
        }
    }
}

/// The match clock kept back for the moves the side to move may still have to play, this one
/// included ([`TAIL_MS_PER_MOVE`] each): a move that uses no more than the clock above the
/// tail, plus up to [`TAIL_MS_PER_MOVE`] of overhead, leaves the next move its whole tail.
fn clock_tail_ms(empty: usize) -> u64 {
    TAIL_MS_PER_MOVE * (empty as u64).div_ceil(2)
}

/// What a move with a raw limit of `raw_ms` keeps back for process overhead:
/// [`TURN_RESERVE_MS`] plus [`RESERVE_PERCENT`] % of it.
fn reserve_ms(raw_ms: u64) -> u64 {
    TURN_RESERVE_MS + raw_ms * RESERVE_PERCENT / 100
}

/// A time value as a limit: `None` for absent or unlimited, negative values kept.
fn finite(value: Option<i64>) -> Option<i64> {
    value.filter(|&v| v < UNLIMITED_MS)
}

/// The mode of a move from the limits; see the module header for the policy.
fn plan(limits: &Limits, empty: usize) -> Mode {
    // A negative turn limit is nonsense; read it as the spec's 0 ("instantly").
    let turn = finite(limits.timeout_turn_ms).map(|t| t.max(0));
    let match_left =
        finite(limits.time_left_ms).or_else(|| finite(limits.timeout_match_ms).filter(|&m| m > 0));
    // The match clock keeps its tail for the moves left: with no more than that on it (none,
    // or less than none, included), the move is instant.
    let tail = clock_tail_ms(empty);
    let (turn, match_left) = match (turn, match_left) {
        // timeout_turn 0 alone means "no limit" (§6.2): think to a fixed depth.
        (Some(0) | None, None) => return Mode::Untimed,
        (Some(0), Some(_)) => return Mode::Instant,
        (_, Some(left)) if left <= tail as i64 => return Mode::Instant,
        (turn, left) => (turn.map(|t| t as u64), left.map(|l| l as u64)),
    };
    let moves_left = (empty as u64 / 2).clamp(MATCH_SPACE_MIN, MATCH_SPACE);
    // The raw hard limit, and when the match clock binds, the raw soft limit.
    let (raw, match_soft) = match (turn, match_left) {
        // The match clock binds: no turn limit, or one longer than the move's share.
        (turn, Some(left)) if turn.is_none_or(|t| t > left / moves_left) => {
            let share = left / moves_left;
            let stretch = (share * MATCH_STRETCH).min(left / MATCH_SPACE_MIN);
            (
                turn.map_or(stretch, |t| t.min(stretch)),
                Some(share * MATCH_SOFT_SHARES),
            )
        }
        (Some(t), _) => (t, None),
        // Without a turn limit: untimed returned above, and a match clock binds.
        (None, _) => unreachable!("no turn limit and the match clock does not bind"),
    };
    let reserve = reserve_ms(raw);
    let mut hard = raw.saturating_sub(reserve).max(MIN_BUDGET_MS);
    if let Some(left) = match_left {
        // No hard limit reaches into the tail.
        hard = hard.min(left - tail);
    }
    let turn_soft = hard * SOFT_PERCENT_TURN / 100;
    // Late in the game the stretch shrinks to the share: then the turn-bound margin holds.
    let soft = match_soft.map_or(turn_soft, |m| m.saturating_sub(reserve).min(turn_soft));
    Mode::Timed { soft, hard }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A clock the test sets by hand.
    struct FakeClock(Cell<u64>);

    impl FakeClock {
        fn at(ms: u64) -> FakeClock {
            FakeClock(Cell::new(ms))
        }
        fn set(&self, ms: u64) {
            self.0.set(ms);
        }
    }

    impl Clock for FakeClock {
        fn elapsed_ms(&self) -> u64 {
            self.0.get()
        }
    }

    /// A clock that fails the test if anything reads it.
    struct ForbiddenClock;

    impl Clock for ForbiddenClock {
        fn elapsed_ms(&self) -> u64 {
            panic!("an untimed search read the clock");
        }
    }

    fn limits(turn: Option<i64>, matchtime: Option<i64>, left: Option<i64>) -> Limits {
        Limits {
            timeout_turn_ms: turn,
            timeout_match_ms: matchtime,
            time_left_ms: left,
            ..Limits::default()
        }
    }

    /// 15x15, empty board.
    const EMPTY_15: usize = 225;

    /// Properties every timed plan must have: a hard limit inside the binding limit minus the
    /// fixed reserve, not absurdly small, and a soft limit below it.
    fn assert_sane(tm: &TimeManager<&FakeClock>, binding_ms: u64) -> (u64, u64) {
        assert!(tm.is_timed() && !tm.is_instant());
        let hard = tm.hard_limit_ms().expect("timed");
        let soft = tm.soft_limit_ms().expect("timed");
        assert!(
            hard + TURN_RESERVE_MS <= binding_ms,
            "{hard} vs {binding_ms}"
        );
        // The fixed reserve is a quarter of a 0.2 s turn; at longer limits far less.
        assert!(
            hard >= binding_ms * 7 / 10,
            "{hard} wastes too much of {binding_ms}"
        );
        assert!(soft > 0 && soft < hard, "soft {soft}, hard {hard}");
        (soft, hard)
    }

    #[test]
    fn fast_game_shares_the_match_clock() {
        // Gomocup fastgame 5 s / 120 s: 120 s over 25 moves is below the 5 s turn limit.
        let clock = FakeClock::at(0);
        let l = limits(Some(5_000), Some(120_000), Some(120_000));
        let tm = TimeManager::new(&l, 0, EMPTY_15, &clock);
        // The last iteration may run on to the turn limit ...
        let (soft, _) = assert_sane(&tm, 5_000);
        // ... but none starts after two shares of the match clock.
        assert!(soft + TURN_RESERVE_MS <= 120_000 / MATCH_SPACE * MATCH_SOFT_SHARES);
        assert_eq!(tm.max_depth(), None);
        assert_eq!(tm.max_nodes(), None);

        // Late in the game with little time: never more than a seventh of what is left.
        let l = limits(Some(5_000), Some(120_000), Some(7_000));
        let tm = TimeManager::new(&l, 215, 10, &clock);
        assert_sane(&tm, 7_000 / MATCH_SPACE_MIN);
    }

    #[test]
    fn split_time_goes_to_the_searches_left() {
        // 1 s per move, shared by four searches on one clock.
        let clock = FakeClock::at(0);
        let tm = TimeManager::new(&limits(Some(1_000), None, None), 10, 215, &clock);
        let (soft, hard) = assert_sane(&tm, 1_000);
        let first = tm.split(4);
        assert_eq!(first.hard_limit_ms(), Some(hard / 4));
        assert_eq!(first.soft_limit_ms(), Some(soft / 4));
        // The first stopped early: the three left share what remains.
        clock.set(100);
        let second = tm.split(3);
        assert_eq!(second.hard_limit_ms(), Some(100 + (hard - 100) / 3));
        // The last ends by the shared limits, wherever the others left it.
        clock.set(hard - 5);
        let last = tm.split(1);
        assert_eq!(last.hard_limit_ms(), Some(hard));
        assert!(!last.should_start_iteration(), "past the shared soft limit");
        // Many searches: each gets at least MIN_BUDGET_MS while the time lasts, never more.
        clock.set(0);
        assert_eq!(tm.split(1_000).hard_limit_ms(), Some(MIN_BUDGET_MS));
        assert!(tm.has_time_to_share());
        clock.set(hard - MIN_BUDGET_MS + 1);
        assert!(!tm.has_time_to_share());
        clock.set(hard + 50);
        assert!(tm.split(2).hard_limit_reached());
        // Untimed and instant managers stay as they are.
        let untimed = TimeManager::new(&Limits::default(), 0, 225, &clock);
        assert!(untimed.has_time_to_share());
        let untimed = untimed.split(5);
        assert!(!untimed.is_timed());
        assert_eq!(untimed.max_depth(), Some(DEFAULT_DEPTH));
        let instant = TimeManager::new(&limits(Some(0), Some(60_000), None), 0, 225, &clock);
        assert!(!instant.has_time_to_share());
        assert!(instant.split(5).is_instant());
    }

    #[test]
    fn fast_game_turn_limit_binds_with_plenty_left() {
        // 5 s / 120 s with 110 s left and a moves-left estimate of 12: 110/12 > 5 s.
        let clock = FakeClock::at(0);
        let l = limits(Some(5_000), Some(120_000), Some(110_000));
        let tm = TimeManager::new(&l, 200, 25, &clock);
        let (soft, hard) = assert_sane(&tm, 5_000);
        assert!(soft * 100 >= hard * (SOFT_PERCENT_TURN - 1));
    }

    #[test]
    fn turn_limit_binds_iterations_start_until_the_soft_limit() {
        // 1 s per move, no match clock: an iteration that may not finish still starts, since
        // unused turn time is lost and a partial iteration can still improve the move.
        let clock = FakeClock::at(0);
        let l = limits(Some(1_000), None, None);
        let tm = TimeManager::new(&l, 10, 215, &clock);
        let (soft, _) = assert_sane(&tm, 1_000);
        clock.set(soft - 1);
        assert!(tm.should_start_iteration());
        clock.set(soft);
        assert!(!tm.should_start_iteration(), "soft limit passed");
    }

    #[test]
    fn thirty_seconds_per_move_three_minutes_per_game() {
        let clock = FakeClock::at(0);
        let l = limits(Some(30_000), Some(180_000), Some(180_000));
        let tm = TimeManager::new(&l, 10, 215, &clock);
        let share = 180_000 / MATCH_SPACE;
        // The hard limit stretches past the soft limit's shares.
        let (soft, hard) = assert_sane(&tm, share * MATCH_STRETCH);
        assert!(soft + TURN_RESERVE_MS <= share * MATCH_SOFT_SHARES);
        assert!(hard > share * MATCH_SOFT_SHARES);
        // Early in the game a seventh of the clock binds before the stretch: 25,714 ms less
        // the reserve (40 ms and 5 %).
        let seventh = 180_000 / MATCH_SPACE_MIN;
        assert!(seventh < share * MATCH_STRETCH);
        assert_eq!(hard, seventh - reserve_ms(seventh));

        // Iteration gating with the fake clock.
        assert!(tm.should_start_iteration());
        clock.set(soft - 1);
        assert!(tm.should_start_iteration());
        clock.set(soft);
        assert!(!tm.should_start_iteration(), "soft limit passed");
        assert!(!tm.hard_limit_reached());
        clock.set(hard - 1);
        assert!(!tm.hard_limit_reached());
        clock.set(hard);
        assert!(tm.hard_limit_reached());
    }

    #[test]
    fn a_long_move_shortens_the_next_and_the_clock_never_runs_out() {
        // 5 s / 120 s on 20x20, every move using its whole hard limit: the clock left stays
        // positive over 100 moves of one side (a 200-ply game; balanced games here end
        // within about 40), and no move takes more than a seventh of it.
        let clock = FakeClock::at(0);
        let mut left: i64 = 120_000;
        for ply in 0..100 {
            let l = limits(Some(5_000), Some(120_000), Some(left));
            let tm = TimeManager::new(&l, ply, 400 - 2 * ply, &clock);
            let hard = tm.hard_limit_ms().expect("timed") as i64;
            assert!(hard <= 5_000 && (hard <= left / 7 || hard == MIN_BUDGET_MS as i64));
            left -= hard;
            assert!(left > 0, "flagged at move {ply}");
        }
    }

    #[test]
    fn untimed_match_with_a_turn_limit() {
        // 0.2 s per move, no match limit (CGC tc=0.2 sends time_left 2147483647).
        let clock = FakeClock::at(0);
        for l in [
            limits(Some(200), Some(0), Some(2_147_483_647)),
            limits(Some(200), None, None),
            limits(Some(200), None, Some(2_147_483_647)),
        ] {
            let tm = TimeManager::new(&l, 30, 195, &clock);
            let (soft, hard) = assert_sane(&tm, 200);
            // Unused turn time is lost, so the soft limit sits near the hard one.
            assert!(soft * 100 >= hard * (SOFT_PERCENT_TURN - 1), "{l:?}");
            assert_eq!(tm.max_depth(), None, "time ends the search");
        }
    }

    #[test]
    fn the_match_clock_alone_can_bind() {
        let clock = FakeClock::at(0);
        let l = limits(None, Some(60_000), Some(60_000));
        let tm = TimeManager::new(&l, 0, EMPTY_15, &clock);
        let (soft, _) = assert_sane(&tm, 60_000 / MATCH_SPACE * MATCH_STRETCH);
        assert!(soft + TURN_RESERVE_MS <= 60_000 / MATCH_SPACE * MATCH_SOFT_SHARES);
        // Before the first time_left arrives, timeout_match stands in for it.
        let l = limits(None, Some(60_000), None);
        let tm2 = TimeManager::new(&l, 0, EMPTY_15, &clock);
        assert_eq!(tm2.hard_limit_ms(), tm.hard_limit_ms());
    }

    #[test]
    fn out_of_match_time_answers_instantly() {
        let clock = ForbiddenClock;
        for left in [-1, -5_000, 0] {
            let l = limits(Some(5_000), Some(120_000), Some(left));
            let tm = TimeManager::new(&l, 40, 185, &clock);
            assert!(tm.is_instant(), "time_left {left}");
            assert_eq!(tm.hard_limit_ms(), Some(0));
            assert!(tm.hard_limit_reached());
            assert!(!tm.should_start_iteration());
        }
    }

    #[test]
    fn tiny_time_left_keeps_a_floor_above_the_tail() {
        let clock = FakeClock::at(0);
        let tm = |left, empty| {
            let l = limits(Some(5_000), Some(120_000), Some(left));
            TimeManager::new(&l, 225 - empty, empty, &clock)
        };
        // Ten empty cells: 15 ms kept for this move and the four after it.
        assert_eq!(clock_tail_ms(10), 15);
        // 100 ms left: a seventh of it is under the reserve, but a search gets the floor.
        assert!(!tm(100, 10).is_instant());
        assert_eq!(tm(100, 10).hard_limit_ms(), Some(MIN_BUDGET_MS));
        // 20 ms left: only what is above the tail.
        assert_eq!(tm(20, 10).hard_limit_ms(), Some(5));
        // Nothing above the tail: an instant move, as with no time left at all.
        assert!(tm(15, 10).is_instant());
        assert!(tm(40, 125).is_instant(), "63 moves need 189 ms");
    }

    #[test]
    fn a_game_to_a_full_board_never_runs_the_clock_out() {
        // Each move runs to its hard limit and 2 ms over it (the search polls the clock every
        // 1024 nodes, and the manager measures the pipes too); the opponent plays between.
        // c-gomoku-cli scores a loss once the clock is below zero after a move.
        for (width, height, turn, game) in [
            (15, 15, 5_000, 120_000),
            (20, 20, 5_000, 120_000),
            (20, 20, 30_000, 180_000),
            (15, 15, 1_000, 6_000),
            (22, 22, 1_000, 2_000),
        ] {
            let cells = width * height;
            let mut left = game;
            for stones in (0..cells).step_by(2) {
                let clock = FakeClock::at(0);
                let l = limits(Some(turn), Some(game), Some(left));
                let tm = TimeManager::new(&l, stones, cells - stones, &clock);
                let used = tm.hard_limit_ms().expect("timed") as i64 + 2;
                assert!(
                    tm.is_instant() || used <= turn,
                    "{width}x{height}, move {}: {used} ms",
                    stones / 2 + 1
                );
                left -= used;
                assert!(
                    left >= 0,
                    "{width}x{height} at {turn}/{game} ms: the clock ran out at move {}",
                    stones / 2 + 1
                );
            }
        }
    }

    #[test]
    fn unlimited_time_left_means_only_the_turn_binds() {
        let clock = FakeClock::at(0);
        let l = limits(Some(1_000), None, Some(2_147_483_647));
        let tm = TimeManager::new(&l, 0, EMPTY_15, &clock);
        assert_sane(&tm, 1_000);
        // And with no turn limit either, nothing is timed.
        let l = limits(None, None, Some(2_147_483_647));
        let tm = TimeManager::new(&l, 0, EMPTY_15, &ForbiddenClock);
        assert!(!tm.is_timed());
        assert_eq!(tm.max_depth(), Some(DEFAULT_DEPTH));
    }

    #[test]
    fn turn_zero_with_a_match_limit_is_instant() {
        for l in [
            limits(Some(0), Some(180_000), Some(150_000)),
            limits(Some(0), Some(180_000), None),
            limits(Some(0), None, Some(150_000)),
        ] {
            let tm = TimeManager::new(&l, 20, 205, ForbiddenClock);
            assert!(tm.is_instant(), "{l:?}");
            assert!(tm.is_timed());
            assert_eq!(tm.soft_limit_ms(), Some(0));
            assert!(!tm.should_start_iteration());
            assert!(tm.hard_limit_reached());
        }
    }

    #[test]
    fn both_zero_means_no_time_limit_and_no_clock() {
        for l in [
            limits(Some(0), Some(0), None),
            limits(Some(0), Some(0), Some(2_147_483_647)),
            limits(None, None, None),
            limits(Some(0), None, None),
        ] {
            let tm = TimeManager::new(&l, 0, EMPTY_15, ForbiddenClock);
            assert!(!tm.is_timed() && !tm.is_instant(), "{l:?}");
            assert_eq!(tm.soft_limit_ms(), None);
            assert_eq!(tm.hard_limit_ms(), None);
            // The ForbiddenClock panics if either of these reads the time.
            assert!(tm.should_start_iteration());
            assert!(!tm.hard_limit_reached());
            assert_eq!(tm.max_depth(), Some(DEFAULT_DEPTH));
            assert!(!tm.node_limit_reached(u64::MAX));
        }
    }

    #[test]
    fn max_depth_only() {
        let l = Limits {
            max_depth: Some(7),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, 5, 220, ForbiddenClock);
        assert!(!tm.is_timed());
        assert_eq!(tm.max_depth(), Some(7));
        assert!(tm.should_start_iteration());
        assert!(!tm.hard_limit_reached());
    }

    #[test]
    fn max_nodes_only_replaces_the_default_depth() {
        let l = Limits {
            max_nodes: Some(50_000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, 5, 220, ForbiddenClock);
        assert_eq!(tm.max_depth(), None);
        assert_eq!(tm.max_nodes(), Some(50_000));
        assert!(!tm.node_limit_reached(49_999));
        assert!(tm.node_limit_reached(50_000));
        assert!(!tm.hard_limit_reached());
    }

    #[test]
    fn zero_depth_and_nodes_mean_no_limit() {
        let l = Limits {
            max_depth: Some(0),
            max_nodes: Some(0),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, 0, EMPTY_15, ForbiddenClock);
        assert_eq!(tm.max_nodes(), None);
        assert_eq!(tm.max_depth(), Some(DEFAULT_DEPTH));
    }

    #[test]
    fn depth_and_node_caps_also_bind_under_time() {
        let clock = FakeClock::at(0);
        let l = Limits {
            max_depth: Some(4),
            max_nodes: Some(1_000),
            ..limits(Some(5_000), Some(120_000), Some(120_000))
        };
        let tm = TimeManager::new(&l, 0, EMPTY_15, &clock);
        assert!(tm.is_timed());
        assert_eq!(tm.max_depth(), Some(4));
        assert!(tm.node_limit_reached(1_000));
    }

    #[test]
    fn instant_clock_counts_from_its_start() {
        let start = Instant::now()
            .checked_sub(std::time::Duration::from_millis(1_500))
            .expect("the monotonic clock is past 1.5 s");
        let clock = InstantClock::new(start);
        assert!(clock.elapsed_ms() >= 1_500);
        let l = limits(Some(1_000), None, None);
        let tm = TimeManager::new(&l, 0, EMPTY_15, clock);
        assert!(tm.hard_limit_reached(), "1.5 s already passed a 1 s turn");
    }
}
