//! Positions for fitting the evaluation, read from match records and kept in sample files.
//!
//! [`extract_game`] replays one `wuzi-match --jsonl` record and keeps every position after the
//! opening that the evaluation could be asked about (no five to make or to block, no
//! flexible or double four of the mover: the search reads those out): who is to move, its
//! [`threat_state`], how many of each colour's empty cells have each shape code, the game's
//! result and, when the record holds one, the mover's search score for that position
//! (wuzi's or Rapfi's, whichever moved there).
//!
//! A sample file is the extraction of one record file (`X.jsonl` gives `X.samples`), so the
//! extraction is incremental: a record file is read again only when it is newer than its
//! samples. Layout, little-endian: the magic `WZS2`, then per game a header (game number
//! u32, rule code u8, width u8, height u8, black's result in halves u8, positions u16) and
//! per position: stones on the board u16, mover u8 (0 black), threat state u8, score kind
//! u8 (0 none, 1 wuzi's, 2 Rapfi's), score i32, entries of the mover u16, of the opponent
//! u16, then each entry as code u16 and count u16, the mover's first.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::json::{self, Value};
use crate::arena::game::parse_move;
use crate::board::pattern::Combo;
use crate::board::Board;
use crate::eval::shape_code::{shape_code, SHAPE_CODES};
use crate::position::Position;
use crate::search::pvs::threat_state;
use crate::types::{Color, Pos, Rule};

/// The first bytes of a sample file.
const MAGIC: &[u8; 4] = b"WZS2";

/// A search score of the side to move, from its own view, and whose search gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// wuzi's `depth D score S`, in the evaluation's points.
    Wuzi(i32),
    /// Rapfi's `Eval V`, in its points (a win chance of `sigmoid(V / 250)`, see
    /// [`RAPFI_SCALE`]); its mates read as [`RAPFI_MATE`] either way.
    Rapfi(i32),
}

/// Rapfi's points per unit of the sigmoid that reads its evaluation as a win chance.
pub const RAPFI_SCALE: f64 = 250.0;

/// A Rapfi mate score (`+M21`, `-M6`) as points.
pub const RAPFI_MATE: i32 = 30_000;

/// The score in a message line, if it holds one: wuzi's `depth D score S ...` or Rapfi's
/// `Depth D-S | Eval V | ...` (with or without the runner's `MESSAGE ` prefix).
pub fn parse_score(text: &str) -> Option<Score> {
    let text = text.strip_prefix("MESSAGE ").unwrap_or(text);
    let mut words = text.split_whitespace();
    if words.next() == Some("depth") && words.nth(1) == Some("score") {
        return words.next()?.parse().ok().map(Score::Wuzi);
    }
    if !text.contains("Depth ") {
        return None;
    }
    let value = text
        .split('|')
        .find_map(|part| part.trim().strip_prefix("Eval "))?;
    let value = value.trim();
    if let Some(mate) = value.strip_prefix("+M") {
        mate.parse::<u32>().ok().map(|_| Score::Rapfi(RAPFI_MATE))
    } else if let Some(mate) = value.strip_prefix("-M") {
        mate.parse::<u32>().ok().map(|_| Score::Rapfi(-RAPFI_MATE))
    } else {
        value.parse().ok().map(Score::Rapfi)
    }
}

/// One position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Stones on the board.
    pub stones: u16,
    /// The side to move.
    pub mover: Color,
    /// [`threat_state`] of the position.
    pub threat_state: u8,
    /// The mover's search score for the position, if the record has one.
    pub score: Option<Score>,
    /// `(shape code, empty cells with it)` of the mover, then of the opponent, codes rising.
    pub cells: [Vec<(u16, u16)>; 2],
}

/// One game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's number in its record file.
    pub number: u32,
    /// The rule.
    pub rule: Rule,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Black's result in halves: 2 a win, 1 a draw, 0 a loss.
    pub black_halves: u8,
    /// The positions, in the order played.
    pub samples: Vec<Sample>,
}

impl Game {
    /// The result of `color` as 1, 1/2 or 0.
    pub fn result_for(&self, color: Color) -> f64 {
        let black = f64::from(self.black_halves) / 2.0;
        match color {
            Color::Black => black,
            Color::White => 1.0 - black,
        }
    }
}

/// The ends of a game whose result says who played better: a five, a renju foul, a full
/// board or the runner's ply limit. Time losses, crashes and illegal moves say nothing about
/// the positions.
const KEPT_REASONS: [&str; 4] = ["five", "renju foul", "board full", "ply limit"];

/// The score of the last message of each ply that holds one (see [`parse_score`]; the
/// deepest completed iteration comes last), by ply.
pub fn search_scores(game: &Value) -> Vec<(u64, Score)> {
    let mut scores: Vec<(u64, Score)> = Vec::new();
    for m in game
        .get("messages")
        .and_then(Value::as_array)
        .unwrap_or(&[])
    {
        let (Some(ply), Some(text)) = (
            m.get("ply").and_then(Value::as_u64),
            m.get("text").and_then(Value::as_str),
        ) else {
            continue;
        };
        let Some(score) = parse_score(text) else {
            continue;
        };
        match scores.iter_mut().find(|(p, _)| *p == ply) {
            Some(entry) => entry.1 = score,
            None => scores.push((ply, score)),
        }
    }
    scores
}

/// The shape-code counts of `color`'s empty cells, codes rising.
fn code_counts(pos: &Position, color: Color, counts: &mut [u16; SHAPE_CODES]) -> Vec<(u16, u16)> {
    counts.fill(0);
    for p in pos.board().empty_cells() {
        counts[shape_code(pos.shape(p, color).patterns())] += 1;
    }
    counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(code, &n)| (code as u16, n))
        .collect()
}

/// The sample of a position, with the mover's search score `score`; `counts` is scratch
/// space.
pub fn sample_of(pos: &Position, score: Option<Score>, counts: &mut [u16; SHAPE_CODES]) -> Sample {
    let me = pos.side_to_move();
    Sample {
        stones: pos.board().stone_count() as u16,
        mover: me,
        threat_state: threat_state(pos) as u8,
        score,
        cells: [me, me.opponent()].map(|c| code_counts(pos, c, counts)),
    }
}

/// Whether the evaluation could be asked about the position (see the module comment).
pub fn is_quiet(pos: &Position) -> bool {
    let me = pos.side_to_move();
    let op = me.opponent();
    pos.combo_count(me, Combo::Five) + pos.combo_count(op, Combo::Five) == 0
        && pos.combo_count(me, Combo::FlexFour) + pos.combo_count(me, Combo::DoubleFour) == 0
}

/// The positions of one record line, or `None` for a game the fit does not read (an
/// unknown rule, an end that says nothing, a broken record).
pub fn extract_game(line: &str) -> Option<Game> {
    let game = json::parse(line).ok()?;
    let rule = Rule::from_name(game.get("rule")?.as_str()?)?;
    let reason = game.get("reason")?.as_str()?;
    if !KEPT_REASONS.contains(&reason) {
        return None;
    }
    let width = game.get("width")?.as_u64()?;
    let height = game.get("height")?.as_u64()?;
    let board = Board::new(width as usize, height as usize, rule).ok()?;
    let black_halves = match game.get("result")?.as_str()? {
        "1-0" => 2,
        "0-1" => 0,
        "1/2-1/2" => 1,
        _ => return None,
    };
    let points = |key: &str| -> Option<Vec<Pos>> {
        game.get(key)?
            .as_array()?
            .iter()
            .map(|v| {
                let (x, y) = parse_move(v.as_str()?)?;
                let on = |c: i64, n: u64| (0..n as i64).contains(&c);
                (on(x, width) && on(y, height)).then(|| Pos::new(x as usize, y as usize))
            })
            .collect()
    };
    let (opening, moves) = (points("opening")?, points("moves")?);
    let mut pos = Position::new(&board);
    let scores = search_scores(&game);
    let mut counts = [0u16; SHAPE_CODES];
    let mut samples = Vec::new();
    for (i, &p) in opening.iter().chain(&moves).enumerate() {
        if !pos.board().is_empty(p) {
            return None;
        }
        if i >= opening.len() && is_quiet(&pos) {
            let ply = pos.board().stone_count() as u64;
            let score = scores.iter().find(|(s, _)| *s == ply).map(|s| s.1);
            samples.push(sample_of(&pos, score, &mut counts));
        }
        pos.make_move(p);
    }
    Some(Game {
        number: game.get("game").and_then(Value::as_u64).unwrap_or(0) as u32,
        rule,
        width: width as u8,
        height: height as u8,
        black_halves,
        samples,
    })
}

/// Writes `games` in the sample file layout.
pub fn write_games(out: &mut impl Write, games: &[Game]) -> Result<()> {
    let mut bytes = MAGIC.to_vec();
    for g in games {
        bytes.extend_from_slice(&g.number.to_le_bytes());
        bytes.extend_from_slice(&[
            g.rule.gomocup_code() as u8,
            g.width,
            g.height,
            g.black_halves,
        ]);
        bytes.extend_from_slice(&(g.samples.len() as u16).to_le_bytes());
        for s in &g.samples {
            bytes.extend_from_slice(&s.stones.to_le_bytes());
            let (kind, score) = match s.score {
                None => (0u8, 0i32),
                Some(Score::Wuzi(v)) => (1, v),
                Some(Score::Rapfi(v)) => (2, v),
            };
            bytes.extend_from_slice(&[s.mover.index() as u8, s.threat_state, kind]);
            bytes.extend_from_slice(&score.to_le_bytes());
            for side in &s.cells {
                bytes.extend_from_slice(&(side.len() as u16).to_le_bytes());
            }
            for &(code, count) in s.cells.iter().flatten() {
                bytes.extend_from_slice(&code.to_le_bytes());
                bytes.extend_from_slice(&count.to_le_bytes());
            }
        }
    }
    out.write_all(&bytes)?;
    Ok(())
}

/// A reader of little-endian numbers that fails at the end of its bytes.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        if self.0.len() < N {
            bail!("sample file cut short");
        }
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        Ok(head.try_into().unwrap_or([0; N]))
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take()?))
    }
}

/// Reads a sample file's games.
pub fn read_games(input: &mut impl Read) -> Result<Vec<Game>> {
    let mut raw = Vec::new();
    input.read_to_end(&mut raw)?;
    let mut b = Bytes(&raw);
    if &b.take::<4>()? != MAGIC {
        bail!("not a sample file");
    }
    let mut games = Vec::new();
    while !b.0.is_empty() {
        let number = b.u32()?;
        let rule = Rule::from_gomocup(i64::from(b.u8()?)).context("unknown rule")?;
        let (width, height, black_halves) = (b.u8()?, b.u8()?, b.u8()?);
        let count = b.u16()?;
        let mut samples = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let stones = b.u16()?;
            let mover = match b.u8()? {
                0 => Color::Black,
                1 => Color::White,
                other => bail!("bad mover {other}"),
            };
            let threat_state = b.u8()?;
            let kind = b.u8()?;
            let value = b.u32()? as i32;
            let score = match kind {
                0 => None,
                1 => Some(Score::Wuzi(value)),
                2 => Some(Score::Rapfi(value)),
                other => bail!("bad score kind {other}"),
            };
            let lens = [b.u16()?, b.u16()?];
            let mut cells = [Vec::new(), Vec::new()];
            for (side, &len) in cells.iter_mut().zip(&lens) {
                for _ in 0..len {
                    let code = b.u16()?;
                    if code as usize >= SHAPE_CODES {
                        bail!("bad shape code {code}");
                    }
                    side.push((code, b.u16()?));
                }
            }
            samples.push(Sample {
                stones,
                mover,
                threat_state,
                score,
                cells,
            });
        }
        games.push(Game {
            number,
            rule,
            width,
            height,
            black_halves,
            samples,
        });
    }
    Ok(games)
}

/// What one extraction run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtractReport {
    /// Record files read.
    pub files_read: usize,
    /// Record files whose samples were already up to date.
    pub files_kept: usize,
    /// Games kept from the files read.
    pub games: usize,
    /// Positions kept from the files read.
    pub positions: usize,
}

/// The `.jsonl` files named by `inputs`: files as given, directories searched (not
/// recursively), sorted.
pub fn record_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            for entry in std::fs::read_dir(input).with_context(|| format!("{}", input.display()))? {
                let path = entry?.path();
                if path.extension().is_some_and(|e| e == "jsonl") {
                    files.push(path);
                }
            }
        } else {
            files.push(input.clone());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// The sample file of the record file `record` in the directory `out`.
pub fn samples_path(out: &Path, record: &Path) -> PathBuf {
    let stem = record.file_stem().unwrap_or_default();
    out.join(stem).with_extension("samples")
}

/// Whether the file at `path` starts with this layout's magic (a file of an older layout is
/// extracted again).
fn has_magic(path: &Path) -> bool {
    let mut head = [0; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == MAGIC)
}

/// Extracts every record file of `inputs` whose sample file in `out` is missing or older,
/// writing each through a temporary file so a sample file that exists is complete.
pub fn extract(inputs: &[PathBuf], out: &Path) -> Result<ExtractReport> {
    std::fs::create_dir_all(out).with_context(|| format!("{}", out.display()))?;
    let mut report = ExtractReport::default();
    for record in record_files(inputs)? {
        let target = samples_path(out, &record);
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        if let (Some(done), Some(source)) = (modified(&target), modified(&record)) {
            if done >= source && has_magic(&target) {
                report.files_kept += 1;
                continue;
            }
        }
        let text = std::fs::read_to_string(&record)
            .with_context(|| format!("reading {}", record.display()))?;
        let games: Vec<Game> = text.lines().filter_map(extract_game).collect();
        report.files_read += 1;
        report.games += games.len();
        report.positions += games.iter().map(|g| g.samples.len()).sum::<usize>();
        let partial = target.with_extension("samples.partial");
        let mut file = std::fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        write_games(&mut file, &games)?;
        file.sync_all()?;
        std::fs::rename(&partial, &target)?;
    }
    Ok(report)
}

/// The games of every sample file in `dir`, each file's with its name prefixed by the
/// folder's (`games/batch-renju-self-3`: the key of its games' held-out split).
pub fn load(dir: &Path) -> Result<Vec<(String, Vec<Game>)>> {
    let folder = dir
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "samples"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let mut file = std::fs::File::open(&path)?;
        let games = read_games(&mut file).with_context(|| format!("{}", path.display()))?;
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        out.push((format!("{folder}/{stem}"), games));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_both_engines_are_read() {
        let cases = [
            (
                "MESSAGE depth 7 score -145 nodes 839 pv 4,5",
                Some(Score::Wuzi(-145)),
            ),
            ("depth 3 score 12 nodes 9", Some(Score::Wuzi(12))),
            (
                "MESSAGE Depth 13-17 | Eval 213 | Time 3ms | N6 K6",
                Some(Score::Rapfi(213)),
            ),
            (
                "MESSAGE Depth 14-17 | Eval +M21 | Time 34ms | G10",
                Some(Score::Rapfi(RAPFI_MATE)),
            ),
            (
                "Speed 246K | Depth 16-17 | Eval -M6 | Node 15K",
                Some(Score::Rapfi(-RAPFI_MATE)),
            ),
            ("MESSAGE OptiTime 63ms | MaxTime 70ms", None),
            ("MESSAGE depth 3 score x nodes 1", None),
            ("MESSAGE Depth 2-3 | Eval +Mx | Time 0ms", None),
            ("VCF found: 1 moves, first 7,4", None),
        ];
        for (text, score) in cases {
            assert_eq!(parse_score(text), score, "{text}");
        }
    }

    const RECORD: &str = r#"{"game":7,"round":1,"black":"a","white":"b","rule":"freestyle","width":15,"height":15,"opening":["7,7","8,8"],"opening_source":"x","moves":["7,8","9,9","7,9","6,6","7,6","7,10","7,5"],"times_ms":[1,1,1,1,1,1,1],"result":"1-0","winner":"black","winner_name":"a","reason":"five","detail":"","messages":[{"ply":2,"color":"black","text":"MESSAGE depth 1 score 40 nodes 5"},{"ply":2,"color":"black","text":"MESSAGE depth 2 score 25 nodes 9"},{"ply":3,"color":"white","text":"depth 3 score -31 nodes 9"},{"ply":4,"color":"black","text":"vcf win"}],"peak_memory":{"black":null,"white":null}}"#;

    #[test]
    fn a_record_gives_its_quiet_positions() {
        let game = extract_game(RECORD).expect("a kept game");
        assert_eq!(
            (game.number, game.rule, game.black_halves),
            (7, Rule::Freestyle, 2)
        );
        // Seven moves after the opening. Before the fifth black (to move) can make an open
        // four, before the sixth white faces it, before the seventh black has a five to make:
        // the search reads those out, so only the first four positions are kept.
        let stones: Vec<u16> = game.samples.iter().map(|s| s.stones).collect();
        assert_eq!(stones, [2, 3, 4, 5]);
        assert_eq!(game.samples[0].score, Some(Score::Wuzi(25)));
        assert_eq!(game.samples[1].score, Some(Score::Wuzi(-31)));
        assert_eq!(game.samples[2].score, None);
        assert_eq!(game.samples[0].mover, Color::Black);
        assert_eq!(game.samples[1].mover, Color::White);
        // Every empty cell is counted once per colour.
        for s in &game.samples {
            for side in &s.cells {
                let total: u32 = side.iter().map(|&(_, n)| u32::from(n)).sum();
                assert_eq!(total, 225 - u32::from(s.stones));
            }
        }
        let mut bytes = Vec::new();
        write_games(&mut bytes, &[game.clone(), game.clone()]).expect("written");
        let back = read_games(&mut bytes.as_slice()).expect("read");
        assert_eq!(back, vec![game.clone(), game]);
        assert!(read_games(&mut &bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn games_that_say_nothing_are_left_out() {
        assert!(extract_game(&RECORD.replace("\"five\"", "\"time-out\"")).is_none());
        assert!(extract_game(&RECORD.replace("\"8,8\"", "\"7,7\"")).is_none());
        assert!(extract_game(&RECORD.replace("\"9,9\"", "\"15,9\"")).is_none());
        assert!(extract_game("not json").is_none());
    }
}
