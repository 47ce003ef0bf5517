//! `pbrain-wuzi`: the engine binary.
//!
//! Without arguments it speaks the Gomocup protocol on stdin/stdout, which is how every
//! manager starts it. Other modes are chosen by a first argument (see [`USAGE`]).

mod cli;

use std::env;
use std::process::ExitCode;

use anyhow::bail;
use cli::USAGE;

/// Runs the mode; an error is printed on stderr with exit status 2.
fn main() -> ExitCode {
    init_logging();
    let args: Vec<String> = env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-wuzi: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> anyhow::Result<()> {
    match args.first().map(String::as_str) {
        None | Some("protocol") => wuzi::protocol::run::run_stdio(),
        Some("one-ply") => {
            let mut engine = wuzi::engine::Engine::new();
            engine.set_one_ply(true);
            wuzi::protocol::run::run_stdio_with(engine)
        }
        Some("analyze") => quiet_if_reader_left(cli::analyze::run(&args[1..])),
        Some("play") => quiet_if_reader_left(cli::play::run(&args[1..])),
        Some("bench") => {
            let depth = match args.get(1) {
                Some(depth) => depth
                    .parse()
                    .map_err(|_| anyhow::anyhow!("bench: bad depth {depth:?}\n{USAGE}"))?,
                None => wuzi::bench::DEFAULT_DEPTH,
            };
            let threads = match args.get(2) {
                Some(threads) => threads
                    .parse()
                    .ok()
                    .filter(|&n: &usize| n >= 1)
                    .ok_or_else(|| {
                        anyhow::anyhow!("bench: bad thread count {threads:?}\n{USAGE}")
                    })?,
                None => 1,
            };
            let result = wuzi::bench::run(depth, threads, &mut std::io::stdout().lock());
            quiet_if_reader_left(result.map(drop))
        }
        Some("version" | "--version" | "-V") => {
            println!("wuzi {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => bail!("unknown mode {other:?}\n{USAGE}"),
    }
}

/// A broken pipe on stdout means the reader has gone (`pbrain-wuzi bench | head`): the
/// command stops there, as other command-line tools do, instead of reporting it as a failure.
fn quiet_if_reader_left(result: anyhow::Result<()>) -> anyhow::Result<()> {
    match result {
        Err(e)
            if e.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// Logs to stderr only when `RUST_LOG` is set: under Piskvork stderr shares the pipe with the
/// protocol, so a default-on logger would corrupt the replies.
fn init_logging() {
    let mut builder = env_logger::Builder::new();
    builder
        .filter_level(log::LevelFilter::Off)
        .target(env_logger::Target::Stderr);
    if let Ok(spec) = env::var("RUST_LOG") {
        builder.parse_filters(&spec);
    }
    // Fails only if a logger is already set, which cannot happen here.
    let _ = builder.try_init();
}
