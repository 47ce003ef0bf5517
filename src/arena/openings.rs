//! Opening files and board symmetries.
//!
//! An opening file has one opening per line, in offset notation (`0,0, 1,0, 1,3`, relative to
//! the centre, as Piskvork and GomocupJudge use) or pos notation (`h8i9j8`, as Rapfi and
//! c-gomoku-cli use). Blank lines and lines starting with `#` are skipped, CRLF is tolerated.
//! Every opening is checked against the board size and the rule when the file is read, so a
//! bad opening is reported with its file and line before any game starts.

use std::fmt;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::arena::game::check_opening;
use crate::notation::{parse_offset_notation, parse_pos_notation, to_pos_notation};
use crate::types::{Pos, Rule};

/// Notation of an opening file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// `dx,dy, dx,dy, ...` from the centre `(w/2, h/2)`.
    Offset,
    /// `h8i9j8`: letter = x from `a`, number = y + 1.
    Pos,
    /// Offset if the line contains a comma, pos otherwise (decided line by line).
    Auto,
}

impl OpeningFormat {
    /// The format for `offset`, `pos` or `auto`.
    pub fn from_name(name: &str) -> Option<OpeningFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "offset" => Some(OpeningFormat::Offset),
            "pos" => Some(OpeningFormat::Pos),
            "auto" => Some(OpeningFormat::Auto),
            _ => None,
        }
    }
}

impl fmt::Display for OpeningFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpeningFormat::Offset => "offset",
            OpeningFormat::Pos => "pos",
            OpeningFormat::Auto => "auto",
        })
    }
}

/// One opening: its stones (black first) and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Stones in play order, black first.
    pub stones: Vec<Pos>,
    /// `file:line`, or `empty board`.
    pub source: String,
}

impl Opening {
    /// The empty opening: games start from an empty board.
    pub fn empty() -> Opening {
        Opening {
            stones: Vec::new(),
            source: "empty board".to_string(),
        }
    }

    /// The stones in pos notation (`h8i9`), or `-` for none.
    pub fn notation(&self) -> String {
        if self.stones.is_empty() {
            "-".to_string()
        } else {
            to_pos_notation(&self.stones)
        }
    }
}

/// Reads and checks every opening of a file.
///
/// # Errors
/// When the file cannot be read, holds no opening, or has a line that does not parse, does not
/// fit the board or is not a legal position under `rule`; the message names file and line.
pub fn load_openings(
    path: &Path,
    format: OpeningFormat,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read opening file {}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let openings = parse_openings(
        &text,
        &path.display().to_string(),
        format,
        width,
        height,
        rule,
    )?;
    if openings.is_empty() {
        bail!("opening file {} holds no opening", path.display());
    }
    Ok(openings)
}

/// Parses and checks the openings in `text`; `name` is used in messages and sources.
///
/// # Errors
/// As [`load_openings`], naming `name` and the 1-based line.
pub fn parse_openings(
    text: &str,
    name: &str,
    format: OpeningFormat,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_start_matches('\u{feff}').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line_number = index + 1;
        let stones = parse_opening_line(line, format, width, height).with_context(|| {
            format!("{name}:{line_number}: bad opening `{line}` for a {width}x{height} board")
        })?;
        check_opening(width, height, rule, &stones).with_context(|| {
            format!("{name}:{line_number}: opening `{line}` is not legal under {rule}")
        })?;
        openings.push(Opening {
            stones,
            source: format!("{name}:{line_number}"),
        });
    }
    Ok(openings)
}

/// Parses one opening line in the given format.
fn parse_opening_line(
    line: &str,
    format: OpeningFormat,
    width: usize,
    height: usize,
) -> Result<Vec<Pos>> {
    let format = match format {
        OpeningFormat::Auto if line.contains(',') => OpeningFormat::Offset,
        OpeningFormat::Auto => OpeningFormat::Pos,
        other => other,
    };
    match format {
        OpeningFormat::Offset => {
            // Tolerate a trailing comma, as some files have one.
            let line = line.trim_end_matches(|c: char| c == ',' || c.is_whitespace());
            parse_offset_notation(line, width, height)
        }
        _ => {
            let compact: String = line.split_whitespace().collect();
            parse_pos_notation(&compact, width, height)
        }
    }
}

/// Number of symmetries that map a `width` x `height` board onto itself: 8 for a square,
/// 4 (the flips) otherwise.
pub fn symmetry_count(width: usize, height: usize) -> u8 {
    if width == height {
        8
    } else {
        4
    }
}

/// Applies symmetry `index` (0 = identity): bit 2 transposes (square boards only), then bit 0
/// mirrors x and bit 1 mirrors y.
pub fn apply_symmetry(index: u8, pos: Pos, width: usize, height: usize) -> Pos {
    let (mut x, mut y) = (pos.xu(), pos.yu());
    if index & 4 != 0 && width == height {
        std::mem::swap(&mut x, &mut y);
    }
    if index & 1 != 0 {
        x = width - 1 - x;
    }
    if index & 2 != 0 {
        y = height - 1 - y;
    }
    Pos::new(x, y)
}

/// An opening transformed by symmetry `index`.
pub fn transform(opening: &Opening, index: u8, width: usize, height: usize) -> Opening {
    if index == 0 {
        return opening.clone();
    }
    Opening {
        stones: opening
            .stones
            .iter()
            .map(|&pos| apply_symmetry(index, pos, width, height))
            .collect(),
        source: format!("{} (symmetry {index})", opening.source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_and_stay_on_board() {
        let pos = Pos::new(1, 3);
        let mut seen = std::collections::HashSet::new();
        for index in 0..8 {
            let image = apply_symmetry(index, pos, 15, 15);
            assert!(image.xu() < 15 && image.yu() < 15);
            seen.insert(image);
        }
        assert_eq!(seen.len(), 8);
        assert_eq!(apply_symmetry(1, pos, 15, 15), Pos::new(13, 3));
        assert_eq!(apply_symmetry(2, pos, 15, 15), Pos::new(1, 11));
        assert_eq!(apply_symmetry(4, pos, 15, 15), Pos::new(3, 1));
        // On a rectangle the transpose bit is ignored.
        assert_eq!(apply_symmetry(5, pos, 20, 15), Pos::new(18, 3));
        assert_eq!(symmetry_count(20, 15), 4);
    }
}
