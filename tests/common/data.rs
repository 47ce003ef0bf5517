//! Readers for the public test data in tests/data/ (JSON lines with `_xy` point fields).

use serde_json::Value;
use wuzi::board::Board;
use wuzi::types::{Color, Pos, Rule};

/// Every record of a JSON-lines file in tests/data/ (blank and `#` lines skipped).
pub fn records(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// A point from an `[x, y]` array.
pub fn xy(v: &Value) -> Pos {
    Pos::new(
        v[0].as_u64().unwrap() as usize,
        v[1].as_u64().unwrap() as usize,
    )
}

/// The stone lines (`x,y,owner`) of a `BOARD`/`YXBOARD` block for the record's position, as a
/// grader sends a puzzle: black's and white's stones alternating, black first (a colour's
/// extra stones last), the side to move's (black if absent) as the receiver's own (`1`).
pub fn block_lines(rec: &Value) -> Vec<String> {
    let stones = |key: &str| -> Vec<Pos> { rec[key].as_array().unwrap().iter().map(xy).collect() };
    let (black, white) = (stones("black_xy"), stones("white_xy"));
    let own_is_black = rec["side_to_move"].as_str() != Some("white");
    let mut lines = Vec::new();
    for i in 0..black.len().max(white.len()) {
        for (list, is_black) in [(&black, true), (&white, false)] {
            if let Some(p) = list.get(i) {
                let owner = if is_black == own_is_black { 1 } else { 2 };
                lines.push(format!("{},{},{owner}", p.x, p.y));
            }
        }
    }
    lines
}

/// The record's position: its rule (renju if absent), size, `black_xy`/`white_xy` stones and
/// `side_to_move` (black if absent).
pub fn setup(rec: &Value) -> Board {
    let size = rec["size"].as_u64().unwrap_or(15) as usize;
    let rule = Rule::from_name(rec["rule"].as_str().unwrap_or("renju")).unwrap();
    let mut board = Board::new(size, size, rule).unwrap();
    for (key, color) in [("black_xy", Color::Black), ("white_xy", Color::White)] {
        for p in rec[key].as_array().unwrap() {
            board.place(xy(p), color);
        }
    }
    let side = match rec["side_to_move"].as_str() {
        Some("white") => Color::White,
        _ => Color::Black,
    };
    board.set_side_to_move(side);
    board
}

/// The engine's answer in `board` from a search of `depth` plies (at most 2,000,000 nodes),
/// with no clock.
pub fn search(board: &Board, depth: u32) -> wuzi::search::score::SearchResult {
    search_threads(board, depth, 1)
}

/// [`search`] on `threads` search threads (the node limit binds the main thread).
pub fn search_threads(
    board: &Board,
    depth: u32,
    threads: usize,
) -> wuzi::search::score::SearchResult {
    let limits = wuzi::search::limits::Limits {
        max_depth: Some(depth),
        max_nodes: Some(2_000_000),
        threads,
        ..wuzi::search::limits::Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    wuzi::engine::Engine::new().think(
        board,
        &limits,
        std::time::Instant::now(),
        &stop,
        &mut |_| {},
    )
}
