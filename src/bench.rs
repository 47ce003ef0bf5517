//! `pbrain-wuzi bench [depth [threads]]`: fixed positions searched at a fixed depth with a
//! fresh table, one thread and no clock, so the total node count is a signature of the search:
//! a refactor leaves it unchanged, a search change says why it moved. A move bench (make +
//! undo with the full incremental threat update) runs first. With more threads the main
//! thread still completes the same depth, so the total time against one thread's is the
//! time-to-depth speedup; the node count is then no signature (the threads race).

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{anyhow, Context, Result};

use crate::board::Board;
use crate::notation::parse_pos_notation;
use crate::position::Position;
use crate::search::limits::Limits;
use crate::search::pvs::Searcher;
use crate::search::score::format_score;
use crate::search::time::{InstantClock, TimeManager};
use crate::types::{Pos, Rule};

/// The bench positions: `rule<TAB>size<TAB>depth<TAB>moves` (Rapfi's bench set; its depth
/// column is Rapfi's and is not used here).
const BENCH_SET: &str = include_str!("../tests/data/rapfi_benchset.tsv");
/// Default search depth of the bench.
pub const DEFAULT_DEPTH: u32 = 8;
/// Table size used by the bench (fixed, so node counts do not depend on the machine).
const BENCH_TABLE_BYTES: usize = 16 << 20;

/// One bench position.
pub struct BenchPosition {
    /// The board with the moves played.
    pub board: Board,
    /// The moves in pos notation, as listed.
    pub moves: String,
}

/// The bench positions.
///
/// # Errors
/// If the embedded set is malformed (a bug).
pub fn positions() -> Result<Vec<BenchPosition>> {
    parse_positions(BENCH_SET)
}

/// Positions in the bench set's format: `rule<TAB>size<TAB>depth<TAB>moves` per line (the depth
/// column is not used), `#` lines and blank lines skipped.
///
/// # Errors
/// If a line is malformed or its moves cannot be played.
pub fn parse_positions(text: &str) -> Result<Vec<BenchPosition>> {
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [rule, size, _depth, moves] = fields[..] else {
            return Err(anyhow!("bench line {line:?}: expected four fields"));
        };
        let rule = Rule::from_name(rule).ok_or_else(|| anyhow!("bench rule {rule:?}"))?;
        let size: usize = size.parse().context("bench size")?;
        let mut board = Board::new(size, size, rule)?;
        for p in parse_pos_notation(moves, size, size)? {
            board.make_move(p);
        }
        out.push(BenchPosition {
            board,
            moves: moves.to_string(),
        });
    }
    Ok(out)
}

/// Make + undo throughput with the full incremental update: returns (pairs, seconds).
///
/// Only the make/undo loops are timed: building each [`Position`] (and, the first time, the
/// pattern tables) happens before its clock starts.
pub fn move_bench(positions: &[BenchPosition], rounds: usize) -> (u64, f64) {
    let mut pairs = 0u64;
    let mut secs = 0.0;
    for bp in positions {
        let mut pos = Position::new(&bp.board);
        let cells: Vec<Pos> = bp
            .board
            .empty_cells()
            .filter(|&p| pos.is_candidate(p))
            .collect();
        let started = Instant::now();
        for _ in 0..rounds {
            for &c in cells.iter() {
                pos.make_move(c);
                pos.undo_move();
                pairs += 1;
            }
        }
        secs += started.elapsed().as_secs_f64();
    }
    (pairs, secs)
}

/// Runs the bench on `threads` search threads and writes its report; the last line is
/// `<nodes> nodes <nps> nps`.
///
/// # Errors
/// On a write error.
pub fn run(depth: u32, threads: usize, out: &mut dyn Write) -> Result<u64> {
    let positions = positions()?;
    let rounds = if cfg!(debug_assertions) { 2 } else { 2000 };
    let (pairs, secs) = move_bench(&positions, rounds);
    writeln!(
        out,
        "move bench: {pairs} make+undo in {:.3} s = {:.0} per second",
        secs,
        pairs as f64 / secs
    )?;
    let limits = Limits {
        max_depth: Some(depth),
        threads,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let started = Instant::now();
    for (i, bp) in positions.iter().enumerate() {
        let mut searcher = Searcher::new(BENCH_TABLE_BYTES);
        searcher.reseed(0);
        let t0 = Instant::now();
        let time = TimeManager::new(
            &limits,
            bp.board.stone_count(),
            bp.board.empty_count(),
            InstantClock::new(t0),
        );
        let result = searcher.search(&bp.board, &limits, &time, &stop, &[], &mut |_| {});
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        total_nodes += result.nodes;
        writeln!(
            out,
            "position {:2} {:9} {}x{} {:<40} best {:5} score {:>7} depth {:2} nodes {:>10} time {:8.1} ms nps {:>9.0}",
            i + 1,
            bp.board.rule().name(),
            bp.board.width(),
            bp.board.height(),
            bp.moves,
            result.best.to_string(),
            format_score(result.score),
            result.depth,
            result.nodes,
            ms,
            result.nodes as f64 / (ms / 1000.0).max(1e-9)
        )?;
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    writeln!(out, "total time {:.3} s", secs)?;
    writeln!(
        out,
        "{} nodes {:.0} nps",
        total_nodes,
        total_nodes as f64 / secs
    )?;
    out.flush()?;
    Ok(total_nodes)
}
