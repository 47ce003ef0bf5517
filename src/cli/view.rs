//! The board drawn as text for `play`: columns lettered from `a`, rows numbered from 1 at the
//! top (the pos notation people type), black `X`, white `O`, the last move between brackets,
//! and under renju black's forbidden points as `*`. Colour codes only when asked for (stdout
//! is a terminal).

use std::fmt::Write as _;

use wuzi::board::{Board, Cell};
use wuzi::types::{Color, Pos};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";

/// The board as lines of text; with `colour`, the last move is bold and forbidden points red.
pub fn draw(board: &Board, colour: bool) -> String {
    let (width, height) = (board.width(), board.height());
    let last = board.last_move();
    let forbidden: Vec<Pos> = if board.rule().has_forbidden() {
        let mut black = board.clone();
        black.set_side_to_move(Color::Black);
        black.forbidden_points()
    } else {
        Vec::new()
    };
    let paint = |text: String, code: &str| {
        if colour {
            format!("{code}{text}{RESET}")
        } else {
            text
        }
    };
    let letters: String = (0..width)
        .map(|x| format!(" {}", (b'a' + x as u8) as char))
        .collect();
    let mut out = format!("   {letters}\n");
    for y in 0..height {
        let _ = write!(out, "{:>2} ", y + 1);
        for x in 0..width {
            let pos = Pos::new(x, y);
            let mark = match board.cell(pos) {
                Cell::Stone(Color::Black) => "X".to_string(),
                Cell::Stone(Color::White) => "O".to_string(),
                Cell::Blocked => "#".to_string(),
                Cell::Empty if forbidden.contains(&pos) => paint("*".to_string(), RED),
                Cell::Empty => ".".to_string(),
            };
            if last == Some(pos) {
                out.push_str(&paint(format!("[{mark}]"), BOLD));
            } else if last.is_some_and(|l| l.y as usize == y && l.x as usize + 1 == x) {
                // The closing bracket of the last move took this cell's space.
                out.push_str(&mark);
            } else {
                out.push(' ');
                out.push_str(&mark);
            }
        }
        if last.is_some_and(|l| l.y as usize == y && l.x as usize + 1 == width) {
            let _ = writeln!(out, " {}", y + 1);
        } else {
            let _ = writeln!(out, "  {}", y + 1);
        }
    }
    let _ = writeln!(out, "   {letters}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::types::Rule;

    #[test]
    fn stones_last_move_and_fouls() {
        let mut board = Board::new(9, 9, Rule::Renju).unwrap();
        for (x, y) in [(2, 4), (8, 8), (3, 4), (8, 0), (4, 2), (0, 8), (4, 3)] {
            board.make_move(Pos::new(x, y));
        }
        // Black: c5 d5 (row 5) and e3 e4 (column e): e5 is a double three.
        assert!(board.is_forbidden(Pos::new(4, 4)));
        let text = draw(&board, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    a b c d e f g h i");
        assert_eq!(lines[1], " 1  . . . . . . . . O  1");
        assert_eq!(lines[3], " 3  . . . . X . . . .  3");
        assert_eq!(lines[4], " 4  . . . .[X]. . . .  4");
        assert_eq!(lines[5], " 5  . . X X * . . . .  5");
        assert_eq!(lines[9], " 9  O . . . . . . . O  9");
        assert_eq!(lines[10], lines[0]);
        assert!(!text.contains('\x1b'));
        // White's last move at the right edge.
        board.make_move(Pos::new(8, 5));
        let text = draw(&board, false);
        assert_eq!(text.lines().nth(6), Some(" 6  . . . . . . . .[O] 6"));
        // Colour codes only when asked for; under freestyle no point is marked.
        assert!(draw(&board, true).contains(RED));
        board.set_rule(Rule::Freestyle);
        assert!(!draw(&board, false).contains('*'));
    }
}
