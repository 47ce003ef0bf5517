//! Move-list notations used by opening files and benchmarks.
//!
//! - *pos* notation (Rapfi, c-gomoku-cli): `h8i9j10`, moves in play order, each a letter for
//!   the column (`a` = 0) and a number for the row counted from the top (`1` = 0).
//! - *offset* notation (Piskvork, GomocupJudge openings): `dx,dy, dx,dy, ...` relative to the
//!   centre `(width / 2, height / 2)`.

use anyhow::{bail, Context, Result};

use crate::types::Pos;

fn checked(x: i64, y: i64, width: usize, height: usize, moves: &[Pos]) -> Result<Pos> {
    if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
        bail!("move {x},{y} is outside the {width}x{height} board");
    }
    let pos = Pos::new(x as usize, y as usize);
    if moves.contains(&pos) {
        bail!("move {pos} is played twice");
    }
    Ok(pos)
}

/// Parses pos notation (`h8i9`) for a `width` x `height` board.
///
/// # Errors
/// On a character that is not a letter or digit, a letter without a number, a point off the
/// board, or a point given twice.
pub fn parse_pos_notation(text: &str, width: usize, height: usize) -> Result<Vec<Pos>> {
    let mut moves = Vec::new();
    for (x, y) in read_pos_points(text)? {
        moves.push(checked(x, y, width, height, &moves)?);
    }
    Ok(moves)
}

/// Reads pos notation (`h8i9`) as `(column, row)` pairs from 0, the row counted from the top,
/// without checking them against a board (a caller that referees moves names the offending
/// one itself).
///
/// # Errors
/// On a character that is not a letter or digit, or a letter without a number.
pub fn read_pos_points(text: &str) -> Result<Vec<(i64, i64)>> {
    let mut points = Vec::new();
    let bytes = text.trim().as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let letter = bytes[i].to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            bail!(
                "expected a column letter at character {} of {:?}",
                i + 1,
                text.trim()
            );
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = std::str::from_utf8(&bytes[start..i]).unwrap_or_default();
        if digits.is_empty() || digits.len() > 3 {
            bail!(
                "expected a row number after '{}' in {:?}",
                letter as char,
                text.trim()
            );
        }
        let row: i64 = digits.parse().context("row number")?;
        points.push(((letter - b'a') as i64, row - 1));
    }
    Ok(points)
}

/// Parses offset notation (`0,0, 1,0, -1,2`) for a `width` x `height` board.
///
/// # Errors
/// On a token that is not an integer, an odd number of values, a point off the board, or a
/// point given twice.
pub fn parse_offset_notation(text: &str, width: usize, height: usize) -> Result<Vec<Pos>> {
    let values = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>()
                .with_context(|| format!("{t:?} is not an integer offset"))
        })
        .collect::<Result<Vec<i64>>>()?;
    if values.len() % 2 != 0 {
        bail!("offsets come in pairs, found {} values", values.len());
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    let mut moves = Vec::new();
    for pair in values.chunks(2) {
        let (dx, dy) = (pair[0], pair[1]);
        if dx.abs() > 64 || dy.abs() > 64 {
            bail!("offset {dx},{dy} is outside the {width}x{height} board");
        }
        moves.push(checked(cx + dx, cy + dy, width, height, &moves)?);
    }
    Ok(moves)
}

/// Writes moves in pos notation.
pub fn to_pos_notation(moves: &[Pos]) -> String {
    moves.iter().map(|&p| pos_name(p)).collect()
}

/// One point in pos notation: `h8` for `7,7`.
pub fn pos_name(pos: Pos) -> String {
    format!("{}{}", (b'a' + pos.x) as char, pos.y as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_notation_round_trip() {
        let moves = parse_pos_notation("h8i9j10", 15, 15).unwrap();
        assert_eq!(moves, vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(9, 9)]);
        assert_eq!(to_pos_notation(&moves), "h8i9j10");
        assert!(parse_pos_notation("h8h8", 15, 15).is_err());
        assert!(parse_pos_notation("p1", 15, 15).is_err());
        assert!(parse_pos_notation("a16", 15, 15).is_err());
        assert!(parse_pos_notation("a0", 15, 15).is_err());
        assert!(parse_pos_notation("h", 15, 15).is_err());
        assert!(parse_pos_notation("8h", 15, 15).is_err());
        assert!(parse_pos_notation("", 15, 15).unwrap().is_empty());
        assert_eq!(read_pos_points("a0 ").unwrap(), vec![(0, -1)]);
        assert_eq!(pos_name(Pos::new(21, 0)), "v1");
    }

    #[test]
    fn offset_notation_is_relative_to_the_centre() {
        let moves = parse_offset_notation("0,0, 1,0, -1,2\r", 15, 15).unwrap();
        assert_eq!(moves, vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(6, 9)]);
        let moves = parse_offset_notation("0,0, 1,1", 20, 20).unwrap();
        assert_eq!(moves, vec![Pos::new(10, 10), Pos::new(11, 11)]);
        assert!(parse_offset_notation("0,0, 1", 15, 15).is_err());
        assert!(parse_offset_notation("0,0, 8,0", 15, 15).is_err());
        assert!(parse_offset_notation("0,x", 15, 15).is_err());
    }
}
