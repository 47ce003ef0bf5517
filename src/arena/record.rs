//! Game records: SGF, Piskvork's PSQ and one JSON object per game.
//!
//! SGF: `FF[4] GM[4]`, `SZ[n]` (or `SZ[w:h]`), `PB`/`PW`, `RE[B+]`, `RE[W+]` or `RE[0]` (the
//! winner, never inverted), then the stones as `B[..]`/`W[..]` with SGF letters (`a` = 0, x
//! first). PSQ: `Piskvorky WxH, 11:11, 0`, one `x+1,y+1,ms` line per stone, `-1`, then the
//! black and white engine names and `-1`. JSON: one line per game, written by hand with full
//! string escaping.

use std::fmt::Write as _;

use crate::arena::game::{GameRecord, Outcome};
use crate::types::{Color, Pos};

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
    let mut sgf = String::from("(;FF[4]GM[4]CA[UTF-8]AP[wuzi-match]");
    if game.width == game.height {
        let _ = write!(sgf, "SZ[{}]", game.width);
    } else {
        let _ = write!(sgf, "SZ[{}:{}]", game.width, game.height);
    }
    let _ = write!(
        sgf,
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
    let _ = write!(sgf, "C[{}]", sgf_escape(&comment));
    for (pos, color) in game.all_stones() {
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
    let mut psq = format!("Piskvorky {}x{}, 11:11, 0\n", game.width, game.height);
    for pos in &game.opening {
        let _ = writeln!(psq, "{},{},0", pos.x + 1, pos.y + 1);
    }
    for m in &game.moves {
        let _ = writeln!(psq, "{},{},{}", m.pos.x + 1, m.pos.y + 1, m.time_ms);
    }
    psq.push_str("-1\n");
    let _ = writeln!(psq, "{}", game.names[Color::Black.index()]);
    let _ = writeln!(psq, "{}", game.names[Color::White.index()]);
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
}
