//! Whole games between two engine processes over the protocol, under every tournament rule
//! (0, 1, 4, 8, 9) on 15×15 and 20×20 boards.
//!
//! The test is the referee. Every move is judged with `Board::check_move` (on the board, free,
//! never a renju foul for black), and whether it wins is checked a second time by a small
//! line counter written here from the rule texts, so the result of each game is the one the
//! rules give. The side that loses then receives the winning move and must refuse it as a
//! finished game, which shows both engines agree on the result.

mod common;

use std::thread;
use std::time::Instant;

use common::{finish, Brain};
use wuzi::board::{Board, Cell, MoveCheck};
use wuzi::types::{Color, Pos, Rule};

/// How a game ended.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Win(Color),
    Draw,
}

/// True if `color` playing the empty point `pos` wins under `rule`, judged by counting lines:
/// five or more in a row, exactly five for black in renju and for everyone under rules 1 and
/// 9, and under caro (8, 9) a five with opponent stones right beyond both ends does not count
/// (overlines still win under 8; the board edge is not an opponent stone).
fn wins_by_count(board: &Board, pos: Pos, color: Color, rule: Rule) -> bool {
    let exact = match rule {
        Rule::Standard | Rule::CaroExact => true,
        Rule::Renju => color == Color::Black,
        Rule::Freestyle | Rule::Caro => false,
    };
    let caro = matches!(rule, Rule::Caro | Rule::CaroExact);
    let at = |x: i64, y: i64| -> Option<Cell> {
        board
            .in_bounds(x, y)
            .then(|| board.cell(Pos::new(x as usize, y as usize)))
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let (x0, y0) = (pos.x as i64, pos.y as i64);
        let mut len = 1;
        let mut ends = [None, None];
        for (side, sign) in [1i64, -1].into_iter().enumerate() {
            let mut step = 1;
            loop {
                let cell = at(x0 + sign * step * dx, y0 + sign * step * dy);
                if cell == Some(Cell::Stone(color)) {
                    len += 1;
                    step += 1;
                } else {
                    ends[side] = cell;
                    break;
                }
            }
        }
        let long_enough = if exact { len == 5 } else { len >= 5 };
        let opponent = Some(Cell::Stone(color.opponent()));
        let closed = ends[0] == opponent && ends[1] == opponent;
        long_enough && !(caro && len == 5 && closed)
    })
}

/// How a player is told to think.
#[derive(Clone, Copy, Debug)]
enum Pace {
    /// A real search: one ply deep and 30 ms per move (the root threat solvers fit their
    /// budgets to the turn limit).
    Search,
    /// `timeout_turn 0` with a match clock: "play instantly" (the engine's static move).
    Instant,
}

/// Sets up one engine for a new game.
fn new_game(brain: &mut Brain, size: usize, rule_code: i64, pace: Pace) {
    brain.expect(&format!("START {size}"), "OK");
    brain.send(&format!("INFO rule {rule_code}"));
    // Debug builds search slowly; these settings keep a game of up to 400 moves within
    // seconds (strength does not matter here).
    match pace {
        Pace::Search => brain.send_all(&[
            "INFO timeout_turn 30",
            "INFO timeout_match 0",
            "INFO time_left 2147483647",
            "INFO max_depth 1",
            "INFO max_memory 33554432",
        ]),
        Pace::Instant => brain.send_all(&[
            "INFO timeout_turn 0",
            "INFO timeout_match 100000",
            "INFO time_left 100000",
        ]),
    }
}

/// Plays one game between `black` and `white` to its end and returns the result.
fn play_game(
    black: &mut Brain,
    white: &mut Brain,
    size: usize,
    rule_code: i64,
    paces: [Pace; 2],
) -> Outcome {
    let rule = Rule::from_gomocup(rule_code).expect("a tournament rule");
    new_game(black, size, rule_code, paces[0]);
    new_game(white, size, rule_code, paces[1]);
    let mut referee = Board::new(size, size, rule).expect("board");
    let label = format!("rule {rule_code} {size}x{size} {paces:?}");
    let started = Instant::now();
    black.send("BEGIN");
    let mut mover = Color::Black;
    let mut first_white_move = true;
    loop {
        let brain = if mover == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let pos = brain.recv_move();
        assert_eq!(referee.side_to_move(), mover);
        let verdict = referee.check_move(pos);
        let counted_win = referee.is_empty(pos) && wins_by_count(&referee, pos, mover, rule);
        let moves = referee.stone_count() + 1;
        match verdict {
            MoveCheck::OffBoard | MoveCheck::Occupied => {
                panic!("{label}: move {moves} by {mover} at {pos} is not a free point")
            }
            MoveCheck::Forbidden => {
                panic!("{label}: move {moves} by black at {pos} is a renju foul")
            }
            MoveCheck::Win | MoveCheck::Ordinary => {}
        }
        assert_eq!(
            verdict == MoveCheck::Win,
            counted_win,
            "{label}: move {moves} by {mover} at {pos}: the board says {verdict:?}"
        );
        referee.make_move(pos);
        let other = if mover == Color::Black {
            &mut *white
        } else {
            &mut *black
        };
        if verdict == MoveCheck::Win {
            // The loser must see the game as over.
            other.expect(
                &format!("TURN {pos}"),
                &format!("ERROR game over: {mover} wins with {pos}"),
            );
            println!(
                "{label}: {mover} wins with move {moves} ({:?})",
                started.elapsed()
            );
            return Outcome::Win(mover);
        }
        if referee.is_full() {
            other.expect(
                &format!("TURN {pos}"),
                &format!("ERROR game over: {pos} fills the board"),
            );
            println!("{label}: draw, board full ({:?})", started.elapsed());
            return Outcome::Draw;
        }
        // The second player's first move comes as BOARD (GomocupJudge) on 20x20 and as TURN
        // (Piskvork) on 15x15.
        if first_white_move && size == 20 {
            other.send_all(&["BOARD", &format!("{},{},2", pos.x, pos.y), "DONE"]);
        } else {
            other.send(&format!("TURN {pos}"));
        }
        first_white_move = false;
        mover = mover.opponent();
    }
}

/// Plays one game per rule with one pair of processes, reused across games (START again
/// for each game, as c-gomoku-cli does).
fn play_series(size: usize, rules: &[i64], paces: [Pace; 2]) -> Vec<Outcome> {
    let mut black = Brain::spawn_crlf();
    let mut white = Brain::spawn();
    let results = rules
        .iter()
        .map(|&rule| play_game(&mut black, &mut white, size, rule, paces))
        .collect();
    finish(black);
    finish(white);
    results
}

#[test]
fn whole_games_under_every_rule() {
    // On 15x15 black searches and white plays instantly; on 20x20 both play instantly.
    let series: [(usize, &[i64], [Pace; 2]); 3] = [
        (15, &[0, 1, 4], [Pace::Search, Pace::Instant]),
        (15, &[8, 9], [Pace::Search, Pace::Instant]),
        (20, &[0, 1, 4, 8, 9], [Pace::Instant, Pace::Instant]),
    ];
    let runs: Vec<_> = series
        .into_iter()
        .map(|(size, rules, paces)| {
            thread::spawn(move || (rules.len(), play_series(size, rules, paces)))
        })
        .collect();
    let mut wins = 0;
    for run in runs {
        let (games, results) = run.join().expect("a game thread failed");
        assert_eq!(results.len(), games);
        wins += results
            .iter()
            .filter(|r| matches!(r, Outcome::Win(_)))
            .count();
    }
    // Engines that never finish a five would make this file test only full boards.
    assert!(wins > 0, "no game was won");
}

#[test]
fn line_counter_knows_the_rules() {
    // The referee's second opinion must itself be right: a row of four with one more stone.
    let board_with = |rule: Rule, row: &str| -> Board {
        let mut board = Board::new(15, 15, rule).expect("board");
        for (x, c) in row.chars().enumerate() {
            match c {
                'x' => board.place(Pos::new(x, 7), Color::Black),
                'o' => board.place(Pos::new(x, 7), Color::White),
                _ => {}
            }
        }
        board
    };
    let check = |rule: Rule, row: &str, color: Color, expected: bool| {
        let board = board_with(rule, row);
        let x = row.find('X').expect("an X marks the move");
        let pos = Pos::new(x, 7);
        assert_eq!(
            wins_by_count(&board, pos, color, rule),
            expected,
            "{rule} {row}"
        );
    };
    let b = Color::Black;
    check(Rule::Freestyle, "..xxXx....", b, false);
    check(Rule::Freestyle, "..xxXxx...", b, true);
    check(Rule::Freestyle, "..xxXxxx..", b, true);
    check(Rule::Standard, "..xxXxxx..", b, false);
    check(Rule::Standard, "..xxXxx...", b, true);
    check(Rule::Renju, "..xxXxxx..", b, false);
    let w = Color::White;
    check(Rule::Renju, "..ooXooo..", w, true);
    check(Rule::Caro, ".oxxXxxo..", b, false);
    check(Rule::Caro, ".oxxXxx...", b, true);
    check(Rule::Caro, "xxXxx.....", b, true);
    check(Rule::Caro, "oxxXxxxo..", b, true);
    check(Rule::CaroExact, "oxxXxxxo..", b, false);
    check(Rule::CaroExact, ".oxxXxx...", b, true);
}
