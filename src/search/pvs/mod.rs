//! Iterative-deepening principal-variation search.
//!
//! Before searching, the root answers at once when the answer is forced: a five, the only block
//! of the opponent's five, or a VCF. Then each depth runs a PVS with aspiration windows,
//! a transposition table, history ordering (but not under freestyle; killers too under
//! standard and caro), reverse futility pruning near the horizon, a cap on the moves searched
//! at each node below the root (late-move pruning under caro), logarithmic late-move
//! reductions, singular extensions and, under every rule but caro, internal iterative
//! reduction. When the opponent would win by threats if it moved now, each depth's best
//! root move is checked against that threat and searched again without it if it loses.
//! Inside the tree the threat counts decide the moves: a node that can make five is won, a
//! node facing a five only blocks, a node facing a flexible four (an open three on the
//! board) only defends or counter-fours, and a flexible four or double four of the side to
//! move is a win in three.
//! Leaves off the principal variation first take a bound from the table, if one settles them;
//! leaves try a short VCF before the static evaluation, and nodes three or more plies from
//! the horizon a longer one before their moves.
//!
//! More than one thread (`INFO thread_num`) runs lazy SMP: helper threads search the
//! same root a ply ahead of the main one, sharing only the transposition table; see
//! [`Searcher::search`].

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::limits::Limits;
use super::rules::{RuleSettings, Threats};
use super::score::{format_score, SearchResult, WIN_SCORE, WIN_THRESHOLD};
use super::time::{Clock, InstantClock, TimeManager};
use super::tt::TranspositionTable;
use super::vcf::VcfSolver;
use super::vct::VctSolver;
use crate::board::Board;
use crate::position::Position;
use crate::types::{Pos, CELL_COUNT};

mod deepening;
mod evaluate;
mod node;
mod ordering;
mod root;
mod singular;
mod threads;

pub use evaluate::{evaluate, mover_double_three, threat_state};
pub use root::{root_vct_budgets, RootBudgets};
pub use threads::{max_threads, HELPER_BYTES, MAX_THREADS};
use threads::{pack_iteration, unpack_iteration, HelperShare};

/// Deepest ply the search tracks (killers, forced-move extensions).
pub const MAX_PLY: usize = 128;
/// Score of a root answer from the VCT solver: a proven win whose length the solver does not
/// give, scored below every win the search counts to its end.
pub const ROOT_VCT_SCORE: i32 = WIN_SCORE - 100;
/// Plies from the start of the game during which equal root moves are chosen at random.
const RANDOM_OPENING_PLIES: usize = 6;
/// Search state that lives across moves: the shared table, the main thread's worker, the
/// helper threads' workers (`INFO thread_num` above 1) and the opening-choice generator.
pub struct Searcher {
    tt: TranspositionTable,
    main: Worker,
    helpers: Vec<Worker>,
    rng: StdRng,
}

/// What one search thread owns: its solvers with their tables, its killers, history and
/// move buffers, and its node count.
struct Worker {
    vcf: VcfSolver,
    vct: VctSolver,
    killers: Vec<[Option<Pos>; 2]>,
    move_buffers: Vec<Vec<(Pos, i32)>>,
    /// Cutoff credits per colour and cell (see [`reward`]), kept for the whole game (halving
    /// them at every search: E-073, not adopted).
    ///
    /// [`reward`]: ordering::reward
    history: Vec<[i32; CELL_COUNT]>,
    nodes: u64,
    /// Node count at which the limits are checked next.
    next_check: u64,
    aborted: bool,
    /// The winning line of the last search when the root answered with a VCF (empty
    /// otherwise): the table does not hold the solver's lines.
    root_line: Vec<Pos>,
    /// Set when the root defence found that the opponent would win if it moved now: each
    /// iteration's best move is then checked against that threat before it is kept.
    verify: Option<Verify>,
}

/// What checking an iteration's best move needs: the kind of win the opponent threatens, the
/// solver's budget for one check, and the moves already found safe.
struct Verify {
    threats: Threats,
    budget: u64,
    safe: Vec<Pos>,
}

/// Everything one thread's search needs to know about its limits, the shared table, and its
/// rule's settings (read once per search rather than matched on the rule at every node).
struct Control<'a, C: Clock> {
    tt: &'a TranspositionTable,
    time: &'a TimeManager<C>,
    stop: &'a AtomicBool,
    max_nodes: Option<u64>,
    settings: RuleSettings,
    /// Where a helper publishes its progress for the main thread.
    published: Option<&'a HelperShare>,
    /// What the helpers published, read by the main thread.
    helpers: &'a [HelperShare],
    /// The depth the main thread is searching; helpers keep a ply ahead of it.
    pace: &'a AtomicU32,
}

impl Searcher {
    /// A searcher with a table of `tt_bytes` bytes.
    pub fn new(tt_bytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_bytes),
            main: Worker::new(),
            helpers: Vec::new(),
            rng: StdRng::seed_from_u64(default_seed()),
        }
    }

    /// Resizes the transposition table (no-op if unchanged).
    pub fn resize_table(&mut self, bytes: usize) {
        self.tt.resize(bytes);
    }

    /// Clears the table and the history (new game, YXHASHCLEAR).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.main.clear();
        self.helpers.iter_mut().for_each(Worker::clear);
    }

    /// Reseeds the generator that picks among equal opening moves.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// The principal variation of the last search on `board`, from its move `first`: the
    /// root's VCF line when the search answered with one, else the moves the table holds from
    /// `first` on (at most [`MAX_PLY`]; the table may have lost the later ones).
    pub fn principal_variation(&self, board: &Board, first: Pos) -> Vec<Pos> {
        if self.main.root_line.first() == Some(&first) {
            return self.main.root_line.clone();
        }
        deepening::principal_variation(&self.tt, &mut Position::new(board), first, MAX_PLY)
    }

    /// Searches `board` for the side to move under `limits`, reporting one line per completed
    /// depth. `excluded` root moves are not considered (for n-best). Returns a legal move even
    /// if stopped at once.
    ///
    /// With `limits.threads` above 1 (up to [`max_threads`]), helper threads search the same
    /// root alongside the main one, sharing the table (lazy SMP), each a ply deeper than the
    /// main thread's current iteration: what they store orders and cuts the main search's
    /// trees when it gets there. The main thread keeps the clock, the node limit and the
    /// reports; its result is the answer unless a helper completed a deeper iteration (and
    /// the main thread proved no win). The helpers stop when the main thread does.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        time: &TimeManager<impl Clock>,
        stop: &AtomicBool,
        excluded: &[Pos],
        report: &mut dyn FnMut(&str),
    ) -> SearchResult {
        let settings = RuleSettings::for_board(board);
        self.tt.new_search();
        self.tt.set_keep_margin(settings.tt_keep_margin);
        self.main.start();
        let helper_count = limits.search_threads() - 1;
        let shares: Vec<HelperShare> = (0..helper_count).map(|_| HelperShare::default()).collect();
        let pace = AtomicU32::new(0);
        let ctl = Control {
            tt: &self.tt,
            time,
            stop,
            max_nodes: limits.max_nodes,
            settings,
            published: None,
            helpers: &shares,
            pace: &pace,
        };
        let main = &mut self.main;
        let mut pos = Position::new(board);
        let mut moves = Vec::new();
        if let Some(answer) = main.prepare_root(&mut pos, &mut moves, excluded, &ctl, report) {
            return answer;
        }
        let mut best = moves[0].0;
        // Random choice among equally ordered moves early in the game (time-limited searches
        // only, so fixed-depth searches and the bench stay deterministic).
        if board.stone_count() < RANDOM_OPENING_PLIES && time.soft_limit_ms().is_some() {
            let top = moves[0].1;
            let equal = moves.iter().take_while(|m| m.1 == top).count();
            if equal > 1 {
                let pick = self.rng.gen_range(0..equal);
                moves.swap(0, pick);
                best = moves[0].0;
            }
        }

        let max_depth = time
            .max_depth()
            .unwrap_or(MAX_PLY as u32)
            .min(MAX_PLY as u32 - 8);
        let best_score = moves[0].1;
        while self.helpers.len() < helper_count {
            self.helpers.push(Worker::new());
        }
        let helper_stop = AtomicBool::new(false);
        // Helpers are untimed: the main thread stops them when it is done.
        let helper_limits = Limits {
            max_depth: Some(max_depth),
            ..Limits::default()
        };
        let helper_time = TimeManager::new(
            &helper_limits,
            board.stone_count(),
            board.empty_count(),
            InstantClock::new(std::time::Instant::now()),
        );
        let tt = &self.tt;
        let settings = ctl.settings;
        let (best, score, depth) = std::thread::scope(|scope| {
            for (i, (helper, published)) in self.helpers[..helper_count]
                .iter_mut()
                .zip(&shares)
                .enumerate()
            {
                let mut helper_moves = moves.clone();
                let (helper_time, helper_stop, pace) = (&helper_time, &helper_stop, &pace);
                // A helper the system cannot start is left out: the main thread is enough.
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {}", i + 1))
                    .spawn_scoped(scope, move || {
                        helper.start();
                        let ctl = Control {
                            tt,
                            time: helper_time,
                            stop: helper_stop,
                            max_nodes: None,
                            settings,
                            published: Some(published),
                            helpers: &[],
                            pace,
                        };
                        let mut pos = Position::new(board);
                        helper.iterate(
                            &mut pos,
                            &mut helper_moves,
                            &ctl,
                            2.min(max_depth),
                            max_depth,
                            (best, best_score),
                            None,
                        );
                        published.nodes.store(helper.nodes, Ordering::Relaxed);
                    });
                if let Err(e) = spawned {
                    log::warn!("search helper {} not started: {e}", i + 1);
                }
            }
            let found = main.iterate(
                &mut pos,
                &mut moves,
                &ctl,
                1,
                max_depth,
                (best, best_score),
                Some(&mut *report),
            );
            helper_stop.store(true, Ordering::Relaxed);
            found
        });
        let mut result = main.result(best, score, depth);
        result.nodes = ctl.total_nodes(main.nodes);
        // The deepest completed helper iteration knows more than a shallower main one, unless
        // the main thread has proven a win.
        let deepest = shares
            .iter()
            .filter_map(|share| unpack_iteration(share.completed.load(Ordering::Relaxed)))
            .max_by_key(|&(depth, _, _)| depth);
        if let Some((depth, score, best)) = deepest {
            if depth > result.depth && result.score < WIN_THRESHOLD {
                debug_assert!(
                    moves.iter().any(|&(m, _)| m == best),
                    "{best} not a root move"
                );
                report(&format!(
                    "depth {depth} score {} move {best} (helper thread)",
                    format_score(score)
                ));
                (result.best, result.score, result.depth) = (best, score, depth);
            }
        }
        result
    }
}

impl Worker {
    fn new() -> Worker {
        Worker {
            vcf: VcfSolver::new(),
            vct: VctSolver::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            move_buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            history: vec![[0; CELL_COUNT]; 2],
            nodes: 0,
            next_check: 0,
            aborted: false,
            root_line: Vec::new(),
            verify: None,
        }
    }

    /// Forgets what the last game taught: the solvers' tables and the history.
    fn clear(&mut self) {
        self.vcf.clear();
        self.vct.clear();
        self.history.iter_mut().for_each(|h| h.fill(0));
    }

    /// Resets the per-search state.
    fn start(&mut self) {
        self.nodes = 0;
        self.next_check = 0;
        self.aborted = false;
        self.root_line.clear();
        self.verify = None;
        for k in self.killers.iter_mut() {
            *k = [None; 2];
        }
    }

    fn result(&self, best: Pos, score: i32, depth: u32) -> SearchResult {
        SearchResult {
            best,
            score,
            depth,
            nodes: self.nodes,
        }
    }
}

/// Seed of the opening-move choice: `WUZI_SEED` if set (replayable self-play), else from the
/// process id and the clock, so games from one opening differ.
fn default_seed() -> u64 {
    if let Some(seed) = std::env::var("WUZI_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return seed;
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (std::process::id() as u64).rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15
}

/// Default clock for real searches.
pub type RealTime = TimeManager<InstantClock>;

#[cfg(test)]
mod tests;
