//! The engine as the protocol layer sees it: limits from `INFO`, and a `think` call that
//! returns a legal move.
//!
//! The move comes from the search ([`crate::search::pvs`]). The one-ply threat scorer (win if
//! possible, block the opponent's five, otherwise the point whose shapes score highest for both
//! sides, never a renju foul) orders the search's moves and remains available on its own as a
//! baseline opponent ([`Engine::set_one_ply`]).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::pattern::{Combo, PatternTable};
use crate::board::Board;
use crate::eval::{cell_score, CellShape};
use crate::search::limits::Limits;
use crate::search::pvs::{Searcher, HELPER_BYTES};
use crate::search::score::{format_score, SearchResult, WIN_SCORE};
use crate::search::table_size::{table_bytes, time_scaled_table_bytes};
use crate::search::time::{InstantClock, TimeManager};
use crate::types::Pos;

/// The engine: the searcher with its tables, and the move chooser.
pub struct Engine {
    searcher: Option<Searcher>,
    one_ply: bool,
    /// Points the engine's moves avoid (`YXBLOCK`): a GUI user's way to ask for the best move
    /// elsewhere.
    blocked: Vec<Pos>,
    /// Seed of the choice among equal opening moves, when set ([`Engine::set_seed`]).
    seed: Option<u64>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A new engine. The transposition table is allocated at the first search, when the memory
    /// limit is known.
    pub fn new() -> Engine {
        Engine {
            searcher: None,
            one_ply: false,
            blocked: Vec::new(),
            seed: None,
        }
    }

    /// Seeds the choice among equal opening moves (otherwise `WUZI_SEED`, or the clock and
    /// process id): the same seed from the same start gives the same choices.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = Some(seed);
        if let Some(s) = self.searcher.as_mut() {
            s.reseed(seed);
        }
    }

    /// The principal variation of the last search on `board`, from its move `first` (see
    /// [`Searcher::principal_variation`]); just `first` before any search or for the one-ply
    /// scorer.
    pub fn principal_variation(&self, board: &Board, first: Pos) -> Vec<Pos> {
        match &self.searcher {
            Some(s) if !self.one_ply => s.principal_variation(board, first),
            _ => vec![first],
        }
    }

    /// Makes the engine answer with the one-ply threat scorer only (a baseline for matches).
    pub fn set_one_ply(&mut self, one_ply: bool) {
        self.one_ply = one_ply;
    }

    /// Forgets per-game state (START, RESTART, RECTSTART), the blocked points included.
    pub fn new_game(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        self.blocked.clear();
    }

    /// Adds points the engine's moves must avoid ([`think`](Self::think) and
    /// [`nbest`](Self::nbest)) while another point is free. A point stays blocked when a stone
    /// fills it, and still counts once it is free again.
    pub fn block(&mut self, points: &[Pos]) {
        for &p in points {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
    }

    /// Takes points off the blocked list; points not on it are ignored.
    pub fn unblock(&mut self, points: &[Pos]) {
        self.blocked.retain(|p| !points.contains(p));
    }

    /// Unblocks every point.
    pub fn clear_blocks(&mut self) {
        self.blocked.clear();
    }

    /// The blocked points, in the order they were first blocked.
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    /// Clears the transposition table (YXHASHCLEAR).
    pub fn clear_hash(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    /// The searcher in `slot`, made on first use (seeded with `seed` when set), with its table
    /// sized for `limits`. A
    /// function of the field rather than of the engine, so a search can borrow the engine's
    /// other fields (the blocked points) alongside it.
    fn searcher<'a>(
        slot: &'a mut Option<Searcher>,
        limits: &Limits,
        seed: Option<u64>,
    ) -> &'a mut Searcher {
        // Helper threads' own tables come out of the memory limit before the table's share.
        let helpers = limits.search_threads() - 1;
        let memory = Limits {
            max_memory_bytes: match limits.max_memory_bytes {
                0 => 0,
                bytes => bytes.saturating_sub((helpers * HELPER_BYTES) as u64).max(1),
            },
            ..limits.clone()
        };
        let bytes = match time_scaled_table_bytes(limits) {
            Some(scaled) => table_bytes(&memory).min(scaled),
            None => table_bytes(&memory),
        };
        let searcher = slot.get_or_insert_with(|| {
            let mut searcher = Searcher::new(bytes);
            if let Some(seed) = seed {
                searcher.reseed(seed);
            }
            searcher
        });
        searcher.resize_table(bytes);
        searcher
    }

    /// Chooses a move for the side to move: a legal point, never a renju foul or a blocked
    /// point while another point exists.
    ///
    /// # Panics
    /// If the board has no empty point.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        start: Instant,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&str),
    ) -> SearchResult {
        let time = time_for(limits, board, start);
        self.think_within(board, limits, &time, stop, report)
    }

    /// [`think`](Self::think) within the time of `time` (all of a move's, or a share of it
    /// from [`TimeManager::split`]); `limits` gives the rest: threads, table size, depth and
    /// nodes.
    ///
    /// # Panics
    /// If the board has no empty point.
    pub fn think_within(
        &mut self,
        board: &Board,
        limits: &Limits,
        time: &TimeManager<InstantClock>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&str),
    ) -> SearchResult {
        if self.one_ply {
            let ranked = rank_moves(board);
            return ranked
                .iter()
                .find(|r| !self.blocked.contains(&r.best))
                .copied()
                .unwrap_or(ranked[0]);
        }
        Self::searcher(&mut self.searcher, limits, self.seed).search(
            board,
            limits,
            time,
            stop,
            &self.blocked,
            report,
        )
    }

    /// The best `n` moves, best first, within the time of `time` (fewer if the board has fewer
    /// points or the time runs out).
    ///
    /// Each move is found by a search that excludes the ones found before it and gets an even
    /// share of the time left ([`TimeManager::split`]); once too little is left for another
    /// search ([`TimeManager::has_time_to_share`]), no further move is searched.
    pub fn nbest(
        &mut self,
        board: &Board,
        limits: &Limits,
        time: &TimeManager<InstantClock>,
        stop: &AtomicBool,
        n: usize,
        report: &mut dyn FnMut(&str),
    ) -> Vec<SearchResult> {
        let n = n.clamp(1, board.empty_count().max(1));
        let mut found: Vec<SearchResult> = Vec::new();
        // The blocked points are left out like the moves already found.
        let mut excluded: Vec<Pos> = self.blocked.clone();
        for i in 0..n {
            if i > 0 && !time.has_time_to_share() {
                break;
            }
            let result = if self.one_ply {
                match rank_moves(board)
                    .into_iter()
                    .find(|r| !excluded.contains(&r.best))
                {
                    Some(r) => r,
                    None => break,
                }
            } else {
                let part = time.split((n - i) as u64);
                Self::searcher(&mut self.searcher, limits, self.seed).search(
                    board,
                    limits,
                    &part,
                    stop,
                    &excluded,
                    &mut |_| {},
                )
            };
            if excluded.contains(&result.best) {
                break;
            }
            report(&format!(
                "nbest {} move {} score {}",
                i + 1,
                result.best,
                format_score(result.score)
            ));
            excluded.push(result.best);
            found.push(result);
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
        }
        found
    }
}

/// The time limits of a move on `board` whose think command was read at `start`.
pub fn time_for(limits: &Limits, board: &Board, start: Instant) -> TimeManager<InstantClock> {
    TimeManager::new(
        limits,
        board.stone_count(),
        board.empty_count(),
        InstantClock::new(start),
    )
}

/// Every candidate move with its one-ply score, best first. Candidates are the empty points
/// within two cells of a stone (the centre on an empty board); renju fouls come last.
///
/// # Panics
/// If the board has no empty point.
pub fn rank_moves(board: &Board) -> Vec<SearchResult> {
    let table = PatternTable::for_rule(board.rule());
    let me = board.side_to_move();
    let mut scored: Vec<(i64, Pos)> = Vec::new();
    let candidates = candidate_moves(board);
    for &pos in &candidates {
        let own = CellShape::at(board, &table, pos, me);
        let opp = CellShape::at(board, &table, pos, me.opponent());
        let mut score = cell_score(&own, &opp) as i64;
        // Hard priorities first: my five, then blocking the opponent's five.
        if own.combo == Combo::Five {
            score += 1 << 40;
        } else if opp.combo == Combo::Five {
            score += 1 << 36;
        }
        if board.rule().forbids(me) && board.is_forbidden(pos) {
            score += i64::MIN / 2;
        }
        scored.push((score, pos));
    }
    // Stable order for equal scores: by point, so choices are deterministic.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .map(|(score, best)| SearchResult {
            best,
            score: score.clamp(-(WIN_SCORE as i64), WIN_SCORE as i64) as i32,
            depth: 1,
            nodes: candidates.len() as u64,
        })
        .collect()
}

/// Empty points within two cells of any stone; the centre (or the point nearest it) on an
/// empty board; every empty point if none of those exists.
///
/// # Panics
/// If the board has no empty point.
pub fn candidate_moves(board: &Board) -> Vec<Pos> {
    let (w, h) = (board.width() as i64, board.height() as i64);
    let mut near = vec![false; w as usize * h as usize];
    let mut any = false;
    for &(pos, _) in board.history() {
        for dy in -2..=2i64 {
            for dx in -2..=2i64 {
                let (x, y) = (pos.x as i64 + dx, pos.y as i64 + dy);
                if board.in_bounds(x, y) {
                    near[(y * w + x) as usize] = true;
                    any = true;
                }
            }
        }
    }
    let mut moves: Vec<Pos> = board
        .empty_cells()
        .filter(|p| !any || near[p.yu() * w as usize + p.xu()])
        .collect();
    if !any {
        let centre = Pos::new((w / 2) as usize, (h / 2) as usize);
        moves.sort_by_key(|p| (p.distance(centre), *p));
        moves.truncate(1);
    }
    if moves.is_empty() {
        moves = board.empty_cells().collect();
    }
    assert!(!moves.is_empty(), "no empty point to play");
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, Rule};

    fn board(
        rule: Rule,
        black: &[(usize, usize)],
        white: &[(usize, usize)],
        to_move: Color,
    ) -> Board {
        Board::from_stones(15, 15, rule, black, white, to_move).unwrap()
    }

    fn play(b: &Board) -> Pos {
        let stop = AtomicBool::new(false);
        let mut engine = Engine::new();
        engine.set_one_ply(true);
        engine
            .think(b, &Limits::default(), Instant::now(), &stop, &mut |_| {})
            .best
    }

    #[test]
    fn opens_in_the_centre() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(play(&b), Pos::new(7, 7));
        let b = Board::new(20, 20, Rule::Freestyle).unwrap();
        assert_eq!(play(&b), Pos::new(10, 10));
    }

    #[test]
    fn wins_before_blocking() {
        // Black to move with a four; white also has a four.
        let b = board(
            Rule::Freestyle,
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(3, 9), (4, 9), (5, 9), (6, 9)],
            Color::Black,
        );
        let m = play(&b);
        assert!(m == Pos::new(7, 3) || m == Pos::new(2, 3), "{m}");
    }

    #[test]
    fn blocks_the_opponent_five() {
        let b = board(
            Rule::Freestyle,
            &[(3, 3), (9, 9), (12, 1)],
            &[(4, 7), (5, 7), (6, 7), (7, 7)],
            Color::Black,
        );
        let m = play(&b);
        assert!(m == Pos::new(8, 7) || m == Pos::new(3, 7), "{m}");
    }

    #[test]
    fn never_plays_a_renju_foul() {
        // (7,7) would be black's double three, the best-looking point on the board.
        let b = board(
            Rule::Renju,
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
            &[(0, 0), (14, 14), (0, 14), (14, 0)],
            Color::Black,
        );
        assert!(b.is_forbidden(Pos::new(7, 7)));
        assert_ne!(play(&b), Pos::new(7, 7));
    }

    /// Black's open four on row 7 (3..=6,7): five at 2,7 or 7,7; white has nothing.
    fn open_four() -> Board {
        board(
            Rule::Freestyle,
            &[(3, 7), (4, 7), (5, 7), (6, 7)],
            &[(0, 0), (14, 0), (0, 14), (14, 14)],
            Color::Black,
        )
    }

    /// `engine`'s move on `b` from an untimed search to `depth`.
    fn think_to_depth(engine: &mut Engine, b: &Board, depth: u32) -> SearchResult {
        let limits = Limits {
            max_depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        engine.think(b, &limits, Instant::now(), &stop, &mut |_| {})
    }

    /// `engine`'s best `n` moves on `b`, searched untimed to depth 3.
    fn nbest_to_depth_3(engine: &mut Engine, b: &Board, n: usize) -> Vec<SearchResult> {
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let time = time_for(&limits, b, Instant::now());
        let stop = AtomicBool::new(false);
        engine.nbest(b, &limits, &time, &stop, n, &mut |_| {})
    }

    #[test]
    fn blocked_points_are_avoided_while_another_is_free() {
        let b = open_four();
        let fives = [Pos::new(2, 7), Pos::new(7, 7)];
        for one_ply in [false, true] {
            let mut engine = Engine::new();
            engine.set_one_ply(one_ply);
            let think = |engine: &mut Engine| {
                let result = think_to_depth(engine, &b, 3);
                // A searched move, not the fallback for a root with nothing to search.
                assert!(result.depth >= 1, "one-ply {one_ply}: {result:?}");
                result.best
            };
            assert!(fives.contains(&think(&mut engine)), "one-ply {one_ply}");
            engine.block(&[Pos::new(7, 7), Pos::new(7, 7)]);
            assert_eq!(engine.blocked(), &[Pos::new(7, 7)]);
            assert_eq!(think(&mut engine), Pos::new(2, 7), "one-ply {one_ply}");
            engine.block(&[Pos::new(2, 7)]);
            let elsewhere = think(&mut engine);
            assert!(
                !fives.contains(&elsewhere),
                "one-ply {one_ply}: {elsewhere}"
            );
            assert!(b.is_empty(elsewhere));
            engine.unblock(&[Pos::new(7, 7), Pos::new(9, 9)]);
            assert_eq!(think(&mut engine), Pos::new(7, 7), "one-ply {one_ply}");
            engine.clear_blocks();
            assert!(fives.contains(&think(&mut engine)), "one-ply {one_ply}");
            engine.block(&fives);
            engine.new_game();
            assert!(engine.blocked().is_empty(), "a new game unblocks");
        }
    }

    #[test]
    fn nbest_leaves_blocked_points_out() {
        let b = open_four();
        let mut engine = Engine::new();
        engine.block(&[Pos::new(7, 7)]);
        let found = nbest_to_depth_3(&mut engine, &b, 3);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].best, Pos::new(2, 7));
        assert!(found.iter().all(|r| r.best != Pos::new(7, 7)), "{found:?}");
    }

    #[test]
    fn every_point_blocked_still_gives_a_legal_move() {
        let b = Board::from_stones(5, 5, Rule::Freestyle, &[(2, 2)], &[], Color::White).unwrap();
        let mut engine = Engine::new();
        let all: Vec<Pos> = b.empty_cells().collect();
        engine.block(&all);
        let best = think_to_depth(&mut engine, &b, 2).best;
        assert!(b.is_empty(best), "{best}");
    }

    #[test]
    fn nbest_finds_every_five_then_searches_the_rest() {
        let b = open_four();
        let found = nbest_to_depth_3(&mut Engine::new(), &b, 3);
        let fives = [Pos::new(2, 7), Pos::new(7, 7)];
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(
            found[..2].iter().all(|r| fives.contains(&r.best)),
            "{found:?}"
        );
        assert_ne!(found[0].best, found[1].best);
        // The third is searched among the rest, not the fallback for an empty root.
        assert!(
            !fives.contains(&found[2].best) && found[2].depth >= 1,
            "{found:?}"
        );
    }
}
