//! The match runner behind `wuzi-match`: plays pbrain engines against each other over the
//! Gomocup protocol, referees every game with the crate's own rules code ([`crate::board`]),
//! and reports results with Elo, LOS and SPRT.
//!
//! Layout: [`config`] parses the command line, [`engine`] runs one engine process, [`game`]
//! plays and referees one game, [`openings`] reads opening files, [`stats`] holds the
//! statistics, [`record`] writes SGF/PSQ/JSON, and [`runner`] ties them together with worker
//! threads. [`interrupt`] turns Ctrl-C into a flag the runner watches.

pub mod config;
pub mod engine;
pub mod game;
pub mod interrupt;
pub mod openings;
pub mod record;
pub mod runner;
pub mod stats;

pub use config::{parse_args, Command, Config, HELP};
pub use runner::{run, Summary};
