//! Search: move generation, the VCF solver, the principal-variation search, the time manager
//! that bounds each move and the transposition table shared by its iterations.

pub mod limits;
pub mod movegen;
pub mod order_weights;
pub mod pvs;
mod rules;
pub mod score;
pub mod table_size;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;
