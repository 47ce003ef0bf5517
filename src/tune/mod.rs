//! Fitting the learned evaluation (behind the `wuzi-tune` command): [`samples`] extracts
//! positions from match records into sample files, [`fit`] fits the tables of
//! [`crate::eval::learned`] to them, [`codegen`] writes the fitted tables as Rust source.
//! [`order`] fits the move ordering of free positions to the moves of the records. [`json`]
//! reads the records.

pub mod codegen;
pub mod fit;
pub mod json;
pub mod order;
pub mod samples;
