//! `pbrain-wuzi analyze`: a position in, the engine's answer out, as text or as one JSON
//! object (written by hand: no serialisation crate at run time).
//!
//! `--nbest K` runs the engine's n-best search ([`Engine::nbest`]): each further move comes
//! from a search of the same position with the moves found before it excluded at the root,
//! on an even share of the time left.

use std::io::{IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{bail, Result};
use wuzi::arena::record::json_string;
use wuzi::engine::{time_for, Engine};
use wuzi::search::score::SearchResult;
use wuzi::types::{Color, Pos, Rule};

use super::line::{finish_line, mate, proven_winner, score_words, Line};
use super::options::{parse_rule, parse_size, unknown, SearchLimits, Words};
use super::position_args::{GameOver, Notation, PositionArgs, Setup};

/// Milliseconds a search gets when no limit is given.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// The command line of `analyze`.
struct Options {
    rule: Option<Rule>,
    size: Option<(usize, usize)>,
    limits: SearchLimits,
    nbest: Option<usize>,
    json: bool,
    position: PositionArgs,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options> {
        let mut words = Words::new(args);
        let mut options = Options {
            rule: None,
            size: None,
            limits: SearchLimits::default(),
            nbest: None,
            json: false,
            position: PositionArgs::default(),
        };
        while let Some(word) = words.next() {
            match word.as_str() {
                "--rule" => options.rule = Some(parse_rule(&words.value(&word)?)?),
                "--size" => options.size = Some(parse_size(&words.value(&word)?)?),
                "--nbest" => {
                    let k: usize = words.number(&word)?;
                    if k == 0 {
                        bail!("--nbest must be at least 1");
                    }
                    options.nbest = Some(k);
                }
                "--json" => options.json = true,
                flag if options.limits.take(flag, &mut words)? => {}
                flag if options.position.take(flag, &mut words)? => {}
                other => return Err(unknown(other, "analyze")),
            }
        }
        Ok(options)
    }
}

/// One move of the answer with its search and line.
struct Choice {
    result: SearchResult,
    line: Line,
    /// Plies to the proven result, from the side to move's view.
    mate: Option<i32>,
}

impl Choice {
    fn new(result: SearchResult, line: Line, mover: Color) -> Choice {
        // A line that ends in the five the score proves gives the count; otherwise the
        // score's own, if it counts.
        let winner = proven_winner(result.score, mover);
        let plies = line.moves.len() as i32;
        let shown = match line.five {
            Some(five) if winner == Some(five) && five == mover => Some(plies),
            Some(five) if winner == Some(five) => Some(-plies),
            _ => mate(result.score),
        };
        Choice {
            result,
            line,
            mate: shown,
        }
    }

    /// The score for people (see [`score_words`]).
    fn score_text(&self, mover: Color) -> String {
        score_words(self.result.score, self.mate, mover)
    }
}

/// Runs `analyze` with the words after its name, printing to stdout.
///
/// # Errors
/// On a bad command line or position (see [`PositionArgs::build`]), or a failed write.
pub fn run(args: &[String]) -> Result<()> {
    let options = Options::parse(args)?;
    let setup = options.position.build(options.rule, options.size)?;
    let mut out = std::io::stdout().lock();
    if let Some(over) = setup.over {
        write_over(&mut out, &setup, over, options.json)?;
        return out.flush().map_err(Into::into);
    }
    let started = Instant::now();
    let choices = search(&setup, &options, started);
    let elapsed = started.elapsed().as_millis() as u64;
    if options.json {
        write_json(&mut out, &setup, &choices, options.nbest.is_some(), elapsed)?;
    } else {
        write_text(&mut out, &setup, &choices, options.nbest.is_some(), elapsed)?;
    }
    out.flush().map_err(Into::into)
}

/// Searches the position: its best move, or its best `--nbest` moves.
fn search(setup: &Setup, options: &Options, started: Instant) -> Vec<Choice> {
    let board = &setup.board;
    let limits = options.limits.to_limits(DEFAULT_TIME_MS);
    let time = time_for(&limits, board, started);
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new();
    let mut progress = Progress::new();
    let mut report = |text: &str| progress.show(text);
    let results = match options.nbest {
        Some(k) => engine.nbest(board, &limits, &time, &stop, k, &mut report),
        None => vec![engine.think_within(board, &limits, &time, &stop, &mut report)],
    };
    progress.clear();
    let mover = board.side_to_move();
    // Every line is read from the table before any is played on (which searches again).
    let pvs: Vec<Vec<Pos>> = results
        .iter()
        .map(|r| engine.principal_variation(board, r.best))
        .collect();
    results
        .into_iter()
        .zip(pvs)
        .map(|(result, pv)| {
            let line = finish_line(&mut engine, board, &result, pv);
            Choice::new(result, line, mover)
        })
        .collect()
}

/// Progress lines on stderr, each over the last, while stderr is a terminal; nothing otherwise
/// (a script reading stderr sees errors only).
struct Progress {
    on: bool,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    fn show(&mut self, text: &str) {
        if self.on {
            let short: String = text.chars().take(78).collect();
            eprint!("\r\x1b[K{short}");
            self.shown = true;
        }
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

/// `pos` in the position's notation, then in the other one.
fn both_names(notation: Notation, pos: Pos) -> (String, String) {
    let other = match notation {
        Notation::Pos => Notation::Xy,
        Notation::Xy => Notation::Pos,
    };
    (notation.name(pos), other.name(pos))
}

/// The position in one line: stones, side to move, rule and size.
fn describe(setup: &Setup) -> String {
    let board = &setup.board;
    format!(
        "{} stones, {} to move ({}, {}x{})",
        board.stone_count(),
        board.side_to_move(),
        board.rule(),
        board.width(),
        board.height()
    )
}

fn line_text(setup: &Setup, line: &Line) -> String {
    let names: Vec<String> = line.moves.iter().map(|&p| setup.notation.name(p)).collect();
    names.join(" ")
}

fn write_text(
    out: &mut impl Write,
    setup: &Setup,
    choices: &[Choice],
    nbest: bool,
    elapsed_ms: u64,
) -> Result<()> {
    writeln!(out, "position: {}", describe(setup))?;
    let Some(best) = choices.first() else {
        bail!("the search found no move");
    };
    let (name, other) = both_names(setup.notation, best.result.best);
    writeln!(out, "best:     {name} ({other})")?;
    let side = setup.board.side_to_move();
    let view = if proven_winner(best.result.score, side).is_some() {
        String::new()
    } else {
        format!(" (for {side})")
    };
    writeln!(out, "score:    {}{view}", best.score_text(side))?;
    writeln!(out, "pv:       {}", line_text(setup, &best.line))?;
    let nodes: u64 = choices.iter().map(|c| c.result.nodes).sum();
    writeln!(
        out,
        "depth {}, {nodes} nodes, {elapsed_ms} ms",
        best.result.depth
    )?;
    if nbest {
        writeln!(out, "nbest:")?;
        for (i, choice) in choices.iter().enumerate() {
            let name = setup.notation.name(choice.result.best);
            writeln!(
                out,
                "{:>3}. {name:<6} {:<18} pv {}",
                i + 1,
                choice.score_text(side),
                line_text(setup, &choice.line)
            )?;
        }
    }
    Ok(())
}

/// `null` or the number.
fn json_option(value: Option<i32>) -> String {
    value.map_or("null".to_string(), |v| v.to_string())
}

fn json_line(setup: &Setup, line: &Line) -> String {
    let names: Vec<String> = line
        .moves
        .iter()
        .map(|&p| json_string(&setup.notation.name(p)))
        .collect();
    format!("[{}]", names.join(","))
}

fn write_json(
    out: &mut impl Write,
    setup: &Setup,
    choices: &[Choice],
    nbest: bool,
    elapsed_ms: u64,
) -> Result<()> {
    let Some(best) = choices.first() else {
        bail!("the search found no move");
    };
    let nodes: u64 = choices.iter().map(|c| c.result.nodes).sum();
    write!(
        out,
        "{{\"best\":{},\"best_xy\":{},\"score\":{},\"mate\":{},\"pv\":{},\"depth\":{},\
         \"nodes\":{nodes},\"time_ms\":{elapsed_ms}",
        json_string(&setup.notation.name(best.result.best)),
        json_string(&best.result.best.to_string()),
        best.result.score,
        json_option(best.mate),
        json_line(setup, &best.line),
        best.result.depth,
    )?;
    if nbest {
        let entries: Vec<String> = choices
            .iter()
            .map(|c| {
                format!(
                    "{{\"move\":{},\"move_xy\":{},\"score\":{},\"mate\":{},\"pv\":{},\
                     \"depth\":{},\"nodes\":{}}}",
                    json_string(&setup.notation.name(c.result.best)),
                    json_string(&c.result.best.to_string()),
                    c.result.score,
                    json_option(c.mate),
                    json_line(setup, &c.line),
                    c.result.depth,
                    c.result.nodes
                )
            })
            .collect();
        write!(out, ",\"nbest\":[{}]", entries.join(","))?;
    }
    writeln!(out, "}}")?;
    Ok(())
}

/// The answer for a game that is already over: no move, and how it ended.
fn write_over(out: &mut impl Write, setup: &Setup, over: GameOver, json: bool) -> Result<()> {
    let text = over.describe(setup.notation);
    if json {
        let winner = over
            .winner()
            .map_or("null".to_string(), |c| json_string(&c.to_string()));
        writeln!(
            out,
            "{{\"best\":null,\"best_xy\":null,\"score\":null,\"mate\":null,\"pv\":[],\
             \"depth\":0,\"nodes\":0,\"time_ms\":0,\"game_over\":{},\"winner\":{winner}}}",
            json_string(&text)
        )?;
    } else {
        writeln!(out, "position: {}", describe(setup))?;
        writeln!(out, "game over: {text}")?;
    }
    Ok(())
}
