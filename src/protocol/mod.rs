//! The Gomocup `pbrain` protocol: command parsing, reply formatting and the stdout writer.
//!
//! Input arrives as text lines (CR LF or LF, any case for keywords, surrounding blanks ignored).
//! [`Parser`] turns lines into [`Command`]s. It is stateful only for the multi-line blocks
//! (`BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO` … `DONE`): stone lines are
//! collected until `DONE`, and a block with a bad line is answered once, after its `DONE`.
//! Coordinates are range-checked only against [`MAX_SIZE`] here; the session checks them
//! against the real board.
//!
//! Output goes through [`Writer`], the only code that touches stdout: each [`Response`] is one
//! whole line ending in `\n`, written with a single call and flushed at once, because managers
//! read replies line by line over a pipe and wait for them.
//!
//! [`run`] holds the reader thread, the engine thread and the flags they share.

pub mod run;
mod session;

use std::collections::HashSet;
use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::types::{Pos, MAX_SIZE, MIN_SIZE};

/// Longest echo of user text inside an error line, so replies stay short.
const ECHO_LIMIT: usize = 40;

/// A coordinate pair as sent by the manager, not yet checked against the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Coord {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Owner of a stone in a `BOARD`/`YXBOARD` block (the third field of a stone line).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StoneOwner {
    /// Field 1: a stone of the engine that receives the block.
    Own,
    /// Field 2: an opponent's stone.
    Opponent,
    /// Field 3: a blocked square (continuous games, Piskvork's frozen cells).
    Blocked,
}

/// One stone line of a `BOARD`/`YXBOARD` block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stone {
    /// Where the stone is.
    pub at: Coord,
    /// Whose stone it is.
    pub owner: StoneOwner,
}

/// A value sent with `INFO`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Info {
    /// `timeout_turn`: milliseconds per move, 0 = move at once.
    TimeoutTurn(i64),
    /// `timeout_match`: milliseconds per game, 0 = unlimited.
    TimeoutMatch(i64),
    /// `time_left`: milliseconds left on the match clock (may be negative; 2147483647 = untimed).
    TimeLeft(i64),
    /// `max_memory`: bytes, 0 = unlimited.
    MaxMemory(u64),
    /// `game_type`: 0 human, 1 engine, 2 tournament, 3 network tournament.
    GameType(i64),
    /// `rule`: the raw code; the session decides whether it is supported.
    Rule(i64),
    /// `folder`: a directory for persistent files (the rest of the line, spaces included).
    Folder(String),
    /// `thread_num`: number of search threads.
    ThreadNum(usize),
    /// `max_depth`: search depth limit.
    MaxDepth(u32),
    /// `max_node`: node limit.
    MaxNode(u64),
    /// `hash_size`: transposition table size in KiB.
    HashSize(u64),
    /// Any other key (lower-cased); ignored.
    Other(String),
}

/// A complete command from the manager.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `START n`: new game on an n×n board.
    Start(usize),
    /// `RECTSTART w,h`: new game on a w×h board.
    RectStart {
        /// Number of columns.
        width: usize,
        /// Number of rows.
        height: usize,
    },
    /// `RESTART`: new game, same board size.
    Restart,
    /// `BEGIN`: play the first stone.
    Begin,
    /// `TURN x,y`: the opponent played there; answer a move.
    Turn(Coord),
    /// `BOARD` … `DONE`: set the position and answer a move.
    Board(Vec<Stone>),
    /// `YXBOARD` … `DONE`: set the position without thinking.
    YxBoard(Vec<Stone>),
    /// `SWAP2BOARD` … `DONE`: the swap2 opening phase; stones in move order, black first.
    Swap2Board(Vec<Coord>),
    /// `PLAY x,y`: play the engine's own stone there and echo it.
    Play(Coord),
    /// `TAKEBACK x,y`: remove the last stone, which must be at x,y.
    TakeBack(Coord),
    /// `INFO key value`.
    Info(Info),
    /// `ABOUT`: identify the engine.
    About,
    /// `END`: exit at once, printing nothing.
    End,
    /// `STOP` or `YXSTOP`: answer the current search now.
    Stop,
    /// `YXSHOWFORBID`: list the forbidden points of the side to move.
    YxShowForbid,
    /// `YXHASHCLEAR`: forget the search memory.
    YxHashClear,
    /// `YXNBEST n`: report the n best moves, then play the best.
    YxNbest(usize),
    /// `YXBLOCK` … `DONE`: points the engine must not choose (Yixin-Board's analysis), added
    /// to those already blocked.
    YxBlock(Vec<Coord>),
    /// `YXBLOCKUNDO` … `DONE`: points to take off the blocked list.
    YxBlockUndo(Vec<Coord>),
    /// `YXBLOCKRESET`: no point is blocked any more.
    YxBlockReset,
}

/// Why a line could not be turned into a command.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseError {
    /// The keyword is not a command this engine knows.
    UnknownCommand(String),
    /// A command's argument is missing or malformed.
    BadArgument {
        /// The command keyword.
        command: &'static str,
        /// What the argument should look like.
        expected: &'static str,
        /// What was sent.
        found: String,
    },
    /// A board size outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    UnsupportedSize(i64),
    /// A malformed stone line inside a block.
    BadStoneLine {
        /// The block keyword.
        block: &'static str,
        /// The line as sent.
        line: String,
    },
    /// A stone line outside any supported board.
    StoneOffBoard {
        /// The block keyword.
        block: &'static str,
        /// The coordinate.
        at: Coord,
    },
    /// The same point given twice in one block.
    DuplicateStone {
        /// The block keyword.
        block: &'static str,
        /// The coordinate.
        at: Coord,
    },
    /// A block was interrupted by another command before its `DONE`.
    UnterminatedBlock(&'static str),
    /// `DONE` outside a block.
    StrayDone,
    /// A line longer than the input cap; its content was discarded.
    LineTooLong,
    /// An `INFO` line longer than the input cap (never answered at once, see
    /// [`Self::is_deferred`]).
    InfoTooLong,
    /// An `INFO` line whose value cannot be used (never answered at once, see
    /// [`Self::is_deferred`]).
    BadInfo {
        /// The key, lower-cased.
        key: String,
        /// The value as sent.
        value: String,
    },
}

impl ParseError {
    /// True when the error must not be answered immediately: nothing may reply to `INFO`, so the
    /// session queues the text as a `MESSAGE` printed with the next move.
    pub fn is_deferred(&self) -> bool {
        matches!(self, ParseError::BadInfo { .. } | ParseError::InfoTooLong)
    }

    /// The reply line for this error: `UNKNOWN …` for an unknown command, `ERROR …` otherwise.
    pub fn response(&self) -> Response {
        match self {
            ParseError::UnknownCommand(_) => Response::Unknown(self.to_string()),
            _ => Response::Error(self.to_string()),
        }
    }
}

/// User text quoted, escaped and shortened, so an echo can never break the one-line reply.
fn echo(text: &str) -> String {
    let short: String = text.chars().take(ECHO_LIMIT).collect();
    let ellipsis = if short.len() < text.len() { "..." } else { "" };
    format!("{short:?}{ellipsis}")
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(cmd) => write!(f, "command {}", echo(cmd)),
            ParseError::BadArgument {
                command,
                expected,
                found,
            } => {
                if found.is_empty() {
                    write!(f, "{command} needs {expected}")
                } else {
                    write!(f, "{command} needs {expected}, got {}", echo(found))
                }
            }
            ParseError::UnsupportedSize(size) => write!(
                f,
                "unsupported board size {size} (each side must be {MIN_SIZE}..{MAX_SIZE})"
            ),
            ParseError::BadStoneLine { block, line } => {
                write!(f, "{block}: malformed stone line {}", echo(line))
            }
            ParseError::StoneOffBoard { block, at } => {
                write!(f, "{block}: stone {at} is off the board")
            }
            ParseError::DuplicateStone { block, at } => {
                write!(f, "{block}: stone {at} given twice")
            }
            ParseError::UnterminatedBlock(block) => {
                let kept = if block.starts_with("YXBLOCK") {
                    "blocked points"
                } else {
                    "position"
                };
                write!(f, "{block} block interrupted before DONE; {kept} unchanged")
            }
            ParseError::StrayDone => {
                f.write_str("DONE without BOARD, YXBOARD, SWAP2BOARD, YXBLOCK or YXBLOCKUNDO")
            }
            ParseError::LineTooLong => f.write_str("line too long; ignored"),
            ParseError::InfoTooLong => f.write_str("INFO line too long; ignored"),
            ParseError::BadInfo { key, value } => {
                write!(f, "INFO {key}: unusable value {}; ignored", echo(value))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// The multi-line blocks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2Board,
    YxBlock,
    YxBlockUndo,
}

impl BlockKind {
    fn keyword(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        }
    }

    /// True for the blocks of bare points (`x,y`, or `x,y,f` with the field ignored) rather
    /// than stones with an owner.
    fn takes_bare_points(self) -> bool {
        matches!(
            self,
            BlockKind::Swap2Board | BlockKind::YxBlock | BlockKind::YxBlockUndo
        )
    }

    /// True for the blocks that list points to block or unblock, where a point given twice
    /// means the same as once.
    fn lists_blocked_points(self) -> bool {
        matches!(self, BlockKind::YxBlock | BlockKind::YxBlockUndo)
    }
}

/// A block being read: its stones so far and the first error seen.
#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<Stone>,
    seen: HashSet<Coord>,
    error: Option<ParseError>,
}

impl Block {
    fn new(kind: BlockKind) -> Block {
        Block {
            kind,
            stones: Vec::new(),
            seen: HashSet::new(),
            error: None,
        }
    }

    /// Adds one stone line. After the first error the rest is only read, not stored, so a
    /// flood of junk cannot grow memory.
    fn add_line(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        match parse_stone_line(self.kind, line) {
            Ok(stone) if self.seen.insert(stone.at) => self.stones.push(stone),
            // A point listed twice is blocked (or unblocked) once.
            Ok(_) if self.kind.lists_blocked_points() => {}
            Ok(stone) => {
                self.error = Some(ParseError::DuplicateStone {
                    block: self.kind.keyword(),
                    at: stone.at,
                });
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn finish(self) -> Result<Command, ParseError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        Ok(match self.kind {
            BlockKind::Board => Command::Board(self.stones),
            BlockKind::YxBoard => Command::YxBoard(self.stones),
            BlockKind::Swap2Board => {
                Command::Swap2Board(self.stones.iter().map(|s| s.at).collect())
            }
            BlockKind::YxBlock => Command::YxBlock(self.stones.iter().map(|s| s.at).collect()),
            BlockKind::YxBlockUndo => {
                Command::YxBlockUndo(self.stones.iter().map(|s| s.at).collect())
            }
        })
    }
}

/// Parses a stone line: `x,y,f` in `BOARD`/`YXBOARD`; `x,y` or `x,y,f` with the field ignored
/// in `SWAP2BOARD` (where colours follow the order) and in `YXBLOCK`/`YXBLOCKUNDO`.
fn parse_stone_line(kind: BlockKind, line: &str) -> Result<Stone, ParseError> {
    let bad = || ParseError::BadStoneLine {
        block: kind.keyword(),
        line: line.to_string(),
    };
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let owner = match (kind, fields.len()) {
        (_, 2) if kind.takes_bare_points() => StoneOwner::Own,
        (_, 3) => match fields[2] {
            "1" => StoneOwner::Own,
            "2" => StoneOwner::Opponent,
            "3" if !kind.takes_bare_points() => StoneOwner::Blocked,
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    };
    let x: i64 = fields[0].parse().map_err(|_| bad())?;
    let y: i64 = fields[1].parse().map_err(|_| bad())?;
    let at = Coord { x, y };
    if !coord_fits(at) {
        return Err(ParseError::StoneOffBoard {
            block: kind.keyword(),
            at,
        });
    }
    Ok(Stone { at, owner })
}

/// True when the point can lie on some supported board.
fn coord_fits(at: Coord) -> bool {
    (0..MAX_SIZE as i64).contains(&at.x) && (0..MAX_SIZE as i64).contains(&at.y)
}

/// Parses `x,y` (blanks around the numbers tolerated).
fn parse_coord(command: &'static str, arg: &str) -> Result<Coord, ParseError> {
    let bad = || ParseError::BadArgument {
        command,
        expected: "x,y",
        found: arg.to_string(),
    };
    let (x, y) = arg.split_once(',').ok_or_else(bad)?;
    let x = x.trim().parse().map_err(|_| bad())?;
    let y = y.trim().parse().map_err(|_| bad())?;
    Ok(Coord { x, y })
}

/// Checks a board side against the supported range.
fn board_side(value: i64) -> Result<usize, ParseError> {
    if (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&value) {
        Ok(value as usize)
    } else {
        Err(ParseError::UnsupportedSize(value))
    }
}

/// Parses an `INFO` line's key and value (`rest` is everything after the keyword).
fn parse_info(rest: &str) -> Result<Info, ParseError> {
    let (key, value) = match rest.split_once(char::is_whitespace) {
        Some((key, value)) => (key, value.trim()),
        None => (rest, ""),
    };
    let key = key.to_ascii_lowercase();
    let bad = |key: String| ParseError::BadInfo {
        key,
        value: value.to_string(),
    };
    fn num<T: std::str::FromStr>(value: &str) -> Option<T> {
        value.parse().ok()
    }
    let info = match key.as_str() {
        "timeout_turn" => num(value).map(Info::TimeoutTurn),
        "timeout_match" => num(value).map(Info::TimeoutMatch),
        "time_left" => num(value).map(Info::TimeLeft),
        "max_memory" => num(value).map(Info::MaxMemory),
        "game_type" => num(value).map(Info::GameType),
        "rule" => num(value).map(Info::Rule),
        "folder" if !value.is_empty() => Some(Info::Folder(value.to_string())),
        "thread_num" => num(value).filter(|&n: &usize| n >= 1).map(Info::ThreadNum),
        "max_depth" => num(value).map(Info::MaxDepth),
        "max_node" => num(value).map(Info::MaxNode),
        "hash_size" => num(value).map(Info::HashSize),
        "folder" | "" => None,
        _ => return Ok(Info::Other(key)),
    };
    info.ok_or_else(|| bad(key))
}

/// Turns input lines into commands; keeps the block being read between calls.
#[derive(Debug, Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    /// A parser outside any block.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// True while inside a multi-line block (`BOARD`, `YXBLOCK`, ...), before its `DONE`.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Feeds one input line (without its line ending) and returns what it completes: nothing
    /// (a blank line or a stone line inside a block), one result (an `INFO` line inside a block
    /// too, which leaves the block open), or two when a command interrupts a block (the
    /// block's error, then the command).
    pub fn feed(&mut self, line: &str) -> Vec<Result<Command, ParseError>> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        let Some(mut block) = self.block.take() else {
            return self.parse_command(line).into_iter().collect();
        };
        let keyword = first_word(line);
        if keyword.eq_ignore_ascii_case("DONE") {
            return vec![block.finish()];
        }
        // A line that does not start like a number is either a command sent without the DONE
        // (so the block is dropped and the command runs, rather than swallowing all input
        // until some later DONE) or junk inside the block.
        let numeric = line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
        if keyword.eq_ignore_ascii_case("INFO") {
            // INFO may come at any time (PROTOCOL.md §12): it is taken in place and the block
            // goes on.
            self.block = Some(block);
            return self.parse_command(line).into_iter().collect();
        }
        if !numeric && is_keyword(keyword) {
            let mut out = vec![Err(ParseError::UnterminatedBlock(block.kind.keyword()))];
            out.extend(self.parse_command(line));
            return out;
        }
        block.add_line(line);
        self.block = Some(block);
        Vec::new()
    }

    /// Reports a line over the input cap, of which only `head` (its first bytes) was kept.
    /// Nothing may answer `INFO`, so an overlong one is a note for the next move and, like any
    /// `INFO`, leaves an open block alone. Any other line spoils an open block, answered once at
    /// its `DONE`, or else is answered at once.
    pub fn feed_too_long(&mut self, head: &str) -> Vec<Result<Command, ParseError>> {
        if first_word(head.trim()).eq_ignore_ascii_case("INFO") {
            return vec![Err(ParseError::InfoTooLong)];
        }
        let error = ParseError::LineTooLong;
        match &mut self.block {
            Some(block) => {
                block.error.get_or_insert(error);
                Vec::new()
            }
            None => vec![Err(error)],
        }
    }

    /// Parses a line outside a block. Returns `None` when the line opens a block.
    fn parse_command(&mut self, line: &str) -> Option<Result<Command, ParseError>> {
        let keyword = first_word(line).to_ascii_uppercase();
        let rest = line[first_word(line).len()..].trim();
        let block = match keyword.as_str() {
            "BOARD" => Some(BlockKind::Board),
            "YXBOARD" => Some(BlockKind::YxBoard),
            "SWAP2BOARD" => Some(BlockKind::Swap2Board),
            "YXBLOCK" => Some(BlockKind::YxBlock),
            "YXBLOCKUNDO" => Some(BlockKind::YxBlockUndo),
            _ => None,
        };
        if let Some(kind) = block {
            self.block = Some(Block::new(kind));
            return None;
        }
        Some(parse_simple(&keyword, rest))
    }
}

/// Every keyword [`Parser`] understands (upper case).
const KEYWORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "PLAY",
    "TAKEBACK",
    "INFO",
    "ABOUT",
    "END",
    "STOP",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXNBEST",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
];

fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

fn first_word(line: &str) -> &str {
    line.split(char::is_whitespace).next().unwrap_or("")
}

/// Parses a one-line command. Commands without arguments ignore anything after the keyword.
fn parse_simple(keyword: &str, rest: &str) -> Result<Command, ParseError> {
    let integer = |command: &'static str, expected: &'static str| -> Result<i64, ParseError> {
        rest.parse().map_err(|_| ParseError::BadArgument {
            command,
            expected,
            found: rest.to_string(),
        })
    };
    Ok(match keyword {
        "START" => Command::Start(board_side(integer("START", "a board size")?)?),
        "RECTSTART" => {
            let Coord { x, y } =
                parse_coord("RECTSTART", rest).map_err(|_| ParseError::BadArgument {
                    command: "RECTSTART",
                    expected: "width,height",
                    found: rest.to_string(),
                })?;
            Command::RectStart {
                width: board_side(x)?,
                height: board_side(y)?,
            }
        }
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => Command::Turn(parse_coord("TURN", rest)?),
        "PLAY" => Command::Play(parse_coord("PLAY", rest)?),
        "TAKEBACK" => Command::TakeBack(parse_coord("TAKEBACK", rest)?),
        "INFO" => Command::Info(parse_info(rest)?),
        "ABOUT" => Command::About,
        "END" => Command::End,
        "STOP" | "YXSTOP" => Command::Stop,
        "YXSHOWFORBID" => Command::YxShowForbid,
        "YXHASHCLEAR" => Command::YxHashClear,
        "YXBLOCKRESET" => Command::YxBlockReset,
        "YXNBEST" => {
            let n = integer("YXNBEST", "a count of at least 1")?;
            if n < 1 {
                return Err(ParseError::BadArgument {
                    command: "YXNBEST",
                    expected: "a count of at least 1",
                    found: rest.to_string(),
                });
            }
            // More candidates than cells is meaningless; clamp instead of failing.
            Command::YxNbest(n.min((MAX_SIZE * MAX_SIZE) as i64) as usize)
        }
        "DONE" => return Err(ParseError::StrayDone),
        _ => return Err(ParseError::UnknownCommand(keyword.to_string())),
    })
}

/// One reply line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Response {
    /// `OK`.
    Ok,
    /// A move `x,y`.
    Move(Pos),
    /// Several moves on one line, `x,y x,y …` (swap2 answers).
    Moves(Vec<Pos>),
    /// `SWAP` (swap2: take the other colour).
    Swap,
    /// `ERROR <text>`.
    Error(String),
    /// `UNKNOWN <text>`.
    Unknown(String),
    /// `MESSAGE <text>`.
    Message(String),
    /// The `ABOUT` line.
    About,
    /// `FORBID xxyy….`: the forbidden points of the side to move.
    Forbid(Vec<Pos>),
}

/// Text with line breaks turned into spaces, so a reply is always one line; empty text becomes
/// `-` because Piskvork only recognises `MESSAGE ` with text after it.
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.trim();
    if flat.is_empty() {
        "-".to_string()
    } else {
        flat.to_string()
    }
}

/// The `ABOUT` reply. Values never contain `,`, `=` or `"`: some managers split the line on
/// those characters without honouring quotes.
pub fn about_line() -> String {
    let mut fields = vec![
        ("name", "wuzi"),
        ("version", env!("CARGO_PKG_VERSION")),
        ("author", "wuzi developers"),
        ("country", "International"),
    ];
    let www = option_env!("CARGO_PKG_HOMEPAGE")
        .filter(|s| !s.is_empty())
        .or(option_env!("CARGO_PKG_REPOSITORY").filter(|s| !s.is_empty()));
    if let Some(www) = www {
        fields.push(("www", www));
    }
    fields
        .iter()
        .map(|(key, value)| {
            let clean: String = value
                .chars()
                .filter(|c| !matches!(c, ',' | '=' | '"'))
                .collect();
            format!("{key}=\"{clean}\"")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => f.write_str("OK"),
            Response::Move(pos) => write!(f, "{pos}"),
            Response::Moves(moves) => {
                let text: Vec<String> = moves.iter().map(Pos::to_string).collect();
                f.write_str(&text.join(" "))
            }
            Response::Swap => f.write_str("SWAP"),
            Response::Error(text) => write!(f, "ERROR {}", one_line(text)),
            Response::Unknown(text) => write!(f, "UNKNOWN {}", one_line(text)),
            Response::Message(text) => write!(f, "MESSAGE {}", one_line(text)),
            Response::About => f.write_str(&about_line()),
            Response::Forbid(points) => {
                f.write_str("FORBID ")?;
                for p in points {
                    write!(f, "{:02}{:02}", p.x, p.y)?;
                }
                f.write_str(".")
            }
        }
    }
}

/// The sole writer of stdout. Cheap to clone; all clones share one output and one "closed" flag.
///
/// Each [`Writer::send`] formats the whole line first, then writes it with one call and flushes,
/// under a lock, so lines from the reader and engine threads never interleave. After
/// [`Writer::close`] nothing more is written: `END` must print nothing, even if the search is
/// still reporting progress.
#[derive(Clone)]
pub struct Writer {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    closed: Arc<AtomicBool>,
}

impl Writer {
    /// A writer on the process's stdout.
    pub fn stdout() -> Writer {
        Writer::new(Box::new(io::stdout()))
    }

    /// A writer on any output (tests use an in-memory buffer).
    pub fn new(out: Box<dyn Write + Send>) -> Writer {
        Writer {
            out: Arc::new(Mutex::new(out)),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one reply line and flushes it. Write errors are logged, not returned: a manager
    /// that closed the pipe is about to end the process anyway, and the reader sees the EOF.
    pub fn send(&self, response: &Response) {
        let mut line = response.to_string();
        line.push('\n');
        // Checked under the lock, right before writing: a line that was waiting for another
        // thread's write sees a `close` that happened meanwhile.
        let mut out = match self.out.lock() {
            Ok(out) => out,
            Err(poisoned) => poisoned.into_inner(),
        };
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        log::debug!("> {}", line.trim_end());
        if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
            log::warn!("cannot write to stdout: {e}");
        }
    }

    /// Stops all further output. Does not wait for the lock, so it cannot hang behind a write
    /// blocked on a full pipe; a line already being written is completed.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }

    /// True once [`Writer::close`] has been called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests;
