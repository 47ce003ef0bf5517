//! Renju foul verdicts from three independent public test suites (see tests/data/README.md).

mod common;

use common::data::{block_lines, records, setup, xy};
use std::collections::BTreeSet;

use wuzi::board::MoveCheck;
use wuzi::position::Position;
use wuzi::types::{Color, Pos};

/// The record's complete set of forbidden points (`forbidden_xy`).
fn complete_set(rec: &serde_json::Value) -> BTreeSet<Pos> {
    rec["forbidden_xy"]
        .as_array()
        .unwrap()
        .iter()
        .map(xy)
        .collect()
}

/// Checks every record of a file; returns how many verdicts were compared.
fn check_file(file: &str) -> usize {
    let mut compared = 0;
    let mut failures = Vec::new();
    for rec in records(file) {
        let board = setup(&rec);
        let id = rec["id"].as_str().unwrap_or("?");
        if rec["complete_set"].as_bool() == Some(true) {
            let expected = complete_set(&rec);
            let got: BTreeSet<Pos> = board.forbidden_points().into_iter().collect();
            if expected != got {
                failures.push(format!("{id}: expected {expected:?}, got {got:?}"));
            }
            compared += 1;
        }
        if let Some(checks) = rec["checks"].as_array() {
            for check in checks {
                let color = match check["color"].as_str() {
                    Some("white") => Color::White,
                    _ => Color::Black,
                };
                let mut board = board.clone();
                board.set_side_to_move(color);
                let pos = xy(&check["xy"]);
                let expected = check["forbidden"].as_bool().unwrap();
                if (board.check_move(pos) == MoveCheck::Forbidden) != expected {
                    failures.push(format!("{id}: {pos} forbidden should be {expected}"));
                }
                compared += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{file}:\n{}", failures.join("\n"));
    compared
}

#[test]
fn realcore_complete_forbidden_sets() {
    assert_eq!(check_file("realcore_forbidden.jsonl"), 22);
}

#[test]
fn quintet_forbidden_verdicts() {
    assert!(check_file("quintet_forbidden.jsonl") >= 21);
}

#[test]
fn alphagomoku_forbidden_verdicts() {
    assert_eq!(check_file("alphagomoku_renju_forbidden.jsonl"), 59);
}

/// The search asks `Position::is_forbidden`, which runs the full judge only where the threat
/// state says a foul is possible. On every empty point of every test board that pre-test
/// must let each real foul through: the two verdicts agree everywhere.
#[test]
fn search_position_agrees_with_the_board_judge() {
    let mut fouls = 0;
    for file in [
        "realcore_forbidden.jsonl",
        "quintet_forbidden.jsonl",
        "alphagomoku_renju_forbidden.jsonl",
    ] {
        for rec in records(file) {
            let mut board = setup(&rec);
            board.set_side_to_move(Color::Black);
            let pos = Position::new(&board);
            for p in board.empty_cells() {
                let expected = board.is_forbidden(p);
                assert_eq!(
                    pos.is_forbidden(p),
                    expected,
                    "{file} {}: {p}",
                    rec["id"].as_str().unwrap_or("?")
                );
                fouls += expected as usize;
            }
        }
    }
    // The suites are built around fouls: a run that saw none compared nothing useful.
    assert!(fouls >= 50, "only {fouls} fouls seen");
}

/// The same verdicts through the protocol, as a GUI or a grader with only the binary asks for
/// them: each position as a `YXBOARD` block (black's and white's stones alternating, black
/// first, the side to move's as the receiver's own), then `YXSHOWFORBID`, whose points must be
/// the whole set or agree with each of black's checked points. Positions with extra black
/// stones must be read as black to move (see `receiver_color` in src/protocol/run.rs).
#[test]
fn yxshowforbid_gives_every_verdict_through_the_protocol() {
    use common::Brain;
    let mut brain = Brain::spawn();
    let mut compared = 0;
    let mut failures = Vec::new();
    for file in [
        "realcore_forbidden.jsonl",
        "quintet_forbidden.jsonl",
        "alphagomoku_renju_forbidden.jsonl",
    ] {
        for rec in records(file) {
            let id = rec["id"].as_str().unwrap_or("?");
            brain.expect(
                &format!("START {}", rec["size"].as_u64().unwrap_or(15)),
                "OK",
            );
            brain.send("INFO rule 4");
            brain.send("YXBOARD");
            for line in block_lines(&rec) {
                brain.send(&line);
            }
            brain.send("DONE");
            brain.send("YXSHOWFORBID");
            let reply = brain.recv();
            let digits = reply
                .strip_prefix("FORBID ")
                .and_then(|rest| rest.strip_suffix('.'))
                .unwrap_or_else(|| panic!("{id}: {reply:?}"));
            let listed: BTreeSet<Pos> = digits
                .as_bytes()
                .chunks(4)
                .map(|c| {
                    let n = |s: &[u8]| std::str::from_utf8(s).unwrap().parse::<usize>().unwrap();
                    Pos::new(n(&c[..2]), n(&c[2..]))
                })
                .collect();
            if rec["complete_set"].as_bool() == Some(true) {
                let expected = complete_set(&rec);
                if expected != listed {
                    failures.push(format!("{id}: expected {expected:?}, got {listed:?}"));
                }
                compared += 1;
            }
            for check in rec["checks"].as_array().into_iter().flatten() {
                if check["color"].as_str() == Some("white") {
                    continue;
                }
                let pos = xy(&check["xy"]);
                if listed.contains(&pos) != check["forbidden"].as_bool().unwrap() {
                    failures.push(format!("{id}: {pos} listed: {}", listed.contains(&pos)));
                }
                compared += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(compared, 103);
    common::finish(brain);
}

/// Black's and white's stones of a renju position, black to move, in which black's three
/// from (7,6) to (4,5) through (7,2) straightens only at (6,3), where black also makes five
/// on the other diagonal. Piskvork's judge does not count that three, so (7,2) is a four and
/// one three, no foul; counting it would make (7,2) a double three.
fn five_at_the_straightening_point() -> serde_json::Value {
    serde_json::json!({
        "id": "five-at-the-straightening-point",
        "rule": "renju",
        "black_xy": [[4,5],[4,6],[5,4],[5,6],[5,7],[5,9],[5,10],[6,6],[6,8],[6,10],[7,4],[7,5],
            [7,6],[7,9],[8,4],[8,5],[8,7],[9,4],[9,6],[9,7],[10,5],[10,6],[10,7],[10,8]],
        "white_xy": [[4,4],[4,7],[4,8],[4,9],[4,10],[5,5],[5,8],[6,4],[6,5],[6,7],[6,9],[7,7],
            [7,10],[8,6],[8,8],[8,9],[8,10],[9,5],[9,8],[9,9],[9,10],[10,4],[10,9],[10,10]],
    })
}

/// The case through the library: no forbidden point at all, (7,2) playable, and the reason
/// it is disputed in place: (7,2) makes a four, and (6,3) wins for black.
#[test]
fn a_three_that_straightens_only_by_making_five_is_not_a_three() {
    let rec = five_at_the_straightening_point();
    let board = setup(&rec);
    assert_eq!(board.forbidden_points(), Vec::<Pos>::new());
    assert_eq!(board.check_move(Pos::new(7, 2)), MoveCheck::Ordinary);
    assert_eq!(board.check_move(Pos::new(6, 3)), MoveCheck::Win);
    assert!(!Position::new(&board).is_forbidden(Pos::new(7, 2)));
}

/// The same case through the protocol: `YXSHOWFORBID` lists no point.
#[test]
fn yxshowforbid_follows_the_gomocup_referee_on_a_five_at_the_straightening_point() {
    use common::Brain;
    let rec = five_at_the_straightening_point();
    let mut brain = Brain::spawn();
    brain.expect("START 15", "OK");
    brain.send("INFO rule 4");
    brain.send("YXBOARD");
    for line in block_lines(&rec) {
        brain.send(&line);
    }
    brain.send("DONE");
    brain.expect("YXSHOWFORBID", "FORBID .");
    common::finish(brain);
}

/// The VCF and VCT solvers follow the judge one level down. Black to move, no four on the
/// board for either side. (6,3) makes an open four on the anti-diagonal and threes on the
/// column and the diagonal; the diagonal straightens at (5,2), a four and one three, since
/// (5,2)'s row would straighten only at (3,2), a double four, or at (7,2), where black makes
/// five. Counting that row as a three made (5,2) a foul and (6,3) a winning four-three;
/// Piskvork's judge makes (6,3) a double three, the only forbidden point, and the solvers'
/// wins must go elsewhere.
#[test]
fn solvers_do_not_play_a_point_the_judge_forbids_one_level_down() {
    use wuzi::search::vcf::VcfSolver;
    use wuzi::search::vct::VctSolver;
    let rec = serde_json::json!({
        "id": "five-at-the-straightening-point-one-level-down",
        "rule": "renju",
        "black_xy": [[4,1],[4,2],[6,2],[5,3],[5,4],[7,4],[4,5],[6,5],[3,6],[4,6],[7,6]],
        "white_xy": [[2,1],[8,3],[3,4],[2,5],[7,5],[9,6],[3,7],[5,7],[8,7],[3,8],[5,8]],
    });
    let board = setup(&rec);
    let foul = Pos::new(6, 3);
    assert_eq!(board.forbidden_points(), vec![foul]);
    let mut pos = Position::new(&board);
    assert!(pos.is_forbidden(foul));
    let line = VcfSolver::new()
        .solve(&mut pos, 100, 1_000_000)
        .expect("black has a VCF");
    assert_ne!(line[0], foul, "VCF {line:?}");
    let mut replay = board.clone();
    for &m in &line {
        assert_ne!(
            replay.check_move(m),
            MoveCheck::Forbidden,
            "VCF {line:?} at {m}"
        );
        replay.make_move(m);
    }
    let first = VctSolver::new()
        .solve(&mut Position::new(&board), 8, 1_000_000)
        .expect("black has a VCT");
    assert_ne!(first, foul);
    assert_ne!(board.check_move(first), MoveCheck::Forbidden);
}
