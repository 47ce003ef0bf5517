//! Tests of the match runner against the scripted engines of `tests/engines/test_engine.rs`
//! (built by `cargo test` as the example `wuzi-test-engine`).
//!
//! Every run goes through [`run_bounded`], which fails the test instead of hanging when the
//! runner does not return within a generous limit.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

mod common;

use common::files::{temp_dir, test_engine};
use wuzi::arena::openings::{load_openings, parse_openings, OpeningFormat};
use wuzi::arena::runner::Summary;
use wuzi::arena::stats::{
    elo_from_score, elo_pentanomial, elo_trinomial, los, Sprt, SprtDecision, Wld,
};
use wuzi::arena::{self, Command};
use wuzi::types::{Pos, Rule};

/// Upper bound for one runner call; far above what any test here needs.
const LIMIT: Duration = Duration::from_secs(60);

/// `cmd=...` item for a test engine in `mode` with extra options.
fn engine(mode: &str, extra: &str) -> String {
    format!("cmd='{}' {mode} {extra}", test_engine().display())
}

/// Builds an argument list; items separated by `|` so that engine commands keep spaces.
fn args(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Runs the runner on another thread and fails the test if it does not finish within LIMIT.
fn run_bounded_with(
    argv: Vec<String>,
    interrupt: Arc<AtomicBool>,
) -> (anyhow::Result<Summary>, String, Duration) {
    let (sender, receiver) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let result = match arena::parse_args(&argv) {
            Ok(Command::Run(config)) => arena::run(&config, &mut out, &interrupt),
            Ok(other) => Err(anyhow::anyhow!("not a run: {other:?}")),
            Err(e) => Err(e),
        };
        let _ = sender.send((result, String::from_utf8_lossy(&out).into_owned()));
    });
    let (result, out) = receiver
        .recv_timeout(LIMIT)
        .expect("the runner hung: no result within the limit");
    (result, out, started.elapsed())
}

fn run_bounded(argv: Vec<String>) -> (anyhow::Result<Summary>, String, Duration) {
    run_bounded_with(argv, Arc::new(AtomicBool::new(false)))
}

/// The raw value of `"key":` in a JSON line written by the runner (string values unquoted,
/// escapes left as they are).
fn json_field(line: &str, key: &str) -> String {
    let pattern = format!("\"{key}\":");
    let start = line
        .find(&pattern)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + pattern.len();
    let rest = &line[start..];
    if let Some(body) = rest.strip_prefix('"') {
        let mut end = 0;
        let bytes = body.as_bytes();
        while end < bytes.len() && !(bytes[end] == b'"' && (end == 0 || bytes[end - 1] != b'\\')) {
            end += 1;
        }
        body[..end].to_string()
    } else if rest.starts_with('[') {
        let end = rest.find(']').expect("closing bracket");
        rest[..=end].to_string()
    } else {
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        rest[..end].to_string()
    }
}

fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

/// Plays one game with `black` (engine A, black in game 1) against a scanning engine and
/// returns the JSON record.
fn one_game(name: &str, black: &str, extra: &[&str]) -> (String, Duration) {
    let dir = temp_dir(name);
    let jsonl = dir.join("games.jsonl");
    let mut argv = args(&[
        "--engine",
        black,
        "name=faulty",
        "--engine",
        &engine("scan", ""),
        "name=scan",
        "--games",
        "1",
        "--quiet",
        "--jsonl",
        jsonl.to_str().expect("utf-8 path"),
    ]);
    argv.extend(extra.iter().map(|s| s.to_string()));
    let (result, out, elapsed) = run_bounded(argv);
    result.unwrap_or_else(|e| panic!("run failed: {e:#}\n{out}"));
    let lines = read_lines(&jsonl);
    assert_eq!(lines.len(), 1, "one game recorded: {lines:?}");
    (lines[0].clone(), elapsed)
}

fn assert_loss(record: &str, reason: &str, detail_part: &str) {
    assert_eq!(json_field(record, "reason"), reason, "{record}");
    assert_eq!(json_field(record, "winner"), "white", "{record}");
    assert_eq!(json_field(record, "winner_name"), "scan", "{record}");
    assert_eq!(json_field(record, "result"), "0-1", "{record}");
    assert!(
        json_field(record, "detail").contains(detail_part),
        "detail should mention `{detail_part}`: {record}"
    );
}

const FAST: [&str; 6] = ["--size", "7", "--tc", "1000/0", "--tolerance-ms", "1000"];

#[test]
fn crashing_engine_loses_by_crash() {
    let mut extra = FAST.to_vec();
    extra.extend(["--games", "1"]);
    let (record, _) = one_game("crash", &engine("crash", ""), &extra);
    assert_loss(&record, "crash", "exited");
}

#[test]
fn occupied_point_is_an_illegal_move() {
    // Black scans to 0,0; white scans to 1,0; black then repeats white's 1,0.
    let (record, _) = one_game("occupied", &engine("occupied", ""), &FAST);
    assert_loss(&record, "illegal move", "occupied point 1,0");
    assert_eq!(json_field(&record, "moves"), r#"["0,0","1,0"]"#);
}

#[test]
fn off_board_point_is_an_illegal_move() {
    let (record, _) = one_game("offboard", &engine("offboard", ""), &FAST);
    assert_loss(&record, "illegal move", "off-board move 7,0");
}

#[test]
fn junk_reply_is_an_illegal_move() {
    let (record, _) = one_game("junk", &engine("junk", ""), &FAST);
    assert_loss(&record, "illegal move", "unparsable reply `hello there`");
}

#[test]
fn stray_lines_lose_unless_skipped() {
    let stray = engine("stray", "");
    let (record, _) = one_game("stray-strict", &stray, &FAST);
    assert_loss(
        &record,
        "illegal move",
        "unparsable reply `ev 120 nodes 4096`",
    );
    let skip = [&FAST[..], &["--skip-unparsable"]].concat();
    let (record, _) = one_game("stray-skip", &stray, &skip);
    assert_eq!(json_field(&record, "reason"), "five", "{record}");
    assert!(record.contains(r#""text":"ev 120 nodes 4096""#), "{record}");
    assert!(record.contains(r#""text":"depth""#), "{record}");
}

#[test]
fn reply_gap_keeps_an_engine_that_drops_early_input() {
    // The engine ignores what it reads within 200 ms of its own move. The gap is counted from
    // when its move was read, which is after it was written, so 300 ms always clears it.
    let deaf = engine("scan", "deaf=200");
    let tc = ["--size", "5", "--tc", "1000/0", "--tolerance-ms", "300"];
    let gap = [&tc[..], &["--reply-gap", "300"]].concat();
    let (record, _) = one_game("deaf-gap", &deaf, &gap);
    assert_eq!(json_field(&record, "reason"), "five", "{record}");
    let no_gap = [&tc[..], &["--reply-gap", "0"]].concat();
    let (record, _) = one_game("deaf-no-gap", &deaf, &no_gap);
    assert_loss(&record, "time-out", "no move within");
}

#[test]
fn renju_foul_loses() {
    // Black stones 5,7 6,7 and 7,5 7,6 on 15x15 (white far away in the corners): 7,7 makes
    // two open threes, a double-three, which the foul engine finds and plays as black.
    let dir = temp_dir("arena-foul-opening");
    let file = dir.join("opening.txt");
    std::fs::write(&file, "-2,0, -7,-7, -1,0, 7,-7, 0,-2, -7,7, 0,-1, 7,7\n").expect("write");
    let (record, _) = one_game(
        "foul",
        &engine("foul", ""),
        &["--rule", "4", "--openings", file.to_str().expect("utf-8")],
    );
    assert_loss(&record, "renju foul", "forbidden point 7,7");
    assert_eq!(json_field(&record, "moves"), r#"["7,7"]"#);
}

/// The position of tests/forbidden.rs's `five_at_the_straightening_point`, as a game's moves
/// (offset notation) that the referee accepts one by one.
const FIVE_AT_THE_STRAIGHTENING_POINT: &str = "3,-2, 1,3, 3,1, 3,-3, -1,1, 2,1, 0,-3, -1,0, \
    3,-1, 3,2, 0,2, 0,0, -3,-1, -2,1, 2,0, -3,3, -1,-1, -3,-3, 2,-3, -2,-2, 0,-2, -1,2, 0,-1, \
    3,3, -2,-1, 1,-1, 1,-2, 1,2, -2,0, 0,3, 2,-1, 2,2, 3,0, 2,-2, 1,-3, -3,0, -1,3, -3,1, \
    -2,-3, -1,-2, -3,-2, -3,2, 1,0, -1,-3, -2,2, 1,1, -2,3, 2,3";

#[test]
fn referee_follows_the_gomocup_judge_on_a_five_at_the_straightening_point() {
    // Black plays 7,2: a four down the column, a three on one diagonal, and on the other a
    // three that straightens only at 6,3, where black makes five. As Piskvork's judge rules,
    // that is no three, so 7,2 is no double three and the game goes on: both sides scan row
    // by row, white takes 6,3 and black completes the column's five at 7,3.
    let dir = temp_dir("arena-five-at-straightening-opening");
    let file = dir.join("opening.txt");
    std::fs::write(&file, format!("{FIVE_AT_THE_STRAIGHTENING_POINT}\n")).expect("write");
    let (record, _) = one_game(
        "five-at-straightening",
        &engine("scan", "first=7,2"),
        &["--rule", "4", "--openings", file.to_str().expect("utf-8")],
    );
    assert!(
        json_field(&record, "moves").starts_with(r#"["7,2","0,0""#),
        "7,2 accepted and white to move: {record}"
    );
    assert_eq!(json_field(&record, "reason"), "five", "{record}");
    assert_eq!(json_field(&record, "winner"), "black", "{record}");
    assert_eq!(json_field(&record, "detail"), "black faulty: five at 7,3");
}

#[test]
fn silent_engine_times_out_in_every_game_the_last_included() {
    // Three games with one worker: the watchdog must end each of them, the last one too.
    let dir = temp_dir("arena-silent");
    let jsonl = dir.join("games.jsonl");
    let (result, out, elapsed) = run_bounded(args(&[
        "--engine",
        &engine("silent", ""),
        "name=silent",
        "--engine",
        &engine("scan", ""),
        "name=scan",
        "--size",
        "7",
        "--tc",
        "200/0",
        "--tolerance-ms",
        "200",
        "--games",
        "3",
        "--jsonl",
        jsonl.to_str().expect("utf-8"),
    ]));
    let summary = result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
    assert_eq!(summary.games_played, 3);
    let lines = read_lines(&jsonl);
    assert_eq!(lines.len(), 3);
    for line in &lines {
        assert_eq!(json_field(line, "reason"), "time-out", "{line}");
        assert_eq!(json_field(line, "winner_name"), "scan", "{line}");
        assert!(
            json_field(line, "detail").contains("no move within 400 ms"),
            "{line}"
        );
    }
    // Safety bound only: three 0.4 s time-outs plus process start/stop, far from a hang.
    assert!(elapsed < Duration::from_secs(30), "took {elapsed:?}");
    assert!(
        out.contains("Losses of silent by fault: time-out 3"),
        "{out}"
    );
}

#[test]
fn slow_engine_is_killed_at_the_deadline() {
    let (record, elapsed) = one_game(
        "slow",
        &engine("scan", "delay=5000"),
        &["--size", "7", "--tc", "200/0", "--tolerance-ms", "200"],
    );
    assert_loss(&record, "time-out", "killed");
    // The engine would answer after 5 s; the watchdog must not wait for it.
    assert!(elapsed < Duration::from_secs(4), "took {elapsed:?}");
}

#[test]
fn late_reply_within_tolerance_counts_and_uses_the_match_clock() {
    let dir = temp_dir("arena-tolerance-log");
    let log = dir.join("slow.log");
    let (record, _) = one_game(
        "tolerance",
        &engine("scan", &format!("delay=150 log='{}'", log.display())),
        &["--size", "5", "--tc", "100/60000", "--tolerance-ms", "2000"],
    );
    let times = json_field(&record, "times_ms");
    let times: Vec<u64> = times
        .trim_matches(['[', ']'])
        .split(',')
        .map(|t| t.parse().expect("number"))
        .collect();
    assert!(times.len() >= 3, "{record}");
    for (i, &t) in times.iter().enumerate() {
        if i % 2 == 0 {
            assert!(t >= 150, "black's delayed move took {t} ms");
        }
    }
    // The clock sent before each move is the match time minus the time used so far.
    let lines = read_lines(&log);
    let clocks: Vec<i64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("INFO time_left "))
        .map(|v| v.parse().expect("number"))
        .collect();
    assert_eq!(clocks.len(), times.len().div_ceil(2));
    assert_eq!(clocks[0], 60000);
    // The clock keeps exact time: what it lost lies between the sum of the recorded
    // (rounded-down) move times and that sum plus 1 ms per move.
    let mut recorded = 0;
    for k in 1..clocks.len() {
        recorded += times[2 * (k - 1)] as i64;
        let lost = 60000 - clocks[k];
        assert!(
            lost >= recorded && lost < recorded + k as i64,
            "{clocks:?} {times:?}"
        );
    }
}

#[test]
fn strict_clock_scores_a_loss_below_zero_whatever_the_tolerance() {
    // Three moves of 150 ms each use 450 ms of a 400 ms clock, well within the tolerance.
    let slow = engine("scan", "delay=150");
    let tc = ["--size", "5", "--tc", "1000/400", "--tolerance-ms", "2000"];
    let (record, _) = one_game(
        "strict-clock",
        &slow,
        &[&tc[..], &["--strict-clock"]].concat(),
    );
    assert_loss(&record, "time-out", "on its match clock (--strict-clock)");
    let times = json_field(&record, "times_ms");
    // Two moves each are recorded; black's third, the losing one, is not.
    assert_eq!(
        times.matches(',').count(),
        3,
        "lost at its third move: {record}"
    );
    // Without the flag the tolerance covers it and the game is played out.
    let (record, _) = one_game("lenient-clock", &slow, &tc);
    assert_ne!(json_field(&record, "reason"), "time-out", "{record}");
}

#[test]
fn chatter_is_skipped_and_messages_are_kept() {
    let (record, _) = one_game("chatty", &engine("chatty", ""), &["--size", "5"]);
    assert_eq!(json_field(&record, "reason"), "five");
    assert_eq!(json_field(&record, "winner_name"), "faulty");
    assert!(record.contains(r#""text":"thinking hard""#), "{record}");
}

#[cfg(target_os = "linux")]
#[test]
fn memory_hog_loses_on_memory() {
    let (record, _) = one_game(
        "memory",
        &engine("memory", "mb=96"),
        &["--size", "7", "--mem-limit", "48"],
    );
    assert_loss(&record, "memory", "over the limit of 48 MiB");
}

#[test]
fn missing_engine_binary_is_a_clear_error() {
    let (result, _, _) = run_bounded(args(&[
        "--engine",
        "cmd=/nonexistent/pbrain-ghost",
        "name=ghost",
        "--engine",
        &engine("scan", ""),
    ]));
    let message = format!("{:#}", result.expect_err("must fail"));
    assert!(message.contains("ghost"), "{message}");
    assert!(message.contains("/nonexistent/pbrain-ghost"), "{message}");
}

#[test]
fn engine_that_never_answers_start_is_a_clear_error() {
    let (result, _, elapsed) = run_bounded(args(&[
        "--engine",
        &engine("scan", ""),
        "--engine",
        &engine("nostart", ""),
        "--tolerance-ms",
        "300",
    ]));
    let message = format!("{:#}", result.expect_err("must fail"));
    assert!(message.contains("test-nostart"), "{message}");
    assert!(message.contains("START 15"), "{message}");
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

#[test]
fn opening_that_does_not_fit_names_file_and_line() {
    // Line 41 of Piskvork's file reaches offset -8: off a 15x15 board.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/piskvork_openings_offset.txt");
    let error = load_openings(&path, OpeningFormat::Offset, 15, 15, Rule::Freestyle)
        .expect_err("line 41 does not fit");
    let message = format!("{error:#}");
    assert!(
        message.contains("piskvork_openings_offset.txt:41:"),
        "{message}"
    );
    // On 20x20 every opening fits.
    let all = load_openings(&path, OpeningFormat::Offset, 20, 20, Rule::Freestyle).expect("fits");
    assert_eq!(all.len(), 41);
}

#[test]
fn illegal_openings_are_reported_with_their_line() {
    let cases = [
        ("0,0, 1,1, 0,0\n", "0,0", 1),
        ("h8\n\n# comment\nh8i8h9i9h10i10h11i11h12\n", "five", 4),
        (
            "-2,0, -7,-7, -1,0, 7,-7, 0,-2, -7,7, 0,-1, 7,7, 0,0\n",
            "forbidden",
            1,
        ),
        ("# header\r\n0,0, 1\r\n", "bad opening", 2),
        ("h8\nz1\n", "bad opening", 2),
    ];
    for (text, expected, line) in cases {
        let error = parse_openings(text, "book.txt", OpeningFormat::Auto, 15, 15, Rule::Renju)
            .expect_err(text);
        let message = format!("{error:#}");
        assert!(message.contains(expected), "{text:?}: {message}");
        assert!(
            message.contains(&format!("book.txt:{line}:")),
            "{text:?}: {message}"
        );
    }
}

#[test]
fn openings_parse_in_both_notations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    // Offset, CRLF file: "0,0, 1,0, 1,3" from the centre 10,10.
    let offset = load_openings(
        &dir.join("piskvork_openings_offset.txt"),
        OpeningFormat::Auto,
        20,
        20,
        Rule::Freestyle,
    )
    .expect("offset file");
    assert_eq!(
        offset[0].stones,
        vec![Pos::new(10, 10), Pos::new(11, 10), Pos::new(11, 13)]
    );
    assert!(offset[0].source.ends_with("piskvork_openings_offset.txt:1"));
    // Pos: "h11j14k15i10" = x from 'a', y = number - 1.
    let pos = load_openings(
        &dir.join("balanced_renju_15.txt"),
        OpeningFormat::Pos,
        15,
        15,
        Rule::Renju,
    )
    .expect("pos file");
    assert_eq!(pos.len(), 40);
    assert_eq!(
        pos[0].stones,
        vec![
            Pos::new(7, 10),
            Pos::new(9, 13),
            Pos::new(10, 14),
            Pos::new(8, 9)
        ]
    );
    let crlf = parse_openings(
        "# x\r\n\r\n h8 i9 \r\n",
        "t",
        OpeningFormat::Pos,
        15,
        15,
        Rule::Freestyle,
    )
    .expect("crlf");
    assert_eq!(crlf[0].stones, vec![Pos::new(7, 7), Pos::new(8, 8)]);
}

/// Plays one game of the scanning engine as black from `opening` (offset notation) on 7x7.
fn adjudicate(rule: &str, opening: &str) -> String {
    let dir = temp_dir(&format!("arena-adjudicate-{rule}-{}", opening.len()));
    let file = dir.join("opening.txt");
    std::fs::write(&file, format!("{opening}\n")).expect("write");
    let (record, _) = one_game(
        &format!("adj-{rule}-{}", opening.len()),
        &engine("scan", ""),
        &[
            "--size",
            "7",
            "--rule",
            rule,
            "--openings",
            file.to_str().expect("utf-8"),
        ],
    );
    record
}

#[test]
fn caro_five_blocked_at_both_ends_does_not_win() {
    // 7x7, centre 3,3. Black 1,0 2,0 3,0 4,0; white 0,0 6,0 0,6 6,6. Black scans to 5,0:
    // 1,0..5,0 is five, closed by white stones at 0,0 and 6,0.
    let opening = "-2,-3, -3,-3, -1,-3, 3,-3, 0,-3, -3,3, 1,-3, 3,3";
    let free = adjudicate("0", opening);
    assert_eq!(json_field(&free, "reason"), "five");
    assert_eq!(json_field(&free, "moves"), r#"["5,0"]"#);
    for caro in ["8", "9"] {
        let record = adjudicate(caro, opening);
        assert!(
            json_field(&record, "moves").starts_with(r#"["5,0","0,1""#),
            "caro: the blocked five does not end the game: {record}"
        );
    }
}

#[test]
fn caro_five_blocked_once_wins() {
    // As above, but the right end is white only at 6,6: 1,0..5,0 has 6,0 empty.
    let opening = "-2,-3, -3,-3, -1,-3, 3,2, 0,-3, -3,3, 1,-3, 3,3";
    let record = adjudicate("8", opening);
    assert_eq!(json_field(&record, "reason"), "five");
    assert_eq!(json_field(&record, "moves"), r#"["5,0"]"#);
}

#[test]
fn overline_wins_only_without_exact_five() {
    // Black 0,0 1,0 2,0 4,0 5,0; white 0,6 1,6 3,6 5,6. Black scans to 3,0: six in a row.
    let opening = "-3,-3, -3,3, -2,-3, -2,3, -1,-3, 0,3, 1,-3, 2,3, 2,-3";
    // The opening has nine stones: white is to move. Drop the last black stone and let the
    // opening end with white's move instead.
    let opening = opening
        .rsplit_once(", 2,-3")
        .map(|(head, _)| head)
        .expect("split");
    let opening = format!("{opening}, 2,-3, 3,2");
    let free = adjudicate("0", &opening);
    assert_eq!(json_field(&free, "reason"), "five", "{free}");
    assert_eq!(json_field(&free, "moves"), r#"["3,0"]"#);
    let exact = adjudicate("1", &opening);
    assert!(
        json_field(&exact, "moves").starts_with(r#"["3,0","6,0""#),
        "standard: an overline does not win: {exact}"
    );
}

#[test]
fn deterministic_match_gives_the_expected_results_and_records() {
    // 5x5, freestyle, A = scan (first empty point in row order), B = scan-rev (last empty
    // point). Openings (offset from the centre 2,2): "0,0" = black 2,2; "0,0, 0,-2" = black
    // 2,2 and white 2,0. Draw once 11 stones are on the board.
    // Game 1 (A black, opening 1): white B fills row 4 from 4,4 leftwards while black A fills
    //   row 0; white moves first and completes 0,4..4,4 with the 10th stone: 0-1.
    // Game 2 (B black, opening 1): the same race with white A on row 0: 0-1, A wins.
    // Game 3 (A black, opening 2): A's row 0 is cut by the white stone at 2,0; B fills row 4
    //   and would win with the 12th stone, but the 11-stone limit comes first: draw.
    // Game 4 (B black, opening 2): white A has 2,0 already and completes row 0 with the 10th
    //   stone: 0-1, A wins.
    // So A: 2 wins, 1 loss, 1 draw; as black 0-1-1, as white 2-0-0; pairs scored 1 and 1.5.
    let dir = temp_dir("arena-deterministic");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\n0,0\r\n0,0, 0,-2\r\n").expect("write");
    let (sgf, psq, jsonl) = (dir.join("sgf"), dir.join("psq"), dir.join("games.jsonl"));
    let mut summaries = Vec::new();
    for concurrency in ["1", "2"] {
        let _ = std::fs::remove_file(&jsonl);
        let (result, out, _) = run_bounded(args(&[
            "--engine",
            &engine("scan", ""),
            "--engine",
            &engine("scan-rev", ""),
            "--size",
            "5",
            "--openings",
            openings.to_str().expect("utf-8"),
            "--games",
            "4",
            "--draw-after",
            "11",
            "--concurrency",
            concurrency,
            "--sgf",
            sgf.to_str().expect("utf-8"),
            "--psq",
            psq.to_str().expect("utf-8"),
            "--jsonl",
            jsonl.to_str().expect("utf-8"),
        ]));
        let summary = result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
        assert_eq!(summary.names, vec!["test-scan", "test-scan-rev"]);
        let stats = &summary.pairs[0];
        assert_eq!(
            stats.total,
            Wld {
                wins: 2,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(
            stats.as_black,
            Wld {
                wins: 0,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(
            stats.as_white,
            Wld {
                wins: 2,
                losses: 0,
                draws: 0
            }
        );
        assert_eq!(stats.penta, [0, 0, 1, 1, 0]);
        assert!(
            out.contains("Score of test-scan vs test-scan-rev: 2 - 1 - 1  [0.625] 4 games"),
            "{out}"
        );
        assert!(
            out.contains("test-scan as black: 0 - 1 - 1   test-scan as white: 2 - 0 - 0"),
            "{out}"
        );
        // 0.625 from pairs (1/2, 3/4): Elo = -400·log10(1/0.625 - 1) = +88.7.
        assert!(out.contains("Elo +88.7"), "{out}");
        assert!(
            out.contains("Game 1/4: test-scan (black) vs test-scan-rev (white)"),
            "{out}"
        );

        let mut lines = read_lines(&jsonl);
        lines.sort_by_key(|l| json_field(l, "game").parse::<u32>().expect("number"));
        let results: Vec<(String, String)> = lines
            .iter()
            .map(|l| (json_field(l, "result"), json_field(l, "reason")))
            .collect();
        let expected = [
            ("0-1", "five"),
            ("0-1", "five"),
            ("1/2-1/2", "ply limit"),
            ("0-1", "five"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(results, expected);
        assert_eq!(json_field(&lines[0], "black"), "test-scan");
        assert_eq!(json_field(&lines[0], "winner_name"), "test-scan-rev");
        assert_eq!(json_field(&lines[0], "opening"), r#"["2,2"]"#);
        assert_eq!(
            json_field(&lines[0], "moves"),
            r#"["4,4","0,0","3,4","1,0","2,4","2,0","1,4","3,0","0,4"]"#
        );
        assert_eq!(json_field(&lines[2], "winner"), "null");
        summaries.push(summary);
    }

    // Game 1: white won. SGF must say W+ (not inverted), PSQ lists 1-based points.
    let sgf1 = std::fs::read_to_string(sgf.join("game-00001.sgf")).expect("sgf");
    assert!(sgf1.starts_with("(;FF[4]GM[4]"), "{sgf1}");
    assert!(sgf1.contains("SZ[5]"));
    assert!(
        sgf1.contains("PB[test-scan]PW[test-scan-rev]RE[W+]"),
        "{sgf1}"
    );
    assert!(sgf1.contains(";B[cc];W[ee];B[aa];W[de]"), "{sgf1}");
    let sgf3 = std::fs::read_to_string(sgf.join("game-00003.sgf")).expect("sgf");
    assert!(sgf3.contains("RE[0]"), "{sgf3}");
    let sgf4 = std::fs::read_to_string(sgf.join("game-00004.sgf")).expect("sgf");
    assert!(
        sgf4.contains("PB[test-scan-rev]PW[test-scan]RE[W+]"),
        "{sgf4}"
    );
    let psq1 = std::fs::read_to_string(psq.join("game-00001.psq")).expect("psq");
    let psq_lines: Vec<&str> = psq1.lines().collect();
    assert_eq!(psq_lines[0], "Piskvorky 5x5, 11:11, 0");
    assert_eq!(psq_lines[1], "3,3,0");
    assert!(psq_lines[2].starts_with("5,5,"));
    assert_eq!(psq_lines.len(), 1 + 10 + 4);
    assert_eq!(&psq_lines[11..], ["-1", "test-scan", "test-scan-rev", "-1"]);
}

#[test]
fn engine_sees_a_gomocup_session() {
    // Black (logged) on 5x5 from the opening "0,0, 0,-2": black 2,2, white 2,0. The logged
    // engine is A, black in game 1; it is to move first, so it gets the whole board.
    let dir = temp_dir("arena-session");
    let log = dir.join("a.log");
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "0,0, 0,-2\n").expect("write");
    let (result, out, _) = run_bounded(args(&[
        "--engine",
        &engine("scan", &format!("log='{}'", log.display())),
        "name=A",
        "info=thread_num=2",
        "--engine",
        &engine("scan-rev", ""),
        "name=B",
        "--rect",
        "5,6",
        "--tc",
        "3000/20000",
        "--max-memory",
        "1000000",
        "--openings",
        openings.to_str().expect("utf-8"),
        "--games",
        "1",
    ]));
    result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
    let lines = read_lines(&log);
    // The start-up check first (PID, RECTSTART, END), then the game's process.
    let game_start = lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| l.starts_with("PID"))
        .map(|(i, _)| i)
        .expect("second process");
    assert_eq!(&lines[1..game_start], ["RECTSTART 5,6", "END"]);
    let session: Vec<&str> = lines[game_start + 1..].iter().map(String::as_str).collect();
    // Offset "0,0" on 5x6 is 2,3; "0,-2" is 2,1. A's own info= item follows the common
    // INFO lines.
    assert_eq!(
        &session[..11],
        [
            "RECTSTART 5,6",
            "INFO timeout_turn 3000",
            "INFO timeout_match 20000",
            "INFO max_memory 1000000",
            "INFO rule 0",
            "INFO game_type 1",
            "INFO thread_num 2",
            "INFO time_left 20000",
            "BOARD",
            "2,3,1",
            "2,1,2",
        ]
    );
    assert_eq!(session[11], "DONE");
    assert!(session[12].starts_with("INFO time_left "));
    // B (scan-rev) answered A's 0,0 with the last empty point, 4,5.
    assert_eq!(session[13], "TURN 4,5");
    assert_eq!(session.last(), Some(&"END"));
}

#[test]
fn reuse_keeps_one_process_per_engine() {
    let dir = temp_dir("arena-reuse");
    let count_pids = |reuse: bool| {
        let log = dir.join(format!("log-{reuse}"));
        let mut argv = args(&[
            "--engine",
            &engine("scan", &format!("log='{}'", log.display())),
            "--engine",
            &engine("scan-rev", ""),
            "--size",
            "5",
            "--games",
            "4",
            "--quiet",
        ]);
        if reuse {
            argv.push("--reuse".to_string());
        }
        let (result, out, _) = run_bounded(argv);
        let summary = result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
        assert_eq!(summary.games_played, 4);
        // From the empty board black always wins (both engines fill a row; black is first).
        assert_eq!(
            summary.pairs[0].total,
            Wld {
                wins: 2,
                losses: 2,
                draws: 0
            }
        );
        let lines = read_lines(&log);
        let pids = lines.iter().filter(|l| l.starts_with("PID")).count();
        let starts = lines.iter().filter(|l| l.starts_with("START")).count();
        (pids, starts)
    };
    // Start-up check + one process per game, or start-up check + one reused process.
    assert_eq!(count_pids(false), (5, 5));
    assert_eq!(count_pids(true), (2, 5));
}

#[test]
fn sprt_stops_as_soon_as_it_decides() {
    let (result, out, _) = run_bounded(args(&[
        "--engine",
        &engine("scan", ""),
        "--engine",
        &engine("crash", ""),
        "--size",
        "5",
        "--games",
        "200",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--quiet",
    ]));
    let summary = result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
    let (llr, decision) = summary.sprt.expect("sprt ran");
    assert_eq!(decision, SprtDecision::AcceptH1, "{out}");
    assert!(llr >= (0.95f64 / 0.05).ln());
    assert!(summary.games_played < 20, "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
}

#[test]
fn interrupt_keeps_what_finished() {
    let dir = temp_dir("arena-interrupt");
    let jsonl = dir.join("games.jsonl");
    let flag = Arc::new(AtomicBool::new(false));
    let raiser = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(1500));
            flag.store(true, Ordering::SeqCst);
        })
    };
    let (result, out, _) = run_bounded_with(
        args(&[
            "--engine",
            &engine("scan", "delay=30"),
            "--engine",
            &engine("scan-rev", "delay=30"),
            "--size",
            "5",
            "--games",
            "100",
            "--jsonl",
            jsonl.to_str().expect("utf-8"),
        ]),
        flag,
    );
    raiser.join().expect("raiser");
    let summary = result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
    assert!(summary.interrupted);
    assert!(summary.games_played < 100);
    assert_eq!(read_lines(&jsonl).len(), summary.games_played);
    assert!(out.contains("Interrupted"), "{out}");
}

#[test]
fn gauntlet_and_round_robin_standings() {
    let (result, out, _) = run_bounded(args(&[
        "--engine",
        &engine("scan", ""),
        "--engine",
        &engine("crash", ""),
        "--engine",
        &engine("junk", ""),
        "--size",
        "5",
        "--games",
        "2",
        "--gauntlet",
        "--quiet",
    ]));
    let summary = result.unwrap_or_else(|e| panic!("{e:#}\n{out}"));
    assert_eq!(summary.pairs.len(), 2);
    assert_eq!(summary.games_played, 4);
    for stats in &summary.pairs {
        assert_eq!(stats.first, 0);
        assert_eq!(
            stats.total,
            Wld {
                wins: 2,
                losses: 0,
                draws: 0
            }
        );
    }
    assert!(out.contains("1     test-scan"), "{out}");
}

#[test]
fn elo_interval_los_and_sprt_match_hand_computation() {
    // Trinomial, W=30 L=20 D=10 (N=60):
    //   mean μ = (30 + 5)/60 = 0.583333; σ² = [30·(1-μ)² + 10·(0.5-μ)² + 20·μ²]/60
    //   = [30·0.173611 + 10·0.006944 + 20·0.340278]/60 = (5.208333+0.069444+6.805556)/60
    //   = 0.201389; se = √(σ²/60) = 0.057935; μ ± 1.959964·se = [0.469783, 0.696884].
    //   Elo(μ) = -400·log10(1/μ - 1) = -400·log10(0.714286) = 58.45;
    //   Elo(0.469783) = -400·log10(1.128680) = -21.02;
    //   Elo(0.696884) = -400·log10(0.434959) = 144.62.
    let wld = Wld {
        wins: 30,
        losses: 20,
        draws: 10,
    };
    let e = elo_trinomial(&wld).expect("games");
    assert!((e.score - 0.583_333).abs() < 1e-6);
    assert!((e.elo - 58.45).abs() < 0.01, "{e:?}");
    assert!((e.low + 21.02).abs() < 0.01, "{e:?}");
    assert!((e.high - 144.62).abs() < 0.01, "{e:?}");
    // LOS = ½·(1 + erf((30-20)/√(2·50))) = ½·(1 + erf(1)) = ½·1.842701 = 0.921350.
    assert!((los(30, 20) - 0.921_350).abs() < 1e-6);
    assert_eq!(los(0, 0), 0.5);

    // Pentanomial [0,0,1,1,0]: pair means 0.5 and 0.75, μ = 0.625, σ² = 0.015625,
    // se = √(0.015625/2) = 0.088388; μ ± 1.959964·se = [0.451762, 0.798238];
    // Elo(0.625) = -400·log10(0.6) = 88.74; Elo(0.451762) = -400·log10(1.213556) = -33.62;
    // Elo(0.798238) = -400·log10(0.252757) = 238.92.
    let p = elo_pentanomial(&[0, 0, 1, 1, 0]).expect("pairs");
    assert!((p.elo - 88.74).abs() < 0.01, "{p:?}");
    assert!((p.low + 33.62).abs() < 0.01, "{p:?}");
    assert!((p.high - 238.92).abs() < 0.01, "{p:?}");
    assert_eq!(p.samples, 2);
    assert!((elo_from_score(0.625) - p.elo).abs() < 1e-9);

    // SPRT elo0=0 elo1=10 α=β=0.05: bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
    // s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.514387.
    // Trinomial W=30 L=20 D=10: LLR = 60·(0.014387)·(2·0.583333 - 1.014387)/(2·0.201389)
    //   = 60·0.014387·0.152280/0.402778 = 0.326359 → continue.
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let (lower, upper) = sprt.bounds();
    assert!((lower + 2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);
    let llr = sprt.llr_trinomial(&wld);
    assert!((llr - 0.3264).abs() < 1e-3, "{llr}");
    assert_eq!(sprt.decide(llr), SprtDecision::Continue);
    // Pentanomial [10, 20, 40, 60, 70] (200 pairs): μ = (0·10 + 0.25·20 + 0.5·40 + 0.75·60
    //   + 70)/200 = 140/200 = 0.7; σ² = [10·0.49 + 20·0.2025 + 40·0.04 + 60·0.0025 + 70·0.09]
    //   /200 = (4.9 + 4.05 + 1.6 + 0.15 + 6.3)/200 = 0.085;
    //   LLR = 200·0.014387·(1.4 - 1.014387)/(2·0.085) = 200·0.014387·0.385613/0.17 = 6.5268
    //   ≥ 2.944 → H1.
    let llr = sprt.llr_pentanomial(&[10, 20, 40, 60, 70]);
    assert!((llr - 6.527).abs() < 2e-3, "{llr}");
    assert_eq!(sprt.decide(llr), SprtDecision::AcceptH1);
    // Mirror image [70, 60, 40, 20, 10]: μ = 0.3, same σ²; LLR = 200·0.014387·(0.6 - 1.014387)
    //   /0.17 = -7.014 ≤ -2.944 → H0.
    let llr = sprt.llr_pentanomial(&[70, 60, 40, 20, 10]);
    assert!((llr + 7.014).abs() < 2e-3, "{llr}");
    assert_eq!(sprt.decide(llr), SprtDecision::AcceptH0);
}
