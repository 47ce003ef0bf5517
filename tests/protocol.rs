//! The protocol as managers speak it, against the real binary: the session shapes of
//! Piskvork, GomocupJudge and c-gomoku-cli, the Yixin-Board extensions, every kind of bad
//! input, END/EOF/STOP while searching, and a seeded junk flood.
//!
//! A test keeps its own copy of the position in a `wuzi::board::Board` to check the engine's
//! moves and to predict exact replies.

mod common;

use std::time::{Duration, Instant};

use common::data::{block_lines, records, xy};
use common::{finish, parse_move, Brain, REPLY};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wuzi::board::{Board, MoveCheck};
use wuzi::protocol::about_line;
use wuzi::types::{Color, Pos, Rule};

/// Checks that `pos` is a legal move for the side to move of `mirror`, then plays it there.
fn play_checked(mirror: &mut Board, pos: Pos) {
    let verdict = mirror.check_move(pos);
    assert!(
        matches!(verdict, MoveCheck::Ordinary | MoveCheck::Win),
        "illegal move {pos}: {verdict:?}"
    );
    mirror.make_move(pos);
}

/// Reads the engine's move, checks it against the mirror and plays it there.
fn engine_moves(brain: &Brain, mirror: &mut Board) -> Pos {
    let pos = brain.recv_move();
    play_checked(mirror, pos);
    pos
}

/// Sends `TURN` for `pos` (played on the mirror first) and reads and checks the reply.
fn turn(brain: &mut Brain, mirror: &mut Board, pos: Pos) -> Pos {
    play_checked(mirror, pos);
    brain.send(&format!("TURN {pos}"));
    engine_moves(brain, mirror)
}

/// Some free point of the mirror, away from the engine's last move when possible.
fn free_point(mirror: &Board, rng: &mut StdRng) -> Pos {
    let free: Vec<Pos> = mirror
        .empty_cells()
        .filter(|&p| mirror.check_move(p) == MoveCheck::Ordinary)
        .collect();
    free[rng.gen_range(0..free.len())]
}

/// `FORBID …` as the engine must print it for the mirror's side to move.
fn forbid_line(mirror: &Board) -> String {
    let points: String = mirror
        .forbidden_points()
        .iter()
        .map(|p| format!("{:02}{:02}", p.x, p.y))
        .collect();
    format!("FORBID {points}.")
}

/// Fast limits so that tests stay quick whatever the engine's strength.
const FAST: [&str; 3] = [
    "INFO timeout_turn 200",
    "INFO max_depth 2",
    "INFO time_left 5000",
];

#[test]
fn piskvork_session() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut brain = Brain::spawn_crlf();
    // Limits may come before START too.
    brain.send("INFO timeout_match 180000");
    brain.expect("START 20", "OK");
    brain.send_all(&[
        "INFO max_memory 367001600",
        "INFO timeout_match 180000",
        "INFO timeout_turn 300",
        "INFO game_type 2",
        "INFO rule 1",
        "INFO time_left 180000",
        "INFO max_depth 2",
        "INFO folder C:\\Users\\Player\\Piskvork data",
    ]);
    brain.assert_silent();
    let mut mirror = Board::new(20, 20, Rule::Standard).expect("board");
    brain.send("BEGIN");
    let first = engine_moves(&brain, &mut mirror);
    for _ in 0..3 {
        brain.send("INFO time_left 170000");
        let opponent = free_point(&mirror, &mut rng);
        turn(&mut brain, &mut mirror, opponent);
    }
    // Undo in the GUI: TAKEBACK of each removed stone, newest first, each answered OK.
    for _ in 0..2 {
        let last = mirror.last_move().expect("stones on the board");
        brain.expect(&format!("TAKEBACK {last}"), "OK");
        mirror.undo_move();
    }
    let opponent = free_point(&mirror, &mut rng);
    turn(&mut brain, &mut mirror, opponent);
    assert_eq!(mirror.history()[0].0, first);

    // Next game on the same process: RESTART, then TURN straight away (one stone on the board).
    brain.expect("RESTART", "OK");
    let mut mirror = Board::new(20, 20, Rule::Standard).expect("board");
    turn(&mut brain, &mut mirror, Pos::new(10, 10));
    let opponent = free_point(&mirror, &mut rng);
    turn(&mut brain, &mut mirror, opponent);
    // And TURN right after START.
    brain.expect("START 15", "OK");
    let mut mirror = Board::new(15, 15, Rule::Standard).expect("board");
    turn(&mut brain, &mut mirror, Pos::new(0, 0));
    finish(brain);
}

#[test]
fn gomocupjudge_session() {
    // A fresh process per game; START and the INFO lines are written without waiting for OK.
    let mut brain = Brain::spawn_crlf();
    brain.send_all(&[
        "START 15",
        "INFO timeout_turn 300",
        "INFO timeout_match 180000",
        "INFO max_memory 367001600",
        "INFO game_type 3",
        "INFO rule 1",
        "INFO folder /home/judge/persistent folder/with spaces",
        "INFO max_depth 2",
    ]);
    assert_eq!(brain.recv(), "OK");
    brain.assert_silent();
    // GJ never sends BEGIN: the first player gets an empty BOARD.
    let mut mirror = Board::new(15, 15, Rule::Standard).expect("board");
    brain.send_all(&["INFO time_left 180000", "BOARD", "DONE"]);
    engine_moves(&brain, &mut mirror);
    let mut rng = StdRng::seed_from_u64(2);
    for left in [176500, 170000] {
        brain.send(&format!("INFO time_left {left}"));
        let opponent = free_point(&mirror, &mut rng);
        turn(&mut brain, &mut mirror, opponent);
    }
    finish(brain);

    // The second player's first move: BOARD with the stones so far, 1 = own, 2 = opponent.
    let mut brain = Brain::spawn_crlf();
    brain.send_all(&["START 15", "INFO rule 1", "INFO max_depth 2"]);
    assert_eq!(brain.recv(), "OK");
    brain.send_all(&[
        "INFO time_left 180000",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "9,7,2",
        "DONE",
    ]);
    let mut mirror = Board::new(15, 15, Rule::Standard).expect("board");
    for (x, y) in [(7, 7), (8, 8), (9, 7)] {
        mirror.make_move(Pos::new(x, y));
    }
    assert_eq!(mirror.side_to_move(), Color::White);
    engine_moves(&brain, &mut mirror);
    finish(brain);
}

#[test]
fn c_gomoku_cli_session() {
    let mut brain = Brain::spawn();
    // ABOUT comes first, and the first line printed is taken as its answer.
    brain.expect("ABOUT", &about_line());
    assert!(about_line().starts_with(&format!(
        "name=\"wuzi\", version=\"{}\"",
        env!("CARGO_PKG_VERSION")
    )));
    let mut rng = StdRng::seed_from_u64(3);
    // The process is reused: START again for every game, no RESTART.
    for game in 0..2 {
        brain.expect("START 15", "OK");
        brain.send_all(&[
            "INFO rule 0",
            "INFO timeout_turn 300",
            "INFO timeout_match 60000",
            "INFO max_depth 2",
            "INFO max_node 100000",
            "INFO max_memory 367001600",
            "INFO thread_num 1",
            "INFO strength 100",
        ]);
        let mut mirror = Board::new(15, 15, Rule::Freestyle).expect("board");
        brain.send("INFO time_left 60000");
        if game == 0 {
            brain.send("BEGIN");
        } else {
            brain.send_all(&["BOARD", "7,7,2", "DONE"]);
            mirror.make_move(Pos::new(7, 7));
        }
        engine_moves(&brain, &mut mirror);
        for _ in 0..2 {
            brain.send("INFO time_left 55000");
            let opponent = free_point(&mirror, &mut rng);
            turn(&mut brain, &mut mirror, opponent);
        }
        // YXSTOP on an overrun: exactly one move still comes.
        let opponent = free_point(&mirror, &mut rng);
        play_checked(&mut mirror, opponent);
        brain.send_all(&[&format!("TURN {opponent}"), "YXSTOP"]);
        engine_moves(&brain, &mut mirror);
        brain.assert_silent();
    }
    // YXSTOP while idle is ignored.
    brain.send("YXSTOP");
    brain.assert_silent();
    finish(brain);
}

/// Sets up a known renju position (black to move, with forbidden points) through YXBOARD and
/// returns the mirror.
fn known_position(brain: &mut Brain) -> Board {
    brain.expect("START 15", "OK");
    brain.send("INFO rule 4");
    let stones = [
        (5, 7, 1),
        (0, 0, 2),
        (6, 7, 1),
        (14, 14, 2),
        (7, 5, 1),
        (0, 14, 2),
        (7, 6, 1),
        (14, 0, 2),
    ];
    let mut mirror = Board::new(15, 15, Rule::Renju).expect("board");
    brain.send("YXBOARD");
    for (x, y, owner) in stones {
        brain.send(&format!("{x},{y},{owner}"));
        let color = if owner == 1 {
            Color::Black
        } else {
            Color::White
        };
        mirror.place(Pos::new(x, y), color);
    }
    brain.send("DONE");
    mirror.set_side_to_move(Color::Black);
    assert!(mirror.forbidden_points().contains(&Pos::new(7, 7)));
    // YXBOARD answers nothing.
    brain.assert_silent();
    mirror
}

/// Proves the engine still holds the known position: its forbidden points, its last stone
/// and the side to move.
fn assert_known(brain: &mut Brain, mirror: &Board) {
    brain.expect("YXSHOWFORBID", &forbid_line(mirror));
    brain.expect("TAKEBACK 14,0", "OK");
    // White to move now: no forbidden points.
    brain.expect("YXSHOWFORBID", "FORBID .");
    brain.expect("PLAY 14,0", "14,0");
    brain.expect("YXSHOWFORBID", &forbid_line(mirror));
}

#[test]
fn bad_input_is_answered_once_and_changes_nothing() {
    let mut brain = Brain::spawn_crlf();
    let mirror = known_position(&mut brain);
    assert_known(&mut brain, &mirror);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["FOO"], "UNKNOWN command \"FOO\""),
        (vec!["yxbalanceone 3"], "UNKNOWN command \"YXBALANCEONE\""),
        (vec!["TURN 7"], "ERROR TURN needs x,y, got \"7\""),
        (vec!["TURN a,b"], "ERROR TURN needs x,y, got \"a,b\""),
        (vec!["TURN"], "ERROR TURN needs x,y"),
        (vec!["TURN 15,3"], "ERROR TURN: 15,3 is off the 15x15 board"),
        (vec!["TURN -1,3"], "ERROR TURN: -1,3 is off the 15x15 board"),
        (vec!["TURN 5,7"], "ERROR TURN: 5,7 is not a free point"),
        (vec!["PLAY 14,14"], "ERROR PLAY: 14,14 is not a free point"),
        (vec!["PLAY 3,99"], "ERROR PLAY: 3,99 is off the 15x15 board"),
        (
            vec!["TAKEBACK 7,6"],
            "ERROR TAKEBACK: 7,6 is not the last stone (that is 14,0)",
        ),
        (
            vec!["TAKEBACK 3,3"],
            "ERROR TAKEBACK: 3,3 is not the last stone (that is 14,0)",
        ),
        (
            vec!["BOARD", "1,1,1", "2,2", "3,3,2", "DONE"],
            "ERROR BOARD: malformed stone line \"2,2\"",
        ),
        (
            vec!["BOARD", "1,1,1", "", "1,1,2", "x", "DONE"],
            "ERROR BOARD: stone 1,1 given twice",
        ),
        (
            vec!["BOARD", "16,1,1", "DONE"],
            "ERROR BOARD: stone 16,1 is off the 15x15 board",
        ),
        (
            vec!["BOARD", "30,1,1", "DONE"],
            "ERROR BOARD: stone 30,1 is off the board",
        ),
        (
            vec!["BOARD", "1,1,7", "done"],
            "ERROR BOARD: malformed stone line \"1,1,7\"",
        ),
        (
            vec!["YXBOARD", "1,1,1", "1,1,1", "DONE"],
            "ERROR YXBOARD: stone 1,1 given twice",
        ),
        (
            vec!["SWAP2BOARD", "7,7", "8,8", "DONE"],
            "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got 2",
        ),
        (
            vec!["DONE"],
            "ERROR DONE without BOARD, YXBOARD, SWAP2BOARD, YXBLOCK or YXBLOCKUNDO",
        ),
        (
            vec!["START 4"],
            "ERROR unsupported board size 4 (each side must be 5..22)",
        ),
        (
            vec!["START 23"],
            "ERROR unsupported board size 23 (each side must be 5..22)",
        ),
        (
            vec!["START fifteen"],
            "ERROR START needs a board size, got \"fifteen\"",
        ),
        (
            vec!["RECTSTART 4,10"],
            "ERROR unsupported board size 4 (each side must be 5..22)",
        ),
        (
            vec!["RECTSTART 10"],
            "ERROR RECTSTART needs width,height, got \"10\"",
        ),
        (
            vec!["YXNBEST 0"],
            "ERROR YXNBEST needs a count of at least 1, got \"0\"",
        ),
    ];
    for (lines, expected) in cases {
        brain.send_all(&lines);
        assert_eq!(brain.recv(), expected, "reply to {lines:?}");
        brain.assert_silent();
        assert_known(&mut brain, &mirror);
    }

    // A block interrupted by a command: one error for the block, then the command's reply.
    brain.send_all(&["BOARD", "1,1,1", "ABOUT"]);
    assert_eq!(
        brain.recv(),
        "ERROR BOARD block interrupted before DONE; position unchanged"
    );
    assert_eq!(brain.recv(), about_line());
    assert_known(&mut brain, &mirror);

    // A line far beyond the cap, and bytes that are not UTF-8 (read as U+FFFD).
    let mut huge = vec![b'7'; 1 << 20];
    huge.extend_from_slice(b"\r\n");
    brain.send_raw(&huge);
    assert_eq!(brain.recv(), "ERROR line too long; ignored");
    brain.send_raw(b"TURN \xff\xfe1,1\r\n");
    let reply = brain.recv();
    assert!(reply.starts_with("ERROR TURN needs x,y"), "{reply}");
    assert_known(&mut brain, &mirror);
    // An INFO is never answered: not with a path in a Windows code page (Piskvork sends the
    // folder in ANSI), not when too long, not inside a block, which goes on.
    brain.send_raw(b"INFO folder C:\\Users\\Jos\xe9\\AI\r\n");
    let mut long_info = b"INFO folder ".to_vec();
    long_info.resize(1 << 17, b'a');
    long_info.extend_from_slice(b"\r\n");
    brain.send_raw(&long_info);
    assert_known(&mut brain, &mirror);

    // A bad INFO is never answered; its complaint comes with the next move.
    brain.send_all(&[
        "INFO timeout_turn soon",
        "INFO rule 3",
        "INFO unknown_key 5",
    ]);
    brain.assert_silent();
    assert_known(&mut brain, &mirror);
    brain.send_all(&FAST);
    brain.send("YXNBEST 2");
    let (messages, best) = messages_and_move(&brain);
    assert_ne!(best, Pos::new(7, 7), "a forbidden point");
    assert!(
        messages
            .iter()
            .any(|m| m == "INFO timeout_turn: unusable value \"soon\"; ignored"),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m
                == "INFO rule 3 is not supported (0, 1, 2 = renju, 4, 8, 9); keeping renju (4)"),
        "{messages:?}"
    );
    // YXNBEST is analysis: the position is unchanged, still under renju.
    assert_known(&mut brain, &mirror);
    finish(brain);
}

/// The `MESSAGE` lines before the next reply, and the reply.
fn messages_and_reply(brain: &Brain) -> (Vec<String>, String) {
    let mut messages = Vec::new();
    loop {
        let line = brain.recv();
        match line.strip_prefix("MESSAGE ") {
            Some(text) => messages.push(text.to_string()),
            None => return (messages, line),
        }
    }
}

/// Reads MESSAGE lines up to the move; returns the message texts and the move.
fn messages_and_move(brain: &Brain) -> (Vec<String>, Pos) {
    let (messages, line) = messages_and_reply(brain);
    let pos = parse_move(&line).unwrap_or_else(|| panic!("expected a move: {line:?}"));
    (messages, pos)
}

/// The depth of the last `depth N ...` search report among `messages`.
fn deepest(messages: &[String]) -> Option<u32> {
    messages
        .iter()
        .rev()
        .find_map(|m| m.strip_prefix("depth ")?.split(' ').next()?.parse().ok())
}

#[test]
fn info_complaints_come_once_with_the_next_move_and_are_capped() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send_all(&FAST);
    for i in 0..40 {
        brain.send(&format!("INFO max_depth deep{i}"));
    }
    brain.assert_silent();
    let mut mirror = Board::new(15, 15, Rule::Freestyle).expect("board");
    brain.send("BEGIN");
    let (messages, pos) = messages_and_move(&brain);
    play_checked(&mut mirror, pos);
    let complaints: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("INFO max_depth"))
        .collect();
    // At most 16 are kept, in order, and the rest are counted.
    assert_eq!(complaints.len(), 16, "{messages:?}");
    assert_eq!(
        complaints[0],
        "INFO max_depth: unusable value \"deep0\"; ignored"
    );
    assert_eq!(
        messages.last().map(String::as_str),
        Some("24 more INFO problems not shown")
    );
    // Printed once: the next move comes without them.
    let opponent = free_point(&mirror, &mut StdRng::seed_from_u64(4));
    play_checked(&mut mirror, opponent);
    brain.send(&format!("TURN {opponent}"));
    let (messages, pos) = messages_and_move(&brain);
    play_checked(&mut mirror, pos);
    assert!(messages.iter().all(|m| !m.contains("INFO")), "{messages:?}");
    finish(brain);
}

#[test]
fn commands_before_start_are_errors() {
    let mut brain = Brain::spawn();
    let no_game = "ERROR no game: send START first";
    for lines in [
        vec!["BEGIN"],
        vec!["TURN 7,7"],
        vec!["BOARD", "DONE"],
        vec!["BOARD", "7,7,1", "DONE"],
        vec!["YXBOARD", "DONE"],
        vec!["SWAP2BOARD", "DONE"],
        vec!["PLAY 1,1"],
        vec!["TAKEBACK 1,1"],
        vec!["RESTART"],
        vec!["YXSHOWFORBID"],
        vec!["YXNBEST 2"],
    ] {
        brain.send_all(&lines);
        assert_eq!(brain.recv(), no_game, "reply to {lines:?}");
    }
    brain.send("YXHASHCLEAR");
    brain.assert_silent();
    brain.expect("ABOUT", &about_line());
    brain.expect("START 15", "OK");
    brain.send_all(&FAST);
    brain.send("BEGIN");
    let mut mirror = Board::new(15, 15, Rule::Freestyle).expect("board");
    engine_moves(&brain, &mut mirror);
    finish(brain);
}

#[test]
fn rectangular_boards() {
    let mut brain = Brain::spawn();
    brain.expect("RECTSTART 20,15", "OK");
    brain.send_all(&FAST);
    let mut mirror = Board::new(20, 15, Rule::Freestyle).expect("board");
    turn(&mut brain, &mut mirror, Pos::new(19, 14));
    brain.expect("TURN 14,19", "ERROR TURN: 14,19 is off the 20x15 board");
    // RESTART keeps the size.
    brain.expect("RESTART", "OK");
    brain.expect("TURN 19,15", "ERROR TURN: 19,15 is off the 20x15 board");
    let mut mirror = Board::new(20, 15, Rule::Freestyle).expect("board");
    turn(&mut brain, &mut mirror, Pos::new(19, 0));
    finish(brain);
}

/// A renju position given as a block is taken as set up: a black stone that would have been
/// a foul had it landed after the others (as in this order) does not end the game, since
/// puzzles and edited positions list their stones in any order. A foul played as a move does.
#[test]
fn set_up_positions_are_not_refereed_for_fouls() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send("INFO rule 4");
    brain.send("INFO timeout_turn 1000");
    // The public renju problem lfz084/入门-四追い/111, black to move and win by VCF, its
    // stones listed black first, alternating: black's 7,8 was a double three when it landed
    // in this order.
    let rec = records("vcf_public.jsonl")
        .into_iter()
        .find(|r| r["id"] == "lfz084/入门-四追い/111")
        .expect("the problem");
    brain.send("BOARD");
    for line in block_lines(&rec) {
        brain.send(&line);
    }
    brain.send("DONE");
    let winning: Vec<Pos> = rec["helper_vcf_first_moves_xy"]
        .as_array()
        .expect("winning moves")
        .iter()
        .map(xy)
        .collect();
    let answer = brain.recv_move();
    assert!(
        winning.contains(&answer),
        "{answer} is not a winning first move"
    );

    // Played as a move, a foul still ends the game: the engine is white, and black's TURN
    // at 7,7 makes two open threes.
    brain.expect("RESTART", "OK");
    brain.send_all(&[
        "INFO timeout_turn 200",
        "YXBOARD",
        "5,7,2",
        "0,0,1",
        "6,7,2",
        "0,3,1",
        "7,5,2",
        "0,6,1",
        "7,6,2",
        "0,9,1",
        "14,0,2",
        "DONE",
    ]);
    brain.expect("PLAY 14,14", "14,14");
    brain.expect("YXSHOWFORBID", "FORBID 0707.");
    brain.expect(
        "TURN 7,7",
        "ERROR game over: 7,7 is a forbidden move for black",
    );
    finish(brain);
}

/// A block whose colours do not alternate (a composed position) makes the receiver black
/// when it has more stones: here black to move with five stones against four, which parity
/// alone would read as white to move (and so without fouls).
#[test]
fn set_up_positions_take_their_colours_from_counts() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send_all(&["INFO rule 4", "INFO timeout_turn 200"]);
    let block = [
        "5,7,1", "0,0,2", "6,7,1", "0,3,2", "7,5,1", "0,6,2", "7,6,1", "0,9,2", "14,0,1", "DONE",
    ];
    brain.send("YXBOARD");
    brain.send_all(&block);
    brain.expect("YXSHOWFORBID", "FORBID 0707.");
    brain.send("BOARD");
    brain.send_all(&block);
    assert_ne!(brain.recv_move(), Pos::new(7, 7), "a forbidden point");
    finish(brain);
}

#[test]
fn finished_games_are_refused() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send_all(&FAST);
    // White has four in a row; black (the receiver) to move.
    brain.send_all(&[
        "YXBOARD", "0,14,1", "5,5,2", "2,14,1", "6,5,2", "4,14,1", "7,5,2", "6,14,1", "8,5,2",
        "DONE",
    ]);
    brain.expect("PLAY 14,14", "14,14");
    brain.expect("TURN 9,5", "ERROR game over: white wins with 9,5");
    // Nothing was placed: the last stone is still black's.
    brain.expect("TAKEBACK 14,14", "OK");
    brain.expect("PLAY 14,14", "14,14");
    brain.expect("TURN 4,5", "ERROR game over: white wins with 4,5");
    // A BOARD that already holds a five asks for a move in a finished game. The receiver has
    // the extra stone, so it is black (see `set_up_positions_take_their_colours_from_counts`).
    brain.send_all(&[
        "BOARD", "0,0,1", "5,5,2", "1,0,1", "6,5,2", "2,0,1", "7,5,2", "3,0,1", "8,5,2", "4,0,1",
        "DONE",
    ]);
    assert_eq!(
        brain.recv(),
        "ERROR game over: black won with the stone at 4,0"
    );
    brain.expect("TAKEBACK 14,14", "OK");

    // A full board: 5x5 with one free point left; the engine takes it, then nothing is left.
    brain.expect("START 5", "OK");
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOO."];
    let mut block = vec!["BOARD".to_string()];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            // 24 stones: the receiver is black (X).
            match c {
                'X' => block.push(format!("{x},{y},1")),
                'O' => block.push(format!("{x},{y},2")),
                _ => {}
            }
        }
    }
    block.push("DONE".into());
    let block: Vec<&str> = block.iter().map(String::as_str).collect();
    brain.send_all(&block);
    assert_eq!(brain.recv_reply(), "4,4");
    brain.expect("TURN 0,0", "ERROR game over: the board is full");
    brain.expect("BEGIN", "ERROR game over: the board is full");
    // Two free points: the engine (white, 23 stones) takes one, the last TURN fills the board.
    let mut block = vec!["BOARD".to_string()];
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXO.."];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'X' => block.push(format!("{x},{y},2")),
                'O' => block.push(format!("{x},{y},1")),
                _ => {}
            }
        }
    }
    block.push("DONE".into());
    let block: Vec<&str> = block.iter().map(String::as_str).collect();
    brain.send_all(&block);
    let own = brain.recv_move();
    assert!(own == Pos::new(3, 4) || own == Pos::new(4, 4), "{own}");
    let last = if own == Pos::new(3, 4) { "4,4" } else { "3,4" };
    brain.expect(
        &format!("TURN {last}"),
        &format!("ERROR game over: {last} fills the board"),
    );
    brain.expect(&format!("TAKEBACK {own}"), "OK");
    finish(brain);
}

#[test]
fn yixin_extensions() {
    let mut brain = Brain::spawn();
    let mirror = known_position(&mut brain);
    brain.send("YXHASHCLEAR");
    brain.assert_silent();
    brain.send_all(&FAST);
    brain.send("YXNBEST 3");
    let (messages, best) = messages_and_move(&brain);
    // The candidates are reported as MESSAGE lines, the move played among them.
    assert!(
        messages.iter().any(|m| m.contains(&best.to_string())),
        "{messages:?}"
    );
    assert!(mirror.check_move(best) == MoveCheck::Ordinary, "{best}");
    assert_known(&mut brain, &mirror);
    finish(brain);
}

#[test]
fn yxblock_keeps_the_engine_off_blocked_points() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send_all(&FAST);
    // The receiver's open four on row 7 (3..=6): five at 2,7 or 7,7.
    let position = [
        "YXBOARD", "3,7,1", "4,7,1", "5,7,1", "6,7,1", "0,0,2", "14,0,2", "0,14,2", "14,14,2",
        "DONE",
    ];
    let fives = [Pos::new(2, 7), Pos::new(7, 7)];
    let best = |brain: &mut Brain| {
        brain.send_all(&position);
        brain.send("YXNBEST 1");
        messages_and_move(brain).1
    };
    assert!(fives.contains(&best(&mut brain)));
    brain.send_all(&["YXBLOCK", "7,7", "DONE"]);
    brain.assert_silent();
    assert_eq!(best(&mut brain), Pos::new(2, 7));
    brain.send_all(&["YXBLOCK", "2,7", "7,7", "DONE"]);
    let elsewhere = best(&mut brain);
    assert!(!fives.contains(&elsewhere), "{elsewhere}");
    // BOARD and YXNBEST's other candidates keep off them too.
    brain.send("YXNBEST 3");
    let (messages, _) = messages_and_move(&brain);
    let reported: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("nbest "))
        .collect();
    assert!(!reported.is_empty(), "{messages:?}");
    for m in &reported {
        assert!(
            !m.contains(" move 2,7 ") && !m.contains(" move 7,7 "),
            "{m}"
        );
    }
    brain.send("BOARD");
    brain.send_all(&position[1..]);
    let (_, played) = messages_and_move(&brain);
    assert!(!fives.contains(&played), "{played}");
    // Off the board: an error, and the list is unchanged.
    brain.send_all(&["YXBLOCKUNDO", "7,7", "15,3", "DONE"]);
    assert_eq!(
        brain.recv(),
        "ERROR YXBLOCKUNDO: 15,3 is off the 15x15 board; blocked points unchanged"
    );
    assert!(!fives.contains(&best(&mut brain)));
    brain.send_all(&["YXBLOCKUNDO", "7,7", "9,9", "DONE"]);
    assert_eq!(best(&mut brain), Pos::new(7, 7));
    brain.send("YXBLOCKRESET");
    brain.assert_silent();
    assert!(fives.contains(&best(&mut brain)));
    // A new game forgets the blocks.
    brain.send_all(&["YXBLOCK", "2,7", "7,7", "DONE"]);
    brain.expect("RESTART", "OK");
    assert!(fives.contains(&best(&mut brain)));
    finish(brain);
}

#[test]
fn swap2_answers() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send_all(&["INFO rule 1", "INFO timeout_turn 200", "INFO max_depth 2"]);
    // Zero stones: three distinct free points, black-white-black.
    brain.send_all(&["INFO time_left 100000", "SWAP2BOARD", "DONE"]);
    let reply = brain.recv_reply();
    let moves: Vec<Pos> = reply
        .split(' ')
        .map(|m| parse_move(m).unwrap_or_else(|| panic!("{reply:?}")))
        .collect();
    assert_eq!(moves.len(), 3, "{reply:?}");
    let mut mirror = Board::new(15, 15, Rule::Standard).expect("board");
    for &m in &moves {
        assert_eq!(mirror.check_move(m), MoveCheck::Ordinary, "{reply:?}");
        mirror.make_move(m);
    }

    // Three stones (bare x,y and x,y,f lines): SWAP, one move or two.
    brain.send_all(&["SWAP2BOARD", "7,7", "8,7,2", "7,9", "DONE"]);
    let reply = brain.recv_reply();
    let mut mirror = Board::new(15, 15, Rule::Standard).expect("board");
    for (x, y) in [(7, 7), (8, 7), (7, 9)] {
        mirror.make_move(Pos::new(x, y));
    }
    if reply != "SWAP" {
        let moves: Vec<&str> = reply.split(' ').collect();
        assert!(moves.len() <= 2, "{reply:?}");
        for m in moves {
            let pos = parse_move(m).unwrap_or_else(|| panic!("{reply:?}"));
            play_checked(&mut mirror, pos);
        }
    }

    // Five stones: SWAP or one move.
    brain.send_all(&["SWAP2BOARD", "7,7", "8,7", "7,9", "9,9", "6,6", "DONE"]);
    let reply = brain.recv_reply();
    if reply != "SWAP" {
        let pos = parse_move(&reply).unwrap_or_else(|| panic!("{reply:?}"));
        let mut mirror = Board::new(15, 15, Rule::Standard).expect("board");
        for (x, y) in [(7, 7), (8, 7), (7, 9), (9, 9), (6, 6)] {
            mirror.make_move(Pos::new(x, y));
        }
        play_checked(&mut mirror, pos);
    }
    brain.assert_silent();
    finish(brain);
}

#[test]
fn yxnbest_shares_the_turn_instead_of_searching_untimed() {
    let mut brain = Brain::spawn();
    // YXNBEST with more moves than the turn has milliseconds: a slice of zero is not "no
    // limit" (each search would go to the default depth); the searches stop when the turn's
    // time is up, so fewer moves come.
    brain.expect("START 15", "OK");
    brain.send_all(&["INFO timeout_turn 100", "BEGIN"]);
    brain.recv_move();
    brain.send("YXNBEST 200");
    let (messages, reply) = messages_and_reply(&brain);
    let found = messages.iter().filter(|m| m.starts_with("nbest ")).count();
    assert!((1..200).contains(&found), "{found} moves: {messages:?}");
    assert!(parse_move(&reply).is_some(), "{reply}");
    finish(brain);
}

/// Starts a game whose next search would run long on `threads` search threads, and sends
/// the move command.
fn start_long_search(brain: &mut Brain, threads: usize) {
    brain.expect("START 20", "OK");
    brain.send(&format!("INFO thread_num {threads}"));
    brain.send_all(&[
        "INFO timeout_turn 60000",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
    ]);
    brain.send_all(&["BOARD", "10,10,2", "11,11,1", "9,11,2", "DONE"]);
}

/// At most one line may have been printed before END/EOF was read, and only a move.
fn assert_at_most_a_move(lines: &[String]) {
    assert!(lines.len() <= 1, "{lines:?}");
    for line in lines {
        assert!(parse_move(line).is_some(), "{lines:?}");
    }
}

/// The replies among printed lines: the search's `MESSAGE` lines left out (a release build may
/// finish a few depths before END or end of input is read).
fn replies(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect()
}

#[test]
fn end_during_search_exits_at_once() {
    for threads in [1, 2] {
        let mut brain = Brain::spawn();
        start_long_search(&mut brain, threads);
        std::thread::sleep(Duration::from_millis(20));
        let lines = replies(quit(
            brain,
            &format!("END during search ({threads} threads)"),
            |b| b.send("END"),
        ));
        assert_at_most_a_move(&lines);
    }
}

/// Ends the engine's input with `how` (END, or closing stdin) and checks that it exits
/// cleanly within a second, with nothing on stderr; returns every line it printed meanwhile.
fn quit(mut brain: Brain, what: &str, how: impl FnOnce(&mut Brain)) -> Vec<String> {
    how(&mut brain);
    let started = Instant::now();
    let status = brain.wait_exit(Duration::from_secs(5));
    let took = started.elapsed();
    println!("{what}: exited after {took:?}");
    assert!(status.success());
    assert!(took < Duration::from_secs(1), "{what}: took {took:?}");
    assert!(brain.stderr_text().is_empty(), "{}", brain.stderr_text());
    brain.remaining_lines()
}

/// [`quit`] by closing stdin, `MESSAGE` lines left out of what it returns.
fn close_input(brain: Brain, what: &str) -> Vec<String> {
    replies(quit(brain, what, Brain::close_stdin))
}

#[test]
fn end_of_input_during_search_exits_at_once() {
    for threads in [1, 2] {
        let mut brain = Brain::spawn();
        start_long_search(&mut brain, threads);
        std::thread::sleep(Duration::from_millis(20));
        let lines = close_input(brain, &format!("EOF during search ({threads} threads)"));
        // The search was stopped, not dropped: its move still comes out.
        assert_eq!(lines.len(), 1, "{lines:?}");
        let reply = parse_move(&lines[0]).unwrap_or_else(|| panic!("{lines:?}"));
        let mut mirror = Board::new(20, 20, Rule::Freestyle).expect("board");
        for (x, y) in [(10, 10), (11, 11), (9, 11)] {
            mirror.make_move(Pos::new(x, y));
        }
        play_checked(&mut mirror, reply);
    }
}

/// A session piped in whole (`pbrain-wuzi < session.txt`): end of input comes before the
/// engine has read most of it, yet every command gets its reply, in order, and the process
/// ends at once. The searches are stopped as soon as they start, so each move is only checked
/// for legality.
#[test]
fn piped_session_is_answered_before_exit() {
    let mut brain = Brain::spawn();
    brain.send_all(&[
        "ABOUT",
        "INFO timeout_turn 60000",
        "START 15",
        "BEGIN",
        "FOO",
        "START 15",
        "BOARD",
        "7,7,1",
        "8,8,2",
        "DONE",
        "RECTSTART 12,9",
        "TURN 5,5",
        "START 23",
    ]);
    let lines = close_input(brain, "piped session");
    assert_eq!(lines.len(), 9, "{lines:?}");
    assert_eq!(lines[0], about_line());
    assert_eq!(lines[1], "OK");
    let mut mirror = Board::new(15, 15, Rule::Freestyle).expect("board");
    play_checked(&mut mirror, parse_move(&lines[2]).expect("BEGIN's move"));
    assert!(lines[3].starts_with("UNKNOWN"), "{lines:?}");
    assert_eq!(lines[4], "OK");
    let mut mirror = Board::new(15, 15, Rule::Freestyle).expect("board");
    mirror.make_move(Pos::new(7, 7));
    mirror.make_move(Pos::new(8, 8));
    play_checked(&mut mirror, parse_move(&lines[5]).expect("BOARD's move"));
    assert_eq!(lines[6], "OK");
    let mut mirror = Board::new(12, 9, Rule::Freestyle).expect("board");
    play_checked(&mut mirror, Pos::new(5, 5));
    play_checked(&mut mirror, parse_move(&lines[7]).expect("TURN's move"));
    assert!(lines[8].starts_with("ERROR"), "{lines:?}");
}

#[test]
fn stop_during_search_yields_one_move() {
    for (stop, threads) in [
        ("STOP", 1),
        ("YXSTOP", 1),
        ("INFO timeout_turn 0", 1),
        ("YXSTOP", 2),
    ] {
        let mut brain = Brain::spawn();
        start_long_search(&mut brain, threads);
        std::thread::sleep(Duration::from_millis(20));
        let started = Instant::now();
        brain.send(stop);
        let reply = brain.recv_reply();
        println!(
            "{stop} during search ({threads} threads): move after {:?}",
            started.elapsed()
        );
        let pos = parse_move(&reply).unwrap_or_else(|| panic!("{stop}: {reply:?}"));
        let mut mirror = Board::new(20, 20, Rule::Freestyle).expect("board");
        for (x, y) in [(10, 10), (11, 11), (9, 11)] {
            mirror.make_move(Pos::new(x, y));
        }
        play_checked(&mut mirror, pos);
        brain.assert_silent();
        // The engine is idle again and answers the next command.
        brain.expect("ABOUT", &about_line());
        finish(brain);
    }
}

#[test]
fn a_stop_reaches_the_search_before_it_and_no_later_one() {
    let mut brain = Brain::spawn();
    start_long_search(&mut brain, 1);
    std::thread::sleep(Duration::from_millis(20));
    // In one write, so the reader takes the TURN before the running search looks at its flag:
    // that search still answers now, and the TURN gets a whole search of its own.
    brain.send_all(&["YXSTOP", "INFO max_depth 3", "TURN 0,0"]);
    let first = brain.recv_reply();
    assert!(parse_move(&first).is_some(), "{first:?}");
    let (messages, _) = messages_and_move(&brain);
    assert_eq!(deepest(&messages), Some(3), "cut short: {messages:?}");
    // Idle, a STOP reaches nothing: the next search is whole too (a quiet position, where no
    // threat ends the search early).
    brain.send_all(&["YXSTOP", "BOARD", "10,10,2", "DONE"]);
    let (messages, _) = messages_and_move(&brain);
    assert_eq!(deepest(&messages), Some(3), "cut short: {messages:?}");
    finish(brain);
}

#[test]
fn info_inside_a_block_is_taken_and_the_block_goes_on() {
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send_all(&[
        "INFO max_depth 2",
        "BOARD",
        "7,7,1",
        "INFO time_left 90000",
        "8,8,2",
        "DONE",
    ]);
    let reply = brain.recv_move();
    assert!(![Pos::new(7, 7), Pos::new(8, 8)].contains(&reply));
    // Both stones were kept.
    for stone in ["7,7", "8,8"] {
        brain.send(&format!("TURN {stone}"));
        let line = brain.recv();
        assert!(line.starts_with("ERROR"), "{stone}: {line}");
    }
    finish(brain);
}

/// One line of junk for the flood: random bytes, truncated or mangled commands, valid
/// commands with random arguments. Never END (it would end the process).
fn junk_line(rng: &mut StdRng) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "YXBOARD",
        "SWAP2BOARD",
        "DONE",
        "PLAY",
        "TAKEBACK",
        "INFO",
        "ABOUT",
        "STOP",
        "YXSTOP",
        "YXSHOWFORBID",
        "YXHASHCLEAR",
        "YXNBEST",
        "YXBLOCK",
        "YXBLOCKUNDO",
        "YXBLOCKRESET",
        "SUGGEST",
        "INFO rule",
        "INFO thread_num",
        "INFO folder",
        "INFO max_memory",
        "INFO game_type",
        "INFO hash_size",
    ];
    let number = |rng: &mut StdRng| -> String {
        match rng.gen_range(0..6) {
            0 => rng.gen_range(-3..30).to_string(),
            1 => "99999999999999999999999".to_string(),
            2 => String::new(),
            3 => "-".to_string(),
            _ => rng.gen_range(0..20).to_string(),
        }
    };
    let line = match rng.gen_range(0..10) {
        0 => {
            let len = rng.gen_range(0..40);
            return (0..len)
                .map(|_| rng.gen::<u8>())
                .filter(|&b| b != b'\n')
                .collect();
        }
        1 => {
            let word = WORDS[rng.gen_range(0..WORDS.len())];
            word[..rng.gen_range(0..=word.len())].to_lowercase()
        }
        2 | 3 => {
            let (a, b, c) = (number(rng), number(rng), number(rng));
            match rng.gen_range(0..3) {
                0 => format!("{a},{b}"),
                1 => format!("{a},{b},{c}"),
                _ => format!("{a} , {b},,{c}"),
            }
        }
        _ => {
            let word = WORDS[rng.gen_range(0..WORDS.len())];
            let (a, b) = (number(rng), number(rng));
            match rng.gen_range(0..4) {
                0 => word.to_string(),
                1 => format!("{word} {a}"),
                2 => format!("{word} {a},{b}"),
                _ => format!("  {word}\t{a},{b} x"),
            }
        }
    };
    let first = line.split_whitespace().next().unwrap_or("");
    if first.eq_ignore_ascii_case("END") {
        return b"ABOUT".to_vec();
    }
    line.into_bytes()
}

/// True for a line a manager could receive from this engine.
fn is_protocol_line(line: &str) -> bool {
    line == "OK"
        || line == "SWAP"
        || line.starts_with("ERROR ")
        || line.starts_with("UNKNOWN ")
        || line.starts_with("MESSAGE ")
        || (line.starts_with("FORBID ") && line.ends_with('.'))
        || line == about_line()
        || line.split(' ').all(|m| parse_move(m).is_some())
}

#[test]
fn junk_flood_leaves_the_engine_alive() {
    let mut rng = StdRng::seed_from_u64(0x5EED);
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    // Keep any search the junk triggers short.
    brain.send_all(&[
        "INFO timeout_turn 20",
        "INFO max_depth 1",
        "INFO max_node 2000",
    ]);
    let mut flood = Vec::new();
    for _ in 0..3000 {
        flood.extend(junk_line(&mut rng));
        flood.extend_from_slice(if rng.gen_bool(0.5) { b"\r\n" } else { b"\n" });
    }
    brain.send_raw(&flood);
    // A marker whose reply cannot come from the flood: once it arrives, all junk is answered.
    brain.send("FLOOD-MARKER");
    let marker = "UNKNOWN command \"FLOOD-MARKER\"";
    let deadline = Instant::now() + REPLY * 2;
    let mut replies = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = brain
            .recv_within(left)
            .expect("the engine stopped answering during the flood");
        if line == marker {
            break;
        }
        assert!(is_protocol_line(&line), "not a protocol line: {line:?}");
        replies += 1;
    }
    println!("junk flood: {replies} reply lines");
    assert!(brain.is_alive());
    brain.expect("ABOUT", &about_line());
    finish(brain);
}
