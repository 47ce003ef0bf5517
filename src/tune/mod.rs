//! Fitting the learned evaluation (behind the `wuzi-tune` command): [`samples`] extracts
//! positions from match records into sample files, [`fit`] fits the tables of
//! [`crate::eval::learned`] to them, [`codegen`] writes the fitted tables as Rust source.
//! [`json`] reads the records.

pub mod codegen;
pub mod fit;
pub mod json;
pub mod samples;
