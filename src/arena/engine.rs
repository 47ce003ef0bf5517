//! Engine processes: spawning a pbrain engine, talking to it over pipes, and ending it.
//!
//! Every engine gets a reader thread that owns its stdout and forwards each line, stamped
//! with the instant it was read, over a channel. The game thread therefore never blocks on a
//! pipe: it waits on the channel with a deadline, which is what lets the watchdog end a silent
//! engine on every game. Engines are started in their own process group on Unix so that a
//! Ctrl-C in the terminal reaches only the runner, and so that a kill also ends any helper
//! processes the engine started.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// Longest line kept from an engine; the rest of a longer line is dropped so that a runaway
/// engine cannot exhaust the runner's memory.
const MAX_LINE: usize = 64 * 1024;

/// How often a wait on an engine looks at the abort flag.
const ABORT_POLL: Duration = Duration::from_millis(50);

/// How an engine is started: the command line, its working directory and an optional name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command as given by the user (program and arguments).
    pub cmd: String,
    /// The program to run.
    pub program: String,
    /// Arguments passed to the program.
    pub args: Vec<String>,
    /// Working directory; the runner's own when `None`.
    pub dir: Option<PathBuf>,
    /// Name given by the user; when `None` the name comes from the engine's `ABOUT` answer.
    pub name: Option<String>,
    /// `INFO` lines of this engine's own (`info=thread_num=2` gives `INFO thread_num 2`),
    /// sent after the common ones at the start of every game.
    pub infos: Vec<String>,
}

impl EngineSpec {
    /// A spec from a command line such as `./pbrain-x --flag "a b"` (split on whitespace,
    /// honouring single and double quotes).
    ///
    /// # Errors
    /// When the command is empty or has an unterminated quote.
    pub fn from_command(cmd: &str) -> Result<EngineSpec> {
        let words = split_command(cmd)?;
        let Some((program, args)) = words.split_first() else {
            bail!("empty engine command");
        };
        Ok(EngineSpec {
            cmd: cmd.to_string(),
            program: program.clone(),
            args: args.to_vec(),
            dir: None,
            name: None,
            infos: Vec::new(),
        })
    }

    /// A name to use before the engine has told its own: the user's name or the file stem.
    pub fn fallback_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let stem = std::path::Path::new(&self.program)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.program.clone());
        if self.args.is_empty() {
            stem
        } else {
            format!("{} {}", stem, self.args.join(" "))
        }
    }
}

/// Splits a command line into words, honouring single and double quotes and, except on
/// Windows where it separates path components, backslash escapes outside single quotes.
///
/// # Errors
/// When a quote is not closed.
pub fn split_command(cmd: &str) -> Result<Vec<String>> {
    let escapes = !cfg!(windows);
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') if escapes => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        bail!("unterminated quote in command `{cmd}`");
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// What the reader thread saw on the engine's stdout.
#[derive(Debug)]
enum Output {
    /// One line, without its line ending.
    Line(String),
    /// The engine closed its stdout (it exited or crashed).
    Eof,
}

/// The result of waiting for one line from an engine.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A non-empty line (trimmed) and the instant it was read.
    Line(String, Instant),
    /// The engine closed its output; the instant it was noticed.
    Eof(Instant),
    /// The deadline passed first.
    Timeout,
    /// The abort flag was raised while waiting.
    Aborted,
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Output, Instant)>,
    killed: bool,
}

impl EngineProcess {
    /// Starts the engine with piped stdin/stdout. Its stderr goes to the runner's stderr when
    /// `show_stderr` is set and is discarded otherwise.
    ///
    /// # Errors
    /// When the program cannot be started (missing binary, bad directory), naming the engine.
    pub fn spawn(spec: &EngineSpec, name: &str, show_stderr: bool) -> Result<EngineProcess> {
        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Own process group: the terminal's Ctrl-C goes to the runner only, which then
            // ends the games in order instead of having every engine die mid-move.
            command.process_group(0);
        }
        let mut child = command.spawn().with_context(|| {
            let dir = spec
                .dir
                .as_ref()
                .map(|d| format!(" in directory {}", d.display()))
                .unwrap_or_default();
            format!("engine {name}: cannot start `{}`{dir}", spec.cmd)
        })?;
        let stdout = child
            .stdout
            .take()
            .context("engine stdout was not captured")?;
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        let thread_name = format!("read-{name}");
        thread::Builder::new()
            .name(thread_name)
            .spawn(move || read_lines(stdout, sender))
            .context("cannot start an engine reader thread")?;
        log::debug!("{name}: started pid {}", child.id());
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            lines,
            killed: false,
        })
    }

    /// The name used in logs and error messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the engine (after `ABOUT`).
    pub fn set_name(&mut self, name: &str) {
        self.name = name.to_string();
    }

    /// Operating-system process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes the lines (each followed by `\n`) in one write and flushes; returns the instant
    /// just before the write, from which the reply is timed. The engine may read the lines as
    /// soon as the write begins, and a loaded machine can hold this thread for milliseconds
    /// after the flush, so a clock read after it could charge the engine less than it took.
    ///
    /// # Errors
    /// When the pipe is closed (the engine has exited).
    pub fn send(&mut self, lines: &[String]) -> io::Result<Instant> {
        let mut buf = String::new();
        for line in lines {
            log::debug!("{} <- {line}", self.name);
            buf.push_str(line);
            buf.push('\n');
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        let at = Instant::now();
        stdin.write_all(buf.as_bytes())?;
        stdin.flush()?;
        Ok(at)
    }

    /// Waits for the next non-empty line until `deadline`, looking at `abort` regularly.
    pub fn receive(&mut self, deadline: Instant, abort: &AtomicBool) -> Received {
        loop {
            if abort.load(Ordering::Relaxed) {
                return Received::Aborted;
            }
            let now = Instant::now();
            if now >= deadline {
                // A line may have been read just before the deadline: take it if so.
                return match self.lines.try_recv() {
                    Ok(item) => match self.accept(item) {
                        Some(received) => received,
                        None => continue,
                    },
                    Err(_) => Received::Timeout,
                };
            }
            let wait = (deadline - now).min(ABORT_POLL);
            match self.lines.recv_timeout(wait) {
                Ok(item) => {
                    if let Some(received) = self.accept(item) {
                        return received;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Received::Eof(Instant::now()),
            }
        }
    }

    /// Turns a raw reader item into a result, dropping blank lines.
    fn accept(&self, (output, at): (Output, Instant)) -> Option<Received> {
        match output {
            Output::Line(line) => {
                let line = line.trim();
                if line.is_empty() {
                    return None;
                }
                log::debug!("{} -> {line}", self.name);
                Some(Received::Line(line.to_string(), at))
            }
            Output::Eof => {
                log::debug!("{} -> EOF", self.name);
                Some(Received::Eof(at))
            }
        }
    }

    /// Sends `ABOUT` and returns the `name="..."` value of the answer, if one comes within
    /// `timeout`.
    pub fn about_name(&mut self, timeout: Duration, abort: &AtomicBool) -> Option<String> {
        self.send(&["ABOUT".to_string()]).ok()?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline, abort) {
                Received::Line(line, _) => {
                    if is_chatter(&line) {
                        continue;
                    }
                    return parse_about_name(&line);
                }
                _ => return None,
            }
        }
    }

    /// Sends `START`/`RECTSTART` and waits up to `timeout` for `OK`, skipping `MESSAGE` and
    /// `DEBUG` lines.
    ///
    /// # Errors
    /// A description of what went wrong: no answer, end of output, or another answer.
    pub fn start(
        &mut self,
        width: usize,
        height: usize,
        timeout: Duration,
        abort: &AtomicBool,
    ) -> std::result::Result<(), StartFailure> {
        let command = if width == height {
            format!("START {width}")
        } else {
            format!("RECTSTART {width},{height}")
        };
        // Drop lines left over from an earlier game of a reused process (a late MESSAGE, an
        // answer that came after a time-out) so they are not taken as the answer to START.
        // An end-of-output mark is kept: the next wait then reports the exit.
        while let Ok(item) = self.lines.try_recv() {
            if matches!(item.0, Output::Eof) {
                return Err(StartFailure::Exited);
            }
        }
        self.send(std::slice::from_ref(&command))
            .map_err(|_| StartFailure::Exited)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline, abort) {
                Received::Line(line, _) => {
                    if line.eq_ignore_ascii_case("OK") {
                        return Ok(());
                    }
                    let upper = line.to_ascii_uppercase();
                    if upper.starts_with("MESSAGE") || upper.starts_with("DEBUG") {
                        continue;
                    }
                    return Err(StartFailure::Refused(format!("{command}: {line}")));
                }
                Received::Eof(_) => return Err(StartFailure::Exited),
                Received::Timeout => return Err(StartFailure::NoAnswer(command)),
                Received::Aborted => return Err(StartFailure::Aborted),
            }
        }
    }

    /// Peak resident memory of the process in bytes (Linux `VmHWM`), if it can be read.
    pub fn peak_memory(&self) -> Option<u64> {
        peak_memory_of(self.child.id())
    }

    /// True while the process has not exited.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// A short description of how the process ended, waiting briefly for it to exit.
    pub fn exit_description(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exited with {status}"),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output".to_string(),
            }
        }
    }

    /// Sends `END` and closes stdin without waiting.
    pub fn request_end(&mut self) {
        let _ = self.send(&["END".to_string()]);
        self.stdin = None;
    }

    /// Waits until the process exits or `deadline` passes, then kills it if needed.
    pub fn finish_by(mut self, deadline: Instant) {
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => {
                    log::debug!("{}: still running after END, killing it", self.name);
                    self.kill();
                    break;
                }
            }
        }
        // The group may still hold helper processes of a well-behaved engine.
        self.kill();
    }

    /// Kills the process (and, on Unix, its process group) and reaps it.
    pub fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        self.stdin = None;
        #[cfg(unix)]
        {
            if matches!(self.child.try_wait(), Ok(None)) {
                kill_group(self.child.id());
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Why an engine did not acknowledge `START`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartFailure {
    /// No answer within the tolerance; holds the command sent.
    NoAnswer(String),
    /// An answer other than `OK`; holds the command and the answer.
    Refused(String),
    /// The process exited or closed its output.
    Exited,
    /// The runner is stopping.
    Aborted,
}

impl std::fmt::Display for StartFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartFailure::NoAnswer(command) => write!(f, "no OK to `{command}` in time"),
            StartFailure::Refused(answer) => write!(f, "did not answer OK ({answer})"),
            StartFailure::Exited => f.write_str("exited before answering START"),
            StartFailure::Aborted => f.write_str("aborted"),
        }
    }
}

/// True for lines that are never a move: `MESSAGE`, `DEBUG`, `OK`, `ERROR`, `UNKNOWN`.
pub fn is_chatter(line: &str) -> bool {
    let keyword = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_uppercase();
    matches!(
        keyword.as_str(),
        "MESSAGE" | "DEBUG" | "OK" | "ERROR" | "UNKNOWN"
    )
}

/// The `name="..."` value of an `ABOUT` answer (quotes optional).
pub fn parse_about_name(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let mut search = 0;
    while let Some(found) = lower[search..].find("name") {
        let start = search + found;
        search = start + 4;
        // Only a whole key: at the start or after a separator.
        let before_ok = start == 0
            || lower[..start]
                .chars()
                .last()
                .is_some_and(|c| c == ',' || c.is_whitespace());
        let rest = line[start + 4..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let value = rest[1..].trim_start();
        let name = if let Some(quoted) = value.strip_prefix('"') {
            quoted.split('"').next().unwrap_or_default()
        } else {
            value.split(',').next().unwrap_or_default().trim()
        };
        let name = name.trim();
        if !name.is_empty() {
            return Some(name.to_string());
        }
    }
    None
}

/// Reader thread body: forwards lines until EOF or until nobody listens.
fn read_lines(stdout: impl Read, sender: mpsc::Sender<(Output, Instant)>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_capped_line(&mut reader, &mut buf) {
            Ok(0) | Err(_) => {
                let _ = sender.send((Output::Eof, Instant::now()));
                return;
            }
            Ok(_) => {
                let at = Instant::now();
                let text = String::from_utf8_lossy(&buf);
                let text = text.trim_end_matches(['\n', '\r']).to_string();
                if sender.send((Output::Line(text), at)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Reads one line into `buf`, keeping at most [`MAX_LINE`] bytes of it; returns the number of
/// bytes consumed (0 at EOF). A lone `\r` also ends a line, as Piskvork accepts it.
fn read_capped_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut consumed = 0;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(consumed);
        }
        let end = chunk.iter().position(|&b| b == b'\n' || b == b'\r');
        let take = end.map_or(chunk.len(), |i| i + 1);
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        reader.consume(take);
        consumed += take;
        if end.is_some() {
            return Ok(consumed);
        }
    }
}

/// Peak resident set size of a process, from `/proc/<pid>/status` (`VmHWM`, in kB).
#[cfg(target_os = "linux")]
pub fn peak_memory_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Peak resident memory is only read on Linux; elsewhere it is unknown.
#[cfg(not(target_os = "linux"))]
pub fn peak_memory_of(_pid: u32) -> Option<u64> {
    None
}

/// True when [`peak_memory_of`] works on this platform, i.e. a memory limit can be enforced.
pub fn memory_limit_supported() -> bool {
    cfg!(target_os = "linux")
}

#[cfg(unix)]
mod sys {
    extern "C" {
        pub fn kill(pid: i32, sig: i32) -> i32;
    }
    pub const SIGKILL: i32 = 9;
}

/// Kills every process of the group led by `pid` (engines are group leaders, see `spawn`).
#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        if pid > 0 {
            // SAFETY: kill(2) has no memory-safety preconditions; a negative pid names the
            // process group that `spawn` created for this engine.
            unsafe {
                sys::kill(-pid, sys::SIGKILL);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(not(windows))]
    #[test]
    fn splits_commands_with_quotes() {
        let words = split_command(r#"./pbrain-x  --opt "a b" 'c d' e\ f"#).unwrap();
        assert_eq!(words, vec!["./pbrain-x", "--opt", "a b", "c d", "e f"]);
        assert!(split_command("\"open").is_err());
        assert!(EngineSpec::from_command("   ").is_err());
    }

    #[test]
    fn parses_about_names() {
        assert_eq!(
            parse_about_name(r#"name="Rapfi", version="0.43", author="x""#).as_deref(),
            Some("Rapfi")
        );
        assert_eq!(
            parse_about_name(r#"version="1", name = "My Engine""#).as_deref(),
            Some("My Engine")
        );
        assert_eq!(
            parse_about_name("name=plain, author=x").as_deref(),
            Some("plain")
        );
        assert_eq!(parse_about_name(r#"nickname="no""#), None);
        assert_eq!(parse_about_name("hello"), None);
    }

    #[test]
    fn caps_long_lines() {
        let mut data = vec![b'a'; MAX_LINE + 100];
        data.extend_from_slice(b"\r\nnext\n");
        let mut reader = BufReader::with_capacity(1000, &data[..]);
        let mut buf = Vec::new();
        read_capped_line(&mut reader, &mut buf).unwrap();
        assert_eq!(buf.len(), MAX_LINE);
        buf.clear();
        // The "\n" of the CRLF pair comes as an empty line, which receivers skip.
        read_capped_line(&mut reader, &mut buf).unwrap();
        assert_eq!(buf, b"\n");
        buf.clear();
        read_capped_line(&mut reader, &mut buf).unwrap();
        assert_eq!(buf, b"next\n");
        buf.clear();
        assert_eq!(read_capped_line(&mut reader, &mut buf).unwrap(), 0);
    }

    #[test]
    fn chatter_lines() {
        for line in ["MESSAGE hi", "debug x", "OK", "ERROR bad", "UNKNOWN cmd"] {
            assert!(is_chatter(line), "{line}");
        }
        for line in ["7,7", "okay", "hello"] {
            assert!(!is_chatter(line), "{line}");
        }
    }
}
