//! make + undo throughput with the full incremental threat update, on the bench positions.
//! Prints the median of several repeats (run with `cargo bench --bench moves`).

use wuzi::bench::{move_bench, positions};

fn main() {
    let positions = positions().expect("bench positions");
    let _ = move_bench(&positions, 1); // warm-up
    let mut rates: Vec<f64> = (0..7)
        .map(|_| {
            let (pairs, secs) = move_bench(&positions, 300);
            pairs as f64 / secs
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    println!(
        "make+undo: median {:.0}/s (min {:.0}, max {:.0}) over {} repeats",
        rates[rates.len() / 2],
        rates[0],
        rates[rates.len() - 1],
        rates.len()
    );
}
