//! How the search differs by rule. Each choice here was settled by matches rule by rule;
//! the figures are on the fields. The evaluation's own per-rule choice, the threat-state
//! bonus table, is [`crate::eval::threat_bonus`].

use crate::board::pattern::Combo;
use crate::board::Board;
use crate::types::Rule;

/// Quiet moves searched in a non-PV node with nothing forced, by remaining depth (1..=6),
/// up to [`RuleSettings::late_move_depth`]. Retried with the fitted evaluation weights
/// (0.2 s/move, freestyle, 400 games): limits 8, 11, 14, 19, 26, 32 scored +2.6 +/- 30.3
/// Elo, and 12, 17, 22, 29, 38, 48 -2.6 +/- 29.0. Once freestyle ordered by the one-ply score
/// alone (no killers, no history), 8, 11, 14, 19, 26, 32 scored -14.8 +/- 31.6 there, and renju
/// pruning with 8, 11, 14, 19 up to its depth 4 +7.8 +/- 29.8 (400 games each): not adopted.
const LATE_MOVE_LIMIT: [usize; 7] = [usize::MAX, 10, 14, 18, 24, 32, 40];

/// The threat sequences the root defends against (see [`RuleSettings::root_defence`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threats {
    /// VCF: fours only.
    Fours,
    /// VCT: threes and fours.
    FoursAndThrees,
}

/// The search's per-rule settings. Every rule is named in [`RuleSettings::for_rule`], so a
/// new rule has to choose each of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSettings {
    /// Which threat sequences of the opponent the root defends against, if any: a search of
    /// a few plies cannot read them.
    ///
    /// Against the engine without a root defence, at 0.2 s/move on 15x15 balanced openings, the
    /// VCT defence scored: freestyle +19.1 +/- 28.5 Elo (400 games) and +60.8 +/- 40.3 (203
    /// games, SPRT H1); standard +30.5 +/- 30.1 (400 games); renju -48.5 +/- 44.6 (167 games,
    /// SPRT H0) and +6.1 +/- 26.6 (400 games), about -9 over the 567 games, and, dropping moves
    /// only when a checked move survives, +12.2 +/- 28.3 (400 games); caro -13.0 +/- 29.4 (400
    /// games). The VCF defence (fours only) in renju: +18.3 +/- 24.4 and +13.9 +/- 29.1 (400
    /// games each, about +16 +/- 19 together). Caro goes without: the VCF defence scored -0.9
    /// +/- 28.1 there (400 games), and once caro's fours were judged right (a stone beside a
    /// five may stop it), at 1 s/move and 6 s/game, the VCT defence -20.9 +/- 32.1 and the VCF
    /// one +8.1 +/- 29.4 (300 games each). With a VCT table of wins (which solved 287 renju
    /// self-play positions where the solver solves 278; not adopted, see `VctSolver`), the VCT
    /// defence in renju was tried again against the VCF one: -0.9 +/- 28.9 (400 games), and on
    /// a match clock, 1 s/move and 6 s/game, where the defence gets more nodes, -12.7 +/- 32.7
    /// (300 games), so renju keeps the VCF defence. Freestyle on 20x20 with the VCF defence
    /// instead of the VCT one scored -11.6 +/- 31.8 (300 games). The VCT defence for black
    /// alone under renju (white's threats have black's fouls to play on) scored +9.3 +/- 29.5
    /// against the VCF one (1 s/move and 6 s/game, 300 games): not adopted.
    pub root_defence: Option<Threats>,
    /// Deepest remaining depth with a late-move limit ([`LATE_MOVE_LIMIT`]).
    ///
    /// At 0.2 s/move, pruning depths 5 and 6 too (limits 32 and 40) scored +46.5 +/- 33.3 Elo
    /// in freestyle (347 games, SPRT H1) and +37.2 +/- 33.3 in standard (300 games), but -34.9
    /// +/- 37.7 in renju (300 games), so renju keeps the limits up to depth 4; so does caro
    /// (see below). Less pruning in renju, stopping at depth 3, scored -24.4 +/- 31.5 there
    /// (300 games). A third ply of reduction for late moves at depth 6 and up scored -32.5 +/-
    /// 33.2 in renju (300 games) and +21.7 +/- 30.6 in freestyle (400 games), so it was not
    /// adopted; for freestyle and standard alone it later scored -13.8 +/- 29.3 (328 games,
    /// SPRT H0). Limits 48 and 56 at depths 7 and 8 scored +2.6 +/- 28.0 in freestyle (400
    /// games). The deeper limits for caro scored +8.1 +/- 19.7 (900 games) and later +10.4 +/-
    /// 31.9 (400 games; +8.7 +/- 16.8 over the 1,300, LOS 85 %), not enough to adopt them, nor,
    /// once caro's fours were judged right, at 1 s/move and 6 s/game, +19.7 +/- 34.3, +10.4 +/-
    /// 34.1 and -24.4 +/- 35.9 (300 games each; +2.7 +/- 20.1 over the 900, LOS 60.5 %, and
    /// +6.3 +/- 12.9 over all 2,500, LOS 83 %). With the fitted evaluation weights, renju
    /// pruned at depths 5 and 6 again scored -26.9 +/- 39.4 (220 games), and once renju no
    /// longer pruned flexible threes, -39.7 +/- 37.0 (310 games, stopped). Renju pruning at
    /// depth 5 too (not 6) then scored +13.0 +/- 31.8 and -6.1 +/- 30.8 (400 games each; +3.1
    /// +/- 22.1 together): not adopted, nor, once the killers were dropped, -30.5 +/- 28.6 (400
    /// games). Freestyle on 20x20 stopping at depth 4 scored +9.3 +/- 34.7 and -18.5 +/- 36.4
    /// (300 games each; -3.9 +/- 25.1 together), so it prunes to depth 6 there too. Under
    /// renju, white alone pruning at depths 5 and 6 (freestyle's limits, white having no
    /// fouls) scored -18.3 +/- 42.9 at 1 s/move and 6 s/game (190 games, stopped).
    pub late_move_depth: i32,
    /// The weakest shape of the mover's that keeps a move from late-move pruning and
    /// reductions: a flexible three under freestyle, standard and renju, a four under caro
    /// (never above a four: a reducible move is a quiet one that also stays below this). A
    /// flexible three threatens a flexible four and must be answered, so it is searched like a
    /// four. Against the engine that pruned and reduced it, at 0.2 s/move on 15x15 balanced
    /// openings, freestyle: +17.4 +/- 31.3 Elo (400 games) and +46.0 +/- 33.4 (304 games, SPRT
    /// H1); +30.8 +/- 22.8 together (LOS 99.6 %). Renju: +24.4 +/- 31.1, with the refitted
    /// evaluation +6.9 +/- 30.8, and with the aspiration window of 100 +23.5 +/- 32.1 (400
    /// games each; +18.1 +/- 18.1 over the 1,200, LOS 97.5 %), so renju has it too; at 0.5
    /// s/move, +33.4 +/- 49.7 (190 games). Alone, standard scored -18.3 +/- 32.5 (400 games)
    /// and later -33.9 +/- 41.0 (280 games, stopped), but it has the flexible three with
    /// freestyle's other settings (see [`RuleSettings::for_rule`]). Caro keeps the four: caro
    /// +24.4 +/- 31.4, -1.7 +/- 32.4 and -4.3 +/- 31.0 (+6.2 +/- 18.2 over 1,200), and once
    /// caro's fours were judged right, +1.2 +/- 33.5 at 1 s/move and 6 s/game (300 games).
    /// Sparing also the moves that take a point where the opponent would make a flexible three
    /// scored -63.8 +/- 34.6 in freestyle (270 games, stopped): the bench took 43 % more nodes
    /// to reach its depths. Freestyle on 20x20 with a four as the floor scored +13.9 +/- 35.3
    /// and +2.3 +/- 38.4 (300 games each; +8.6 +/- 26.0 together): not adopted.
    pub own_threat_floor: Combo,
    /// Whether internal iterative reduction runs (a non-PV node with no table move, far enough
    /// from the horizon, searched a ply shallower). Against the engine without it at 0.2 s/move
    /// on 15x15 balanced openings: freestyle +32.2 +/- 30.0 and +16.5 +/- 31.0 Elo (400 games
    /// each; +24.8 +/- 21.8 together, LOS 98.7 %), standard -26.8 +/- 35.3 (313 games, SPRT H0)
    /// and +0.0 +/- 31.3 (400 games; -11.8 +/- 23.4 together), renju -1.7 +/- 31.8 (400 games),
    /// caro -23.4 +/- 33.5 (313 games, SPRT H0). Renju again, once it spared flexible threes
    /// from pruning: +27.0 +/- 30.1, +13.9 +/- 31.5 and +15.6 +/- 29.8 (400 games each; +19.0
    /// +/- 17.6 over the 1,200, LOS 98.3 %), so renju has it too, and standard with freestyle's
    /// other settings (see [`RuleSettings::for_rule`]). Caro goes without it: once its fours
    /// were judged right, it scored +5.8 +/- 35.7 there at 1 s/move and 6 s/game (300 games).
    /// Freestyle on 20x20 without it scored +18.5 +/- 33.4, +9.3 +/- 34.7 and -4.6 +/- 34.1
    /// (300 games each; +7.9 +/- 19.7 over the 900, LOS 78 %): not enough to take it away
    /// there.
    pub iir: bool,
    /// Whether the table's move may be extended as singular (see `SINGULAR_DEPTH` in
    /// `search::pvs`), or searched a ply shallower when the same test finds another move that
    /// holds (`tt_move_extension`). Against the engine without singular extensions, at
    /// 0.2 s/move on 15x15 balanced openings: freestyle +19.1 +/- 32.5 and +22.6 +/- 31.9 Elo
    /// (400 games each; +20.9 +/- 22.8 together, LOS 96 %), renju +28.7 +/- 31.3 (400 games,
    /// LOS 95 %), standard -6.9 +/- 37.3 (300 games) and +2.6 +/- 34.3 (400 games), caro
    /// +41.9 +/- 28.8 (400 games, LOS 99.3 %), caro-exact +13.0 +/- 32.9 (400 games).
    /// Freestyle on 20x20 without them: -77.7 +/- 35.1 (300 games). Standard has them with
    /// freestyle's other settings (see [`RuleSettings::for_rule`]); caro-exact shares caro's
    /// settings.
    pub singular: bool,
    /// The transposition table's keep margin (see `set_keep_margin` in `search::tt`): a
    /// non-exact store at most this many plies shallower than an entry of the same search for
    /// the same position overwrites it. 0 (a deeper bound always stays) against 2, at 0.2
    /// s/move on 15x15 balanced openings: freestyle +33.1 +/- 31.9 and +20.0 +/- 30.0 Elo (400
    /// games each; +26.1 +/- 21.9 together, LOS 99 %), renju -24.1 +/- 29.6, standard -13.9 +/-
    /// 29.0, caro -1.7 +/- 32.0 (400 games each), so renju, standard and caro keep 2 (standard
    /// again with freestyle's other settings: see [`RuleSettings::for_rule`]). Freestyle on
    /// 20x20 showed no gain: -9.3 +/- 38.1 and +0.0 +/- 35.9 (300 games each, same time; -4.4
    /// +/- 26.1 together), then, without the fail-high reduction there, +30.2 +/- 33.7 (300
    /// games; +8.6 +/- 20.6 over the 900). Keeping a deeper entry of an earlier search too (the
    /// margin applied whatever the entry's generation) scored +2.6 +/- 28.4 against 0
    /// (freestyle, 400 games): not adopted. Freestyle at 1 s/move, 0 against 2 on top of the
    /// fail-high reduction: +29.6 +/- 41.7 (200 games; no time losses, moves 504 ms on average,
    /// at most 919 ms). Caro at 1 s/move and 6 s/game, 0 against 2: -10.4 +/- 36.1 (300 games),
    /// so caro keeps 2.
    pub tt_keep_margin: i32,
    /// Plies less for the root's re-searches after a fail high at an aspiration window, until
    /// the next fail low: the move that failed high has just held at the full depth, and the
    /// shallower search settles the wider window sooner (the iteration still counts, and is
    /// reported, as its own depth). One ply against none, at 0.2 s/move on 15x15 balanced
    /// openings: freestyle +30.5 +/- 31.0 and +14.8 +/- 29.3 Elo (400 games each; +22.2 +/-
    /// 21.3 together, LOS 97.9 %), renju -0.9 +/- 29.2, standard -5.2 +/- 31.5 and caro -20.9
    /// +/- 34.1 (400 games each), so only freestyle has it. Caro again, once its fours were
    /// judged right, at 1 s/move and 6 s/game: -10.4 +/- 33.5 (300 games). Freestyle at 0.5
    /// s/move: +23.9 +/- 41.5 (160 games). A ply more for each further fail high in a row (as
    /// Stockfish does) scored -10.4 +/- 28.3 against one ply (freestyle, 400 games): not
    /// adopted. Boards larger than 15x15 go without it ([`RuleSettings::for_board`]).
    pub fail_high_reduction: i32,
    /// Whether the search leaves out idle points below the root when nothing is forced:
    /// points where neither colour's stone would build on another (see
    /// [`crate::position::Shape::builds`]). A stone there makes no shape and blocks none; it
    /// only waits for later stones. Its one-ply score is the lowest, so late-move pruning
    /// mostly dropped it already, but not in PV nodes nor deeper than that pruning reaches,
    /// where it was still searched at a reduced depth. The root keeps every point.
    ///
    /// Against the engine that searched them, at 0.2 s/move on 15x15 balanced openings (400
    /// games each): freestyle +33.1 +/- 28.9, +12.2 +/- 31.1, +3.5 +/- 29.3 and, once adopted,
    /// +5.2 +/- 29.1 and +23.5 +/- 29.7 Elo (+15.6 +/- 13.2 over the 2,000, LOS 99.0 %; the
    /// first run is what prompted the others), renju +6.1 +/- 31.0, standard -16.5 +/- 28.6,
    /// caro +0.0 +/- 29.6. At 1 s/move and 6 s/game (300 games each): caro, once its fours were
    /// judged right, +37.2 +/- 36.5 and -18.5 +/- 35.4 (+9.3 +/- 25.4 over the 600, LOS 76 %),
    /// renju -26.7 +/- 35.2, standard -15.1 +/- 35.2. Freestyle on 20x20: -25.5 +/- 35.5 and +11.6
    /// +/- 31.8 (300 games each; -4.9 +/- 23.7 together) and, once freestyle ordered without
    /// history there, +16.2 +/- 28.4 and -49.0 +/- 28.6 (300 games each; a third run stopped at
    /// -56.1 +/- 77.2 after 50 games; -11.4 +/- 15.3 over the four 300-game runs). Searching them
    /// there with a ply more of reduction than other late moves instead scored +11.6 +/- 26.9 and
    /// -2.3 +/- 25.3 (300 games each; +4.2 +/- 18.4 together): not adopted. So only freestyle on
    /// boards up to 15x15 skips them ([`RuleSettings::for_board`]).
    pub skip_idle_points: bool,
    /// Whether the move ordering puts the killers (the last two quiet moves that cut off at the
    /// same ply, cleared two plies down at each node) right after the table's move. Against the
    /// engine with them, at 0.2 s/move on 15x15 balanced openings (400 games each), without
    /// them scored freestyle +34.0 +/- 30.3 and +25.2 +/- 30.2 Elo, renju +28.7 +/- 30.4 and
    /// freestyle on 20x20 +4.6 +/- 37.6 (300 games; +24.9 +/- 15.9 over the 1,500, LOS 99.9 %),
    /// but standard -28.7 +/- 30.3 and -21.7 +/- 34.2 (-25.6 +/- 22.7 over the 800, LOS 1.3 %)
    /// and caro -7.8 +/- 31.7. So standard and caro keep them. Caro without them, once its
    /// fours were judged right, at 1 s/move and 6 s/game (300 games each): +26.7 +/- 39.0,
    /// +24.4 +/- 34.7 and, on the engine with the faster five blocks, +1.2 +/- 33.9; +16.5 +/-
    /// 20.6 over the 900 (LOS 94.2 %), short of the bar: not adopted.
    pub killers: bool,
    /// Whether the move ordering adds the history term (each quiet move that cut off credited
    /// depth squared for its colour and cell, read over 64 next to the one-ply threat score
    /// times 8) and the search keeps those credits. Without it, against the engine with it, at
    /// 0.2 s/move on 15x15 balanced openings, both without killers: freestyle +13.9 +/- 27.8,
    /// +20.0 +/- 29.7 and +14.8 +/- 30.6 Elo (400 games each; +16.2 +/- 16.9 over the 1,200,
    /// LOS 96.9 %) and, once adopted, +27.9 +/- 27.6 (400 games; +19.4 +/- 14.4 over the
    /// 1,600, LOS 99.6 %), but renju -25.2 +/- 27.8 (400 games). Freestyle on 20x20 without
    /// it scored -11.6 +/- 36.7, +18.5 +/- 29.4, +27.9 +/- 35.2, +2.3 +/- 31.2, +20.9 +/-
    /// 31.1, +18.5 +/- 27.2 and +30.2 +/- 31.7 (300 games each; +16.1 +/- 11.9 over the 2,100,
    /// LOS 99.6 %) and, once adopted, +13.9 +/- 38.6 at 1 s/move (200 games; no time losses,
    /// moves 440 ms on average, at most 916 ms), so freestyle goes without it on every board.
    /// Standard and caro keep it with their killers: without it, standard scored +6.1 +/- 31.6
    /// and caro -1.7 +/- 29.6 (400 games each), and without killers too, standard +5.2 +/- 31.8
    /// and caro +3.5 +/- 32.0 (400 games each). Renju with the term read over 32 instead of 64
    /// (twice the weight) scored +27.0 +/- 27.1, -3.5 +/- 28.0, +2.6 +/- 28.2 and +0.0 +/- 26.8
    /// (400 games each; +6.7 +/- 13.8 over the 1,600, LOS 83 %), and over 16 +13.0 +/- 30.7
    /// (400 games): not adopted. At 1 s/move, freestyle without killers and history, against
    /// the commit before the killers were dropped: +34.9 +/- 52.9 (160 games; no time losses,
    /// moves 506 ms on average, at most 917 ms).
    pub history: bool,
    /// Whether the root searches its fifth and later reducible moves (quiet, and below
    /// [`RuleSettings::own_threat_floor`] for the mover, as the tree's late-move reduction
    /// takes them) a ply shallower first, 3 or more plies deep, and again at the full depth
    /// only when that beats the best so far. Against the engine without it, freestyle on 15x15
    /// balanced openings on a match clock, 1 s/move and 6 s/game: +34.9 +/- 34.3 and +25.5 +/-
    /// 34.0 Elo (300 games each; +30.2 +/- 24.1 over the 600, LOS 99.3 %); at 0.2 s/move, -3.5
    /// +/- 45.7 (200 games; +22.8 +/- 21.3 over the 800 on 15x15, LOS 98.2 %). On an earlier
    /// engine it scored -4.3 +/- 28.3 at 0.2 s/move (400 games) and was left out then. The
    /// bench's freestyle 15x15 positions reach depth 8 in 13 % fewer nodes. On 20x20 at 0.25
    /// s/move and 6 s/game (Gomocup's fast game scaled down) it scored -18.5 +/- 42.7, +32.5
    /// +/- 49.1, +9.3 +/- 44.7 and +0.0 +/- 44.7 (150 games each; +4.1 +/- 22.6 over the 600),
    /// so boards larger than 15x15 go without it ([`RuleSettings::for_board`]). Caro
    /// (freestyle's openings) at 1 s/move and 6 s/game: +36.0 +/- 35.9 and +18.5 +/- 33.4 (300
    /// games each; +26.6 +/- 24.5 over the 600, LOS 98.4 %), so it has it too. Standard at 1
    /// s/move and 6 s/game: +19.7 +/- 33.3, +16.2 +/- 37.9 and +9.3 +/- 35.1 on an earlier
    /// engine, then +15.1 +/- 34.1 and +22.0 +/- 34.1 against the engine just before it took
    /// the reduction (300 games each; +16.6 +/- 15.6 over the 1,500, LOS 98.2 %), so it has it
    /// too. Renju at 1 s/move and 6 s/game scored -10.4 +/- 45.7 (200 games) and -2.3 +/- 36.5
    /// (300 games; -5.5 +/- 28.5 over the 500), so it searches every root move to the full
    /// depth. Nor does white alone there (white has no fouls, so it plays as under
    /// freestyle): +8.1 +/- 34.5 (same conditions, 300 games), not adopted.
    pub root_reduction: bool,
    /// Whether the VCF solver tries the plain fours of one combination by the attacker's shape
    /// value there (line weights and combination bonus: the four that also builds most), best
    /// first, instead of in board order: the bench in 2,884,770 nodes instead of 2,923,631,
    /// the freestyle VCT suite in 3,128,403 instead of 3,395,444. Against the engine that
    /// kept board order, 1 s/move and 6 s/game, 300 games each: freestyle +19.7 +/- 35.5,
    /// +16.2 +/- 36.1 and -3.5 +/- 33.5 Elo, standard +11.6 +/- 35.1, caro +36.0 +/- 36.0,
    /// freestyle on 20x20 +6.9 +/- 31.2 (+14.5 +/- 14.1 over the 1,800, LOS 97.8 %). Renju
    /// keeps board order: there the same ordering scored -5.8 +/- 33.4 (300 games) and left 4
    /// of the 278 renju self-play VCTs unfound (a set chosen as what board order finds). White's
    /// fours alone by value (black's in board order, where a four point's value says nothing of a
    /// foul) scored +1.2 +/- 31.8 (renju, 300 games) and left 2 unfound (19,837,629 nodes for the
    /// set instead of 21,194,904): not adopted. Nor, on board order, white's fours whose one
    /// block is a black foul before the four is played tried first: 20,529,406 nodes for the
    /// set (196 and 250 within the root VCT's budgets instead of 196 and 249) but 1 left
    /// unfound, and +16.2 +/- 31.5 and -39.5 +/- 32.5 Elo (renju, 300 games each; -11.6 +/-
    /// 22.7 over the 600). Nor black's fours alone by value (white's in board order): the
    /// set in 20,341,011 nodes (197 and 248 within the budgets) but 2 left unfound, the bench
    /// in 2,803,248 nodes, and +13.9 +/- 32.0 and -10.4 +/- 33.1 Elo (renju, 300 games each;
    /// +1.7 +/- 23.0 over the 600).
    pub vcf_fours_by_value: bool,
}

/// Most cells of a board on which the fail-high reduction
/// ([`RuleSettings::fail_high_reduction`]), the skipping of idle points
/// ([`RuleSettings::skip_idle_points`]) and the root's reduction
/// ([`RuleSettings::root_reduction`]) apply: each gained on 15x15, not on 20x20.
const SMALL_BOARD_MAX_CELLS: usize = 15 * 15;

impl RuleSettings {
    /// The settings a search of `board` uses: its rule's ([`RuleSettings::for_rule`]), with no
    /// fail-high reduction, no skipping of idle points and no root reduction on boards larger
    /// than 15x15.
    /// Freestyle on 20x20 (0.2 s/move, balanced openings, 300 games each) scored -13.9 +/- 32.2
    /// and -9.3 +/- 33.5 Elo with it, and +2.3 +/- 31.9 and -2.3 +/- 33.8 without it once this
    /// rule took it away there: -5.9 +/- 16.4 for the reduction over the 1,200 games
    /// (LOS 24 %), against +22.2 +/- 21.3 on 15x15; once freestyle ordered without history
    /// there, -13.9 +/- 30.8 (300 games).
    pub fn for_board(board: &Board) -> RuleSettings {
        let settings = RuleSettings::for_rule(board.rule());
        if board.width() * board.height() > SMALL_BOARD_MAX_CELLS {
            RuleSettings {
                fail_high_reduction: 0,
                skip_idle_points: false,
                root_reduction: false,
                ..settings
            }
        } else {
            settings
        }
    }

    /// The settings `rule` searches with.
    ///
    /// Standard searches as freestyle does, except for the keep margin, the move ordering
    /// (killers and history), the fail-high reduction and the skipping of idle points.
    /// Freestyle's flexible-three floor, internal iterative reduction, singular extensions and
    /// keep margin of 0 each scored about zero or below in standard when tried alone (see the
    /// fields), but all four together, against standard's earlier settings (a four as the
    /// floor, neither of the two, a margin of 2), scored +41.9 +/- 30.5, -14.8 +/- 30.4 and
    /// +27.0 +/- 33.0 Elo (standard, 0.2 s/move, 15x15 balanced openings, 400 games each; +17.5
    /// +/- 18.0 over the 1,200, LOS 97.1 %), and once adopted, against the commit before, +30.5
    /// +/- 29.0 (400 games; +21.1 +/- 15.3 over the 1,600, LOS 99.7 %); at 0.5 s/move, +61.4
    /// +/- 41.9 (200 games). The same four for caro, with freestyle's root VCT defence and
    /// pruning depth, scored +2.6 +/- 31.0 there (400 games): caro keeps its own. Standard's
    /// keep margin of 2 instead of 0, on top of the other three, then scored +25.2 +/- 30.6 and
    /// +29.6 +/- 29.7 (400 games each; +27.5 +/- 21.3 over the 800, LOS 99.4 %), so standard
    /// keeps 2. Standard as it now searches, against the commit before the four settings, at
    /// 0.5 s/move: +70.4 +/- 47.7 (200 games).
    pub const fn for_rule(rule: Rule) -> RuleSettings {
        match rule {
            Rule::Freestyle => RuleSettings {
                root_defence: Some(Threats::FoursAndThrees),
                late_move_depth: 6,
                own_threat_floor: Combo::FlexThree,
                iir: true,
                singular: true,
                tt_keep_margin: 0,
                fail_high_reduction: 1,
                skip_idle_points: true,
                killers: false,
                history: false,
                root_reduction: true,
                vcf_fours_by_value: true,
            },
            Rule::Standard => RuleSettings {
                tt_keep_margin: 2,
                killers: true,
                history: true,
                fail_high_reduction: 0,
                skip_idle_points: false,
                ..RuleSettings::for_rule(Rule::Freestyle)
            },
            Rule::Renju => RuleSettings {
                root_defence: Some(Threats::Fours),
                late_move_depth: 4,
                own_threat_floor: Combo::FlexThree,
                iir: true,
                singular: true,
                tt_keep_margin: 2,
                fail_high_reduction: 0,
                skip_idle_points: false,
                killers: false,
                history: true,
                root_reduction: false,
                vcf_fours_by_value: false,
            },
            Rule::Caro | Rule::CaroExact => RuleSettings {
                root_defence: None,
                late_move_depth: 4,
                own_threat_floor: Combo::Four,
                iir: false,
                singular: true,
                tt_keep_margin: 2,
                fail_high_reduction: 0,
                skip_idle_points: false,
                killers: true,
                history: true,
                root_reduction: true,
                vcf_fours_by_value: true,
            },
        }
    }

    /// Quiet moves searched at a node with `depth` plies left, where late-move pruning
    /// applies; `usize::MAX` (no limit) outside 1..=[`RuleSettings::late_move_depth`].
    #[inline]
    pub fn late_move_limit(&self, depth: i32) -> usize {
        if (1..=self.late_move_depth).contains(&depth) {
            LATE_MOVE_LIMIT[depth as usize]
        } else {
            usize::MAX
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings a search of an empty `w`x`h` board under `rule` uses.
    fn on_board(w: usize, h: usize, rule: Rule) -> RuleSettings {
        let board = Board::new(w, h, rule).expect("board");
        RuleSettings::for_board(&board)
    }

    #[test]
    fn fail_high_reduction_stops_above_fifteen_by_fifteen() {
        let reduction = |w, h, rule| on_board(w, h, rule).fail_high_reduction;
        assert_eq!(reduction(15, 15, Rule::Freestyle), 1);
        assert_eq!(reduction(12, 9, Rule::Freestyle), 1);
        assert_eq!(reduction(20, 20, Rule::Freestyle), 0);
        assert_eq!(reduction(15, 16, Rule::Freestyle), 0);
        assert_eq!(reduction(15, 15, Rule::Renju), 0);
        // Nothing else depends on the board.
        let settings = on_board(20, 20, Rule::Freestyle);
        assert_eq!(
            RuleSettings {
                fail_high_reduction: 1,
                skip_idle_points: true,
                history: false,
                root_reduction: true,
                ..settings
            },
            RuleSettings::for_rule(Rule::Freestyle)
        );
    }

    #[test]
    fn only_freestyle_up_to_fifteen_by_fifteen_skips_idle_points() {
        let skips = |w, h, rule| on_board(w, h, rule).skip_idle_points;
        assert!(skips(15, 15, Rule::Freestyle));
        assert!(skips(10, 10, Rule::Freestyle));
        assert!(!skips(20, 20, Rule::Freestyle));
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert!(!skips(15, 15, rule), "{rule:?}");
        }
    }

    #[test]
    fn only_freestyle_orders_without_history() {
        let history = |w, h, rule| on_board(w, h, rule).history;
        assert!(!history(15, 15, Rule::Freestyle));
        assert!(!history(10, 10, Rule::Freestyle));
        assert!(!history(20, 20, Rule::Freestyle));
        assert!(!history(22, 22, Rule::Freestyle));
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert!(history(15, 15, rule), "{rule:?}");
            assert!(history(20, 20, rule), "{rule:?}");
        }
    }

    #[test]
    fn every_rule_but_renju_up_to_fifteen_by_fifteen_reduces_late_root_moves() {
        let reduces = |w, h, rule| on_board(w, h, rule).root_reduction;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroExact] {
            assert!(reduces(15, 15, rule), "{rule:?}");
            assert!(reduces(10, 10, rule), "{rule:?}");
            assert!(!reduces(20, 20, rule), "{rule:?}");
            assert!(!reduces(15, 16, rule), "{rule:?}");
        }
        assert!(!reduces(15, 15, Rule::Renju));
        assert!(!reduces(10, 10, Rule::Renju));
        assert!(!reduces(20, 20, Rule::Renju));
    }

    #[test]
    fn late_move_limits_stop_at_each_rules_depth() {
        for rule in Rule::ALL {
            let s = RuleSettings::for_rule(rule);
            assert!(s.late_move_depth < LATE_MOVE_LIMIT.len() as i32, "{rule:?}");
            assert_eq!(s.late_move_limit(0), usize::MAX, "{rule:?}");
            assert_eq!(s.late_move_limit(-1), usize::MAX, "{rule:?}");
            assert_eq!(s.late_move_limit(1), 10, "{rule:?}");
            assert_eq!(s.late_move_limit(4), 24, "{rule:?}");
            assert_eq!(
                s.late_move_limit(s.late_move_depth + 1),
                usize::MAX,
                "{rule:?}"
            );
        }
        assert_eq!(
            RuleSettings::for_rule(Rule::Standard).late_move_limit(6),
            40
        );
        assert_eq!(
            RuleSettings::for_rule(Rule::Renju).late_move_limit(5),
            usize::MAX
        );
    }
}
