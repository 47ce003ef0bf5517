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

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::movegen::{self, Situation};
use super::rules::{RuleSettings, Threats};
use super::time::{Clock, InstantClock, TimeManager};
use super::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable, TtEntry, WIN_THRESHOLD};
use super::vcf::VcfSolver;
use super::vct::VctSolver;
use crate::board::pattern::Combo;
use crate::board::Board;
use crate::engine::{Limits, SearchResult, WIN_SCORE};
use crate::eval::{MOVER_EIGHTHS, OPPONENT_EIGHTHS};
use crate::position::Position;
use crate::types::{Pos, CELL_COUNT};

/// Deepest ply the search tracks (killers, forced-move extensions).
pub const MAX_PLY: usize = 128;
const INFINITE: i32 = WIN_SCORE + 1;
/// Nodes the root VCF may spend before the main search.
const ROOT_VCF_NODES: u64 = 200_000;
/// Nodes the root VCT and each check of the root defence may spend when the search has no
/// clock (a depth limit scales it down), and the most a check of the root defence spends
/// (less when the time limit is short: [`ROOT_DEFENCE_NODES_PER_MS`]). Inside the
/// tree, a VCT of 3 threats and 100 nodes at every node 5 or more plies from the horizon
/// (nothing forced) scored +4.3 +/- 29.7 Elo (400 games, 0.2 s/move, freestyle), for about a
/// fifth more time per depth in the bench: it does not pay there, so it runs at the root only.
const ROOT_VCT_NODES: u64 = 40_000;
/// Nodes per millisecond of the soft limit the root VCT may spend in a timed search, with no
/// cap: the solver visits about 3,000 nodes per millisecond, so this is at most about a tenth
/// of the time (its abort stops it at a third in any case). The earlier rule, 40 per
/// millisecond capped at [`ROOT_VCT_NODES`], left the solver about a hundredth of the time,
/// and the cap bound from about 1 s/move on: at 1 s/move the quintet fukumi problem (132,645
/// nodes) was out of its reach, and wins and defences of game positions that need 40,000 to
/// 400,000 nodes were common. Against that rule, freestyle: +6.9 +/- 31.1 Elo at 0.2 s/move
/// (400 games) and -22.3 +/- 69.0 at 1 s/move (80 games, stopped): no harm shown, the gain
/// is in the positions it solves. (160 per millisecond, capped, scored +6.1 +/- 25.9 at
/// 0.2 s/move, 400 games.) Twice as much, 600 per millisecond, scored -37.2 +/- 33.0
/// against 300 (freestyle, 0.2 s/move, 300 games, stopped, both with a VCT table of wins
/// that was not adopted either, see [`VctSolver`]), and half of it, 150 per millisecond,
/// +2.3 +/- 27.7 on a match clock (freestyle, 1 s/move and 6 s/game, 300 games): neither
/// adopted.
const ROOT_VCT_NODES_PER_MS: u64 = 300;
/// Most attacker threats in a root VCT line. Ten instead of eight solves 5 more of 293 renju
/// self-play positions within 2,000,000 nodes (1 more within the 0.2 s budget), but scored
/// -1.7 +/- 26.1 Elo in renju (0.2 s/move, 400 games): not adopted.
const ROOT_VCT_THREATS: u32 = 8;
/// Nodes per millisecond of the soft limit each check of the root defence may spend in a timed
/// search, up to [`ROOT_VCT_NODES`] (see [`root_vct_budgets`] for a larger budget measured).
const ROOT_DEFENCE_NODES_PER_MS: u64 = 40;
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
/// Half-width of the first aspiration window, in the evaluation's units (an open three on a
/// line weighs 43); each failed bound widens by it, and it triples after every failure. 100
/// against 60, at 0.2 s/move (400 games each): freestyle +26.1 +/- 30.6 Elo, renju +9.6 +/-
/// 30.8, standard +16.5 +/- 27.7, caro -26.1 +/- 32.4 and +41.0 +/- 31.5; +14.1 +/- 13.6 over
/// the 2,000 games (LOS 97.9 %). Caro's two matches together, +8.4 +/- 22.6, give no reason
/// for a window of its own. Also freestyle 20x20, +9.3 +/- 35.3 (300 games), and freestyle at
/// 0.5 s/move, +8.7 +/- 42.6 (200 games). The bench reaches its depths in 11 % fewer nodes:
/// fewer re-searches. 150 against 100 scored -2.6 +/- 29.8 (freestyle, 400 games), and 30
/// against 60 -38.6 +/- 36.1 (300 games, freestyle, stopped). Not adopted either (0.2 s/move,
/// 400 games each): doubling instead of tripling after each failure, freestyle +13.0 +/- 27.0
/// and -20.0 +/- 28.8 (-2.5 +/- 19.7 together), renju -12.2 +/- 27.0; the window from depth 4
/// instead of 5, freestyle +16.5 +/- 31.9 and -5.2 +/- 32.2 (+5.6 +/- 22.6 together), renju
/// -29.6 +/- 31.6. Nor widening from the score that failed instead of from the bound, with
/// the upper bound brought halfway down to the lower after a fail low (Stockfish's rule):
/// -3.5 +/- 27.0 (freestyle, 400 games).
const ASPIRATION_WINDOW: i32 = 100;
/// First depth searched with an aspiration window; shallower depths use the full window.
/// From depth 4 instead: see [`ASPIRATION_WINDOW`].
const ASPIRATION_DEPTH: u32 = 5;
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

/// Static evaluation for the side to move: its shape potential against the opponent's, the
/// mover's counted a little higher because it moves first, plus the bonus of its
/// [`threat_state`] (who can make a four, a four-three, a double three), which says what the
/// cell sums cannot: whose move it is when threats stand on both sides.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let op = me.opponent();
    let own = pos.value_sum(me);
    let opp = pos.value_sum(op);
    (own * MOVER_EIGHTHS - opp * OPPONENT_EIGHTHS) / 8 + pos.threat_bonus(threat_state(pos))
}

/// The threats on the board as the side to move sees them, an index into [`Position::threat_bonus`]:
/// bit 0, the mover can make a four; 1, a four-three; 2, [`mover_double_three`]; 3, the
/// opponent can make a four; 4, a four-three; 5, a flexible four (it has an open three the
/// mover must answer); 6, a double three (not a renju foul). The cell sums count each
/// threat where it stands; only this says whose move it is when both sides have one. A
/// flexible-four point that is a renju foul is no threat: bit 5 reads
/// [`Position::has_legal_combo`] (-0.9 +/- 24.9 Elo against reading the count, renju, 0.2
/// s/move, 400 games). Bits 0, 1, 3 and 4 reading it too scored -31.4 +/- 26.1 (same
/// conditions), and with [`RENJU_THREAT_BONUS`](crate::eval::RENJU_THREAT_BONUS) refitted to
/// them -54.3 +/- 36.1 (400 games), so they still count foul points, as the evaluation's fit
/// did.
#[inline]
pub fn threat_state(pos: &Position) -> usize {
    let me = pos.side_to_move();
    let op = me.opponent();
    let flag = |set: bool, bit: usize| usize::from(set) << bit;
    flag(pos.combo_count_at_least(me, Combo::Four) > 0, 0)
        | flag(pos.combo_count(me, Combo::FourThree) > 0, 1)
        | flag(mover_double_three(pos), 2)
        | flag(pos.combo_count_at_least(op, Combo::Four) > 0, 3)
        | flag(pos.combo_count(op, Combo::FourThree) > 0, 4)
        | flag(pos.has_legal_combo(op, &[Combo::FlexFour]), 5)
        | flag(
            pos.combo_count(op, Combo::DoubleThree) > 0 && !pos.rule().forbids(op),
            6,
        )
}

/// True if the side to move has a double three and the opponent no four to gain a tempo
/// with: that usually wins, and the static sum cannot see that only the mover gets to play
/// it. (Black's double three is a renju foul, so under renju it is left out.)
#[inline]
pub fn mover_double_three(pos: &Position) -> bool {
    let me = pos.side_to_move();
    pos.combo_count(me, Combo::DoubleThree) > 0
        && pos.combo_count_at_least(me.opponent(), Combo::Four) == 0
        && !pos.rule().forbids(me)
}

/// Node budgets of the root's threat-space searches: the root VCT's and each root-defence
/// check's. They fit the soft limit, or the depth limit when the search is untimed. The root
/// VCT's grows with the time; a defence check's is capped, since it runs once per root move.
/// A defence check of 150 nodes per millisecond capped at 200,000 (instead of
/// `ROOT_DEFENCE_NODES_PER_MS` capped at `ROOT_VCT_NODES`) scored -13.0 +/- 28.0 Elo
/// (freestyle, 0.2 s/move, 400 games), and 80 per millisecond with the same cap, measured
/// again once the VCT solver had its ordered defences, +5.2 +/- 29.3 (same conditions):
/// neither adopted.
pub fn root_vct_budgets(soft_limit_ms: Option<u64>, max_depth: Option<u32>) -> (u64, u64) {
    match (soft_limit_ms, max_depth) {
        (Some(ms), _) => (
            ms * ROOT_VCT_NODES_PER_MS,
            (ms * ROOT_DEFENCE_NODES_PER_MS).min(ROOT_VCT_NODES),
        ),
        (None, Some(depth)) => {
            let nodes = (1000 * u64::from(depth) * u64::from(depth)).min(ROOT_VCT_NODES);
            (nodes, nodes)
        }
        (None, None) => (ROOT_VCT_NODES, ROOT_VCT_NODES),
    }
}

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

/// What a helper thread publishes for the main one: its node count (for the reports) and
/// its last completed iteration.
#[derive(Default)]
struct HelperShare {
    nodes: AtomicU64,
    /// Depth, score and move of the last completed iteration (see [`pack_iteration`]); 0 until
    /// one completes.
    completed: AtomicU64,
}

/// One word for a completed iteration: depth (at least 1), score and move.
fn pack_iteration(depth: u32, score: i32, best: Pos) -> u64 {
    u64::from(depth) << 48 | u64::from(score as u32) << 16 | best.index() as u64
}

/// The depth, score and move of [`pack_iteration`], or `None` for the empty word.
fn unpack_iteration(word: u64) -> Option<(u32, i32, Pos)> {
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
    fn total_nodes(&self, own: u64) -> u64 {
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
        let situation = if excluded.is_empty() {
            movegen::generate(&pos, &mut moves)
        } else {
            movegen::generate_excluding(&pos, &mut moves, excluded)
        };
        if moves.is_empty() {
            // Every point is excluded, forbidden or the position is lost: any legal point.
            let fallback = board
                .empty_cells()
                .find(|p| !excluded.contains(p) && !pos.is_forbidden(*p))
                .or_else(|| board.empty_cells().next())
                .expect("search on a full board");
            return main.result(fallback, -WIN_SCORE, 0);
        }
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut best = moves[0].0;
        // Forced answers: no search needed.
        match situation {
            Situation::CanWin => return main.result(best, WIN_SCORE - 1, 1),
            Situation::MustBlockFive if moves.len() == 1 => {
                return main.result(best, evaluate(&pos), 1);
            }
            _ if moves.len() == 1 => return main.result(best, evaluate(&pos), 1),
            _ => {}
        }
        if situation != Situation::MustBlockFive && !time.is_instant() {
            // The solvers may use a share of the soft limit, and stop at once on STOP.
            let share = |divisor: u64| {
                let cutoff = time.soft_limit_ms().map(|soft| soft / divisor);
                move || {
                    stop.load(Ordering::Relaxed) || cutoff.is_some_and(|c| time.elapsed_ms() >= c)
                }
            };
            let vcf_abort = share(4);
            if let Some(mut line) = main
                .vcf
                .solve_until(&mut pos, 100, ROOT_VCF_NODES, &vcf_abort)
            {
                if !excluded.contains(&line[0]) {
                    main.nodes += main.vcf.nodes();
                    // The solver takes the first VCF it finds, not the shortest: look for a
                    // line of fewer attacker moves until there is none, so the win comes
                    // soonest and a puzzle gets its shortest solution. The table's disproofs
                    // from the searches before hold at the smaller depths. Of the 767 public
                    // VCF problems answered by a VCF at 1 s/move, 186 get a shorter line.
                    // The same positions are won, so no strength is expected: against the
                    // engine before, 1 s/move and 6 s/game, 300 games each, freestyle -5.8
                    // +/- 34.9 Elo and renju +15.1 +/- 31.4, no time losses.
                    while line.len() > 1 {
                        let fewer = line.len().div_ceil(2) as u32 - 1;
                        let shorter =
                            main.vcf
                                .solve_until(&mut pos, fewer, ROOT_VCF_NODES, &vcf_abort);
                        main.nodes += main.vcf.nodes();
                        match shorter {
                            Some(shorter) if !excluded.contains(&shorter[0]) => line = shorter,
                            _ => break,
                        }
                    }
                    let score = WIN_SCORE - line.len() as i32;
                    report(&format!(
                        "VCF found: {} moves, first {}",
                        line.len().div_ceil(2),
                        line[0]
                    ));
                    return main.result(line[0], score, line.len() as u32);
                }
            }
            main.nodes += main.vcf.nodes();
            let (vct_budget, budget) = root_vct_budgets(time.soft_limit_ms(), time.max_depth());
            let vct_abort = share(3);
            if let Some(first) =
                main.vct
                    .solve_until(&mut pos, ROOT_VCT_THREATS, vct_budget, &vct_abort)
            {
                if !excluded.contains(&first) {
                    main.nodes += main.vct.nodes();
                    report(&format!("VCT found: first {first}"));
                    return main.result(first, WIN_SCORE - 100, 1);
                }
            }
            main.nodes += main.vct.nodes();
            if let Some(threats) = ctl.settings.root_defence {
                let defence_abort = share(2);
                main.drop_refuted_moves(
                    &mut pos,
                    &mut moves,
                    threats,
                    budget,
                    ctl.max_nodes,
                    &defence_abort,
                );
                best = moves[0].0;
            }
        }
        if time.is_instant() {
            return main.result(best, moves[0].1, 0);
        }
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

    /// Iterative deepening from `first_depth` to `max_depth` over the root `moves`, starting
    /// from `(best, best_score)`; returns the best move, its score and the last completed
    /// depth. `report` (the main thread's; none for a helper) gets a line per completed depth.
    #[allow(clippy::too_many_arguments)]
    fn iterate<C: Clock>(
        &mut self,
        pos: &mut Position,
        moves: &mut [(Pos, i32)],
        ctl: &Control<C>,
        first_depth: u32,
        max_depth: u32,
        (mut best, mut best_score): (Pos, i32),
        mut report: Option<&mut dyn FnMut(&str)>,
    ) -> (Pos, i32, u32) {
        let time = ctl.time;
        let mut completed = 0;
        let mut depth = first_depth;
        while depth <= max_depth {
            if depth > first_depth && !time.should_start_iteration() {
                break;
            }
            if ctl.published.is_some() {
                // A helper searches a ply deeper than the main thread: what it stores is
                // ready when the main thread gets there, and its result may be deeper.
                depth = depth
                    .max(ctl.pace.load(Ordering::Relaxed) + 1)
                    .min(max_depth);
            } else {
                ctl.pace.store(depth, Ordering::Relaxed);
            }
            // The window is ASPIRATION_WINDOW either side of the last depth's score.
            let (mut alpha, mut beta) = (-INFINITE, INFINITE);
            let mut delta = ASPIRATION_WINDOW;
            if depth >= ASPIRATION_DEPTH && best_score.abs() < WIN_THRESHOLD {
                alpha = best_score - delta;
                beta = best_score + delta;
            }
            // After a fail high the wider window may be searched shallower until a fail low
            // (see [`RuleSettings::fail_high_reduction`]).
            let mut reduction = 0;
            let mut failed_high = None;
            let mut first;
            let (score, iteration_best) = loop {
                first = moves.first().map_or(best, |m| m.0);
                let (score, m) = self.root(pos, moves, depth as i32 - reduction, alpha, beta, ctl);
                if self.aborted {
                    break (score, m);
                }
                if score <= alpha && alpha > -INFINITE {
                    reduction = 0;
                    alpha = (alpha - delta).max(-INFINITE);
                } else if score >= beta && beta < INFINITE {
                    failed_high = m;
                    reduction = ctl.settings.fail_high_reduction;
                    beta = (beta + delta).min(INFINITE);
                } else {
                    break (score, m);
                }
                delta *= 3;
            };
            if self.aborted {
                // A partly searched depth may still improve the move.
                best =
                    stopped_iteration_move(best, first, iteration_best, score, alpha, failed_high);
                break;
            }
            best = iteration_best.unwrap_or(best);
            best_score = score;
            completed = depth;
            if let Some(share) = ctl.published {
                share
                    .completed
                    .store(pack_iteration(depth, score, best), Ordering::Relaxed);
            }
            if let Some(report) = report.as_mut() {
                let elapsed = time.elapsed_ms().max(1);
                let nodes = ctl.total_nodes(self.nodes);
                let pv = principal_variation(ctl.tt, pos, best);
                report(&format!(
                    "depth {depth} score {} nodes {} nps {} time {}ms pv {}",
                    format_score(score),
                    nodes,
                    nodes * 1000 / elapsed,
                    elapsed,
                    pv.iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            if score.abs() >= WIN_THRESHOLD {
                break;
            }
            depth += 1;
        }
        (best, best_score, completed)
    }

    /// Drops the root moves after which the opponent has a win of kind `threats`, when the
    /// opponent would have one if it moved now. Moves are checked best-ordered first until
    /// `abort`; unchecked moves are kept, and so is every move if all of them lose (the search
    /// then chooses among them as before). Each check gets the root VCT budget; the checks
    /// stop at `abort` or when the search's node count reaches `max_nodes`.
    fn drop_refuted_moves(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<(Pos, i32)>,
        threats: Threats,
        budget: u64,
        max_nodes: Option<u64>,
        abort: &dyn Fn() -> bool,
    ) {
        pos.toggle_side();
        let threat = self.side_to_move_wins(pos, threats, budget, abort);
        pos.toggle_side();
        if !threat {
            return;
        }
        let mut refuted = Vec::new();
        for &(m, _) in moves.iter() {
            if abort() || max_nodes.is_some_and(|n| self.nodes >= n) {
                break;
            }
            pos.make_move(m);
            let loses = self.side_to_move_wins(pos, threats, budget, abort);
            pos.undo_move();
            if loses {
                refuted.push(m);
            }
        }
        if refuted.len() < moves.len() {
            moves.retain(|(m, _)| !refuted.contains(m));
        }
    }

    /// Whether the side to move has a win of kind `threats` within `budget` nodes (counted in
    /// the search's total).
    fn side_to_move_wins(
        &mut self,
        pos: &mut Position,
        threats: Threats,
        budget: u64,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        match threats {
            Threats::Fours => {
                let won = self.vcf.solve_until(pos, 100, budget, abort).is_some();
                self.nodes += self.vcf.nodes();
                won
            }
            Threats::FoursAndThrees => {
                let won = self.vct.solve_until(pos, 8, budget, abort).is_some();
                self.nodes += self.vct.nodes();
                won
            }
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

    /// Searches the root moves; returns the score and the best move found (moves are reordered
    /// so the best comes first next time).
    ///
    /// The root moves are searched in the order of their one-ply scores with each iteration's
    /// best moved to the front, each to the full depth except, under every rule but renju, the
    /// fifth and later reducible ones, which are first searched a ply shallower (see
    /// [`RuleSettings::root_reduction`]). Ordering the moves after the best by the size of
    /// their trees in the last iteration scored -18.7 +/- 31.8 Elo (freestyle, 0.2 s/move, 316
    /// games, SPRT H0): not adopted. Nor, on a match clock (1 s/move and 6 s/game, 300 games
    /// each), a second ply of reduction for the thirteenth and later reducible root moves from
    /// 5 plies deep (freestyle, -15.1 +/- 35.0), or reducing from the fourth move instead of
    /// the fifth: freestyle +10.4 +/- 30.4, +9.3 +/- 33.8, +16.2 +/- 33.4, +23.2 +/- 32.6 and
    /// +8.1 +/- 35.1 (+13.5 +/- 14.7 over the 1,500, LOS 96.4 %, short of the 97 % set as the
    /// bar for a freestyle-only setting before the fifth run), standard -3.5 +/- 33.1 and -8.1
    /// +/- 33.5, caro +25.5 +/- 34.5 and +1.2 +/- 35.5 (+9.2 +/- 11.1 over the 2,700, LOS
    /// 94.8 %).
    fn root<C: Clock>(
        &mut self,
        pos: &mut Position,
        moves: &mut [(Pos, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ctl: &Control<C>,
    ) -> (i32, Option<Pos>) {
        let mut best_score = -INFINITE;
        let mut best_index = None;
        let settings = &ctl.settings;
        for (i, &(m, _)) in moves.iter().enumerate() {
            let reduce = settings.root_reduction
                && is_late(depth, i)
                && classify(pos, m, settings.own_threat_floor).1;
            pos.make_move(m);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, 1, ctl)
            } else {
                self.later_move(pos, depth, i32::from(reduce), alpha, beta, 0, ctl)
            };
            pos.undo_move();
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(i);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let best = best_index.map(|i| moves[i].0);
        if let Some(i) = best_index {
            moves[..=i].rotate_right(1);
            if !self.aborted {
                let bound = if best_score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                ctl.tt
                    .store(pos.hash(), best, score_to_tt(best_score, 0), depth, bound);
            }
        }
        (best_score, best)
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

/// The move to play when an iteration is stopped part-way, `best` being the last complete
/// depth's. `first` is the move the stopped pass searched first, `searched` the best of the
/// moves it finished and `score` that move's score, `alpha` the pass's lower bound, and
/// `failed_high` the move of an earlier pass of the same depth that failed high.
///
/// A finished move other than the first whose score is above `alpha` beat the first at this
/// depth (a score at or below `alpha` is only an upper bound, no better than the first's);
/// failing that, a move that failed high scored above the window around the last depth's
/// score. Either is taken over `best`. The earlier rule took a move that beat the first only
/// when its score was also above the last depth's (scores swing between odd and even
/// depths), and ignored fail highs. Against it, at 0.2 s/move: freestyle +22.6 +/-
/// 29.7 Elo, renju +27.9 +/- 26.6 (400 games each), freestyle on 20x20 +18.5 +/- 28.0 (300
/// games); +23.2 +/- 16.2 over the 1,100 (LOS 99.8 %). Once adopted, standard +13.9 +/- 29.1
/// (400 games; +21.0 +/- 14.1 over the 1,500); at 1 s/move, freestyle +0.0 +/- 55.8 (100
/// games). A timed search plays a move other than its last complete depth's best 8.9 % of the
/// time instead of 3.5 % (freestyle; standard 9.3 % instead of 3.7 %). Taking also a root move
/// whose null-window search beat the first, its full-window search stopped, raised that to
/// 12.2 % and scored +1.7 +/- 28.7 (freestyle, 400 games): not adopted. Nor forgetting the move
/// that failed high once a later pass of the same depth fails low: +6.1 +/- 21.8 (freestyle,
/// 400 games). Under freestyle that pass searches a ply shallower than the one that failed
/// high, so the move that held at the full depth keeps its claim.
fn stopped_iteration_move(
    best: Pos,
    first: Pos,
    searched: Option<Pos>,
    score: i32,
    alpha: i32,
    failed_high: Option<Pos>,
) -> Pos {
    match (searched, failed_high) {
        (Some(m), _) if m != first && score > alpha => m,
        (_, Some(m)) => m,
        _ => best,
    }
}

/// The best line in the table, starting with `first`.
fn principal_variation(tt: &TranspositionTable, pos: &mut Position, first: Pos) -> Vec<Pos> {
    let mut pv = vec![first];
    pos.make_move(first);
    while pv.len() < 16 {
        match tt.probe(pos.hash()).and_then(|e| e.best) {
            Some(m) if pos.board().is_empty(m) && !pos.is_forbidden(m) => {
                pv.push(m);
                pos.make_move(m);
            }
            _ => break,
        }
    }
    for _ in 0..pv.len() {
        pos.undo_move();
    }
    pv
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

/// Score as printed in progress lines: `+win in N` / `-loss in N` for proven results.
pub fn format_score(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win{}", WIN_SCORE - score)
    } else if score <= -WIN_THRESHOLD {
        format!("loss{}", WIN_SCORE + score)
    } else {
        score.to_string()
    }
}

/// Default clock for real searches.
pub type RealTime = TimeManager<InstantClock>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, Rule};
    use std::time::Instant;

    /// Black's and white's stones, as `(x, y)`.
    type Stones = (&'static [(usize, usize)], &'static [(usize, usize)]);

    /// lfz084/黑先VCF/031 and /482 (tests/data/vcf_public.jsonl): renju, black to move,
    /// with VCFs of 11 and 14 fours. A search of 3 plies without the probe misses both.
    #[rustfmt::skip]
    const LONG_VCFS: [Stones; 2] = [
        (
            &[(4, 4), (8, 5), (9, 5), (7, 7), (9, 7), (8, 8), (12, 8), (5, 9), (6, 9)],
            &[(8, 4), (6, 5), (7, 5), (8, 6), (10, 6), (5, 7), (10, 7), (4, 9), (7, 9)],
        ),
        (
            &[(6, 5), (6, 7), (7, 7), (8, 7), (6, 8), (8, 9), (7, 11)],
            &[(5, 4), (6, 4), (10, 5), (8, 6), (5, 7), (7, 8), (10, 11)],
        ),
    ];

    /// The time manager of a search of `board` under `limits`, its clock starting now.
    fn time_for(limits: &Limits, board: &Board) -> RealTime {
        TimeManager::new(
            limits,
            board.stone_count(),
            board.empty_count(),
            InstantClock::new(Instant::now()),
        )
    }

    /// A node with [`INTERIOR_VCF_DEPTH`] plies left scores a VCF far past its horizon as a
    /// win.
    #[test]
    fn interior_node_sees_a_long_vcf() {
        for (i, (black, white)) in LONG_VCFS.iter().enumerate() {
            let board = Board::from_stones(15, 15, Rule::Renju, black, white, Color::Black)
                .expect("a legal test position");
            let mut fixture = Fixture::new(&board);
            let (pos, ctl) = fixture.split();
            let score =
                Worker::new().negamax(pos, INTERIOR_VCF_DEPTH, -INFINITE, INFINITE, 1, &ctl);
            assert!(
                score >= WIN_THRESHOLD,
                "position {i}: score {score} at depth {INTERIOR_VCF_DEPTH}"
            );
        }
    }

    /// What a worker's search needs when called directly: a position, no limits, a fresh
    /// table.
    struct Fixture {
        pos: Position,
        time: RealTime,
        stop: AtomicBool,
        pace: AtomicU32,
        tt: TranspositionTable,
    }

    impl Fixture {
        fn new(board: &Board) -> Fixture {
            Fixture {
                pos: Position::new(board),
                time: time_for(&Limits::default(), board),
                stop: AtomicBool::new(false),
                pace: AtomicU32::new(0),
                tt: TranspositionTable::new(1 << 20),
            }
        }

        /// The position to search, and the control over the rest.
        fn split(&mut self) -> (&mut Position, Control<'_, InstantClock>) {
            let ctl = Control {
                tt: &self.tt,
                time: &self.time,
                stop: &self.stop,
                max_nodes: None,
                settings: RuleSettings::for_board(self.pos.board()),
                published: None,
                helpers: &[],
                pace: &self.pace,
            };
            (&mut self.pos, ctl)
        }
    }

    /// The singular-extension test's search without a move: with the only block of a four
    /// excluded the node is lost; where other moves are left it is searched, but not stored
    /// in the table (the entry is the whole node's); the whole node is not lost.
    #[test]
    fn a_node_searched_without_a_move() {
        let block = Pos::new(7, 7);
        for (four, lost) in [(true, true), (false, false)] {
            let white: &[(usize, usize)] = if four {
                &[(3, 7), (4, 7), (5, 7), (6, 7)]
            } else {
                &[(3, 7), (4, 7), (5, 7), (6, 8)]
            };
            let black = [(2, 7), (8, 9), (10, 10), (12, 3)];
            let board = Board::from_stones(15, 15, Rule::Freestyle, &black, white, Color::Black)
                .expect("a legal test position");
            let mut fixture = Fixture::new(&board);
            let (pos, ctl) = fixture.split();
            let mut worker = Worker::new();
            let without = worker.node(pos, 4, -INFINITE, INFINITE, 1, &ctl, Some(block));
            assert_eq!(without <= -WIN_THRESHOLD, lost, "four {four}: {without}");
            assert!(
                ctl.tt.probe(pos.hash()).is_none(),
                "four {four}: the node was stored"
            );
            let whole = worker.negamax(pos, 4, -INFINITE, INFINITE, 1, &ctl);
            assert!(
                whole > -WIN_THRESHOLD,
                "four {four}: {whole} with every move"
            );
            assert!(
                ctl.tt.probe(pos.hash()).is_some(),
                "four {four}: not stored"
            );
        }
    }

    /// A leaf (no depth left) off the principal variation returns a bound the table holds
    /// when the bound settles its window; otherwise, and on the principal variation, it
    /// returns the static value.
    #[test]
    fn a_leaf_off_the_principal_variation_takes_the_tables_bound() {
        let black = [(7, 7), (8, 8), (6, 9)];
        let white = [(7, 8), (8, 7)];
        let board = Board::from_stones(15, 15, Rule::Freestyle, &black, &white, Color::White)
            .expect("a legal test position");
        let mut fixture = Fixture::new(&board);
        let (pos, ctl) = fixture.split();
        let mut worker = Worker::new();
        let eval = evaluate(pos);
        let leaf = |worker: &mut Worker, pos: &mut Position, alpha: i32, beta: i32| {
            worker.node(pos, 0, alpha, beta, 1, &ctl, None)
        };
        assert_eq!(
            leaf(&mut worker, pos, eval + 99, eval + 100),
            eval,
            "an empty table"
        );
        // (stored score, bound, alpha, beta, expected, what): each stored over the last.
        let cases = [
            (
                eval + 500,
                Bound::Lower,
                eval + 99,
                eval + 100,
                eval + 500,
                "a cutoff",
            ),
            (
                eval + 500,
                Bound::Lower,
                eval - 100,
                eval + 100,
                eval,
                "a PV leaf",
            ),
            (
                eval + 500,
                Bound::Upper,
                eval + 99,
                eval + 100,
                eval,
                "an upper bound above",
            ),
            (
                eval - 500,
                Bound::Upper,
                eval + 99,
                eval + 100,
                eval - 500,
                "below alpha",
            ),
        ];
        for (stored, bound, alpha, beta, expected, what) in cases {
            ctl.tt
                .store(pos.hash(), None, score_to_tt(stored, 1), 3, bound);
            assert_eq!(leaf(&mut worker, pos, alpha, beta), expected, "{what}");
        }
    }

    /// The singular test lengthens the table's move when no other move reaches the test's
    /// window, shortens it when one does and the table's score is at or above beta, and
    /// leaves it otherwise.
    #[test]
    fn the_singular_test_lengthens_or_shortens_the_tables_move() {
        // Every other move below the window: a ply more, whatever beta.
        assert_eq!(tt_move_extension(49, 50, 90, 100), 1);
        assert_eq!(tt_move_extension(-200, 50, 150, 100), 1);
        // Another move reaching the window, the table's score at or above beta: a ply less.
        assert_eq!(tt_move_extension(50, 50, 100, 100), -1);
        assert_eq!(tt_move_extension(80, 50, 130, 100), -1);
        // Another move reaching the window, the table's score below beta: unchanged.
        assert_eq!(tt_move_extension(50, 50, 99, 100), 0);
    }

    /// Cutoffs teach the ordering only under the rules that read what they teach: the
    /// history table and the killer slots stay empty after a search under the others.
    #[test]
    fn history_and_killers_learn_only_where_the_rule_orders_by_them() {
        let black = [(7, 7), (8, 8), (6, 9)];
        let white = [(8, 7), (7, 9), (9, 6)];
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            let board = Board::from_stones(15, 15, rule, &black, &white, Color::Black)
                .expect("a legal test position");
            let settings = RuleSettings::for_board(&board);
            let mut fixture = Fixture::new(&board);
            let (pos, ctl) = fixture.split();
            let mut worker = Worker::new();
            worker.negamax(pos, 5, -INFINITE, INFINITE, 1, &ctl);
            let credited = worker.history.iter().flatten().any(|&h| h != 0);
            assert_eq!(credited, settings.history, "{rule:?}: history");
            let killed = worker.killers.iter().flatten().any(Option::is_some);
            assert_eq!(killed, settings.killers, "{rule:?}: killers");
        }
    }

    /// A helper's completed iteration survives the trip through one word, negative and
    /// proven scores included.
    #[test]
    fn history_saturates_instead_of_wrapping() {
        let mut entry = 0;
        for _ in 0..200_000 {
            reward(&mut entry, MAX_PLY as i32);
            assert!((0..=HISTORY_CAP).contains(&entry), "{entry}");
        }
        assert_eq!(entry, HISTORY_CAP);
    }

    /// A stopped iteration keeps the last depth's move unless a later move beat the first
    /// one at this depth (a score above the pass's alpha) or a move failed high.
    #[test]
    fn a_stopped_iteration_takes_a_move_that_beat_the_first() {
        let (old, other, high) = (Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 6));
        // (first, searched, score, alpha, failed high, expected)
        let cases = [
            // Another move beat the first: taken, even with a score below the last depth's
            // (alpha is 100 below it here).
            (old, Some(other), -50, -100, None, other),
            // A score at or below alpha is an upper bound: the first stays.
            (old, Some(other), -100, -100, None, old),
            (old, Some(other), -150, -100, None, old),
            // Only the first was finished, or nothing: the last depth's move.
            (old, Some(old), 20, -100, None, old),
            (old, None, 0, -100, None, old),
            // An earlier pass failed high: its move, unless a move beat the first of the
            // stopped pass.
            (high, None, 0, 0, Some(high), high),
            (high, Some(high), 150, 0, Some(high), high),
            (high, Some(other), 150, 0, Some(high), other),
            // After a fail low the pass's first may be any move the last pass ranked first.
            (other, Some(other), -200, -300, None, old),
        ];
        for (i, &(first, searched, score, alpha, failed_high, expected)) in cases.iter().enumerate()
        {
            let played = stopped_iteration_move(old, first, searched, score, alpha, failed_high);
            assert_eq!(played, expected, "case {i}");
        }
    }

    #[test]
    fn iterations_pack_into_a_word() {
        assert_eq!(unpack_iteration(0), None);
        for (depth, score, best) in [
            (1, 0, Pos::new(0, 0)),
            (7, -1234, Pos::new(14, 3)),
            (120, WIN_SCORE - 3, Pos::new(21, 21)),
            (9, -(WIN_SCORE - 8), Pos::new(5, 17)),
        ] {
            let word = pack_iteration(depth, score, best);
            assert_eq!(unpack_iteration(word), Some((depth, score, best)));
        }
    }

    /// With two threads the helper searches too (its nodes are counted in the result), the
    /// main thread still completes the asked depth, and the move is a legal point.
    #[test]
    fn helper_threads_search_and_stop_with_the_main_one() {
        if max_threads() < 2 {
            return; // one hardware thread: no helper is started
        }
        let board = Board::from_stones(
            15,
            15,
            Rule::Freestyle,
            &[(7, 7), (8, 7), (6, 9)],
            &[(7, 8), (8, 9)],
            Color::White,
        )
        .expect("a legal test position");
        let limits = Limits {
            max_depth: Some(7),
            threads: 2,
            ..Limits::default()
        };
        let time = time_for(&limits, &board);
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(1 << 20);
        let result = searcher.search(&board, &limits, &time, &stop, &[], &mut |_| {});
        assert!(board.is_empty(result.best), "{result:?}");
        assert_eq!(result.depth, 7, "{result:?}");
        assert_eq!(searcher.helpers.len(), 1);
        let helper_nodes = searcher.helpers[0].nodes;
        assert!(helper_nodes > 0, "the helper did not search");
        assert_eq!(
            result.nodes,
            searcher.main.nodes + helper_nodes,
            "{result:?}"
        );
    }

    /// The threat state names whose threats are whose, and leaves out renju fouls.
    #[test]
    fn threat_state_reads_both_sides() {
        let state = |rule, black: &[(usize, usize)], white: &[(usize, usize)], to_move| {
            let board = Board::from_stones(15, 15, rule, black, white, to_move)
                .expect("a legal test position");
            threat_state(&Position::new(&board))
        };
        let far = [(0, 14), (14, 0), (14, 14)];
        // Black's open three: black to move can make a four (bit 0); white to move faces a
        // four (bit 3) and an open four (bit 5).
        let three = [(5, 7), (6, 7), (7, 7)];
        assert_eq!(state(Rule::Freestyle, &three, &far, Color::Black), 1);
        assert_eq!(
            state(Rule::Freestyle, &three, &far[..2], Color::White),
            8 | 32
        );
        // Black's double three at (7, 7): a threat for white to meet in freestyle (bit 6), a
        // foul under renju. With black to move it is the mover's (bit 2) in freestyle only.
        let double = [(5, 7), (6, 7), (7, 5), (7, 6)];
        assert_eq!(state(Rule::Freestyle, &double, &far, Color::White), 64);
        assert_eq!(state(Rule::Renju, &double, &far, Color::White), 0);
        assert_eq!(state(Rule::Freestyle, &double, &far[..1], Color::Black), 4);
        assert_eq!(state(Rule::Renju, &double, &far[..1], Color::Black), 0);
        // A four-three for black to move: bits 0 and 1.
        let four_three = [(4, 7), (5, 7), (6, 7), (8, 4), (8, 5)];
        assert_eq!(state(Rule::Freestyle, &four_three, &far, Color::Black), 3);
        // Black's x.x?x.x: the middle point makes two fours on one line, which wins in
        // freestyle (bit 5 for white to move) and is a foul under renju, where only the plain
        // fours at either side of it remain (bit 3).
        let split = [(3, 7), (5, 7), (7, 7), (9, 7)];
        assert_eq!(state(Rule::Freestyle, &split, &far, Color::White), 8 | 32);
        assert_eq!(state(Rule::Renju, &split, &far, Color::White), 8);
    }
}
