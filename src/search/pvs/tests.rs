use super::deepening::stopped_iteration_move;
use super::node::{move_count_cap, INTERIOR_VCF_DEPTH};
use super::ordering::{reward, HISTORY_CAP};
use super::singular::tt_move_extension;
use super::*;
use crate::search::score::{INFINITE, WIN_SCORE};
use crate::search::tt::{score_to_tt, Bound};
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
        let score = Worker::new().negamax(pos, INTERIOR_VCF_DEPTH, -INFINITE, INFINITE, 1, &ctl);
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
    for (i, &(first, searched, score, alpha, failed_high, expected)) in cases.iter().enumerate() {
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
        let board =
            Board::from_stones(15, 15, rule, black, white, to_move).expect("a legal test position");
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

/// A double three for the side to move, where the opponent has no point to make a four at,
/// is a win in five plies even at the horizon, where no VCF sees it (there is no four to
/// start one). Not while the opponent has a four to gain a tempo with, nor for black under
/// renju, where a double three is a foul.
#[test]
fn a_double_three_with_no_four_to_answer_wins_in_five() {
    let leaf = |rule, white: &[(usize, usize)]| {
        let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
        let board = Board::from_stones(15, 15, rule, &black, white, Color::Black)
            .expect("a legal test position");
        let mut fixture = Fixture::new(&board);
        let (pos, ctl) = fixture.split();
        Worker::new().negamax(pos, 0, -INFINITE, INFINITE, 1, &ctl)
    };
    let far = [(0, 14), (14, 0), (14, 14)];
    assert_eq!(leaf(Rule::Freestyle, &far[..1]), WIN_SCORE - 1 - 5);
    assert_eq!(leaf(Rule::Standard, &far[..1]), WIN_SCORE - 1 - 5);
    assert!(leaf(Rule::Renju, &far[..1]) < WIN_THRESHOLD);
    // White's open three on the edge row: white can make a four, so it may answer with one.
    let three = [(10, 0), (11, 0), (12, 0), (0, 14)];
    assert!(leaf(Rule::Freestyle, &three) < WIN_THRESHOLD);
}

#[test]
fn the_move_cap_grows_with_depth() {
    let capped: Vec<usize> = (1..=5).map(move_count_cap).collect();
    assert_eq!(capped, [4, 5, 7, 9, 11]);
    assert_eq!(move_count_cap(10), 23);
    // At and below the horizon only the constant is left.
    assert_eq!(move_count_cap(0), 3);
    assert_eq!(move_count_cap(-2), 3);
}
