//! Iterative-deepening principal-variation search.
//!
//! Before searching, the root answers at once when the answer is forced: a five, the only block
//! of the opponent's five, or a VCF. Then each depth runs a PVS with aspiration windows,
//! a transposition table, history ordering (but not under freestyle; killers too under
//! standard and caro), late-move reductions, singular extensions and, under every
//! rule but caro, internal iterative reduction.
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
use super::movegen::{self, Situation};
use super::rules::RuleSettings;
use super::score::{format_score, SearchResult, INFINITE, WIN_SCORE, WIN_THRESHOLD};
use super::time::{Clock, InstantClock, TimeManager};
use super::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable, TtEntry};
use super::vcf::VcfSolver;
use super::vct::VctSolver;
use crate::board::pattern::Combo;
use crate::board::Board;
use crate::position::Position;
use crate::types::{Pos, CELL_COUNT};

mod deepening;
mod evaluate;
mod root;
mod threads;

pub use evaluate::{evaluate, mover_double_three, threat_state};
pub use root::root_vct_budgets;
pub use threads::{max_threads, HELPER_BYTES, MAX_THREADS};
use threads::{pack_iteration, unpack_iteration, HelperShare};

/// Deepest ply the search tracks (killers, forced-move extensions).
pub const MAX_PLY: usize = 128;
/// Nodes a leaf VCF may spend. It is spent at every leaf where the mover has a four, so it is
/// kept short. Against 64 at 0.2 s/move, 24 scored +19.6 +/- 20.6 Elo in freestyle (800 games)
/// and +26.7 +/- 32.7 in renju (300 games); at 1 s/move, 6 s/game in freestyle, +5.2 +/- 42.0
/// (200 games). 256 scored -36.7 +/- 40.2 against 64 (190 games, SPRT H0), and 12 scored -9.6
/// +/- 27.5 against 24 (400 games). At 1 s/move and 6 s/game in freestyle (300 games each): 1
/// node, so only a five already on the board counts (bench 1,987,054 nodes), scored +8.1 +/-
/// 35.8 against 24; 3, once the solver judged a four's reply before playing it, -5.8 +/- 35.1:
/// neither adopted.
const LEAF_VCF_NODES: u64 = 24;
/// Nodes a VCF may spend at an interior node [`INTERIOR_VCF_DEPTH`] or more plies from the
/// horizon where the mover has a four. The search spends one ply per four, so a VCF longer
/// than the depth left is otherwise seen only if the leaf VCF happens to finish it; with the
/// probe, 3-ply searches of the 834 public VCF problems (the root's solvers left out) prove
/// 812 wins instead of 745.
/// At 0.2 s/move against the engine without it (400 games each): freestyle +29.6 +/- 29.3 and
/// +8.7 +/- 29.0 Elo, standard +0.9 +/- 28.6 and +14.8 +/- 28.2, renju +5.2 +/- 28.0 and
/// +23.5 +/- 29.7, caro +6.1 +/- 28.3: +12.4 +/- 10.9 over the 2,800 games. No rule's figure
/// stands apart from the common one, so it runs under every rule. At 1 s/move, freestyle:
/// +20.9 +/- 59.1 (100 games). A budget of 2,000 nodes scored -14.9 +/- 29.9 against 400
/// (375 games, freestyle, SPRT H0), and 1,000 scored +5.2 +/- 22.6 in renju (400 games): not
/// adopted.
const INTERIOR_VCF_NODES: u64 = 400;
/// Fewest plies from the horizon at which the interior VCF probe runs. From 2 plies it
/// scored +0.9 +/- 26.0 Elo in freestyle (400 games, same conditions). From 4 plies, against
/// 3: freestyle +31.4 +/- 30.5 (400 games) and -36.8 +/- 40.1 (142, SPRT H0), standard
/// +2.6 +/- 28.0 (400), renju -28.3 +/- 35.7 (246, SPRT H0), caro +27.1 +/- 40.4 (180,
/// stopped): +2.0 +/- 15.1 over the 1,368 games.
const INTERIOR_VCF_DEPTH: i32 = 3;
/// Plies from the horizon from which a non-PV node with no table move is searched a ply
/// shallower (internal iterative reduction), where the rule has it ([`RuleSettings::iir`]:
/// freestyle, standard and renju). From 3 plies instead of 4 it scored -15.6 +/- 29.9 in
/// freestyle (380 games, SPRT H0), from 5 plies +5.2 +/- 32.7 (400 games). At PV nodes too (a
/// PV node with no table move searched a ply shallower as well): -20.0 +/- 28.5 (freestyle, 400
/// games). Also where the table's entry is 4 or more plies shallower than the node: +12.2 +/-
/// 29.9 (freestyle, 0.2 s/move, 400 games; bench nodes -5 %), and on a match clock, 1 s/move
/// and 6 s/game, -6.9 +/- 34.7 (300 games): not adopted.
const IIR_DEPTH: i32 = 4;
/// Plies from the start of the game during which equal root moves are chosen at random.
const RANDOM_OPENING_PLIES: usize = 6;
/// Fewest plies from the horizon at which the table's move may be extended as singular (see
/// [`Worker::node`]), under the rules that have singular extensions
/// ([`RuleSettings::singular`], which gives the matches). From 5 plies instead, freestyle,
/// 0.2 s/move: +31.4 +/- 32.5 and -4.3 +/- 29.9 Elo (400 games each; about +13 over the 800),
/// later +0.9 +/- 29.3, +12.2 +/- 30.1 and -22.6 +/- 30.9 (400 games each; +2.9 +/- 13.6
/// over the 2,000, LOS 66 %); on 20x20, +9.3 +/- 36.4, +9.3 +/- 38.1, +9.3 +/- 39.2 and
/// +27.9 +/- 37.0 (300 games each; +14.1 +/- 18.8 over the 1,200, LOS 93 %). All 3,200 games:
/// +6.8 +/- 11.0 (LOS 89 %), not adopted. Once the killers were dropped, a fifth run on 20x20
/// scored -4.6 +/- 33.5 (300 games; +9.6 +/- 16.4 over the 1,500 there, LOS 88 %): not adopted
/// for the larger boards either; nor once freestyle ordered without history there: +2.3 +/-
/// 35.0 and -41.9 +/- 36.9 (300 games each; +1.3 +/- 13.8 over the 2,100 on 20x20). In renju:
/// -16.5 +/- 30.5 (400 games). From 7 plies, at 0.2 s/move (400 games each): freestyle +25.2
/// +/- 31.5 and -8.7 +/- 32.1, renju -34.9 +/- 30.3, standard -9.6 +/- 31.5; -7.5 +/- 15.7 over
/// the 1,600 games (freestyle alone +8.6 +/- 22.5): not adopted. From 5 plies again once the
/// test also gave the table's move a ply less ([`tt_move_extension`]): +9.6 +/- 30.9
/// (freestyle, 400 games; bench nodes +29 %), not adopted.
const SINGULAR_DEPTH: i32 = 6;
/// Margin per ply of depth below the table's score that every other move must stay under for
/// the table's move to be singular. Scores are in the evaluation's units, where an open three
/// on a line weighs 43. Multi-cut on top (a non-PV node whose search without the table's move
/// still reaches the test's window, and that window at or above beta, returning it) scored
/// -13.9 +/- 28.6 Elo in freestyle (0.2 s/move, 400 games): not adopted. Nor, in the same
/// matches, two plies of extension at a non-PV node where the other moves stay 30 points
/// further below, at most four on a path (+17.4 +/- 31.5), or that with the shortening of
/// [`tt_move_extension`] (-10.4 +/- 31.9). A margin of 2 per ply: -7.8 +/- 29.9, and of 6:
/// -3.5 +/- 30.8 (same conditions, 400 games each), and 2 on 20x20: -2.3 +/- 36.2 (300
/// games), so 4 stays.
const SINGULAR_MARGIN: i32 = 4;

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
    /// Cutoff credits per colour and cell (see [`reward`]), kept for the whole game: halving
    /// them at every search scored -19.6 +/- 31.5 Elo (freestyle, 0.2 s/move, 267 games,
    /// SPRT H0).
    history: Vec<[i32; CELL_COUNT]>,
    nodes: u64,
    /// Node count at which the limits are checked next.
    next_check: u64,
    aborted: bool,
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

    #[inline]
    fn check_limits<C: Clock>(&mut self, ctl: &Control<C>) {
        // A threshold, not a multiple: leaf VCF nodes advance the count in jumps.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
        } else {
            return;
        }
        if let Some(published) = ctl.published {
            published.nodes.store(self.nodes, Ordering::Relaxed);
        }
        if ctl.stop.load(Ordering::Relaxed)
            || ctl.time.hard_limit_reached()
            || ctl.max_nodes.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// The score of `pos` for the side to move, searched `depth` plies with the window
    /// `alpha..beta`, `ply` plies from the root.
    #[inline]
    fn negamax<C: Clock>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &Control<C>,
    ) -> i32 {
        self.node(pos, depth, alpha, beta, ply, ctl, None)
    }

    /// The score of a move already made at a node `ply` plies from the root with `depth`
    /// plies left, for that node's side, when the move is not the first: a null-window search
    /// `reduction` plies shallower, again at the full depth if that beats `alpha` and was
    /// reduced, and with the full window if the score lands inside it. The root and the tree
    /// search their later moves alike. Re-searching a reduced move that beat `alpha` a ply
    /// deeper when it beat the node's best so far by over 100 points, and a ply shallower
    /// when by under 10 (the bench reaching its depths in 15 % fewer nodes), scored -30.2
    /// +/- 33.7 Elo in freestyle and +1.2 +/- 34.8 in renju (1 s/move and 6 s/game, 300
    /// games each; -15.0 +/- 24.2 together): not adopted.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn later_move<C: Clock>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &Control<C>,
    ) -> i32 {
        let child = ply + 1;
        let mut s = -self.negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha, child, ctl);
        if s > alpha && reduction > 0 {
            s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, child, ctl);
        }
        if s > alpha && s < beta {
            s = -self.negamax(pos, depth - 1, -beta, -alpha, child, ctl);
        }
        s
    }

    /// [`negamax`](Self::negamax), with every move but `excluded`: the singular-extension
    /// test searches the node again without the table's move, and then neither reads a
    /// cutoff from the table (its entry is the full node's) nor stores its result there, nor
    /// runs the VCF probe (whose line may start with the excluded move).
    #[allow(clippy::too_many_arguments)]
    fn node<C: Clock>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        ctl: &Control<C>,
        excluded: Option<Pos>,
    ) -> i32 {
        self.nodes += 1;
        self.check_limits(ctl);
        if self.aborted {
            return 0;
        }
        let me = pos.side_to_move();
        let op = me.opponent();
        let ply_i = ply as i32;
        // Mate-distance pruning: nothing here can beat a win already found closer to the root.
        alpha = alpha.max(-(WIN_SCORE - ply_i));
        beta = beta.min(WIN_SCORE - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        if pos.combo_count(me, Combo::Five) > 0 {
            return WIN_SCORE - ply_i - 1;
        }
        let opponent_fives = pos.combo_count(op, Combo::Five);
        // Two fives cannot both be blocked, except under caro, where one stone may stop both
        // (see [`Position::five_blocks`]): there the move generator lists the stones that do,
        // and a node with none is lost below.
        if opponent_fives >= 2 && !pos.rule().is_caro() {
            return -(WIN_SCORE - ply_i - 2);
        }
        // With no five and no four to answer with, the opponent cannot stop a flexible four
        // or a double four (one that is not a renju foul): a win in three plies.
        if opponent_fives == 0
            && pos.combo_count_at_least(op, Combo::Four) == 0
            && pos.has_legal_combo(me, &[Combo::FlexFour, Combo::DoubleFour])
        {
            return WIN_SCORE - ply_i - 3;
        }
        if pos.board().is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return evaluate(pos);
        }
        // Any five the opponent still has here must be stopped: two of them only under caro,
        // the other rules having returned above.
        let forced = opponent_fives > 0;
        // A forced block does not use up depth: the tree stays narrow and threats are read out.
        // Its child is still searched a ply shallower: searching it at the same depth (a four
        // and its block costing one ply) scored -96.2 +/- 64.2 Elo (101 games, SPRT H0), the
        // trees of depth 8 growing eightfold in the bench. Nor does a node at the horizon that
        // faces an open three (a flexible-four point of the opponent's) get a ply for its
        // defences: -157.2 +/- 49.8 Elo (freestyle, 0.2 s/move, 250 games, stopped), the threes
        // of both sides chaining the extension (the bench's depth-8 searches did not end within
        // three minutes). Capped at one such ply per path, it scored -60.1 +/- 39.4 (298 games,
        // stopped; the bench took 2.3 times the nodes for its depths), and at PV nodes only
        // -0.9 +/- 30.3 (400 games; bench nodes +15 %).
        let depth = if forced { depth.max(1) } else { depth };
        let pv_node = beta - alpha > 1;
        if depth <= 0 {
            // A leaf outside the principal variation first asks the table: an entry from an
            // earlier search of this position (every entry is at least a ply deep) cuts off as
            // at an interior node, so the leaf returns that deeper bound instead of its short
            // VCF and static value. Its bucket was prefetched before the move that led here.
            // The bench needs 20 % more nodes for its depths (2,438,849 -> 2,923,631): the
            // deeper bounds change which moves fail high and are searched again. Against the
            // engine without it, at 1 s/move and 6 s/game (300 games each): freestyle +11.6
            // +/- 39.9 and +25.5 +/- 38.9 Elo, renju +27.9 +/- 32.9, standard +5.8 +/- 36.5,
            // caro +15.1 +/- 35.9; +17.6 +/- 16.4 over the 1,500 games (LOS 98.3 %). Also
            // taking a bound that does not settle the window in place of the static value
            // when it lies on the right side of it (and an exact entry at a PV leaf; bench
            // 3,295,760 nodes), against this, same conditions: freestyle +4.6 +/- 35.4 and
            // -9.3 +/- 33.5, renju +15.1 +/- 35.6 and -6.9 +/- 35.4, standard +23.2 +/- 37.0,
            // +12.7 +/- 36.5 and -4.6 +/- 33.1, caro +20.9 +/- 34.5, +15.1 +/- 38.6 and -22.0
            // +/- 35.8, freestyle on 20x20 +13.9 +/- 34.7: +5.2 +/- 10.7 over the 3,300 games
            // (LOS 83 %; the first 1,200 had given +15.9 +/- 17.8): not adopted, for any rule.
            if !pv_node && excluded.is_none() {
                let cutoff = probe_in_node_terms(ctl.tt, pos, ply_i)
                    .and_then(|e| table_cutoff(&e, depth, alpha, beta));
                if let Some(score) = cutoff {
                    return score;
                }
            }
            if self.vcf_length(pos, 12, LEAF_VCF_NODES).is_some() {
                return WIN_SCORE - ply_i - 5;
            }
            return evaluate(pos);
        }

        // Far enough from the horizon, look for a VCF the remaining depth cannot read out.
        // The line ends with the five, so its length is the distance to the win.
        // Two more probes here were measured at 0.2 s/move in freestyle and not adopted: a VCT
        // (6 threats, 2,000 nodes) at PV nodes 4 or more plies from the horizon where the
        // mover has a flexible-three point, -23.5 +/- 33.8 Elo (341 games, SPRT H0; at every
        // node from 5 plies it cost 2.8 times the bench's nodes for the same moves and
        // scores); and a VCF of the opponent's as if it moved again (200 nodes, 3 or more
        // plies, nothing forced), found lines restricting the moves to their points and our
        // own fours, -6.9 +/- 27.9 (400 games). Nor was asking the table first, so that an
        // entry settling a null-window node spares the probe (such an entry comes from a
        // search at least as deep, whose own probe failed: a VCF found is not stored): bench
        // 2,923,631 -> 2,921,814 nodes, but 0.2 % more instructions, the solver's own table
        // making a repeated probe cheap; at 1 s/move and 6 s/game (300 games each) freestyle
        // +32.5 +/- 30.0, renju -2.3 +/- 29.5, standard -15.1 +/- 31.4, +5.5 +/- 17.5 over
        // the 900: not adopted. Again for freestyle alone, once the VCF ordered its fours by
        // value (bench 2,884,770 -> 2,883,336 nodes), same conditions: +13.9 +/- 33.9 and
        // -11.6 +/- 32.2 (+1.2 +/- 23.3 over the 600): not adopted.
        if depth >= INTERIOR_VCF_DEPTH && !forced && excluded.is_none() {
            if let Some(length) = self.vcf_length(pos, 100, INTERIOR_VCF_NODES) {
                return WIN_SCORE - ply_i - length as i32;
            }
        }
        let tt_entry = probe_in_node_terms(ctl.tt, pos, ply_i);
        let mut tt_move = None;
        if let Some(e) = tt_entry {
            tt_move = e.best;
            if !pv_node && excluded.is_none() {
                if let Some(score) = table_cutoff(&e, depth, alpha, beta) {
                    return score;
                }
            }
        }

        // No ProbCut here: cutting off a non-PV node 5 or more plies from the horizon when one
        // of the mover's four best threats (a flexible three or better), searched 4 plies
        // shallower, beats beta by 150 points (the table's entry not saying otherwise) cut the
        // bench's nodes by 8 % but scored +5.2 +/- 31.7 Elo (freestyle, 0.2 s/move, 400
        // games), and on a match clock, 1 s/move and 6 s/game, -1.2 +/- 36.4 (300 games): not
        // adopted. Nor razoring: a non-PV node one ply from the horizon, nothing forced, where
        // the mover has no flexible-three point, four, four-three or double three and the
        // opponent no flexible-four point, returning its static value when that is 200 or
        // more below alpha (in the bench a child beat such a node's static value by over 200
        // in 0.5 % of them; bench 3,337,226 nodes), at 1 s/move and 6 s/game (300 games
        // each): freestyle +12.7 +/- 33.1 and +10.4 +/- 33.5, renju -6.9 +/- 32.3, standard
        // -33.7 +/- 35.0, caro +0.0 +/- 35.3; -3.0 +/- 15.1 over the 1,500 (LOS 35 %).
        //
        // Internal iterative reduction: a non-PV node the table knows no move for is searched
        // a ply shallower, since its ordering is a guess and a later visit finds the table
        // filled. Every rule but caro (see [`RuleSettings::iir`]).
        let settings = &ctl.settings;
        let depth =
            if tt_move.is_none() && !pv_node && !forced && depth >= IIR_DEPTH && settings.iir {
                depth - 1
            } else {
                depth
            };
        // Singular extension, or a ply less for the table's move (see
        // [`Worker::singular_test`]). It runs before the moves are generated: its search of
        // this node takes and returns this ply's move buffer.
        let tt_extension =
            if depth >= SINGULAR_DEPTH && settings.singular && !forced && excluded.is_none() {
                tt_entry.and_then(|e| self.singular_test(pos, e, depth, beta, ply, ctl))
            } else {
                None
            };
        if self.aborted {
            return 0;
        }
        // Per-ply move buffers are reused: no allocation per node.
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        // Below the root, with nothing forced, idle points are left out (see
        // [`RuleSettings::skip_idle_points`]) unless every point is idle. The generator
        // leaves them out as it goes: a second pass over the list took 2.5 % of the samples
        // of timed freestyle searches (same nodes; 0.3 % fewer instructions at depth 7). A
        // singular test's search, which excludes the table's move, keeps that pass, since
        // whether another point builds is judged once the move is excluded.
        let skip_idle = ply > 0 && settings.skip_idle_points;
        let situation = if skip_idle && excluded.is_none() {
            movegen::generate_skipping_idle(pos, &mut moves)
        } else {
            movegen::generate(pos, &mut moves)
        };
        if let Some(x) = excluded {
            moves.retain(|m| m.0 != x);
            if situation == Situation::Free && skip_idle {
                movegen::keep_building(pos, &mut moves);
            }
        }
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            // No legal defence (e.g. black's only block is a foul, or the only move is the
            // excluded one): lost.
            return -(WIN_SCORE - ply_i - 2);
        }
        // The history term is small next to the threat scores: a quiet cell scores a few
        // thousand here, and history stayed under 100 in the 0.2 s searches sampled. With the
        // fitted weights, history weighing 16 times more (cap 2^15, divided by 4) scored -10.4
        // +/- 45.9 Elo (200 games), later (cap 2^20, divided by 4) +24.4 +/- 32.4 and -36.6 +/-
        // 33.5 (400 games each; -6.2 +/- 20.8 over the 1,000, not adopted), and, once the
        // killers were dropped, 4 times more (divided by 16) +2.6 +/- 28.2 (400 games), and a
        // counter-move slot after the killers (the quiet reply that last cut off after the
        // opponent's move) -6.9 +/- 32.0 (400 games), and a follow-up history (cutoff credits
        // per colour, opponent's last move and reply, added to the history term) -20.0 +/- 29.1
        // (400 games; on 20x20, -9.3 +/- 34.7 in 300), and keyed instead by the mover's own
        // move two plies up, -16.5 +/- 30.1 (400 games), at 0.2 s/move, freestyle. Entries grow
        // about 2.5 times a depth, so at long time controls the term weighs that much more on
        // its own (see [`HISTORY_CAP`]); the 16-times matches show no harm from that. Under
        // freestyle, which orders without history, a bonus for the points within two of the
        // opponent's last move (as much as 8 points of the mover's own cell value) scored +11.3
        // +/- 33.2 and -30.5 +/- 31.7 (0.2 s/move, 400 games each; -10.6 +/- 22.9 together):
        // not adopted.
        //
        // Killers, under standard and caro only (see [`RuleSettings::killers`]): elsewhere
        // none are recorded, so the slots stay empty from the search's start.
        let use_killers = settings.killers;
        let killers = self.killers[ply];
        // The killers two plies down start empty for each node: left over from a cousin's
        // subtree, they ordered first moves that cut off somewhere else. Bench 5,259,825 ->
        // 4,605,681 nodes; against the engine that kept them, at 0.2 s/move: freestyle +26.1
        // +/- 32.3 and +34.0 +/- 30.7, renju +56.1 +/- 30.2, standard +40.1 +/- 30.9 (400
        // games each), freestyle on 20x20 +20.9 +/- 36.7 (300 games), caro +30.5 +/- 30.0 (400
        // games); +35.6 +/- 12.9 over the 2,300 games; at 1 s/move, freestyle +56.1 +/- 55.9
        // (100 games). With them cleared, a killer's bonus on top of its threat score (1,500
        // for the first, 1,125 for the second) instead of its place right after the table's
        // move cut the bench by a further 17 %, but scored -6.1 +/- 32.2 (freestyle, 400
        // games), and a third killer -33.1 +/- 33.5 (same conditions): not adopted.
        if use_killers {
            self.killers[ply + 2] = [None; 2];
        }
        // History, under every rule but freestyle (see [`RuleSettings::history`]): there no
        // cutoff is credited and the term is not read.
        let use_history = settings.history;
        let history = &self.history[me.index()];
        for m in moves.iter_mut() {
            m.1 = if Some(m.0) == tt_move {
                i32::MAX
            } else if Some(m.0) == killers[0] {
                i32::MAX - 2
            } else if Some(m.0) == killers[1] {
                i32::MAX - 3
            } else if use_history {
                m.1 * 8 + history[m.0.index()] / 64
            } else {
                m.1 * 8
            };
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        // Late-move pruning: in shallow non-PV nodes with nothing forced, reducible moves
        // (below) beyond the best-ordered few are not searched at all.
        // Measured with an "improving" flag (the mover's static evaluation above its value
        // two plies up), freestyle, 0.2 s/move, not adopted: two thirds of the limit where it
        // is not improving, -30.5 +/- 40.4 Elo (275 games, stopped); a ply more reduction
        // (below) from the ninth move of a non-PV node where it is not, +27.0 +/- 30.6,
        // -2.6 +/- 30.7 and, on the later engine, -11.3 +/- 29.7 (400 games each).
        let late_limit = if !pv_node && situation == Situation::Free {
            settings.late_move_limit(depth)
        } else {
            usize::MAX
        };
        // Quiet and reducible moves: see [`classify`]. The threat floor is a flexible three
        // under freestyle, standard and renju. A node facing a three never reduces: each of
        // its moves makes a four or takes a four point of the opponent's, so none is quiet.
        let threat_floor = settings.own_threat_floor;
        let mut pruned = false;
        let mut i = 0;
        while i < moves.len() {
            if !pruned && i >= late_limit && best_score > -WIN_THRESHOLD {
                // Past the limit, with a score above a loss to fall back on, reducible moves
                // are not searched: drop them all at once rather than select each only to skip
                // it. Selection orders by score and point, so the moves kept are searched
                // in the same order.
                pruned = true;
                let mut kept = i;
                for j in i..moves.len() {
                    if !classify(pos, moves[j].0, threat_floor).1 {
                        moves.swap(kept, j);
                        kept += 1;
                    }
                }
                moves.truncate(kept);
                if i == moves.len() {
                    break;
                }
            }
            // Selection instead of a full sort: most nodes cut off after a few moves.
            let mut pick = i;
            for j in i + 1..moves.len() {
                let (a, b) = (moves[j], moves[pick]);
                if a.1 > b.1 || (a.1 == b.1 && a.0 < b.0) {
                    pick = j;
                }
            }
            moves.swap(i, pick);
            let m = moves[i].0;
            let (quiet, may_reduce) = classify(pos, m, threat_floor);
            // Every child's bucket is fetched, even a leaf's, which never reads it: skipping
            // quiet moves one ply from the horizon left the bench's median nodes/s within
            // noise (3,010,598 -> 3,020,990, five interleaved runs each).
            ctl.tt.prefetch(pos.hash_after(m));
            pos.make_move(m);
            let score = if i == 0 {
                // The table's move, when there is one, is ordered first.
                let extension = tt_extension.filter(|&(t, _)| t == m).map_or(0, |(_, e)| e);
                -self.negamax(pos, depth - 1 + extension, -beta, -alpha, ply + 1, ctl)
            } else {
                // Late reducible moves are first searched shallower. (PV nodes reduced by one
                // ply at most scored -47.7 +/- 45.1 Elo, 199 games, SPRT H0; reducing from 2
                // plies instead of 3, -0.9 +/- 30.6, 400 games; from the fourth move instead of
                // the fifth, +22.1 +/- 22.4 over 800 games, but on top of the flexible-three
                // rule +12.2 +/- 37.0, 286 games, -24.7 +/- 34.8, 254 games, SPRT H0, and
                // without killers -13.9 +/- 30.9, 400 games; from the sixth without killers,
                // +8.7 +/- 31.2, 400 games; from the fourth again, on a match clock, 1 s/move
                // and 6 s/game, -4.6 +/- 39.4, 300 games, bench nodes -14 %: not adopted. The
                // second ply from the ninth move instead of the thirteenth, on the refitted
                // evaluation: -20.8 +/- 32.6, 335 games, SPRT H0, and on 20x20 -32.5 +/- 35.8,
                // 300 games; from the seventeenth, +1.7 +/- 30.1, 400 games. Freestyle, 400
                // games each, not adopted: a ply more for a move with no history for the mover
                // (it has not cut off for that side in this game), +9.6 +/- 31.1, +15.6 +/-
                // 29.4 and -13.9 +/- 32.0, +4.5 +/- 17.8 together (renju +18.3 +/- 30.2 and
                // +1.7 +/- 30.5, standard -29.6 +/- 30.4); a ply more at expected cut nodes
                // (non-PV nodes reached by a null-window search, the expectation alternating
                // down the tree), +6.1 +/- 30.0, and with the history rule +0.0 +/- 32.9; a ply
                // more where the table's move makes a four or takes the opponent's four point,
                // -8.7 +/- 30.0; a ply less for a move whose history for the mover has reached
                // 1,024 (about the top sixth of the reduced moves in a 0.2 s game), -17.4 +/-
                // 30.4; the second ply only from 5 plies from the horizon (bench nodes +29 %),
                // -11.3 +/- 30.9; a lone blocked four of the mover's (no three beside it, not
                // taking the opponent's four point) reduced like a quiet move but never pruned,
                // +4.3 +/- 26.4. At 1 s/move and 6 s/game, 300 games: a ply more, from 5
                // plies, for a move where neither side makes more than a two there (bench
                // nodes -1.2 %), freestyle -11.6 +/- 34.7.)
                let reduction = if is_late(depth, i) && may_reduce && !forced {
                    1 + (i >= 12) as i32
                } else {
                    0
                };
                self.later_move(pos, depth, reduction, alpha, beta, ply, ctl)
            };
            pos.undo_move();
            if self.aborted {
                self.move_buffers[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if use_killers && k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            if use_history {
                                reward(&mut self.history[me.index()][m.index()], depth);
                            }
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        self.move_buffers[ply] = moves;
        if excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        ctl.tt.store(
            pos.hash(),
            best_move,
            score_to_tt(best_score, ply_i),
            depth,
            bound,
        );
        best_score
    }

    /// The table's move and the plies its search gains or loses ([`tt_move_extension`]), when
    /// the entry (its score in the node's terms) is a lower bound or exact score from at most
    /// three plies shallower and no proven result: the node is searched half as deep without
    /// that move, against a window [`SINGULAR_MARGIN`] per ply under the entry's score.
    /// Entries from up to four plies shallower scored +6.1 +/- 30.1 Elo (freestyle,
    /// 0.2 s/move, 400 games; bench nodes +2.6 %): not adopted.
    fn singular_test<C: Clock>(
        &mut self,
        pos: &mut Position,
        entry: TtEntry,
        depth: i32,
        beta: i32,
        ply: usize,
        ctl: &Control<C>,
    ) -> Option<(Pos, i32)> {
        let m = entry.best?;
        if entry.depth < depth - 3
            || entry.bound == Bound::Upper
            || entry.score.abs() >= WIN_THRESHOLD
        {
            return None;
        }
        let singular_beta = entry.score - SINGULAR_MARGIN * depth;
        let s = self.node(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            ctl,
            Some(m),
        );
        if self.aborted {
            return None;
        }
        match tt_move_extension(s, singular_beta, entry.score, beta) {
            0 => None,
            extension => Some((m, extension)),
        }
    }

    /// The length in plies (ending with the five) of a VCF of at most `max_depth` fours for
    /// the side to move, if it has a four and the solver finds one within `budget` nodes. The
    /// nodes count in the search's total, so the limit checks see the work (renju VCF nodes
    /// are not cheap).
    #[inline]
    fn vcf_length(&mut self, pos: &mut Position, max_depth: u32, budget: u64) -> Option<usize> {
        if pos.combo_count_at_least(pos.side_to_move(), Combo::Four) == 0 {
            return None;
        }
        let line = self.vcf.solve(pos, max_depth, budget);
        self.nodes += self.vcf.nodes();
        line.map(|l| l.len())
    }
}

/// Whether the `i`-th move (counted from 0) of a node `depth` plies from the horizon comes late
/// enough to be searched shallower first, if it is reducible: the fifth and later moves, from 3
/// plies. The tree's late-move reduction and the root's ([`RuleSettings::root_reduction`])
/// both take their moves by it.
#[inline]
fn is_late(depth: i32, i: usize) -> bool {
    depth >= 3 && i >= 4
}

/// The table's entry for `pos` with its score in the terms of a node `ply` plies from the root
/// (proven scores by distance from there).
#[inline]
fn probe_in_node_terms(tt: &TranspositionTable, pos: &Position, ply: i32) -> Option<TtEntry> {
    tt.probe(pos.hash()).map(|e| TtEntry {
        score: score_from_tt(e.score, ply),
        ..e
    })
}

/// The score with which entry `e` settles a node `depth` plies from the horizon searched with
/// the window (`alpha`, `beta`), if it does: an entry cuts off at its depth or deeper when its
/// bound keeps the score outside the window. Letting a proven win or loss (a lower bound at a
/// win, an upper bound at a loss) cut off from any depth scored -13.0 +/- 25.4 Elo (freestyle,
/// 0.2 s/move, 400 games): not adopted.
#[inline]
fn table_cutoff(e: &TtEntry, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    let cut = e.depth >= depth
        && match e.bound {
            Bound::Exact => true,
            Bound::Lower => e.score >= beta,
            Bound::Upper => e.score <= alpha,
        };
    cut.then_some(e.score)
}

/// Whether the side to move's move `m` is quiet (no four for either side: killers and history
/// learn from it) and reducible (quiet, and below `threat_floor` for the mover: it may be
/// pruned or reduced, see [`RuleSettings::own_threat_floor`]). One read of each side's shape
/// answers both.
#[inline]
fn classify(pos: &Position, m: Pos, threat_floor: Combo) -> (bool, bool) {
    let me = pos.side_to_move();
    let mine = pos.shape(m, me).combo();
    let quiet = mine < Combo::Four && pos.shape(m, me.opponent()).combo() < Combo::Four;
    (quiet, quiet && mine < threat_floor)
}

/// Plies added to the search of the table's move from the singular test: `test` is the best
/// the other moves scored in it (searched half as deep against a null window at
/// `singular_beta`), `tt_score` the table's score for the node. One more when every other move
/// stays below the window (the node hangs on the table's move); one less when another move
/// reaches it and the table's score is at or above `beta` (the node has other ways to cut off,
/// so the table's move need not be read so deeply); none otherwise.
///
/// The ply less, against the engine without it, at 0.2 s/move on balanced openings (400 games
/// each): freestyle +37.5 +/- 30.7 and +35.7 +/- 28.6 Elo (and on earlier engines +16.5 +/-
/// 31.1, +7.8 +/- 32.2 and +1.7 +/- 32.3; +20.9 +/- 13.8 over the 2,000 games, LOS 99.9 %),
/// renju +13.9 +/- 30.2, standard +32.2 +/- 30.6, caro +9.6 +/- 33.3, freestyle on 20x20 -4.6
/// +/- 35.3 (300 games). The bench reaches its depths in 14 % fewer nodes. Once adopted:
/// freestyle at 1 s/move, +74.1 +/- 67.1 (100 games); freestyle on 20x20 again, +25.5 +/- 31.8
/// (300 games; +12.0 +/- 23.6 over the 600 there, +22.9 +/- 11.8 over all 2,600 games at
/// 0.2 s/move); on a match clock, freestyle at 1 s/move and 6 s/game +54.9 +/- 35.3 (300
/// games), and freestyle on 20x20 at 0.25 s/move and 6 s/game (Gomocup's fast game scaled
/// down) +32.5 +/- 45.5 (150 games).
///
/// Not adopted, each against this rule (freestyle, 0.2 s/move, 400 games): two plies less at a
/// non-PV node (Stockfish's larger step), +6.9 +/- 30.4 and -2.6 +/- 28.5 (+1.8 +/- 20.8 over
/// the 800), and on a match clock, 1 s/move and 6 s/game, -11.6 +/- 36.0 (300 games); a ply
/// less also when the other moves reached the table's score itself in the test, -4.3 +/- 32.6;
/// a ply less also at an expected cut node (a non-PV node reached by a null-window search, the
/// expectation alternating down the tree) where the test changes nothing, -12.2 +/- 29.9.
fn tt_move_extension(test: i32, singular_beta: i32, tt_score: i32, beta: i32) -> i32 {
    if test < singular_beta {
        1
    } else if tt_score >= beta {
        -1
    } else {
        0
    }
}

/// Most a history entry holds. The ordering reads an entry over 64, so from here on a cell
/// gains nothing more. Entries grow about 2.5 times a depth and are kept for the whole game
/// (halving them at each new search scored -9.6 +/- 26.9 Elo, freestyle, 0.2 s/move, 400
/// games): a 60 s search of a 20x20 opening took one to 2,616,953 by depth 14, so an unbounded
/// `i32` would wrap to a large negative value (the busiest cell ordered last) in long games or
/// analysis.
const HISTORY_CAP: i32 = 1 << 20;

/// Credits a quiet move that cut off `depth` plies from the horizon.
#[inline]
fn reward(entry: &mut i32, depth: i32) {
    *entry = (*entry + depth * depth).min(HISTORY_CAP);
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
