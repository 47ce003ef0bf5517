//! wuzi: a Gomoku/Renju engine for the Gomocup `pbrain` protocol.
#![warn(missing_docs)]
#![warn(clippy::print_stdout)]

pub mod arena;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod position;
pub mod protocol;
pub mod search;
pub mod tune;
pub mod types;
