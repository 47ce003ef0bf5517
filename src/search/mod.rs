//! Search: move generation, the VCF solver, the principal-variation search and its time
//! manager and transposition table.

pub mod movegen;
pub mod vcf;
