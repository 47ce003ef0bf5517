//! A scripted pbrain engine for the match runner's tests.
//!
//! `wuzi-test-engine MODE [delay=MS] [log=FILE] [name=NAME] [mb=N]` where MODE is:
//! - `scan`: plays the first empty point in row order (y, then x);
//! - `scan-rev`: the last empty point in row order;
//! - `scan-col`: the first empty point in column order (x, then y);
//! - `random`: a random empty point (seeded with `seed=N`, default 1);
//! - `crash`: exits with status 3 when asked for a move;
//! - `silent`: answers `START` but never a move, and ignores `END` and end of input;
//! - `occupied`: plays on the last stone placed (scan on an empty board);
//! - `offboard`: plays the point `width,0`;
//! - `junk`: answers a move request with a line that is not a move;
//! - `foul`: as black under renju plays a forbidden point if there is one, else scans;
//! - `nostart`: never answers `START`;
//! - `chatty`: sends `MESSAGE`, `DEBUG`, `OK`, `ERROR` and `UNKNOWN` lines before each move;
//! - `stray`: sends a `MESSAGE` line cut in two by a raw newline before each move, so that
//!   its second half is a line that is neither a move nor a known reply;
//! - `memory`: allocates and touches `mb` MiB (default 64) before its first move, then scans.
//!
//! `delay=MS` waits before every move, `log=FILE` appends every line received to FILE,
//! `deaf=MS` drops every line read within MS ms of its own last move, `name=NAME` changes
//! the `ABOUT` name (default `test-MODE`), and `first=X,Y` plays X,Y as the engine's first
//! move when that point is empty (the mode chooses every other move).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use wuzi::board::Board;
use wuzi::types::{Color, Pos, Rule};

struct Options {
    mode: String,
    delay_ms: u64,
    deaf_ms: u64,
    log: Option<std::fs::File>,
    name: String,
    megabytes: usize,
    rng: rand::rngs::StdRng,
    /// The point to play first, taken when the first move is asked for.
    first: Option<Pos>,
}

fn parse_options() -> Options {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "scan".to_string());
    let mut options = Options {
        name: format!("test-{mode}"),
        mode,
        delay_ms: 0,
        deaf_ms: 0,
        log: None,
        megabytes: 64,
        rng: rand::SeedableRng::seed_from_u64(1),
        first: None,
    };
    for arg in args {
        match arg.split_once('=') {
            Some(("delay", v)) => options.delay_ms = v.parse().unwrap_or(0),
            Some(("deaf", v)) => options.deaf_ms = v.parse().unwrap_or(0),
            Some(("name", v)) => options.name = v.to_string(),
            Some(("mb", v)) => options.megabytes = v.parse().unwrap_or(64),
            Some(("first", v)) => options.first = parse_xy(v).map(|(x, y)| Pos::new(x, y)),
            Some(("seed", v)) => {
                options.rng = rand::SeedableRng::seed_from_u64(v.parse().unwrap_or(1))
            }
            Some(("log", v)) => {
                options.log = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(v)
                    .ok()
            }
            _ => {}
        }
    }
    options
}

fn reply(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(60));
    }
}

fn parse_xy(text: &str) -> Option<(usize, usize)> {
    let mut parts = text.split(',');
    let x = parts.next()?.trim().parse().ok()?;
    let y = parts.next()?.trim().parse().ok()?;
    Some((x, y))
}

/// Chooses the engine's move for the side to move on `board`.
fn choose(options: &mut Options, board: &Board) -> Pos {
    if let Some(first) = options.first.take() {
        if board.contains(first) && board.is_empty(first) {
            return first;
        }
    }
    let (w, h) = (board.width(), board.height());
    let rows = (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)));
    let first_empty = |mut it: Box<dyn Iterator<Item = Pos>>| {
        it.find(|&p| board.is_empty(p)).unwrap_or(Pos::new(0, 0))
    };
    match options.mode.as_str() {
        "scan-rev" => first_empty(Box::new(rows.collect::<Vec<_>>().into_iter().rev())),
        "scan-col" => first_empty(Box::new(
            (0..w).flat_map(move |x| (0..h).map(move |y| Pos::new(x, y))),
        )),
        "occupied" => board
            .last_move()
            .unwrap_or_else(|| first_empty(Box::new(rows))),
        "random" => {
            let empty: Vec<Pos> = board.empty_cells().collect();
            let index = rand::Rng::gen_range(&mut options.rng, 0..empty.len().max(1));
            empty.get(index).copied().unwrap_or(Pos::new(0, 0))
        }
        "foul" => {
            let forbidden = board.forbidden_points();
            match forbidden.first() {
                Some(&p) => p,
                None => first_empty(Box::new(rows)),
            }
        }
        _ => first_empty(Box::new(rows)),
    }
}

fn main() {
    let mut options = parse_options();
    if let Some(log) = options.log.as_mut() {
        let _ = writeln!(log, "PID {}", std::process::id());
    }
    let mut board: Option<Board> = None;
    let mut rule = Rule::Freestyle;
    let mut size = (15, 15);
    let mut ballast: Vec<u8> = Vec::new();
    let mut last_move: Option<Instant> = None;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(raw)) = lines.next() {
        let line = raw.trim().to_string();
        if last_move.is_some_and(|at| at.elapsed() < Duration::from_millis(options.deaf_ms)) {
            continue;
        }
        if let Some(log) = options.log.as_mut() {
            let _ = writeln!(log, "{line}");
        }
        let upper = line.to_ascii_uppercase();
        let mut words = upper.split_whitespace();
        let command = words.next().unwrap_or_default().to_string();
        let rest = line[command.len().min(line.len())..].trim().to_string();
        let wants_move = match command.as_str() {
            "ABOUT" => {
                reply(&format!("name=\"{}\", version=\"1\"", options.name));
                false
            }
            "START" | "RECTSTART" => {
                if options.mode == "nostart" {
                    continue;
                }
                size = match command.as_str() {
                    "START" => {
                        let n = rest.parse().unwrap_or(15);
                        (n, n)
                    }
                    _ => parse_xy(&rest).unwrap_or((15, 15)),
                };
                board = Board::new(size.0, size.1, rule).ok();
                reply("OK");
                false
            }
            "INFO" => {
                let mut parts = rest.split_whitespace();
                if parts.next().map(str::to_ascii_lowercase).as_deref() == Some("rule") {
                    let code = parts.next().and_then(|v| v.parse().ok()).unwrap_or(0);
                    rule = Rule::from_gomocup(code).unwrap_or(Rule::Freestyle);
                    board = Board::new(size.0, size.1, rule).ok();
                }
                false
            }
            "BOARD" => {
                let mut stones = Vec::new();
                for raw in lines.by_ref() {
                    let Ok(raw) = raw else { break };
                    let stone = raw.trim().to_string();
                    if let Some(log) = options.log.as_mut() {
                        let _ = writeln!(log, "{stone}");
                    }
                    if stone.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    if let Some((x, y)) = parse_xy(&stone) {
                        stones.push(Pos::new(x, y));
                    }
                }
                let mut fresh = Board::new(size.0, size.1, rule).ok();
                if let Some(b) = fresh.as_mut() {
                    // Stones come in move order, black first.
                    for (i, &p) in stones.iter().enumerate() {
                        let color = if i % 2 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        b.place(p, color);
                    }
                }
                board = fresh;
                true
            }
            "TURN" => {
                if let (Some(b), Some((x, y))) = (board.as_mut(), parse_xy(&rest)) {
                    b.make_move(Pos::new(x, y));
                }
                true
            }
            "BEGIN" => true,
            "END" => {
                if options.mode == "silent" {
                    hang();
                }
                return;
            }
            _ => {
                reply(&format!("UNKNOWN {command}"));
                false
            }
        };
        if !wants_move {
            continue;
        }
        if options.delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(options.delay_ms));
        }
        let Some(b) = board.as_mut() else {
            reply("ERROR no board");
            continue;
        };
        match options.mode.as_str() {
            "crash" => std::process::exit(3),
            "silent" => continue,
            "junk" => {
                reply("hello there");
                continue;
            }
            "offboard" => {
                reply(&format!("{},0", b.width()));
                continue;
            }
            "chatty" => {
                reply("MESSAGE thinking hard");
                reply("DEBUG internal detail");
                reply("OK");
                reply("ERROR nothing wrong really");
                reply("UNKNOWN whatever");
            }
            "stray" => {
                reply("MESSAGE depth");
                reply("ev 120 nodes 4096");
            }
            "memory" if ballast.is_empty() => {
                ballast = vec![1u8; options.megabytes << 20];
                std::hint::black_box(&ballast);
            }
            _ => {}
        }
        let pos = choose(&mut options, b);
        if b.is_empty(pos) {
            b.make_move(pos);
        }
        reply(&format!("{},{}", pos.x, pos.y));
        last_move = Some(Instant::now());
    }
    if options.mode == "silent" {
        hang();
    }
    drop(ballast);
}
