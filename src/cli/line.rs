//! The line shown with an answer: the engine's principal variation checked move by move, and
//! for a proven result continued to the five, so a won position shows its whole winning line.
//!
//! The continuation takes the winner's VCF where the solver finds one and the loser's block
//! where the winner threatens a five; elsewhere (a win by threes, which the root's VCT solver
//! proves without giving its line) both sides' moves come from short searches of the engine.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use wuzi::board::{Board, MoveCheck};
use wuzi::engine::{time_for, Engine};
use wuzi::position::Position;
use wuzi::search::limits::Limits;
use wuzi::search::pvs::ROOT_VCT_SCORE;
use wuzi::search::score::{SearchResult, WIN_SCORE, WIN_THRESHOLD};
use wuzi::search::vcf::VcfSolver;
use wuzi::types::{Color, Pos};

/// Nodes the VCF solver may spend on each try to finish a winning line.
const FINISH_VCF_NODES: u64 = 200_000;
/// Nodes of each search that plays a winning line on where no VCF or block settles the move.
const PLAY_OUT_NODES: u64 = 20_000;
/// Most plies a line is played on by searches.
const PLAY_OUT_PLIES: usize = 60;

/// Plies to a proven result from the side to move's view (the five's ply included): positive
/// for a win, negative for a loss; `None` for a score that proves nothing or does not count
/// the plies (a root VCT answer).
pub fn mate(score: i32) -> Option<i32> {
    if score == ROOT_VCT_SCORE {
        None
    } else if score >= WIN_THRESHOLD {
        Some(WIN_SCORE - score)
    } else if score <= -WIN_THRESHOLD {
        Some(-(WIN_SCORE + score))
    } else {
        None
    }
}

/// The winner a score proves, for `mover` to move: `mover` for a win, the opponent for a loss.
pub fn proven_winner(score: i32, mover: Color) -> Option<Color> {
    if score >= WIN_THRESHOLD {
        Some(mover)
    } else if score <= -WIN_THRESHOLD {
        Some(mover.opponent())
    } else {
        None
    }
}

/// A score for people, from `mover`'s view: `win in N plies` or `loss in N plies` with the
/// plies `mate` counts, `win` or `loss` for a proven result of unknown length, otherwise the
/// evaluation with its sign.
pub fn score_words(score: i32, mate: Option<i32>, mover: Color) -> String {
    match (mate, proven_winner(score, mover)) {
        (Some(n), _) if n > 0 => format!("win in {}", plies(n)),
        (Some(n), _) => format!("loss in {}", plies(-n)),
        (None, Some(winner)) if winner == mover => "win".to_string(),
        (None, Some(_)) => "loss".to_string(),
        (None, None) => format!("{score:+}"),
    }
}

/// `n plies`, or `1 ply`.
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// An answer's line and how it ends.
pub struct Line {
    /// The moves, the answer first.
    pub moves: Vec<Pos>,
    /// The colour whose five ends the line, when it ends in one.
    pub five: Option<Color>,
}

/// The line of `result` on `board` from the engine's principal variation `pv`: cut at its
/// first move that is not legal or comes after a five; for a proven result, continued to the
/// winner's five when that can be found (see the module's documentation).
pub fn finish_line(
    engine: &mut Engine,
    board: &Board,
    result: &SearchResult,
    pv: Vec<Pos>,
) -> Line {
    let mut play = board.clone();
    let mut moves = Vec::new();
    let mut five = None;
    for pos in pv {
        let mover = play.side_to_move();
        match play.check_move(pos) {
            MoveCheck::Ordinary => {}
            MoveCheck::Win => five = Some(mover),
            _ => break,
        }
        play.make_move(pos);
        moves.push(pos);
        if five.is_some() {
            break;
        }
    }
    if moves.is_empty() {
        // The fallback move of a search that had nothing to search.
        return Line {
            moves: vec![result.best],
            five: None,
        };
    }
    if let (Some(winner), None) = (proven_winner(result.score, board.side_to_move()), five) {
        five = finish_win(&mut play, winner, &mut moves)
            .or_else(|| play_out(engine, &mut play, winner, &mut moves));
    }
    Line { moves, five }
}

/// Continues a line from `board` towards `winner`'s five: the winner's VCF when it has one,
/// and the loser's block when the winner threatens a five. Returns the colour whose five ends
/// the line, if it got there; otherwise the line stops where neither applies.
fn finish_win(board: &mut Board, winner: Color, moves: &mut Vec<Pos>) -> Option<Color> {
    let mut solver = VcfSolver::new();
    while !board.is_full() {
        let mover = board.side_to_move();
        if mover == winner {
            let line = solver.solve(&mut Position::new(board), 100, FINISH_VCF_NODES)?;
            for pos in line {
                if let Some(color) = play(board, pos, moves)? {
                    return Some(color);
                }
            }
        } else {
            // The loser must stop the winner's five, if the winner threatens one.
            let block = board
                .empty_cells()
                .find(|&p| board.is_win_move(p, winner))?;
            if let Some(color) = play(board, block, moves)? {
                return Some(color);
            }
        }
    }
    None
}

/// Plays `pos` on `board` and adds it to `moves` when it is legal: `Some(Some(colour))` when
/// it made `colour`'s five, `Some(None)` when the game goes on, `None` (nothing played) for an
/// occupied point or a renju foul.
fn play(board: &mut Board, pos: Pos, moves: &mut Vec<Pos>) -> Option<Option<Color>> {
    let mover = board.side_to_move();
    let check = board.check_move(pos);
    if !matches!(check, MoveCheck::Ordinary | MoveCheck::Win) {
        return None;
    }
    board.make_move(pos);
    moves.push(pos);
    Some((check == MoveCheck::Win).then_some(mover))
}

/// Plays a proven win on with short searches of `engine` for both sides, finishing by VCF and
/// forced blocks as soon as they settle it, until `winner`'s five. Stops, returning `None`,
/// when a search of the winner's no longer proves the win or the line grows too long.
fn play_out(
    engine: &mut Engine,
    board: &mut Board,
    winner: Color,
    moves: &mut Vec<Pos>,
) -> Option<Color> {
    let limits = Limits {
        max_nodes: Some(PLAY_OUT_NODES),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let start = moves.len();
    while moves.len() < start + PLAY_OUT_PLIES && !board.is_full() {
        let mover = board.side_to_move();
        let time = time_for(&limits, board, Instant::now());
        let result = engine.think_within(board, &limits, &time, &stop, &mut |_| {});
        // A block of the loser's five is forced and proves nothing; any other move of the
        // winner's must keep the win proven.
        let forced = board
            .empty_cells()
            .any(|p| board.is_win_move(p, winner.opponent()));
        if mover == winner && !forced && proven_winner(result.score, mover) != Some(winner) {
            return None;
        }
        if let Some(color) = play(board, result.best, moves)? {
            return Some(color);
        }
        let mut rest = Vec::new();
        let mut trial = board.clone();
        if let Some(color) = finish_win(&mut trial, winner, &mut rest) {
            moves.extend(rest);
            *board = trial;
            return Some(color);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::types::Rule;

    #[test]
    fn mate_counts_plies_from_the_side_to_move() {
        assert_eq!(mate(WIN_SCORE - 1), Some(1));
        assert_eq!(mate(-(WIN_SCORE - 4)), Some(-4));
        assert_eq!(mate(350), None);
        assert_eq!(mate(ROOT_VCT_SCORE), None);
        assert_eq!(
            proven_winner(ROOT_VCT_SCORE, Color::White),
            Some(Color::White)
        );
        assert_eq!(
            proven_winner(-(WIN_SCORE - 4), Color::White),
            Some(Color::Black)
        );
        let words = |score| score_words(score, mate(score), Color::Black);
        assert_eq!(words(WIN_SCORE - 3), "win in 3 plies");
        assert_eq!(words(WIN_SCORE - 1), "win in 1 ply");
        assert_eq!(words(-(WIN_SCORE - 2)), "loss in 2 plies");
        assert_eq!(words(ROOT_VCT_SCORE), "win");
        assert_eq!(words(35), "+35");
        assert_eq!(words(-35), "-35");
    }

    #[test]
    fn a_win_is_finished_to_the_five() {
        // Black to move: a four at 3..=6 on row 7 (closed at 2 by white) wins at once.
        let board = Board::from_stones(
            15,
            15,
            Rule::Freestyle,
            &[(3, 7), (4, 7), (5, 7), (6, 7)],
            &[(2, 7), (0, 0), (14, 14), (0, 14)],
            Color::Black,
        )
        .unwrap();
        let mut moves = Vec::new();
        let won = finish_win(&mut board.clone(), Color::Black, &mut moves);
        assert_eq!((won, moves), (Some(Color::Black), vec![Pos::new(7, 7)]));
        // White to move must block at 7,7, and then black has no VCF left.
        let mut white_to_move = board.clone();
        white_to_move.set_side_to_move(Color::White);
        let mut moves = Vec::new();
        let won = finish_win(&mut white_to_move, Color::Black, &mut moves);
        assert_eq!((won, moves), (None, vec![Pos::new(7, 7)]));
    }
}
