//! Game records: SGF, Piskvork's PSQ and one JSON object per game.
//!
//! SGF: `FF[4] GM[4]`, `SZ[n]` (or `SZ[w:h]`), `PB`/`PW`, `RE[B+]`, `RE[W+]` or `RE[0]` (the
//! winner, never inverted), then the stones as `B[..]`/`W[..]` with SGF letters (`a` = 0, x
//! first). PSQ: `Piskvorky WxH, 11:11, 0`, one `x+1,y+1,ms` line per stone, `-1`, then the
//! black and white engine names and `-1`. JSON: one line per game, written by hand with full
//! string escaping.

use std::fmt::Write as _;

use anyhow::{anyhow, bail, Context, Result};

use crate::arena::game::{GameRecord, Outcome};
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};

/// What a record needs beyond the game itself.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// 1-based game number in the run.
    pub number: usize,
    /// 1-based round.
    pub round: usize,
    /// Where the opening came from (`file:line`, or `empty board`).
    pub opening_source: String,
}

/// Escapes a value for an SGF text property (`]`, `\` and `:` need a backslash).
fn sgf_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, ']' | '\\' | ':') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// SGF point `xy` with letters from `a`.
fn sgf_point(pos: Pos) -> String {
    let letter = |v: u8| char::from(b'a' + v);
    format!("{}{}", letter(pos.x), letter(pos.y))
}

/// The SGF `RE` value: `B+`, `W+` or `0` (draw).
pub fn sgf_result(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Color::Black) => "B+",
        Outcome::Win(Color::White) => "W+",
        Outcome::Draw => "0",
    }
}

/// The game as an SGF file.
pub fn to_sgf(game: &GameRecord, info: &GameInfo) -> String {
    let mut props = format!(
        "GN[{}]RU[{}]PB[{}]PW[{}]RE[{}]",
        info.number,
        game.rule.name(),
        sgf_escape(&game.names[Color::Black.index()]),
        sgf_escape(&game.names[Color::White.index()]),
        sgf_result(game.outcome),
    );
    let comment = format!(
        "{} by {}: {}\nopening {} ({} stones)",
        game.outcome.result_string(),
        game.reason,
        game.detail,
        info.opening_source,
        game.opening.len()
    );
    let _ = write!(props, "C[{}]", sgf_escape(&comment));
    sgf_document(
        "wuzi-match",
        game.width,
        game.height,
        &props,
        &game.all_stones(),
    )
}

/// A game played outside a match (`pbrain-wuzi play`) as an SGF file: the size, the rule, the
/// players' names, the result once there is one, and the stones in play order.
pub fn stones_to_sgf(
    width: usize,
    height: usize,
    rule: Rule,
    names: [&str; 2],
    outcome: Option<Outcome>,
    stones: &[(Pos, Color)],
) -> String {
    let mut props = format!(
        "RU[{}]PB[{}]PW[{}]",
        rule.name(),
        sgf_escape(names[0]),
        sgf_escape(names[1])
    );
    if let Some(outcome) = outcome {
        let _ = write!(props, "RE[{}]", sgf_result(outcome));
    }
    sgf_document("pbrain-wuzi", width, height, &props, stones)
}

/// An SGF file: the header naming `app`, the size, the game properties `props`, then one node
/// per stone.
fn sgf_document(
    app: &str,
    width: usize,
    height: usize,
    props: &str,
    stones: &[(Pos, Color)],
) -> String {
    let mut sgf = format!("(;FF[4]GM[4]CA[UTF-8]AP[{app}]");
    if width == height {
        let _ = write!(sgf, "SZ[{width}]");
    } else {
        let _ = write!(sgf, "SZ[{width}:{height}]");
    }
    sgf.push_str(props);
    for &(pos, color) in stones {
        let tag = match color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let _ = write!(sgf, ";{tag}[{}]", sgf_point(pos));
    }
    sgf.push_str(")\n");
    sgf
}

/// The game in Piskvork's PSQ layout (1-based coordinates, time in ms; opening stones have 0).
pub fn to_psq(game: &GameRecord) -> String {
    let moves = game
        .opening
        .iter()
        .map(|&pos| (pos, 0))
        .chain(game.moves.iter().map(|m| (m.pos, m.time_ms)));
    psq_document(
        game.width,
        game.height,
        moves,
        [
            &game.names[Color::Black.index()],
            &game.names[Color::White.index()],
        ],
    )
}

/// Stones in play order, black first, in Piskvork's PSQ layout (no times: each is 0). PSQ has
/// no field for the rule.
pub fn stones_to_psq(width: usize, height: usize, names: [&str; 2], stones: &[Pos]) -> String {
    psq_document(width, height, stones.iter().map(|&pos| (pos, 0)), names)
}

/// A PSQ file: the header, one `x+1,y+1,ms` line per stone, `-1`, the names and `-1`.
fn psq_document(
    width: usize,
    height: usize,
    moves: impl Iterator<Item = (Pos, u64)>,
    names: [&str; 2],
) -> String {
    let mut psq = format!("Piskvorky {width}x{height}, 11:11, 0\n");
    for (pos, ms) in moves {
        let _ = writeln!(psq, "{},{},{ms}", pos.x + 1, pos.y + 1);
    }
    psq.push_str("-1\n");
    let _ = writeln!(psq, "{}", names[0]);
    let _ = writeln!(psq, "{}", names[1]);
    psq.push_str("-1\n");
    psq
}

/// A JSON string literal with every needed escape.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of strings.
fn json_strings<I: IntoIterator<Item = String>>(items: I) -> String {
    let parts: Vec<String> = items.into_iter().map(|s| json_string(&s)).collect();
    format!("[{}]", parts.join(","))
}

/// The game as one line of JSON (no trailing newline). Fields: `game`, `round`, `black`,
/// `white`, `rule`, `width`, `height`, `opening` (stones as `"x,y"`), `opening_source`,
/// `moves` (engine moves as `"x,y"`), `times_ms` (one per move), `result` (`1-0`, `0-1`,
/// `1/2-1/2`), `winner` (`black`, `white` or `null`), `winner_name`, `reason`, `detail`,
/// `messages` (`{ply, color, text}`), `peak_memory` (bytes per colour or `null`).
pub fn to_json(game: &GameRecord, info: &GameInfo) -> String {
    let black = &game.names[Color::Black.index()];
    let white = &game.names[Color::White.index()];
    let (winner, winner_name) = match game.outcome {
        Outcome::Win(color) => (
            json_string(&color.to_string()),
            json_string(&game.names[color.index()]),
        ),
        Outcome::Draw => ("null".to_string(), "null".to_string()),
    };
    let times: Vec<String> = game.moves.iter().map(|m| m.time_ms.to_string()).collect();
    let messages: Vec<String> = game
        .messages
        .iter()
        .map(|m| {
            format!(
                "{{\"ply\":{},\"color\":{},\"text\":{}}}",
                m.ply,
                json_string(&m.color.to_string()),
                json_string(&m.text)
            )
        })
        .collect();
    let memory = |color: Color| {
        game.peak_memory[color.index()].map_or("null".to_string(), |bytes| bytes.to_string())
    };
    format!(
        concat!(
            "{{\"game\":{},\"round\":{},\"black\":{},\"white\":{},\"rule\":{},",
            "\"width\":{},\"height\":{},\"opening\":{},\"opening_source\":{},\"moves\":{},",
            "\"times_ms\":[{}],\"result\":{},\"winner\":{},\"winner_name\":{},\"reason\":{},",
            "\"detail\":{},\"messages\":[{}],\"peak_memory\":{{\"black\":{},\"white\":{}}}}}"
        ),
        info.number,
        info.round,
        json_string(black),
        json_string(white),
        json_string(game.rule.name()),
        game.width,
        game.height,
        json_strings(game.opening.iter().map(|p| p.to_string())),
        json_string(&info.opening_source),
        json_strings(game.moves.iter().map(|m| m.pos.to_string())),
        times.join(","),
        json_string(game.outcome.result_string()),
        winner,
        winner_name,
        json_string(game.reason.name()),
        json_string(&game.detail),
        messages.join(","),
        memory(Color::Black),
        memory(Color::White),
    )
}

/// A game record read back: the board's size, the rule when the record names one (SGF's
/// `RU`), and the stones in play order with their colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadRecord {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The rule the record names, if any (PSQ names none).
    pub rule: Option<Rule>,
    /// Every stone, in the order played.
    pub stones: Vec<(Pos, Color)>,
}

/// Reads an SGF or a PSQ record, told apart by how the text begins (`(` or `Piskvorky`).
///
/// # Errors
/// On text that is neither, or what [`read_sgf`] or [`read_psq`] refuse.
pub fn read_record(text: &str) -> Result<ReadRecord> {
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if start.starts_with('(') {
        read_sgf(start)
    } else if start.starts_with("Piskvorky") {
        read_psq(start)
    } else {
        bail!("not an SGF or PSQ game record (an SGF begins with `(`, a PSQ with `Piskvorky`)")
    }
}

/// The size `n` or `w:h` (SGF) or `wxh` (PSQ), each side within the supported range.
fn read_size(text: &str, separator: char) -> Result<(usize, usize)> {
    let side = |t: &str| -> Result<usize> {
        let n: usize = t
            .trim()
            .parse()
            .with_context(|| format!("board size {text:?} is not a number"))?;
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            bail!("board size {text:?} is not supported (each side {MIN_SIZE}..{MAX_SIZE})");
        }
        Ok(n)
    };
    match text.split_once(separator) {
        Some((w, h)) => Ok((side(w)?, side(h)?)),
        None => side(text).map(|n| (n, n)),
    }
}

/// The point `(x, y)` from 0 when it is on a `width` x `height` board.
fn on_board(x: i64, y: i64, width: usize, height: usize) -> Option<Pos> {
    (x >= 0 && y >= 0 && x < width as i64 && y < height as i64)
        .then(|| Pos::new(x as usize, y as usize))
}

/// Reads Piskvork's PSQ layout: the `Piskvorky WxH, ...` line, then one `x,y[,ms]` line per
/// stone (1-based, black first, alternating) up to `-1`; what follows (names) is ignored.
///
/// # Errors
/// On a missing or bad size, a line that is not a point, or a point off the board.
pub fn read_psq(text: &str) -> Result<ReadRecord> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map_or("", |(_, l)| l.trim());
    let size = header
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.split(',').next())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| anyhow!("the PSQ header {header:?} gives no board size"))?;
    let (width, height) = read_size(size, 'x')?;
    let mut stones = Vec::new();
    for (index, line) in lines {
        let line = line.trim();
        if line == "-1" {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let number = |i: usize| fields.get(i).and_then(|f| f.parse::<i64>().ok());
        let (Some(x), Some(y)) = (number(0), number(1)) else {
            bail!("line {}: {line:?} is not a stone `x,y,time`", index + 1);
        };
        if fields.len() > 3 {
            bail!("line {}: {line:?} is not a stone `x,y,time`", index + 1);
        }
        let pos = on_board(x - 1, y - 1, width, height).ok_or_else(|| {
            anyhow!(
                "line {}: stone {x},{y} is off the {width}x{height} board (PSQ counts from 1)",
                index + 1
            )
        })?;
        let color = if stones.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        stones.push((pos, color));
    }
    Ok(ReadRecord {
        width,
        height,
        rule: None,
        stones,
    })
}

/// The properties of an SGF game's main line, in order: the first variation is followed at
/// every branch, and reading stops where it ends.
fn sgf_properties(text: &str) -> Result<Vec<(String, Vec<String>)>> {
    let mut props: Vec<(String, Vec<String>)> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut ident = String::new();
    while let Some(c) = chars.next() {
        match c {
            '(' | ';' => ident.clear(),
            ')' => return Ok(props),
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some('\\') => {
                            if let Some(escaped) = chars.next() {
                                value.push(escaped);
                            }
                        }
                        Some(']') => break,
                        Some(c) => value.push(c),
                        None => bail!("SGF value not closed by `]`"),
                    }
                }
                match props.last_mut() {
                    Some((name, values)) if ident.is_empty() || *name == ident => {
                        values.push(value)
                    }
                    _ if ident.is_empty() => bail!("SGF value [{value}] has no property name"),
                    _ => props.push((ident.clone(), vec![value])),
                }
                ident.clear();
                // Further values of the same property follow without a name.
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                if chars.peek() == Some(&'[') {
                    ident = props.last().map(|(n, _)| n.clone()).unwrap_or_default();
                }
            }
            c if c.is_ascii_uppercase() => ident.push(c),
            // Lower-case letters in names (old SGF versions) and whitespace carry nothing.
            _ => {}
        }
    }
    bail!("SGF game not closed by `)`")
}

/// Reads an SGF game of Gomoku (`GM[4]`): `SZ` (`n` or `w:h`, 15 if absent), `RU` when it
/// names a rule this crate knows, and the `B`/`W` moves of the main line.
///
/// # Errors
/// On malformed text, another game than Gomoku, a pass, set-up stones (`AB`/`AW`), or a
/// point off the board.
pub fn read_sgf(text: &str) -> Result<ReadRecord> {
    let props = sgf_properties(text)?;
    let value = |name: &str| {
        props
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.first())
    };
    if let Some(game) = value("GM") {
        if game.trim() != "4" {
            bail!("SGF game GM[{game}] is not Gomoku (GM[4])");
        }
    }
    let (width, height) = match value("SZ") {
        Some(size) => read_size(size, ':')?,
        None => (15, 15),
    };
    let rule = value("RU").and_then(|r| Rule::from_name(r));
    let mut stones = Vec::new();
    for (name, values) in &props {
        let color = match name.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            "AB" | "AW" | "AE" => bail!("SGF set-up stones ({name}) are not supported"),
            _ => continue,
        };
        for point in values {
            let number = stones.len() + 1;
            let letters: Vec<char> = point.trim().chars().collect();
            let coordinate = |c: char| c.is_ascii_lowercase().then(|| c as i64 - 'a' as i64);
            let pos = match letters[..] {
                [] => bail!("SGF move {number} is a pass, which Gomoku has not"),
                [x, y] => coordinate(x)
                    .zip(coordinate(y))
                    .and_then(|(x, y)| on_board(x, y, width, height)),
                _ => None,
            }
            .ok_or_else(|| {
                anyhow!("SGF move {number} {name}[{point}] is not a point on the {width}x{height} board")
            })?;
            stones.push((pos, color));
        }
    }
    Ok(ReadRecord {
        width,
        height,
        rule,
        stones,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(json_string("é"), "\"é\"");
    }

    #[test]
    fn sgf_escapes_and_points() {
        assert_eq!(sgf_escape("a]b\\c:d"), "a\\]b\\\\c\\:d");
        assert_eq!(sgf_point(Pos::new(7, 0)), "ha");
        assert_eq!(sgf_point(Pos::new(21, 21)), "vv");
    }

    #[test]
    fn written_records_read_back() {
        let stones = [
            (Pos::new(7, 7), Color::Black),
            (Pos::new(8, 6), Color::White),
            (Pos::new(0, 14), Color::Black),
        ];
        let names = ["you", "wuzi ] \\ :"];
        let sgf = stones_to_sgf(15, 15, Rule::Renju, names, None, &stones);
        assert_eq!(
            sgf,
            "(;FF[4]GM[4]CA[UTF-8]AP[pbrain-wuzi]SZ[15]RU[renju]PB[you]\
             PW[wuzi \\] \\\\ \\:];B[hh];W[ig];B[ao])\n"
        );
        let read = read_record(&sgf).unwrap();
        assert_eq!(read.rule, Some(Rule::Renju));
        assert_eq!((read.width, read.height), (15, 15));
        assert_eq!(read.stones, stones);

        let points: Vec<Pos> = stones.iter().map(|s| s.0).collect();
        let psq = stones_to_psq(20, 18, names, &points);
        assert!(psq.starts_with("Piskvorky 20x18, 11:11, 0\n8,8,0\n9,7,0\n1,15,0\n-1\n"));
        let read = read_record(&psq).unwrap();
        assert_eq!(read.rule, None);
        assert_eq!((read.width, read.height), (20, 18));
        assert_eq!(read.stones, stones);
    }

    #[test]
    fn sgf_main_line_and_size_forms() {
        let read =
            read_sgf("(;GM[4]SZ[9:7]RU[4]C[a \\] b];B[aa]\n;W[bb](;B[cc];W[dd])(;B[ee]))").unwrap();
        assert_eq!((read.width, read.height), (9, 7));
        assert_eq!(read.rule, Some(Rule::Renju));
        let points: Vec<Pos> = read.stones.iter().map(|s| s.0).collect();
        assert_eq!(
            points,
            [
                Pos::new(0, 0),
                Pos::new(1, 1),
                Pos::new(2, 2),
                Pos::new(3, 3)
            ]
        );
        assert!(read_sgf("(;SZ[15];B[hh];W[])").is_err(), "a pass");
        assert!(read_sgf("(;SZ[5];B[ff])").is_err(), "off the board");
        assert!(read_sgf("(;GM[1]SZ[19];B[dd])").is_err(), "go");
        assert!(read_sgf("(;SZ[15]AB[hh])").is_err(), "set-up stones");
        assert!(read_sgf("(;SZ[15];B[hh]").is_err(), "not closed");
        assert!(read_sgf("(;SZ[40])").is_err(), "too large");
    }

    #[test]
    fn psq_refuses_what_it_cannot_read() {
        assert!(read_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n-1\n").is_err());
        assert!(read_psq("Piskvorky 15x15, 11:11, 0\n0,1,0\n-1\n").is_err());
        assert!(read_psq("Piskvorky 15x15, 11:11, 0\nh8\n-1\n").is_err());
        assert!(read_psq("Piskvorky, 11:11, 0\n1,1,0\n").is_err());
        assert!(read_record("h8 i9").is_err());
        // The names after the first `-1` are not stones.
        let read = read_psq("Piskvorky 15x15, 11:11, 0\r\n8,8,10\r\n-1\r\n8,9\r\n").unwrap();
        assert_eq!(read.stones, [(Pos::new(7, 7), Color::Black)]);
    }
}
