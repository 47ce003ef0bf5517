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

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::session::{Job, Session};
use super::{Command, Info, ParseError, Parser, Writer};
use crate::engine::Engine;

/// Longest accepted input line in bytes; longer lines are discarded and answered with an error.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long `END` waits for the engine thread to wind down before returning anyway.
const QUIT_GRACE: Duration = Duration::from_millis(30);

/// How long end of input waits for the engine thread to finish its next job before returning
/// anyway: a bound on a stall, not a wait. The reader keeps waiting while jobs get done, so a
/// starved engine thread (a loaded machine) still answers every command already read; each
/// search stops at once, and a piped session of a dozen commands, three of them moves, is
/// answered in about 15 ms.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

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
    // One message per job done; the channel closes when the engine thread ends.
    let (progress_sender, progress) = mpsc::channel::<()>();
    let session = Session::new(writer.clone(), engine);
    thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            session.serve(job_receiver, &progress_sender);
            // Dropped also on a panic of `serve`, which unblocks the reader's wait below.
            drop(progress_sender);
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
    if draining {
        // Until the engine thread ends, or stalls on one job for the whole grace.
        while progress.recv_timeout(DRAIN_GRACE).is_ok() {}
    } else {
        // Until the engine thread ends, or the grace is over.
        let deadline = Instant::now() + QUIT_GRACE;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            if progress.recv_timeout(left).is_err() {
                break;
            }
        }
    }
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
}
