//! The referee: builds a position stone by stone, judging fives and renju fouls as each
//! stone lands, and tells which colour receives a position given as a block.

use std::fmt;

use crate::board::{Board, Cell, MoveCheck};
use crate::types::{Color, Pos, Rule};

/// How a game ended, for error replies to moves after the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// A stone completed a winning line.
    Five(Color, Pos),
    /// Black played a renju foul.
    Foul(Pos),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Five(color, pos) => write!(f, "{color} won with the stone at {pos}"),
            Outcome::Foul(pos) => write!(f, "black lost by the forbidden move {pos}"),
        }
    }
}

/// Builds a position stone by stone, judging each stone when it lands for a five (so the
/// five that came first is the one that ended the game).
///
/// Renju fouls are judged only from the stone numbered `judged_from` (0-based) on. The
/// stones before it are a position given as a block (`BOARD`, `YXBOARD`, `SWAP2BOARD`), taken
/// as set up, not as a game to referee: puzzle collections and positions edited in a GUI list
/// their stones in any order, and a black stone that would have been a foul had it been
/// placed after the others is no reason to refuse the position. Managers judge fouls
/// themselves and never send a game past one. A foul played as a move (`TURN`, `PLAY`) still
/// ends the game.
///
/// Returns the board (side to move: after the last stone) and how the game ended, if it did.
pub(super) fn replay(
    width: usize,
    height: usize,
    rule: Rule,
    blocked: &[Pos],
    stones: &[(Pos, Color)],
    judged_from: usize,
) -> Result<(Board, Option<Outcome>), String> {
    let mut board = Board::new(width, height, rule).map_err(|e| e.to_string())?;
    for &pos in blocked {
        if !board.is_empty(pos) {
            return Err(format!("{pos} is not a free point of the board"));
        }
        board.set_blocked(pos);
    }
    let mut outcome = None;
    for (i, &(pos, color)) in stones.iter().enumerate() {
        board.set_side_to_move(color);
        match board.check_move(pos) {
            MoveCheck::OffBoard => {
                return Err(format!("{pos} is off the {width}x{height} board"));
            }
            MoveCheck::Occupied => return Err(format!("{pos} is not a free point")),
            MoveCheck::Win if outcome.is_none() => outcome = Some(Outcome::Five(color, pos)),
            MoveCheck::Forbidden if outcome.is_none() && i >= judged_from => {
                outcome = Some(Outcome::Foul(pos))
            }
            _ => {}
        }
        board.make_move(pos);
    }
    Ok((board, outcome))
}

/// The colour of the receiver of a `BOARD`/`YXBOARD` block (who is to move) with `own` and
/// `opponent` stones on the board.
///
/// In a game the colours alternate, so the receiver is black iff the stones are even in
/// number: `own == opponent` (black to move) or `opponent == own + 1` (white to move). A
/// composed position (a puzzle, a position edited in a GUI) may break the alternation, and
/// parity would then make the side with more stones white, which no game can reach: the
/// receiver with more stones than the opponent is black (a renju problem with an extra black
/// stone), and with two or more fewer, white. Black to move with one stone fewer cannot be
/// told from white to move and is read as white.
pub(super) fn receiver_color(own: usize, opponent: usize) -> Color {
    if own >= opponent {
        Color::Black
    } else {
        Color::White
    }
}

/// How a game that is still going ended so far: replays the board's own history, whose first
/// `set_up` stones were given as a block (fouls among them are not judged; see [`replay`]).
pub(super) fn judge(board: &Board, set_up: usize) -> Option<Outcome> {
    let blocked: Vec<Pos> = (0..board.height())
        .flat_map(|y| (0..board.width()).map(move |x| Pos::new(x, y)))
        .filter(|&p| board.cell(p) == Cell::Blocked)
        .collect();
    replay(
        board.width(),
        board.height(),
        board.rule(),
        &blocked,
        board.history(),
        set_up,
    )
    .ok()
    .and_then(|(_, outcome)| outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_sees_fives_and_fouls() {
        let row = |xs: &[usize], y: usize, c: Color| -> Vec<(Pos, Color)> {
            xs.iter().map(|&x| (Pos::new(x, y), c)).collect()
        };
        let mut stones = Vec::new();
        for (b, w) in row(&[0, 1, 2, 3, 4], 0, Color::Black).into_iter().zip(row(
            &[0, 1, 2, 3],
            5,
            Color::White,
        )) {
            stones.push(b);
            stones.push(w);
        }
        stones.push((Pos::new(4, 0), Color::Black));
        let (_, outcome) = replay(15, 15, Rule::Freestyle, &[], &stones, 0).expect("legal stones");
        assert_eq!(outcome, Some(Outcome::Five(Color::Black, Pos::new(4, 0))));
        let (board, outcome) =
            replay(15, 15, Rule::Freestyle, &[], &stones[..8], 0).expect("legal stones");
        assert_eq!(outcome, None);
        assert_eq!(board.side_to_move(), Color::Black);
        assert_eq!(judge(&board, 0), None);
        assert!(replay(
            15,
            15,
            Rule::Freestyle,
            &[],
            &[(Pos::new(15, 0), Color::Black)],
            0
        )
        .is_err());
    }

    #[test]
    fn the_receiver_of_a_block_is_black_unless_it_has_fewer_stones() {
        // Alternating counts: parity.
        for n in 0..10 {
            assert_eq!(receiver_color(n, n), Color::Black);
            assert_eq!(receiver_color(n, n + 1), Color::White);
        }
        // Composed positions: black never has fewer stones than white.
        assert_eq!(receiver_color(9, 8), Color::Black);
        assert_eq!(receiver_color(6, 3), Color::Black);
        assert_eq!(receiver_color(3, 5), Color::White);
    }

    #[test]
    fn fouls_count_only_among_the_stones_played_as_moves() {
        // Black's last stone at 7,7 makes two open threes: a double three under renju.
        let black = [(5, 7), (6, 7), (7, 5), (7, 6), (7, 7)];
        let white = [(0, 0), (0, 2), (0, 4), (0, 6)];
        let mut stones = Vec::new();
        for (i, &(x, y)) in black.iter().enumerate() {
            stones.push((Pos::new(x, y), Color::Black));
            if let Some(&(x, y)) = white.get(i) {
                stones.push((Pos::new(x, y), Color::White));
            }
        }
        let foul = Some(Outcome::Foul(Pos::new(7, 7)));
        let (_, outcome) = replay(15, 15, Rule::Renju, &[], &stones, 0).expect("legal stones");
        assert_eq!(outcome, foul);
        // The same stones given as a block: a set-up position, not a game past a foul.
        let (board, outcome) =
            replay(15, 15, Rule::Renju, &[], &stones, stones.len()).expect("legal stones");
        assert_eq!(outcome, None);
        assert_eq!(judge(&board, stones.len()), None);
        // Set up but the last stone played as a move: judged.
        assert_eq!(judge(&board, stones.len() - 1), foul);
        // Freestyle has no fouls.
        let (_, outcome) = replay(15, 15, Rule::Freestyle, &[], &stones, 0).expect("legal stones");
        assert_eq!(outcome, None);
    }
}
