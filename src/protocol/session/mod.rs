//! The engine thread's side of the protocol: the game (board, rule, limits, the referee's
//! verdict) and the engine, answering each command in input order with at most one reply line,
//! and leaving the game as it was when a command fails.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::Instant;

use super::{Command, Coord, Info, Response, Stone, StoneOwner, Writer};
use crate::board::{Board, MoveCheck};
use crate::engine::{time_for, Engine};
use crate::search::limits::Limits;
use crate::search::score::SearchResult;
use crate::search::time::{InstantClock, TimeManager};
use crate::types::{Pos, Rule};

mod replay;
mod swap2;

use replay::{judge, receiver_color, replay, Outcome};

/// Most notes kept for the next move; a flood of bad INFO lines must not grow memory.
const MAX_NOTES: usize = 16;

/// `time_left` value meaning "no match clock" (2^31 - 1, as Piskvork and c-gomoku-cli send it).
pub(super) const UNTIMED: i64 = 2_147_483_647;

/// Work for the engine thread, in input order.
pub(super) enum Job {
    /// A parsed command, the instant its first line was read, and its stop flag.
    Command(Command, Instant, Arc<AtomicBool>),
    /// A reply to print as is (a parse error).
    Reply(Response),
    /// A message to print with the next move (nothing may answer `INFO` directly).
    Note(String),
}

/// The error for commands that need a game before `START`/`RECTSTART`.
const NO_GAME: &str = "no game: send START first";

/// A reply to a command: an `ERROR` line's text on failure.
type Reply = Result<(), String>;

/// The engine thread's state: the game, the limits and the engine.
pub(super) struct Session {
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
    pub(super) fn new(writer: Writer, engine: Engine) -> Session {
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

    /// Handles jobs until the reader hangs up or the output is closed, telling `progress`
    /// after each one (the reader, draining at end of input, waits while jobs get done).
    pub(super) fn serve(mut self, jobs: Receiver<Job>, progress: &Sender<()>) {
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
            // The reader may have stopped listening: nothing to tell then.
            let _ = progress.send(());
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
}

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
