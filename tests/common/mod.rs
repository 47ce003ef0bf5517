//! Helpers for tests that drive the real `pbrain-wuzi` binary over pipes, as a manager does;
//! the test data's readers ([`data`]) and shared scratch files ([`files`]) sit beside them.
//!
//! stdout is read on a helper thread into a channel, so every wait has a deadline
//! (`recv_timeout`) and a silent or hung engine fails the test instead of blocking it. stderr
//! is collected too: without `RUST_LOG` it must stay empty.
#![allow(dead_code)] // each test file uses a different subset

pub mod data;
pub mod files;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use wuzi::types::Pos;

/// Deadline for a reply that should come promptly (generous: debug builds on a busy machine,
/// and the first search of a process builds its tables).
pub const REPLY: Duration = Duration::from_secs(30);

/// How long to listen before concluding that no further line is coming.
pub const QUIET: Duration = Duration::from_millis(300);

/// One engine process.
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Line ending used by [`Brain::send`]: `"\r\n"` like Piskvork, or `"\n"`.
    pub eol: &'static str,
}

impl Brain {
    /// Starts the engine with LF line endings and no `RUST_LOG`.
    pub fn spawn() -> Brain {
        Brain::spawn_with(&[])
    }

    /// Starts `pbrain-wuzi` with `args` (a mode and its options), LF line endings and no
    /// `RUST_LOG`.
    pub fn spawn_with(args: &[&str]) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pbrain-wuzi");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut raw = Vec::new();
                match reader.read_until(b'\n', &mut raw) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let text = String::from_utf8(raw).expect("stdout is UTF-8");
                // Every reply must be a whole line ending in a bare LF.
                let line = match text.strip_suffix('\n') {
                    Some(line) if !line.contains('\r') => line.to_string(),
                    _ => format!("<<malformed line {text:?}>>"),
                };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut err = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .expect("stderr buffer")
                    .extend_from_slice(&buf[..n]);
            }
        });
        let stdin = child.stdin.take();
        Brain {
            child,
            stdin,
            lines,
            stderr,
            eol: "\n",
        }
    }

    /// Starts the engine and sends CR LF line endings, as Piskvork and GomocupJudge do.
    pub fn spawn_crlf() -> Brain {
        let mut brain = Brain::spawn();
        brain.eol = "\r\n";
        brain
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) {
        let text = format!("{line}{}", self.eol);
        self.send_raw(text.as_bytes());
    }

    /// Sends several command lines back to back, without waiting for anything.
    pub fn send_all(&mut self, lines: &[&str]) {
        for line in lines {
            self.send(line);
        }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none arrives within `wait`.
    pub fn recv_within(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// The next line; fails the test if none arrives within [`REPLY`].
    pub fn recv(&self) -> String {
        self.recv_within(REPLY)
            .unwrap_or_else(|| panic!("no reply within {REPLY:?}"))
    }

    /// The next line that is not a `MESSAGE`.
    pub fn recv_reply(&self) -> String {
        loop {
            let line = self.recv();
            if !line.starts_with("MESSAGE ") {
                return line;
            }
        }
    }

    /// Sends `line` and checks that the next line is exactly `expected`.
    pub fn expect(&mut self, line: &str, expected: &str) {
        self.send(line);
        let got = self.recv();
        assert_eq!(got, expected, "reply to {line:?}");
    }

    /// Checks that nothing (not even a MESSAGE) is printed within [`QUIET`].
    pub fn assert_silent(&self) {
        if let Some(line) = self.recv_within(QUIET) {
            panic!("unexpected output {line:?}");
        }
    }

    /// Reads the reply to a move command: MESSAGE lines, then one `x,y` line. Returns the move.
    pub fn recv_move(&self) -> Pos {
        let line = self.recv_reply();
        parse_move(&line).unwrap_or_else(|| panic!("expected a move, got {line:?}"))
    }

    /// Sends `END` and waits for the process to exit; returns its status and how long it took.
    pub fn end(mut self) -> (ExitStatus, Duration) {
        self.send("END");
        let started = Instant::now();
        let status = self.wait_exit(Duration::from_secs(5));
        (status, started.elapsed())
    }

    /// Waits for the process to exit; fails the test after `bound`.
    pub fn wait_exit(&mut self, bound: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("poll child") {
                return status;
            }
            assert!(
                started.elapsed() < bound,
                "engine still running {bound:?} after it was told to stop"
            );
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// True while the process runs.
    pub fn is_alive(&mut self) -> bool {
        self.child.try_wait().expect("poll child").is_none()
    }

    /// Everything the process wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().expect("stderr buffer")).into_owned()
    }

    /// Every line printed after the process ended (call after it exited). Read until the
    /// reader thread meets the end of stdout, not until a pause: on a busy machine that thread
    /// may wait longer for the CPU than any pause one would pick, and lines the engine wrote
    /// before it exited would be missed.
    pub fn remaining_lines(&self) -> Vec<String> {
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(REPLY) {
                Ok(line) => rest.push(line),
                Err(RecvTimeoutError::Disconnected) => return rest,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("stdout still open {REPLY:?} after the engine exited")
                }
            }
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `pbrain-wuzi` with `args` and no input to the end; returns its exit status, stdout
/// and stderr.
pub fn run_wuzi(args: &[&str]) -> (ExitStatus, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("run pbrain-wuzi");
    (
        output.status,
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

/// Parses a move line `x,y`.
pub fn parse_move(line: &str) -> Option<Pos> {
    let (x, y) = line.split_once(',')?;
    let x: usize = x.parse().ok()?;
    let y: usize = y.parse().ok()?;
    (x < wuzi::types::MAX_SIZE && y < wuzi::types::MAX_SIZE).then(|| Pos::new(x, y))
}

/// Ends a session the way a manager does and checks the exit: `END`, exit code 0 within a
/// generous bound, nothing more on stdout, nothing on stderr.
pub fn finish(brain: Brain) {
    let stderr = Arc::clone(&brain.stderr);
    let lines = {
        let mut brain = brain;
        brain.send("END");
        let started = Instant::now();
        let status = brain.wait_exit(Duration::from_secs(2));
        let took = started.elapsed();
        assert!(status.success(), "exit status {status:?}");
        assert!(took < Duration::from_secs(1), "END took {took:?}");
        brain.remaining_lines()
    };
    assert!(lines.is_empty(), "output after the session: {lines:?}");
    let err = String::from_utf8_lossy(&stderr.lock().expect("stderr buffer")).into_owned();
    assert!(err.is_empty(), "stderr: {err}");
}
