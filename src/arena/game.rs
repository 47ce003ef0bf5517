//! One game between two engine processes, refereed with the crate's own rules code.
//!
//! The session follows GomocupJudge and Piskvork: `START` (or `RECTSTART`), the limits as
//! `INFO` lines, then for each move `INFO time_left` and either `BOARD`..`DONE` (the engine's
//! first move of the game, opening stones included, fields relative to the receiver) or
//! `TURN x,y`. Each reply is timed from the write of the command to the read of the move; a
//! reply later than `min(turn, time_left)` plus the tolerance loses, and the wait itself never
//! lasts longer than that, so a silent engine cannot stall the game.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::arena::engine::{is_chatter, EngineProcess, EngineSpec, Received, StartFailure};
use crate::board::{Board, MoveCheck};
use crate::types::{Color, Pos, Rule};

/// `time_left` sent when the match clock is unlimited (the value Piskvork uses).
pub const UNLIMITED_TIME: i64 = 2_147_483_647;

/// Default of [`GameSettings::reply_gap`], in milliseconds.
pub const DEFAULT_REPLY_GAP_MS: u64 = 20;

/// Time limits for every game, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move limit (`INFO timeout_turn`); 0 means "move at once", so only the tolerance
    /// is left for the reply.
    pub turn_ms: u64,
    /// Per-game limit for each side (`INFO timeout_match`); 0 means unlimited.
    pub match_ms: u64,
    /// Extra time granted on top of every limit before a reply counts as late.
    pub tolerance_ms: u64,
    /// A move that leaves the match clock below zero loses, whatever the tolerance
    /// (c-gomoku-cli's rule; Piskvork and GomocupJudge forgive it within the tolerance).
    pub strict_clock: bool,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            turn_ms: 5_000,
            match_ms: 120_000,
            tolerance_ms: 1_000,
            strict_clock: false,
        }
    }
}

/// Everything about a game that does not depend on which engines play it.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Board width (x).
    pub width: usize,
    /// Board height (y).
    pub height: usize,
    /// The rule sent to the engines and applied by the referee.
    pub rule: Rule,
    /// Time limits.
    pub time: TimeControl,
    /// Value of `INFO max_memory` (bytes; 0 = unlimited).
    pub max_memory: u64,
    /// Peak resident memory (bytes) above which an engine loses; `None` = not checked.
    pub memory_limit: Option<u64>,
    /// Total number of stones (opening included) after which the game is drawn.
    pub draw_after: Option<usize>,
    /// Value of `INFO game_type`.
    pub game_type: u32,
    /// Pass the engines' stderr through to the runner's stderr.
    pub engine_stderr: bool,
    /// Least time between an engine's move and the next line written to it, charged to
    /// nobody's clock. Some engines drop input that arrives within a few milliseconds of
    /// their own reply; a manager's own latency hides that, a fast runner must wait.
    pub reply_gap: Duration,
    /// Pass over reply lines that are neither a move nor a known reply (kept with the
    /// engine's messages), as GomocupJudge does; by default such a line loses the game.
    pub skip_unparsable: bool,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            time: TimeControl::default(),
            max_memory: 367_001_600,
            memory_limit: None,
            draw_after: None,
            game_type: 1,
            engine_stderr: false,
            reply_gap: Duration::from_millis(DEFAULT_REPLY_GAP_MS),
            skip_unparsable: false,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The given colour won.
    Win(Color),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// PGN-style result from black's side: `1-0` (black won), `0-1`, `1/2-1/2`.
    pub fn result_string(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "1-0",
            Outcome::Win(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The score of `color`: 1, 0.5 or 0.
    pub fn score_for(self, color: Color) -> f64 {
        match self {
            Outcome::Win(winner) if winner == color => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The winner made a five (as the rule counts it).
    Five,
    /// Black played a renju forbidden point.
    Foul,
    /// The loser's reply came too late, or never.
    TimeOut,
    /// The loser exited, closed its output, or failed to acknowledge `START`.
    Crash,
    /// The loser played an occupied or off-board point, or an unparsable line.
    IllegalMove,
    /// The loser's peak memory exceeded the limit.
    Memory,
    /// Draw: no empty point left.
    BoardFull,
    /// Draw: the ply limit was reached.
    PlyLimit,
}

impl Reason {
    /// All reasons, in display order.
    pub const ALL: [Reason; 8] = [
        Reason::Five,
        Reason::Foul,
        Reason::TimeOut,
        Reason::Crash,
        Reason::IllegalMove,
        Reason::Memory,
        Reason::BoardFull,
        Reason::PlyLimit,
    ];

    /// Short lower-case name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Foul => "renju foul",
            Reason::TimeOut => "time-out",
            Reason::Crash => "crash",
            Reason::IllegalMove => "illegal move",
            Reason::Memory => "memory",
            Reason::BoardFull => "board full",
            Reason::PlyLimit => "ply limit",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One move played by an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Where the stone went.
    pub pos: Pos,
    /// Its colour.
    pub color: Color,
    /// Reply time in milliseconds, from the command's write to the move's read.
    pub time_ms: u64,
}

/// A `MESSAGE` line sent by an engine, with the number of stones on the board when it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineMessage {
    /// Stones on the board when the message was read.
    pub ply: usize,
    /// Colour of the engine that sent it.
    pub color: Color,
    /// The text after `MESSAGE`.
    pub text: String,
}

/// The full story of one game, enough for every record format.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Rule applied.
    pub rule: Rule,
    /// Engine names, indexed by [`Color::index`].
    pub names: [String; 2],
    /// Opening stones, black first, alternating colours.
    pub opening: Vec<Pos>,
    /// Moves played by the engines after the opening.
    pub moves: Vec<MoveRecord>,
    /// How the game ended.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: Reason,
    /// Human-readable details (the illegal line, the timings, the exit status...).
    pub detail: String,
    /// Messages the engines sent.
    pub messages: Vec<EngineMessage>,
    /// Peak resident memory of each engine in bytes, when known.
    pub peak_memory: [Option<u64>; 2],
}

impl GameRecord {
    /// Every stone placed, opening included, with its colour.
    pub fn all_stones(&self) -> Vec<(Pos, Color)> {
        let opening = self.opening.iter().enumerate().map(|(i, &pos)| {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            (pos, color)
        });
        opening
            .chain(self.moves.iter().map(|m| (m.pos, m.color)))
            .collect()
    }
}

/// One side of a game: its process and its clock.
struct Player {
    process: EngineProcess,
    /// Thinking time used so far in this game, summed exactly (not in rounded milliseconds).
    used: Duration,
    sent_board: bool,
    /// Set when the process must not be reused (it lost by a fault or was killed).
    broken: bool,
    /// When its last move was read, for [`GameSettings::reply_gap`].
    last_reply: Option<Instant>,
}

impl Player {
    /// Milliseconds left on the match clock (negative once overdrawn); the untimed value,
    /// as Piskvork sends it, when the match is unlimited.
    fn time_left(&self, time: &TimeControl) -> i64 {
        if time.match_ms == 0 {
            return UNLIMITED_TIME;
        }
        let used = i64::try_from(self.used.as_millis()).unwrap_or(i64::MAX);
        i64::try_from(time.match_ms)
            .unwrap_or(i64::MAX)
            .saturating_sub(used)
    }
}

/// The end of a game as seen from the game loop.
struct Ending {
    outcome: Outcome,
    reason: Reason,
    detail: String,
}

impl Ending {
    fn loss(loser: Color, reason: Reason, detail: String) -> Ending {
        Ending {
            outcome: Outcome::Win(loser.opponent()),
            reason,
            detail,
        }
    }
}

/// A game was stopped from outside (Ctrl-C or a decided SPRT) before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aborted;

/// Processes handed in and out of [`play_game`] so that `--reuse` can keep them alive.
pub type Slot = Option<EngineProcess>;

/// Plays one game from the position `start` (the opening, already checked with
/// [`check_opening`]). `specs`/`names`/`slots` are indexed by colour. A process already in a
/// slot is reused (it gets a new `START`); an empty slot gets a fresh process. After the game
/// the slots hold the processes that may be reused when `keep` is set; every other process has
/// been sent `END` and killed 0.5 s later if still alive.
///
/// # Errors
/// [`Aborted`] when `abort` was raised during the game; no record is produced then.
pub fn play_game(
    settings: &GameSettings,
    specs: [&EngineSpec; 2],
    names: [&str; 2],
    slots: &mut [Slot; 2],
    keep: bool,
    start: &Board,
    abort: &AtomicBool,
) -> std::result::Result<GameRecord, Aborted> {
    let opening: Vec<Pos> = start.history().iter().map(|&(pos, _)| pos).collect();
    let mut record = GameRecord {
        width: settings.width,
        height: settings.height,
        rule: settings.rule,
        names: [names[0].to_string(), names[1].to_string()],
        opening,
        moves: Vec::new(),
        outcome: Outcome::Draw,
        reason: Reason::BoardFull,
        detail: String::new(),
        messages: Vec::new(),
        peak_memory: [None, None],
    };
    let mut players: [Option<Player>; 2] = [None, None];
    let result = run_game(
        settings,
        specs,
        names,
        slots,
        start.clone(),
        abort,
        &mut players,
        &mut record,
    );
    // Hand back or shut down the processes, in parallel so the 0.5 s grace is paid once.
    let grace = Instant::now() + Duration::from_millis(500);
    let mut closing = Vec::new();
    for (color, player) in players.iter_mut().enumerate() {
        if let Some(mut player) = player.take() {
            record.peak_memory[color] = player.process.peak_memory().or(record.peak_memory[color]);
            if keep && !player.broken && result.is_ok() && player.process.is_alive() {
                slots[color] = Some(player.process);
            } else {
                player.process.request_end();
                closing.push(player.process);
            }
        }
    }
    for process in closing {
        process.finish_by(grace);
    }
    match result {
        Ok(ending) => {
            record.outcome = ending.outcome;
            record.reason = ending.reason;
            record.detail = ending.detail;
            Ok(record)
        }
        Err(Aborted) => Err(Aborted),
    }
}

/// Starts both engines and plays until the game ends.
#[allow(clippy::too_many_arguments)]
fn run_game(
    settings: &GameSettings,
    specs: [&EngineSpec; 2],
    names: [&str; 2],
    slots: &mut [Slot; 2],
    mut board: Board,
    abort: &AtomicBool,
    players: &mut [Option<Player>; 2],
    record: &mut GameRecord,
) -> std::result::Result<Ending, Aborted> {
    let tolerance = Duration::from_millis(settings.time.tolerance_ms);

    // The side to move is started first, as GomocupJudge does.
    let first = board.side_to_move();
    for color in [first, first.opponent()] {
        let index = color.index();
        let process = match slots[index].take() {
            Some(process) => process,
            None => {
                match EngineProcess::spawn(specs[index], names[index], settings.engine_stderr) {
                    Ok(process) => process,
                    Err(e) => {
                        return Ok(Ending::loss(color, Reason::Crash, format!("{e:#}")));
                    }
                }
            }
        };
        let player = players[index].insert(Player {
            process,
            used: Duration::ZERO,
            sent_board: false,
            broken: false,
            last_reply: None,
        });
        match player
            .process
            .start(settings.width, settings.height, tolerance, abort)
        {
            Ok(()) => {}
            Err(StartFailure::Aborted) => return Err(Aborted),
            Err(failure) => {
                player.broken = true;
                let reason = match failure {
                    StartFailure::NoAnswer(_) => Reason::TimeOut,
                    _ => Reason::Crash,
                };
                return Ok(Ending::loss(
                    color,
                    reason,
                    format!("{} {}: {failure}", color, names[index]),
                ));
            }
        }
        let mut info = info_lines(settings);
        info.extend(specs[index].infos.iter().cloned());
        if player.process.send(&info).is_err() {
            player.broken = true;
            let detail = format!("{} {}: exited after START", color, names[index]);
            return Ok(Ending::loss(color, Reason::Crash, detail));
        }
    }

    loop {
        if board.is_full() {
            return Ok(Ending {
                outcome: Outcome::Draw,
                reason: Reason::BoardFull,
                detail: "no empty point left".to_string(),
            });
        }
        if let Some(limit) = settings.draw_after {
            if board.stone_count() >= limit {
                return Ok(Ending {
                    outcome: Outcome::Draw,
                    reason: Reason::PlyLimit,
                    detail: format!("{limit} stones on the board"),
                });
            }
        }
        let side = board.side_to_move();
        let name = names[side.index()];
        let Some(player) = players[side.index()].as_mut() else {
            unreachable!("both players were started above");
        };
        let reply = ask_move(settings, &board, player, side, abort, record)?;
        let (line, elapsed) = match reply {
            Reply::Move(line, elapsed) => (line, elapsed),
            Reply::Lost(reason, detail) => {
                player.broken = true;
                return Ok(Ending::loss(
                    side,
                    reason,
                    format!("{side} {name}: {detail}"),
                ));
            }
        };
        let elapsed_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        player.used += elapsed;

        let Some((x, y)) = parse_move(&line) else {
            player.broken = true;
            let detail = format!("{side} {name}: unparsable reply `{}`", shorten(&line));
            return Ok(Ending::loss(side, Reason::IllegalMove, detail));
        };
        if !board.in_bounds(x, y) {
            let detail = format!("{side} {name}: off-board move {x},{y}");
            return Ok(Ending::loss(side, Reason::IllegalMove, detail));
        }
        let pos = Pos::new(x as usize, y as usize);
        let verdict = board.check_move(pos);
        let move_record = MoveRecord {
            pos,
            color: side,
            time_ms: elapsed_ms,
        };
        match verdict {
            MoveCheck::OffBoard => {
                let detail = format!("{side} {name}: off-board move {pos}");
                return Ok(Ending::loss(side, Reason::IllegalMove, detail));
            }
            MoveCheck::Occupied => {
                let detail = format!("{side} {name}: occupied point {pos}");
                return Ok(Ending::loss(side, Reason::IllegalMove, detail));
            }
            MoveCheck::Forbidden => {
                record.moves.push(move_record);
                let detail = format!("{side} {name}: forbidden point {pos}");
                return Ok(Ending::loss(side, Reason::Foul, detail));
            }
            MoveCheck::Win => {
                record.moves.push(move_record);
                let detail = format!("{side} {name}: five at {pos}");
                return Ok(Ending {
                    outcome: Outcome::Win(side),
                    reason: Reason::Five,
                    detail,
                });
            }
            MoveCheck::Ordinary => {
                record.moves.push(move_record);
                board.make_move(pos);
            }
        }
        if let Some(limit) = settings.memory_limit {
            let peak = player.process.peak_memory();
            record.peak_memory[side.index()] = peak;
            if let Some(peak) = peak.filter(|&peak| peak > limit) {
                player.broken = true;
                let detail = format!(
                    "{side} {name}: peak memory {} MiB over the limit of {} MiB",
                    peak >> 20,
                    limit >> 20
                );
                return Ok(Ending::loss(side, Reason::Memory, detail));
            }
        }
    }
}

/// The `INFO` lines sent once per game after `START`.
fn info_lines(settings: &GameSettings) -> Vec<String> {
    vec![
        format!("INFO timeout_turn {}", settings.time.turn_ms),
        format!("INFO timeout_match {}", settings.time.match_ms),
        format!("INFO max_memory {}", settings.max_memory),
        format!("INFO rule {}", settings.rule.gomocup_code()),
        format!("INFO game_type {}", settings.game_type),
    ]
}

/// What came back for one move request.
enum Reply {
    /// A candidate move line, and the time it took.
    Move(String, Duration),
    /// The player lost before a move could be judged.
    Lost(Reason, String),
}

/// Sends the position (or the last move) and waits for the answer within the limit.
fn ask_move(
    settings: &GameSettings,
    board: &Board,
    player: &mut Player,
    side: Color,
    abort: &AtomicBool,
    record: &mut GameRecord,
) -> std::result::Result<Reply, Aborted> {
    let time_left = player.time_left(&settings.time);
    let mut lines = vec![format!("INFO time_left {time_left}")];
    match board.last_move() {
        Some(last) if player.sent_board => lines.push(format!("TURN {last}")),
        _ => {
            lines.push("BOARD".to_string());
            for &(pos, color) in board.history() {
                let field = if color == side { 1 } else { 2 };
                lines.push(format!("{pos},{field}"));
            }
            lines.push("DONE".to_string());
            player.sent_board = true;
        }
    }
    if let Some(ready) = player.last_reply.map(|at| at + settings.reply_gap) {
        let now = Instant::now();
        if now < ready {
            std::thread::sleep(ready - now);
        }
    }
    let written = match player.process.send(&lines) {
        Ok(at) => at,
        Err(_) => {
            let detail = format!("cannot write to the engine: it {}", {
                player.process.exit_description()
            });
            return Ok(Reply::Lost(Reason::Crash, detail));
        }
    };
    let turn = i64::try_from(settings.time.turn_ms).unwrap_or(i64::MAX);
    let limit_ms = turn.min(time_left);
    let allowed_ms =
        limit_ms.saturating_add(i64::try_from(settings.time.tolerance_ms).unwrap_or(0));
    let allowed = Duration::from_millis(u64::try_from(allowed_ms.max(0)).unwrap_or(0));
    let deadline = written + allowed;
    loop {
        match player.process.receive(deadline, abort) {
            Received::Line(line, at) => {
                let elapsed = at.saturating_duration_since(written);
                if elapsed > allowed {
                    player.process.kill();
                    return Ok(Reply::Lost(
                        Reason::TimeOut,
                        late(elapsed, limit_ms, settings),
                    ));
                }
                let chatter = is_chatter(&line);
                let unparsable =
                    !chatter && settings.skip_unparsable && parse_move(&line).is_none();
                if chatter || unparsable {
                    let text = if unparsable {
                        Some(line.as_str())
                    } else {
                        message_text(&line)
                    };
                    if let Some(text) = text {
                        record.messages.push(EngineMessage {
                            ply: board.stone_count(),
                            color: side,
                            text: text.to_string(),
                        });
                    }
                    continue;
                }
                player.last_reply = Some(at);
                let elapsed_ms = i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX);
                if settings.time.strict_clock
                    && settings.time.match_ms > 0
                    && elapsed_ms > time_left
                {
                    return Ok(Reply::Lost(
                        Reason::TimeOut,
                        format!(
                            "replied after {elapsed_ms} ms with {time_left} ms on its match \
                             clock (--strict-clock)"
                        ),
                    ));
                }
                return Ok(Reply::Move(line, elapsed));
            }
            Received::Eof(_) => {
                let detail = format!("crashed: {}", player.process.exit_description());
                return Ok(Reply::Lost(Reason::Crash, detail));
            }
            Received::Timeout => {
                player.process.kill();
                let detail = format!(
                    "no move within {} ms (limit {} ms + tolerance {} ms); killed",
                    allowed.as_millis(),
                    limit_ms,
                    settings.time.tolerance_ms
                );
                return Ok(Reply::Lost(Reason::TimeOut, detail));
            }
            Received::Aborted => return Err(Aborted),
        }
    }
}

/// Detail line for a reply that arrived after the deadline.
fn late(elapsed: Duration, limit_ms: i64, settings: &GameSettings) -> String {
    format!(
        "replied after {} ms (limit {} ms + tolerance {} ms)",
        elapsed.as_millis(),
        limit_ms,
        settings.time.tolerance_ms
    )
}

/// The text of a `MESSAGE` line (any case), `None` for other lines.
fn message_text(line: &str) -> Option<&str> {
    let keyword = line.split_whitespace().next()?;
    if keyword.eq_ignore_ascii_case("MESSAGE") {
        Some(line[keyword.len()..].trim())
    } else {
        None
    }
}

/// Parses a move reply `x,y`: exactly one comma, an integer on each side (spaces allowed
/// around them). Coordinates are not range-checked here.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    let x = x.trim().parse::<i64>().ok()?;
    let y = y.trim().parse::<i64>().ok()?;
    Some((x, y))
}

/// At most 80 characters of an engine line, for messages.
fn shorten(line: &str) -> String {
    if line.chars().count() <= 80 {
        line.to_string()
    } else {
        let cut: String = line.chars().take(80).collect();
        format!("{cut}...")
    }
}

/// Plays a sequence of stones (black first, alternating) on an empty board, checking that it
/// is a legal start of a game: on the board, no point twice, no five made, no renju foul by
/// black. Returns the position reached.
///
/// # Errors
/// A message naming the first offending stone (1-based) and why, or a bad board size.
pub fn check_opening(width: usize, height: usize, rule: Rule, stones: &[Pos]) -> Result<Board> {
    let mut board = Board::new(width, height, rule)?;
    for (i, &pos) in stones.iter().enumerate() {
        let color = board.side_to_move();
        let number = i + 1;
        match board.check_move(pos) {
            MoveCheck::OffBoard => {
                anyhow::bail!("stone {number} ({pos}) is off the {width}x{height} board")
            }
            MoveCheck::Occupied => anyhow::bail!("stone {number} ({pos}) is on an occupied point"),
            MoveCheck::Forbidden => {
                anyhow::bail!("stone {number} ({pos}) is a forbidden point for black")
            }
            MoveCheck::Win => anyhow::bail!("stone {number} ({pos}) makes a five for {color}"),
            MoveCheck::Ordinary => board.make_move(pos),
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_moves() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 7 , 8 "), Some((7, 8)));
        assert_eq!(parse_move("-1,3"), Some((-1, 3)));
        assert_eq!(parse_move("7,8,1"), None);
        assert_eq!(parse_move("7 8"), None);
        assert_eq!(parse_move("a,b"), None);
        assert_eq!(parse_move(""), None);
    }

    #[test]
    fn message_text_only_for_messages() {
        assert_eq!(message_text("MESSAGE depth 3"), Some("depth 3"));
        assert_eq!(message_text("message hi"), Some("hi"));
        assert_eq!(message_text("DEBUG x"), None);
    }

    #[test]
    fn outcome_strings() {
        assert_eq!(Outcome::Win(Color::Black).result_string(), "1-0");
        assert_eq!(Outcome::Win(Color::White).result_string(), "0-1");
        assert_eq!(Outcome::Draw.score_for(Color::White), 0.5);
        assert_eq!(Outcome::Win(Color::White).score_for(Color::Black), 0.0);
    }
}
