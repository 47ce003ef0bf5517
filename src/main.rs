//! `pbrain-wuzi`: the engine binary.

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        let depth = args
            .get(1)
            .and_then(|d| d.parse().ok())
            .unwrap_or(wuzi::bench::DEFAULT_DEPTH);
        wuzi::bench::run(depth, &mut std::io::stdout().lock())?;
    }
    Ok(())
}
