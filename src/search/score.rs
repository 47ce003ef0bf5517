//! The score scale the search and its table share: proven wins and losses at the ends, how
//! scores print, and the answer a search returns.

use crate::types::Pos;

/// Score of a won position, from the winner's side; wins in fewer plies score higher.
pub const WIN_SCORE: i32 = 30_000;

/// Scores at or beyond ± this are proven wins/losses and get the ply adjustment.
pub const WIN_THRESHOLD: i32 = WIN_SCORE - 1000;

/// Beyond every score: the open ends of a full window.
pub const INFINITE: i32 = WIN_SCORE + 1;

/// The answer of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Pos,
    /// Score from the side to move's view (positive is good; beyond ±[`WIN_SCORE`]` - 1000`
    /// means a proven win or loss).
    pub score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Score as printed in progress lines: `+win in N` / `-loss in N` for proven results.
pub fn format_score(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win{}", WIN_SCORE - score)
    } else if score <= -WIN_THRESHOLD {
        format!("loss{}", WIN_SCORE + score)
    } else {
        score.to_string()
    }
}
