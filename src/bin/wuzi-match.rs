//! `wuzi-match`: plays pbrain engines against each other (see `wuzi-match --help`).

use std::io::Write;
use std::process::ExitCode;

use wuzi::arena::{self, Command};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match arena::parse_args(&args) {
        Ok(Command::Run(config)) => config,
        Ok(Command::Help) => {
            print!("{}", arena::HELP);
            return ExitCode::SUCCESS;
        }
        Ok(Command::Version) => {
            println!("wuzi-match {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("wuzi-match: {e:#}");
            return ExitCode::from(1);
        }
    };
    arena::interrupt::install();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match arena::run(&config, &mut out, arena::interrupt::flag()) {
        Ok(summary) => {
            let _ = out.flush();
            if summary.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            let _ = out.flush();
            eprintln!("wuzi-match: {e:#}");
            ExitCode::from(1)
        }
    }
}
