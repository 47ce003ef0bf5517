//! The binary's command-line modes other than the protocol.

use std::process::{Command, Stdio};

/// `pbrain-wuzi bench | head` closes the pipe early: the bench stops there and exits cleanly,
/// with nothing on stderr, instead of failing with "Broken pipe".
#[test]
fn bench_stops_quietly_when_its_reader_leaves() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .args(["bench", "3"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-wuzi bench");
    // Closed before the bench has written most of its lines (ten searches follow the move
    // bench), so a later write finds the pipe broken.
    drop(child.stdout.take());
    let output = child
        .wait_with_output()
        .expect("wait for pbrain-wuzi bench");
    assert!(
        output.status.success(),
        "bench failed on a closed pipe: {:?}, stderr {:?}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "stderr: {:?}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A bad depth is refused with the usage and a failing exit status.
#[test]
fn bench_refuses_a_bad_depth() {
    let output = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .args(["bench", "deep"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("run pbrain-wuzi bench");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad depth"), "stderr: {stderr:?}");
    assert!(output.stdout.is_empty());
}
