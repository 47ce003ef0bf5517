//! `pbrain-wuzi play`: a game against the engine, one command a line on stdin, so it works in
//! a terminal and over a plain pipe alike (colour codes and the prompt only when stdout and
//! stdin are terminals).
//!
//! Commands: a move (`h8`, or `7,7`), `undo` (the person's last move and the engine's reply),
//! `hint`, `swap` (change colours), `new`, `save FILE` (`.psq` or `.sgf`), `board`, `help`,
//! `quit`. The engine's choice among equal opening moves differs from game to game unless
//! `--seed` fixes it (each new game then starts from that seed again); the moves also depend
//! on how deep each search gets in its time, so games repeat exactly when `--depth` or
//! `--nodes` ends every search first.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result};
use wuzi::arena::game::Outcome;
use wuzi::arena::record::{stones_to_psq, stones_to_sgf};
use wuzi::board::{Board, MoveCheck};
use wuzi::engine::{time_for, Engine};
use wuzi::search::limits::Limits;
use wuzi::search::score::SearchResult;
use wuzi::types::{Color, Pos, Rule};

use super::line::{mate, score_words};
use super::options::{parse_rule, parse_size, unknown, SearchLimits, Words};
use super::position_args::{read_points, GameOver, Notation};
use super::view::draw;

/// Milliseconds the engine thinks per move when `--time` is not given.
const DEFAULT_TIME_MS: u64 = 1000;

/// The commands, as `help` prints them.
const HELP: &str = "\
commands:
  h8 (or 7,7)   play there: the column's letter from a, the row's number from 1 at the top
  undo          take back your last move and wuzi's reply
  hint          wuzi's move for you, with its score
  swap          change colours (wuzi then plays for the side to move)
  new           start a new game with the same colours
  save FILE     save the game as FILE.psq or FILE.sgf
  board         draw the board again
  help          this list
  quit          leave (so does the end of input)
board: X black, O white, [ ] the last move, * a point forbidden to black (renju)";

/// The command line of `play`.
struct Options {
    rule: Rule,
    size: (usize, usize),
    limits: Limits,
    engine_first: bool,
    seed: Option<u64>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options> {
        let mut words = Words::new(args);
        let mut options = Options {
            rule: Rule::Freestyle,
            size: (15, 15),
            limits: Limits::default(),
            engine_first: false,
            seed: None,
        };
        let mut limits = SearchLimits::default();
        while let Some(word) = words.next() {
            match word.as_str() {
                "--rule" => options.rule = parse_rule(&words.value(&word)?)?,
                "--size" => options.size = parse_size(&words.value(&word)?)?,
                "--engine-first" => options.engine_first = true,
                "--seed" => options.seed = Some(words.number(&word)?),
                flag if limits.take(flag, &mut words)? => {}
                other => return Err(unknown(other, "play")),
            }
        }
        // Always a time limit: the engine varies its opening moves in timed searches only.
        limits.time_ms = limits.time_ms.or(Some(DEFAULT_TIME_MS));
        options.limits = limits.to_limits(DEFAULT_TIME_MS);
        Ok(options)
    }
}

/// A game in progress and the engine playing it.
struct Game {
    board: Board,
    /// The person's colour.
    human: Color,
    engine: Engine,
    limits: Limits,
    seed: Option<u64>,
    over: Option<GameOver>,
    /// Colour codes in the drawing (stdout is a terminal).
    colour: bool,
}

/// Runs `play` with the words after its name on stdin and stdout.
///
/// # Errors
/// On a bad command line or a failed read or write.
pub fn run(args: &[String]) -> Result<()> {
    let options = Options::parse(args)?;
    let stdin = std::io::stdin();
    let prompt = stdin.is_terminal() && std::io::stdout().is_terminal();
    let colour = std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    session(&options, &mut stdin.lock(), &mut out, prompt, colour)
}

/// The whole session: a game, then as many more as `new` asks for, until `quit` or the end
/// of `input`.
fn session(
    options: &Options,
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: bool,
    colour: bool,
) -> Result<()> {
    let (width, height) = options.size;
    let mut engine = Engine::new();
    if let Some(seed) = options.seed {
        engine.set_seed(seed);
    }
    let mut game = Game {
        board: Board::new(width, height, options.rule)?,
        human: if options.engine_first {
            Color::White
        } else {
            Color::Black
        },
        engine,
        limits: options.limits.clone(),
        seed: options.seed,
        over: None,
        colour,
    };
    writeln!(
        out,
        "wuzi {}: {} on {width}x{height}. Type a move like h8, or help.",
        env!("CARGO_PKG_VERSION"),
        options.rule
    )?;
    game.engine_turn(out)?;
    game.show(out)?;
    let mut line = String::new();
    loop {
        if prompt {
            write!(out, "> ")?;
        }
        out.flush()?;
        line.clear();
        if input.read_line(&mut line).context("reading a command")? == 0 {
            return Ok(());
        }
        let text = line.trim();
        let (command, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        match command.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => game.show(out)?,
            "undo" => game.undo(out)?,
            "hint" => game.hint(out)?,
            "swap" => game.swap(out)?,
            "new" => game.new_game(out)?,
            "save" => game.save(out, rest.trim())?,
            _ => game.human_move(out, text)?,
        }
        out.flush()?;
    }
}

impl Game {
    /// The board, then whose turn it is or how the game ended.
    fn show(&self, out: &mut impl Write) -> Result<()> {
        write!(out, "{}", draw(&self.board, self.colour))?;
        match self.over {
            Some(over) => {
                let result = match over.winner() {
                    Some(c) if c == self.human => "you win",
                    Some(_) => "wuzi wins",
                    None => "a draw",
                };
                writeln!(
                    out,
                    "game over: {}; {result}. Type new, undo, save FILE or quit.",
                    over.describe(Notation::Pos)
                )?;
            }
            None => writeln!(
                out,
                "your move ({}, {})",
                self.human,
                stone_letter(self.human)
            )?,
        }
        Ok(())
    }

    /// Plays `pos` for the side to move and notes whether it ends the game.
    fn place(&mut self, pos: Pos) {
        let mover = self.board.side_to_move();
        let number = self.board.stone_count() + 1;
        let check = self.board.check_move(pos);
        self.board.make_move(pos);
        self.over = match check {
            MoveCheck::Win => Some(GameOver::Five {
                color: mover,
                pos,
                number: Some(number),
            }),
            MoveCheck::Forbidden => Some(GameOver::Foul { pos, number }),
            _ if self.board.is_full() => Some(GameOver::Full),
            _ => None,
        };
    }

    /// A search for the side to move.
    fn search(&mut self) -> SearchResult {
        let stop = AtomicBool::new(false);
        let time = time_for(&self.limits, &self.board, Instant::now());
        self.engine
            .think_within(&self.board, &self.limits, &time, &stop, &mut |_| {})
    }

    /// The engine's move when it is the engine's turn in a game that goes on.
    fn engine_turn(&mut self, out: &mut impl Write) -> Result<()> {
        if self.over.is_some() || self.board.side_to_move() == self.human {
            return Ok(());
        }
        let best = self.search().best;
        self.place(best);
        writeln!(out, "wuzi plays {}", Notation::Pos.name(best))?;
        Ok(())
    }

    /// The person's move `text`, then the engine's reply.
    fn human_move(&mut self, out: &mut impl Write, text: &str) -> Result<()> {
        let points = match read_points(&[text.to_string()]) {
            Ok((points, _)) if points.len() == 1 => points,
            _ => {
                writeln!(
                    out,
                    "{text:?} is neither a move (h8) nor a command; type help for the list"
                )?;
                return Ok(());
            }
        };
        if self.over.is_some() {
            writeln!(out, "the game is over: type new, undo, save FILE or quit")?;
            return Ok(());
        }
        let (x, y) = points[0];
        if !self.board.in_bounds(x, y) {
            writeln!(out, "{text} is off the board")?;
            return Ok(());
        }
        let pos = Pos::new(x as usize, y as usize);
        if !self.board.is_empty(pos) {
            writeln!(out, "{} is taken", Notation::Pos.name(pos))?;
            return Ok(());
        }
        self.place(pos);
        self.engine_turn(out)?;
        self.show(out)
    }

    /// Takes back the person's last move and every move after it (the engine's reply).
    fn undo(&mut self, out: &mut impl Write) -> Result<()> {
        let history = self.board.history();
        let Some(last) = history.iter().rposition(|&(_, c)| c == self.human) else {
            writeln!(out, "nothing to undo")?;
            return Ok(());
        };
        let taken = history.len() - last;
        for _ in 0..taken {
            self.board.undo_move();
        }
        self.over = None;
        writeln!(out, "took back {}", moves(taken))?;
        self.show(out)
    }

    /// The engine's move for the person, with its score; the board is left as it is.
    fn hint(&mut self, out: &mut impl Write) -> Result<()> {
        if self.over.is_some() {
            writeln!(out, "the game is over: no hint")?;
            return Ok(());
        }
        let result = self.search();
        writeln!(
            out,
            "hint: {} ({})",
            Notation::Pos.name(result.best),
            score_words(result.score, mate(result.score), self.human)
        )?;
        Ok(())
    }

    /// Changes colours; the engine moves if the side to move is now its own.
    fn swap(&mut self, out: &mut impl Write) -> Result<()> {
        self.human = self.human.opponent();
        writeln!(
            out,
            "you now play {} ({}); wuzi plays {}",
            self.human,
            stone_letter(self.human),
            self.human.opponent()
        )?;
        self.engine_turn(out)?;
        self.show(out)
    }

    /// A new game with the same colours.
    fn new_game(&mut self, out: &mut impl Write) -> Result<()> {
        self.board = Board::new(self.board.width(), self.board.height(), self.board.rule())?;
        self.engine.new_game();
        if let Some(seed) = self.seed {
            self.engine.set_seed(seed);
        }
        self.over = None;
        writeln!(out, "new game: you play {}", self.human)?;
        self.engine_turn(out)?;
        self.show(out)
    }

    /// Saves the game as PSQ or SGF, by the file name's extension.
    fn save(&self, out: &mut impl Write, file: &str) -> Result<()> {
        let extension = Path::new(file)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let board = &self.board;
        let names = if self.human == Color::Black {
            ["player", "wuzi"]
        } else {
            ["wuzi", "player"]
        };
        let text = match extension.as_deref() {
            Some("psq") => {
                let stones: Vec<Pos> = board.history().iter().map(|&(p, _)| p).collect();
                stones_to_psq(board.width(), board.height(), names, &stones)
            }
            Some("sgf") => {
                let outcome = self.over.map(|over| match over.winner() {
                    Some(color) => Outcome::Win(color),
                    None => Outcome::Draw,
                });
                stones_to_sgf(
                    board.width(),
                    board.height(),
                    board.rule(),
                    names,
                    outcome,
                    board.history(),
                )
            }
            _ => {
                writeln!(out, "save: give a file name ending in .psq or .sgf")?;
                return Ok(());
            }
        };
        match std::fs::write(file, text) {
            Ok(()) => writeln!(out, "saved {} to {file}", moves(board.stone_count()))?,
            Err(e) => writeln!(out, "cannot save to {file}: {e}")?,
        }
        Ok(())
    }
}

/// `n moves`, or `1 move`.
fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

/// The letter a colour's stones are drawn with.
fn stone_letter(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}
