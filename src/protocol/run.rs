//! The protocol loop: a reader thread that owns stdin, and an engine thread that owns the game.
//!
//! The reader reads raw bytes (lines are capped, so a huge line cannot exhaust memory), parses
//! them, and acts on the few commands that cannot wait for the engine: `END` closes the output
//! and returns at once, even mid-search; end of input stops the search at once too, but the
//! commands already read are still answered (a script that pipes a session in gets its
//! replies); `STOP`/`YXSTOP` and `INFO timeout_turn 0` stop every search read before them
//! (each command carries its own stop flag, see `StopFlags` below). Everything
//! else, parse errors included, goes to the engine thread through a channel, so replies come
//! out in command order and a reply can never slip in before the move of a running search.
//!
//! The engine thread (`Session`) owns the board, the limits and the engine; it answers each
//! command with at most one reply line (plus `MESSAGE` lines before a move). A command that
//! fails answers `ERROR <why>` and leaves the game exactly as it was.

use std::fmt;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::{Command, Coord, Info, ParseError, Parser, Response, Stone, StoneOwner, Writer};
use crate::board::{Board, Cell, MoveCheck};
use crate::engine::{time_for, Engine};
use crate::search::limits::Limits;
use crate::search::score::SearchResult;
use crate::search::time::{InstantClock, TimeManager};
use crate::types::{Color, Pos, Rule};

/// Longest accepted input line in bytes; longer lines are discarded and answered with an error.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long `END` waits for the engine thread to wind down before returning anyway.
const QUIT_GRACE: Duration = Duration::from_millis(30);

/// How long end of input waits for the engine thread to answer the commands already read
/// before returning anyway: a bound, not a wait. Each search stops at once; a piped session
/// of a dozen commands, three of them moves, is answered in about 15 ms.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Most notes kept for the next move; a flood of bad INFO lines must not grow memory.
const MAX_NOTES: usize = 16;

/// `time_left` value meaning "no match clock" (2^31 - 1, as Piskvork and c-gomoku-cli send it).
const UNTIMED: i64 = 2_147_483_647;

/// Runs the protocol on stdin/stdout until `END` or end of input.
///
/// # Errors
/// If the engine thread cannot be started or dies.
pub fn run_stdio() -> anyhow::Result<()> {
    run(io::stdin().lock(), Writer::stdout())
}

/// Runs the protocol on stdin/stdout with a configured engine (e.g. the one-ply baseline).
///
/// # Errors
/// If the engine thread cannot be started or dies.
pub fn run_stdio_with(engine: Engine) -> anyhow::Result<()> {
    run_with(io::stdin().lock(), Writer::stdout(), engine)
}

/// Runs the protocol on any input until `END` or end of input; replies go to `writer`.
///
/// Returns as soon as `END` or end of input is read, without waiting for a running search
/// longer than a few milliseconds: the caller is expected to exit the process. After `END`
/// nothing more is printed; at end of input the commands already read are answered first,
/// every search among them stopped at once (its best move so far).
///
/// # Errors
/// If the engine thread cannot be started or dies.
pub fn run(input: impl BufRead, writer: Writer) -> anyhow::Result<()> {
    run_with(input, writer, Engine::new())
}

/// [`run`] with a configured engine.
///
/// # Errors
/// If the engine thread cannot be started or dies.
pub fn run_with(input: impl BufRead, writer: Writer, engine: Engine) -> anyhow::Result<()> {
    let mut stops = StopFlags::default();
    let (jobs, job_receiver) = mpsc::channel::<Job>();
    let (done_sender, done) = mpsc::channel::<()>();
    let session = Session::new(writer.clone(), engine);
    thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            session.serve(job_receiver);
            // Dropped also on a panic of `serve`, which unblocks the reader's wait below.
            drop(done_sender);
        })
        .context("cannot start the engine thread")?;

    let result = read_loop(input, &jobs, &mut stops);
    // Whatever search runs or waits in the queue returns its best move so far at once.
    stops.stop_all();
    // At end of input the engine thread answers what was read, then returns as the queue
    // ends; after END (or with a dead engine thread) nothing more may be printed.
    let draining = matches!(result, Ok(Quit::EndOfInput));
    if !draining {
        writer.close();
    }
    drop(jobs);
    let _ = done.recv_timeout(if draining { DRAIN_GRACE } else { QUIT_GRACE });
    writer.close();
    result.map(|_| ())
}

/// Why the reader stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quit {
    /// `END` was read.
    End,
    /// Input ended (or could no longer be read).
    EndOfInput,
}

/// Reads and dispatches lines until `END` or end of input.
fn read_loop(
    input: impl BufRead,
    jobs: &Sender<Job>,
    stops: &mut StopFlags,
) -> anyhow::Result<Quit> {
    let mut reader = LineReader::new(input);
    let mut parser = Parser::new();
    // When the block being read was opened: a BOARD's clock starts at its first line.
    let mut block_start = Instant::now();
    loop {
        let input = match reader.next_line() {
            Ok(Some(input)) => input,
            Ok(None) => {
                log::debug!("end of input");
                return Ok(Quit::EndOfInput);
            }
            Err(e) => {
                log::warn!("cannot read stdin: {e}");
                return Ok(Quit::EndOfInput);
            }
        };
        let now = Instant::now();
        let was_in_block = parser.in_block();
        let results = match input {
            RawLine::Text(line) => {
                log::debug!("< {line}");
                parser.feed(&line)
            }
            RawLine::TooLong { head } => parser.feed_too_long(&head),
        };
        // A block's clock starts at its first line: when one opens, including one that opens
        // on the line that interrupted the block before it.
        let reopened = || {
            results
                .iter()
                .any(|r| matches!(r, Err(ParseError::UnterminatedBlock(_))))
        };
        if parser.in_block() && (!was_in_block || reopened()) {
            block_start = now;
        }
        for result in results {
            let job = match result {
                Ok(Command::End) => {
                    log::debug!("END");
                    return Ok(Quit::End);
                }
                Ok(Command::Stop) => {
                    stops.stop_all();
                    continue;
                }
                Ok(command) => {
                    if command == Command::Info(Info::TimeoutTurn(0)) {
                        // Piskvork's "stop thinking": answer the running search now.
                        stops.stop_all();
                    }
                    let start = match command {
                        Command::Board(_) | Command::Swap2Board(_) => block_start,
                        _ => now,
                    };
                    Job::Command(command, start, stops.issue())
                }
                Err(e) if e.is_deferred() => Job::Note(e.to_string()),
                Err(e) => Job::Reply(e.response()),
            };
            if jobs.send(job).is_err() {
                anyhow::bail!("the engine thread has stopped");
            }
        }
    }
}

/// One input line as read: text, or too long to keep.
#[derive(Debug, PartialEq, Eq)]
enum RawLine {
    /// The line without its `\n` (a `\r` before it is left for the parser's trim). Bytes that
    /// are not UTF-8 read as U+FFFD: a manager on Windows may send a path in its ANSI code page
    /// (`INFO folder C:\Users\Jos\xe9\...`), and an `INFO` line must never be answered.
    Text(String),
    /// Longer than [`MAX_LINE_BYTES`]; only its first [`HEAD_BYTES`] were kept, enough to read
    /// its keyword.
    TooLong { head: String },
}

/// Splits raw input into lines of at most [`MAX_LINE_BYTES`] bytes without ever holding more.
struct LineReader<R> {
    input: R,
}

impl<R: BufRead> LineReader<R> {
    fn new(input: R) -> LineReader<R> {
        LineReader { input }
    }

    /// The next line, or `None` at end of input. A last line without `\n` still counts.
    fn next_line(&mut self) -> io::Result<Option<RawLine>> {
        let mut line = Vec::new();
        let mut too_long = false;
        let mut read_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !read_any {
                    return Ok(None);
                }
                break;
            }
            read_any = true;
            let (part, used, complete) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            if !too_long {
                if line.len() + part.len() > MAX_LINE_BYTES {
                    too_long = true;
                    // Only the head is kept, for the parser to read the keyword.
                    let head = HEAD_BYTES.saturating_sub(line.len()).min(part.len());
                    line.extend_from_slice(&part[..head]);
                    line.truncate(HEAD_BYTES);
                } else {
                    line.extend_from_slice(part);
                }
            }
            self.input.consume(used);
            if complete {
                break;
            }
        }
        let text = match String::from_utf8(line) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(Some(if too_long {
            RawLine::TooLong { head: text }
        } else {
            RawLine::Text(text)
        }))
    }
}

/// Bytes kept of an overlong line: enough for its keyword after any leading blanks.
const HEAD_BYTES: usize = 64;

/// The stop flags of the commands read so far whose jobs the engine thread still holds.
///
/// Each command gets a flag of its own: `STOP`, `YXSTOP` and `INFO timeout_turn 0` set the
/// flags of every command read before them, so they reach the search that runs and any queued
/// behind it, but never a command read after them (a `TURN` sent right after a `STOP` gets a
/// whole search) nor, when the engine is idle, the next one.
#[derive(Default)]
struct StopFlags {
    issued: Vec<Arc<AtomicBool>>,
}

impl StopFlags {
    /// A fresh flag for a command just read.
    fn issue(&mut self) -> Arc<AtomicBool> {
        // A flag only the reader holds belongs to a finished command: no need to keep it.
        self.issued.retain(|flag| Arc::strong_count(flag) > 1);
        let flag = Arc::new(AtomicBool::new(false));
        self.issued.push(Arc::clone(&flag));
        flag
    }

    /// Stops every command read so far.
    fn stop_all(&self) {
        for flag in &self.issued {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

/// Work for the engine thread, in input order.
enum Job {
    /// A parsed command, the instant its first line was read, and its stop flag.
    Command(Command, Instant, Arc<AtomicBool>),
    /// A reply to print as is (a parse error).
    Reply(Response),
    /// A message to print with the next move (nothing may answer `INFO` directly).
    Note(String),
}

/// How a game ended, for error replies to moves after the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
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
fn replay(
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
fn receiver_color(own: usize, opponent: usize) -> Color {
    if own >= opponent {
        Color::Black
    } else {
        Color::White
    }
}

/// How a game that is still going ended so far: replays the board's own history, whose first
/// `set_up` stones were given as a block (fouls among them are not judged; see [`replay`]).
fn judge(board: &Board, set_up: usize) -> Option<Outcome> {
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

/// The error for commands that need a game before `START`/`RECTSTART`.
const NO_GAME: &str = "no game: send START first";

/// A reply to a command: an `ERROR` line's text on failure.
type Reply = Result<(), String>;

/// The engine thread's state: the game, the limits and the engine.
struct Session {
    writer: Writer,
    /// The stop flag of the command being handled.
    stop: Arc<AtomicBool>,
    engine: Engine,
    limits: Limits,
    rule: Rule,
    /// `None` until the first START/RECTSTART.
    board: Option<Board>,
    /// Set when the position on the board is a finished game.
    outcome: Option<Outcome>,
    /// How many stones of the board's history were given as a block (`BOARD`, `YXBOARD`,
    /// `SWAP2BOARD`) rather than played as moves: fouls among them are not judged.
    set_up: usize,
    /// MESSAGE texts waiting for the next move.
    notes: Vec<String>,
    /// Notes beyond [`MAX_NOTES`] since the last move.
    dropped_notes: usize,
}

impl Session {
    fn new(writer: Writer, engine: Engine) -> Session {
        Session {
            writer,
            stop: Arc::new(AtomicBool::new(false)),
            engine,
            limits: Limits::default(),
            rule: Rule::Freestyle,
            board: None,
            outcome: None,
            set_up: 0,
            notes: Vec::new(),
            dropped_notes: 0,
        }
    }

    /// Handles jobs until the reader hangs up or the output is closed.
    fn serve(mut self, jobs: Receiver<Job>) {
        for job in jobs {
            if self.writer.is_closed() {
                break;
            }
            match job {
                Job::Command(command, start, stop) => {
                    self.stop = stop;
                    if let Err(why) = self.handle(command, start) {
                        self.writer.send(&Response::Error(why));
                    }
                }
                Job::Reply(response) => self.writer.send(&response),
                Job::Note(text) => self.note(text),
            }
        }
    }

    fn handle(&mut self, command: Command, start: Instant) -> Reply {
        match command {
            Command::Start(size) => self.start(size, size),
            Command::RectStart { width, height } => self.start(width, height),
            Command::Restart => {
                let board = self.board()?;
                let (width, height) = (board.width(), board.height());
                self.start(width, height)
            }
            Command::Begin => self.think(start),
            Command::Turn(at) => self.turn(at, start),
            Command::Board(stones) => {
                self.set_position(&stones, "BOARD")?;
                self.think(start)
            }
            Command::YxBoard(stones) => self.set_position(&stones, "YXBOARD"),
            Command::Swap2Board(stones) => self.swap2(&stones, start),
            Command::Play(at) => self.play(at),
            Command::TakeBack(at) => self.take_back(at),
            Command::Info(info) => {
                self.info(info);
                Ok(())
            }
            Command::About => {
                self.writer.send(&Response::About);
                Ok(())
            }
            Command::YxShowForbid => {
                let points = self.board()?.forbidden_points();
                self.writer.send(&Response::Forbid(points));
                Ok(())
            }
            Command::YxHashClear => {
                self.engine.clear_hash();
                Ok(())
            }
            Command::YxNbest(n) => self.nbest(n, start),
            Command::YxBlock(points) => {
                let points = self.points(&points, "YXBLOCK")?;
                self.engine.block(&points);
                Ok(())
            }
            Command::YxBlockUndo(points) => {
                let points = self.points(&points, "YXBLOCKUNDO")?;
                self.engine.unblock(&points);
                Ok(())
            }
            Command::YxBlockReset => {
                self.engine.clear_blocks();
                Ok(())
            }
            // The reader acts on these itself; nothing to do if one gets here.
            Command::End | Command::Stop => Ok(()),
        }
    }

    fn board(&self) -> Result<&Board, String> {
        self.board.as_ref().ok_or_else(|| NO_GAME.to_string())
    }

    /// The board point for a coordinate, if it is on the board.
    fn point(&self, at: Coord, command: &str) -> Result<Pos, String> {
        let board = self.board()?;
        if board.in_bounds(at.x, at.y) {
            Ok(Pos::new(at.x as usize, at.y as usize))
        } else {
            Err(format!(
                "{command}: {at} is off the {}x{} board",
                board.width(),
                board.height()
            ))
        }
    }

    /// The board points of a `YXBLOCK`/`YXBLOCKUNDO` list: all of them, or an error naming
    /// the first one off the board (then none is taken).
    fn points(&self, coords: &[Coord], command: &str) -> Result<Vec<Pos>, String> {
        coords
            .iter()
            .map(|&at| {
                self.point(at, command)
                    .map_err(|why| format!("{why}; blocked points unchanged"))
            })
            .collect()
    }

    /// Fails when the game can take no more moves.
    fn check_playable(&self) -> Reply {
        let board = self.board()?;
        if let Some(outcome) = self.outcome {
            return Err(format!("game over: {outcome}"));
        }
        if board.is_full() {
            return Err("game over: the board is full".into());
        }
        Ok(())
    }

    fn start(&mut self, width: usize, height: usize) -> Reply {
        let board = Board::new(width, height, self.rule).map_err(|e| e.to_string())?;
        self.board = Some(board);
        self.outcome = None;
        self.set_up = 0;
        self.engine.new_game();
        self.writer.send(&Response::Ok);
        Ok(())
    }

    fn turn(&mut self, at: Coord, start: Instant) -> Reply {
        let pos = self.point(at, "TURN")?;
        self.check_playable()?;
        let board = self.board.as_mut().ok_or(NO_GAME)?;
        let color = board.side_to_move();
        match board.check_move(pos) {
            MoveCheck::Ordinary => {}
            MoveCheck::Occupied | MoveCheck::OffBoard => {
                return Err(format!("TURN: {pos} is not a free point"));
            }
            MoveCheck::Win => {
                return Err(format!("game over: {color} wins with {pos}"));
            }
            MoveCheck::Forbidden => {
                return Err(format!("game over: {pos} is a forbidden move for black"));
            }
        }
        board.make_move(pos);
        if board.is_full() {
            board.undo_move();
            return Err(format!("game over: {pos} fills the board"));
        }
        self.think(start)
    }

    /// Replaces the position with a BOARD/YXBOARD block; the receiver's colour comes from
    /// [`receiver_color`].
    fn set_position(&mut self, stones: &[Stone], command: &str) -> Reply {
        let old = self.board()?;
        let (width, height) = (old.width(), old.height());
        let count = |owner| stones.iter().filter(|s| s.owner == owner).count();
        let me = receiver_color(count(StoneOwner::Own), count(StoneOwner::Opponent));
        let mut blocked = Vec::new();
        let mut placed = Vec::new();
        for stone in stones {
            if !old.in_bounds(stone.at.x, stone.at.y) {
                return Err(format!(
                    "{command}: stone {} is off the {width}x{height} board",
                    stone.at
                ));
            }
            let pos = Pos::new(stone.at.x as usize, stone.at.y as usize);
            match stone.owner {
                StoneOwner::Own => placed.push((pos, me)),
                StoneOwner::Opponent => placed.push((pos, me.opponent())),
                StoneOwner::Blocked => blocked.push(pos),
            }
        }
        let (mut board, outcome) =
            replay(width, height, self.rule, &blocked, &placed, placed.len())
                .map_err(|why| format!("{command}: {why}"))?;
        board.set_side_to_move(me);
        if command == "BOARD" {
            // BOARD asks for a move, so a finished position is an error; YXBOARD only shows it.
            if let Some(outcome) = outcome {
                return Err(format!("game over: {outcome}"));
            }
            if board.is_full() {
                return Err("game over: the board is full".into());
            }
        }
        self.board = Some(board);
        self.outcome = outcome;
        self.set_up = placed.len();
        Ok(())
    }

    fn play(&mut self, at: Coord) -> Reply {
        let pos = self.point(at, "PLAY")?;
        self.check_playable()?;
        let board = self.board.as_mut().ok_or(NO_GAME)?;
        let color = board.side_to_move();
        match board.check_move(pos) {
            MoveCheck::Occupied | MoveCheck::OffBoard => {
                return Err(format!("PLAY: {pos} is not a free point"));
            }
            MoveCheck::Win => self.outcome = Some(Outcome::Five(color, pos)),
            MoveCheck::Forbidden => self.outcome = Some(Outcome::Foul(pos)),
            MoveCheck::Ordinary => {}
        }
        board.make_move(pos);
        self.writer.send(&Response::Move(pos));
        Ok(())
    }

    fn take_back(&mut self, at: Coord) -> Reply {
        let pos = self.point(at, "TAKEBACK")?;
        let board = self.board.as_mut().ok_or(NO_GAME)?;
        match board.last_move() {
            Some(last) if last == pos => {}
            Some(last) => {
                return Err(format!(
                    "TAKEBACK: {pos} is not the last stone (that is {last})"
                ))
            }
            None => return Err("TAKEBACK: the board has no stone".into()),
        }
        board.undo_move();
        self.set_up = self.set_up.min(board.history().len());
        self.outcome = judge(board, self.set_up);
        self.writer.send(&Response::Ok);
        Ok(())
    }

    fn info(&mut self, info: Info) {
        let limits = &mut self.limits;
        match info {
            Info::TimeoutTurn(ms) => limits.timeout_turn_ms = Some(ms),
            Info::TimeoutMatch(ms) => limits.timeout_match_ms = Some(ms),
            Info::TimeLeft(ms) => limits.time_left_ms = Some(ms),
            Info::MaxMemory(bytes) => limits.max_memory_bytes = bytes,
            Info::GameType(kind) => limits.game_type = kind,
            Info::Folder(folder) => limits.folder = Some(folder),
            Info::ThreadNum(n) => limits.threads = n,
            Info::MaxDepth(depth) => limits.max_depth = Some(depth),
            Info::MaxNode(nodes) => limits.max_nodes = Some(nodes),
            Info::HashSize(kib) => limits.hash_size_kib = Some(kib),
            Info::Rule(code) => match Rule::from_gomocup(code) {
                Some(rule) => {
                    self.rule = rule;
                    if let Some(board) = &mut self.board {
                        board.set_rule(rule);
                        self.outcome = judge(board, self.set_up);
                    }
                }
                None => self.note(format!(
                    "INFO rule {code} is not supported (0, 1, 2 = renju, 4, 8, 9); keeping {} ({})",
                    self.rule.name(),
                    self.rule.gomocup_code()
                )),
            },
            Info::Other(key) => log::debug!("INFO {key} ignored"),
        }
    }

    /// Queues a MESSAGE for the next move. Beyond [`MAX_NOTES`] only a count is kept.
    fn note(&mut self, text: String) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(text);
        } else {
            self.dropped_notes += 1;
        }
    }

    /// Prints the queued notes; called right before a move line.
    fn flush_notes(&mut self) {
        for text in std::mem::take(&mut self.notes) {
            self.writer.send(&Response::Message(text));
        }
        if self.dropped_notes > 0 {
            let text = format!("{} more INFO problems not shown", self.dropped_notes);
            self.writer.send(&Response::Message(text));
            self.dropped_notes = 0;
        }
    }

    /// Runs one search on the current board within the time of `time`.
    fn search(&mut self, time: &TimeManager<InstantClock>) -> Result<SearchResult, String> {
        self.check_playable()?;
        let board = self.board.as_ref().ok_or(NO_GAME)?;
        let writer = self.writer.clone();
        let mut report = |text: &str| writer.send(&Response::Message(text.to_string()));
        let mut result =
            self.engine
                .think_within(board, &self.limits, time, &self.stop, &mut report);
        result.best = legal_or_fallback(board, result.best);
        Ok(result)
    }

    /// The time limits of a move on the current board, for a command read at `start`.
    fn move_time(&self, start: Instant) -> Result<TimeManager<InstantClock>, String> {
        Ok(time_for(&self.limits, self.board()?, start))
    }

    /// Searches, plays the move on the board and prints it.
    fn think(&mut self, start: Instant) -> Reply {
        let time = self.move_time(start)?;
        let result = self.search(&time)?;
        self.charge_clock(start);
        self.play_own(result.best);
        self.flush_notes();
        self.writer.send(&Response::Move(result.best));
        Ok(())
    }

    /// Plays the engine's own move, noting whether it ends the game.
    fn play_own(&mut self, pos: Pos) {
        if let Some(board) = &mut self.board {
            let color = board.side_to_move();
            match board.check_move(pos) {
                MoveCheck::Win => self.outcome = Some(Outcome::Five(color, pos)),
                MoveCheck::Forbidden => self.outcome = Some(Outcome::Foul(pos)),
                _ => {}
            }
            board.make_move(pos);
        }
    }

    /// Takes the time used from `time_left`, in case the manager does not send it again.
    fn charge_clock(&mut self, start: Instant) {
        if let Some(left) = &mut self.limits.time_left_ms {
            if *left != UNTIMED {
                let used = start.elapsed().as_millis().min(i64::MAX as u128) as i64;
                *left = left.saturating_sub(used);
            }
        }
    }

    /// YXNBEST: the engine reports the best `n` moves as MESSAGE lines, then the best is the
    /// reply. The position is not changed: the command is for analysis.
    fn nbest(&mut self, n: usize, start: Instant) -> Reply {
        self.check_playable()?;
        let time = self.move_time(start)?;
        let board = self.board.as_ref().ok_or(NO_GAME)?;
        let writer = self.writer.clone();
        let mut report = |text: &str| writer.send(&Response::Message(text.to_string()));
        let results = self
            .engine
            .nbest(board, &self.limits, &time, &self.stop, n, &mut report);
        let best = legal_or_fallback(board, results.first().map_or(Pos::new(0, 0), |r| r.best));
        self.charge_clock(start);
        self.flush_notes();
        self.writer.send(&Response::Move(best));
        Ok(())
    }

    /// SWAP2BOARD: answers the opening phase of swap2 (0, 3 or 5 stones, black first).
    fn swap2(&mut self, stones: &[Coord], start: Instant) -> Reply {
        let old = self.board()?;
        let (width, height) = (old.width(), old.height());
        if !matches!(stones.len(), 0 | 3 | 5) {
            return Err(format!(
                "SWAP2BOARD needs 0, 3 or 5 stones, got {}",
                stones.len()
            ));
        }
        let mut placed = Vec::new();
        for (i, at) in stones.iter().enumerate() {
            if !old.in_bounds(at.x, at.y) {
                return Err(format!(
                    "SWAP2BOARD: stone {at} is off the {width}x{height} board"
                ));
            }
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            placed.push((Pos::new(at.x as usize, at.y as usize), color));
        }
        let (board, outcome) = replay(width, height, self.rule, &[], &placed, placed.len())
            .map_err(|why| format!("SWAP2BOARD: {why}"))?;
        if let Some(outcome) = outcome {
            return Err(format!("game over: {outcome}"));
        }
        self.board = Some(board);
        self.outcome = None;
        self.set_up = placed.len();
        let response = match stones.len() {
            0 => self.swap2_open(start),
            3 => self.swap2_second(start),
            _ => self.swap2_third(start),
        }?;
        self.charge_clock(start);
        self.flush_notes();
        self.writer.send(&response);
        Ok(())
    }

    /// The time of a swap2 decision that searches more than once, for a command read at
    /// `start`: the turn limit, at most an eighth of the match clock. Its searches share it
    /// through [`TimeManager::split`], each on the command's clock.
    fn swap2_time(&self, start: Instant) -> Result<TimeManager<InstantClock>, String> {
        let mut limits = self.limits.clone();
        // A swap2 decision is made once per game, early: a slice of the match clock is fair.
        let from_clock = limits
            .time_left_ms
            .filter(|&left| left != UNTIMED)
            .map(|left| left.max(0) / 8);
        limits.timeout_turn_ms = match (limits.timeout_turn_ms, from_clock) {
            (Some(turn), Some(clock)) => Some(turn.min(clock)),
            (turn, clock) => turn.or(clock),
        };
        Ok(time_for(&limits, self.board()?, start))
    }

    /// Zero stones: propose three (black, white, black) that look balanced to the engine.
    fn swap2_open(&mut self, start: Instant) -> Result<Response, String> {
        let board = self.board()?.clone();
        let centre = (board.width() as i64 / 2, board.height() as i64 / 2);
        let candidates: Vec<[Pos; 3]> = SWAP2_OPENINGS
            .iter()
            .filter_map(|shape| {
                let mut stones = [Pos::new(0, 0); 3];
                for (stone, (dx, dy)) in stones.iter_mut().zip(shape) {
                    let (x, y) = (centre.0 + dx, centre.1 + dy);
                    if !board.in_bounds(x, y) {
                        return None;
                    }
                    *stone = Pos::new(x as usize, y as usize);
                }
                Some(stones)
            })
            .collect();
        let time = self.swap2_time(start)?;
        let parts = candidates.len();
        let mut best: Option<([Pos; 3], i32)> = None;
        for (i, stones) in candidates.into_iter().enumerate() {
            // Out of time: the candidates searched so far decide.
            if best.is_some() && !time.has_time_to_share() {
                break;
            }
            let mut trial = board.clone();
            let mut legal = true;
            for &pos in &stones {
                legal &= trial.check_move(pos) == MoveCheck::Ordinary;
                trial.make_move(pos);
            }
            if !legal {
                continue;
            }
            self.board = Some(trial);
            let score = self.search(&time.split((parts - i) as u64))?.score;
            if best.is_none_or(|(_, s)| score.abs() < s.abs()) {
                best = Some((stones, score));
            }
        }
        let (stones, _) = best.ok_or("SWAP2BOARD: the board is too small for an opening")?;
        let mut result = board;
        for &pos in &stones {
            result.make_move(pos);
        }
        self.board = Some(result);
        Ok(Response::Moves(stones.to_vec()))
    }

    /// Three stones, white to move: take black (`SWAP`), stay white and play stone 4, or play
    /// stones 4 and 5 and let the opponent choose when the engine finds them balanced.
    fn swap2_second(&mut self, start: Instant) -> Result<Response, String> {
        let time = self.swap2_time(start)?;
        let white = self.search(&time.split(2))?;
        if white.score < -SWAP2_BALANCED {
            return Ok(Response::Swap);
        }
        self.play_own(white.best);
        if white.score > SWAP2_BALANCED {
            return Ok(Response::Move(white.best));
        }
        // Near balance: offer stone 5 too, the black move that keeps the balance best.
        let board = self.board.as_ref().ok_or(NO_GAME)?;
        if board.is_full() {
            return Ok(Response::Move(white.best));
        }
        let writer = self.writer.clone();
        let mut report = |text: &str| writer.send(&Response::Message(text.to_string()));
        // The rest of the time.
        let options = self
            .engine
            .nbest(board, &self.limits, &time, &self.stop, 8, &mut report);
        let balanced = options
            .iter()
            .filter(|r| board.check_move(r.best) == MoveCheck::Ordinary)
            .min_by_key(|r| r.score.unsigned_abs());
        match balanced {
            Some(black) if black.score.abs() <= SWAP2_BALANCED => {
                let black = black.best;
                self.play_own(black);
                Ok(Response::Moves(vec![white.best, black]))
            }
            _ => Ok(Response::Move(white.best)),
        }
    }

    /// Five stones, white to move: take black (`SWAP`) when black is better, else play stone 6.
    fn swap2_third(&mut self, start: Instant) -> Result<Response, String> {
        let time = self.move_time(start)?;
        let white = self.search(&time)?;
        if white.score < 0 {
            return Ok(Response::Swap);
        }
        self.play_own(white.best);
        Ok(Response::Move(white.best))
    }
}

/// Scores within this margin of zero count as balanced in swap2 decisions.
const SWAP2_BALANCED: i32 = 50;

/// Candidate swap2 openings: offsets of black, white, black from the centre, in the spirit of
/// the classic renju openings (direct and indirect).
const SWAP2_OPENINGS: [[(i64, i64); 3]; 6] = [
    [(0, 0), (1, -1), (2, 0)],
    [(0, 0), (1, 0), (0, 2)],
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (2, 0), (0, 2)],
    [(0, 0), (1, -1), (-1, -2)],
    [(0, 0), (0, 1), (2, 2)],
];

/// The engine's move if it is a free point, else the first free point that is not a renju
/// foul (a safety net: a broken reply loses the game at once).
fn legal_or_fallback(board: &Board, best: Pos) -> Pos {
    if board.is_empty(best) {
        return best;
    }
    log::warn!("engine returned {best}, which is not a free point");
    board
        .empty_cells()
        .find(|&p| board.check_move(p) != MoveCheck::Forbidden)
        .or_else(|| board.empty_cells().next())
        .unwrap_or(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<RawLine> {
        let mut reader = LineReader::new(input);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().expect("in-memory read") {
            out.push(line);
        }
        out
    }

    #[test]
    fn line_reader_splits_and_caps() {
        let text = |s: &str| RawLine::Text(s.to_string());
        assert_eq!(
            lines(b"START 15\r\nINFO rule 1\n\nEND"),
            vec![
                text("START 15\r"),
                text("INFO rule 1"),
                text(""),
                text("END")
            ]
        );
        assert_eq!(lines(b""), vec![]);
        let mut big = vec![b'A'; MAX_LINE_BYTES + 1];
        big.extend_from_slice(b"\nABOUT\n");
        let head = |s: &str| RawLine::TooLong {
            head: format!("{s:a<HEAD_BYTES$}"),
        };
        assert_eq!(
            lines(&big),
            vec![
                RawLine::TooLong {
                    head: "A".repeat(HEAD_BYTES)
                },
                text("ABOUT")
            ]
        );
        let mut info = b"  info folder ".to_vec();
        info.resize(MAX_LINE_BYTES + 1, b'a');
        info.extend_from_slice(b"\nINFOX");
        info.resize(info.len() + MAX_LINE_BYTES, b'a');
        assert_eq!(lines(&info), vec![head("  info folder "), head("INFOX")]);
        let mut exact = vec![b'A'; MAX_LINE_BYTES];
        exact.push(b'\n');
        assert!(matches!(&lines(&exact)[..], [RawLine::Text(t)] if t.len() == MAX_LINE_BYTES));
        assert_eq!(
            lines(b"INFO folder C:\\Jos\xe9\nOK\n"),
            vec![text("INFO folder C:\\Jos\u{fffd}"), text("OK")]
        );
    }

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
