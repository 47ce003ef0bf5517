//! Fixed-depth search on the bench positions, then on caro positions (which `pbrain-wuzi bench`
//! does not cover): nodes per second, median of several repeats (run with `cargo bench --bench
//! search`). The node count must not change between repeats.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use wuzi::bench::{parse_positions, positions, BenchPosition};
use wuzi::search::limits::Limits;
use wuzi::search::pvs::Searcher;
use wuzi::search::time::{InstantClock, TimeManager};

/// Caro positions from wuzi's own games (see tests/data/README.md).
const CARO_SET: &str = include_str!("../tests/data/caro_bench.tsv");

fn main() {
    run("search", &positions().expect("bench positions"), 6);
    run(
        "caro search",
        &parse_positions(CARO_SET).expect("caro bench positions"),
        7,
    );
}

/// Searches every position to `depth`, five times, and prints the node count and the median
/// rate.
fn run(name: &str, positions: &[BenchPosition], depth: u32) {
    let limits = Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut rates = Vec::new();
    let mut signature = None;
    for _ in 0..5 {
        let mut nodes = 0;
        let started = Instant::now();
        for bp in positions {
            let mut searcher = Searcher::new(16 << 20);
            searcher.reseed(0);
            let time = TimeManager::new(
                &limits,
                bp.board.stone_count(),
                bp.board.empty_count(),
                InstantClock::new(Instant::now()),
            );
            nodes += searcher
                .search(&bp.board, &limits, &time, &stop, &[], &mut |_| {})
                .nodes;
        }
        let secs = started.elapsed().as_secs_f64();
        assert!(
            signature.is_none() || signature == Some(nodes),
            "node count changed between repeats"
        );
        signature = Some(nodes);
        rates.push(nodes as f64 / secs);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "{name} depth {depth}: {} nodes, median {:.0} nodes/s (min {:.0}, max {:.0}) over {} repeats",
        signature.unwrap_or(0),
        rates[rates.len() / 2],
        rates[0],
        rates[rates.len() - 1],
        rates.len()
    );
}
