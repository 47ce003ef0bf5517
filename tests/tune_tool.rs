//! `wuzi-tune` end to end: games played by `wuzi-match` (the engine on a small node budget
//! against the scripted random engine) are extracted into sample files and fitted, and the
//! move ordering is fitted to their moves, through the real binaries.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::files::{temp_dir, test_engine};
use serde_json::Value;
use wuzi::board::pattern::Combo;
use wuzi::board::Board;
use wuzi::position::Position;
use wuzi::tune::samples::{self, Score};
use wuzi::types::{Pos, Rule};

/// Runs `wuzi-tune` with `args`; returns its stdout, failing the test unless it succeeds.
fn tune(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_wuzi-tune"))
        .args(args)
        .output()
        .expect("run wuzi-tune");
    assert!(
        out.status.success(),
        "wuzi-tune {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Plays `games` games of the engine (3,000 nodes a move) against the random engine under `rule`.
fn play(dir: &Path, rule: &str, games: u32) -> PathBuf {
    let random = format!("cmd='{}' random seed=3", test_engine().display());
    play_against(dir, rule, games, &[&random, "name=random"], &[])
}

/// Plays `games` games of the engine (3,000 nodes a move) against `opponent` (its
/// `--engine` items) under `rule`, with `options` of wuzi-match's more; returns the record
/// file.
fn play_against(
    dir: &Path,
    rule: &str,
    games: u32,
    opponent: &[&str],
    options: &[&str],
) -> PathBuf {
    let jsonl = dir.join(format!("games-{rule}.jsonl"));
    let status = Command::new(env!("CARGO_BIN_EXE_wuzi-match"))
        .args([
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_pbrain-wuzi")),
            "name=wuzi",
            "info=max_node=3000",
            "--engine",
        ])
        .args(opponent)
        .args(options)
        .args([
            "--rule",
            rule,
            "--games",
            &games.to_string(),
            "--tc",
            "60000/0",
            "--quiet",
            "--report",
            "0",
            "--jsonl",
            jsonl.to_str().expect("UTF-8 path"),
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run wuzi-match");
    assert!(status.success());
    jsonl
}

/// The positions of a record the evaluation could be asked about, counted here from the
/// record itself: after the opening, neither side with a five to make, the mover without a
/// flexible or double four. With each, the last `depth D score S` message of its ply.
fn expected_positions(record: &Value) -> Vec<(usize, Option<i32>)> {
    let rule = Rule::from_name(record["rule"].as_str().expect("rule")).expect("a rule");
    let board = Board::new(15, 15, rule).expect("board");
    let mut pos = Position::new(&board);
    let point = |v: &Value| {
        let (x, y) = v.as_str().expect("a point").split_once(',').expect("x,y");
        Pos::new(x.parse().expect("x"), y.parse().expect("y"))
    };
    let opening: Vec<Pos> = record["opening"]
        .as_array()
        .expect("opening")
        .iter()
        .map(point)
        .collect();
    let moves: Vec<Pos> = record["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(point)
        .collect();
    let mut out = Vec::new();
    for (i, &p) in opening.iter().chain(&moves).enumerate() {
        let me = pos.side_to_move();
        let op = me.opponent();
        let forced = pos.combo_count(me, Combo::Five) > 0
            || pos.combo_count(op, Combo::Five) > 0
            || pos.combo_count(me, Combo::FlexFour) > 0
            || pos.combo_count(me, Combo::DoubleFour) > 0;
        if i >= opening.len() && !forced {
            let score = record["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .rev()
                .filter(|m| m["ply"].as_u64() == Some(i as u64))
                .find_map(|m| {
                    let text = m["text"].as_str()?;
                    let text = text.strip_prefix("MESSAGE ").unwrap_or(text);
                    let rest = text.strip_prefix("depth ")?;
                    let (_, rest) = rest.split_once(" score ")?;
                    rest.split_whitespace().next()?.parse().ok()
                });
            out.push((i, score));
        }
        pos.make_move(p);
    }
    out
}

#[test]
fn extracts_match_records_and_fits_them_reproducibly() {
    let dir = temp_dir("tune-pipeline");
    let records = [play(&dir, "freestyle", 2), play(&dir, "renju", 2)];
    let out = dir.join("samples");
    let out_arg = out.to_str().expect("UTF-8");

    let mut expected = Vec::new();
    for path in &records {
        let text = std::fs::read_to_string(path).expect("records");
        let games: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(games.len(), 2);
        expected.push(games.iter().map(expected_positions).collect::<Vec<_>>());
    }
    let total: usize = expected.iter().flatten().map(Vec::len).sum();
    assert!(total > 10, "{total} positions");

    let report = tune(&[
        "extract",
        "--out",
        out_arg,
        records[0].to_str().expect("UTF-8"),
    ]);
    let first: usize = expected[0].iter().map(Vec::len).sum();
    assert_eq!(
        report.trim(),
        format!("1 record files read (2 games, {first} positions), 0 already extracted")
    );
    // The whole folder: only the new record file is read.
    let dir_arg = dir.to_str().expect("UTF-8");
    let report = tune(&["extract", "--out", out_arg, dir_arg]);
    assert_eq!(
        report.trim(),
        format!(
            "1 record files read (2 games, {} positions), 1 already extracted",
            total - first
        )
    );

    // The samples hold every expected position in order, with its score.
    let files = samples::load(&out).expect("sample files");
    assert_eq!(files.len(), 2);
    let mut scored = 0;
    for ((_, games), expected) in files.iter().zip(&expected) {
        for (game, positions) in games.iter().zip(expected) {
            let got: Vec<(usize, Option<i32>)> = game
                .samples
                .iter()
                .map(|s| {
                    let score = match s.score {
                        Some(Score::Wuzi(v)) => Some(v),
                        None => None,
                        other => panic!("{other:?}: only wuzi searches here"),
                    };
                    (s.stones as usize, score)
                })
                .collect();
            assert_eq!(&got, positions);
            scored += positions.iter().filter(|p| p.1.is_some()).count();
        }
    }
    assert!(scored > 0, "the engine's scores are read");

    // The same seed gives the same tables; the source names the command.
    let write = |sub: &str, options: &[&str]| {
        let folder = dir.join(sub);
        std::fs::create_dir_all(&folder).expect("folder");
        let path = folder.join("weights.rs");
        let p = path.to_str().expect("UTF-8").to_string();
        let mut args = vec!["fit", "--samples", out_arg, "--iterations", "20"];
        args.extend_from_slice(options);
        args.extend_from_slice(&["--write", &p]);
        tune(&args);
        let text = std::fs::read_to_string(&path).expect("weights");
        text.replace(folder.to_str().expect("UTF-8"), "FOLDER")
    };
    let (a, b, c) = (
        write("a", &["--seed", "5"]),
        write("b", &["--seed", "5"]),
        write("c", &["--seed", "6"]),
    );
    assert!(a == b, "one seed, two results");
    assert!(a != c, "the seed has no effect");
    assert!(a.contains("--iterations 20 --seed 5"), "{a}");
    assert_eq!(
        a.matches("    [\n").count(),
        8,
        "four cell and four threat tables"
    );
    assert!(a != tune_classic(&dir), "the fit did not move the tables");

    // A refit from the engine's learned tables of freestyle alone moves freestyle's tables
    // and leaves every other rule's as the engine has them.
    let refit = write("refit", &["--rules", "freestyle", "--start", "learned"]);
    let engine =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/weights.rs"))
            .expect("the engine's tables");
    for slot in ["standard", "renju black", "renju white"] {
        assert_eq!(
            slot_tables(&refit, slot),
            slot_tables(&engine, slot),
            "{slot}"
        );
    }
    assert!(
        slot_tables(&refit, "freestyle") != slot_tables(&engine, "freestyle"),
        "the refit did not move freestyle's tables"
    );
}

/// The cell and threat tables of one slot (`// freestyle`, ...) in a weights source, in order.
fn slot_tables(source: &str, slot: &str) -> Vec<String> {
    let head = format!("    // {slot}\n");
    source
        .split(&head)
        .skip(1)
        .map(|rest| rest.split("    ],").next().unwrap_or_default().to_string())
        .collect()
}

/// The classic tables as `wuzi-tune classic` writes them.
fn tune_classic(dir: &Path) -> String {
    let path = dir.join("classic.rs");
    tune(&["classic", "--write", path.to_str().expect("UTF-8")]);
    std::fs::read_to_string(path).expect("weights")
}

/// The cross-entropy `wuzi-tune order` reports for `weights` ("current" or "fitted") on
/// `set` ("train" or "held out").
fn order_loss(report: &str, weights: &str, set: &str) -> f64 {
    let head = format!("{weights} weights, {set}: cross-entropy ");
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix(head.as_str()))
        .unwrap_or_else(|| panic!("no {head:?} in {report}"));
    line.split(',')
        .next()
        .and_then(|v| v.parse().ok())
        .expect("a loss")
}

#[test]
fn fits_the_ordering_to_recorded_moves_reproducibly() {
    let dir = temp_dir("tune-order");
    // The engine against itself on a smaller budget, from the balanced openings: games long
    // enough to have free positions, whose moves are among the candidates.
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_pbrain-wuzi"));
    let openings = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/balanced_freestyle_15.txt"
    );
    let record = play_against(
        &dir,
        "freestyle",
        16,
        &[&engine, "name=small", "info=max_node=1000"],
        &["--openings", openings],
    );
    let record = record.to_str().expect("UTF-8");
    let args = [
        "order",
        "--rule",
        "freestyle",
        "--iterations",
        "200",
        record,
    ];
    let report = tune(&args);
    let (games, rest) = report.split_once(" games, ").expect("a count of games");
    assert_eq!(games, "16", "{report}");
    let positions: usize = rest
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count of positions");
    assert!(positions > 10, "{report}");
    assert!(
        order_loss(&report, "fitted", "train") < order_loss(&report, "current", "train"),
        "the fit did not lower the loss it fits: {report}"
    );
    assert!(report.contains("\nlines: [[0, 0, ") && report.contains("\ncombos: [[0, "));
    assert_eq!(tune(&args), report, "one set of records, two results");

    // Only the moves of the engine on the larger budget: fewer positions.
    let mine = tune(&[
        "order",
        "--rule",
        "freestyle",
        "--iterations",
        "200",
        "--moves-of",
        "wuzi",
        record,
    ]);
    let (_, rest) = mine.split_once(" games, ").expect("a count of games");
    let own: usize = rest
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("count");
    assert!(own > 0 && own < positions, "{own} of {positions}");
}

#[test]
fn bad_command_lines_exit_with_status_2() {
    for args in [
        vec![],
        vec!["fit"],
        vec!["fit", "--samples"],
        vec!["fit", "--samples", "x", "--model", "both"],
        vec!["fit", "--samples", "x", "--start", "best"],
        vec!["extract", "--out", "x"],
        vec!["classic"],
        vec!["order", "x.jsonl"],
        vec!["order", "--rule", "freestyle"],
        vec!["order", "--rule", "gomoku", "x.jsonl"],
        vec!["order", "--rule", "renju", "--mover", "red", "x.jsonl"],
        // Renju orders each colour by its own table: the fit needs to know which.
        vec!["order", "--rule", "renju", "x.jsonl"],
        vec!["order", "--rule", "freestyle", "missing.jsonl"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_wuzi-tune"))
            .args(&args)
            .output()
            .expect("run wuzi-tune");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
