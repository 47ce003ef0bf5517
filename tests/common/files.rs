//! Files the tests share: a scratch folder, and the path of the scripted test engine.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A test's scratch folder under the system's temporary folder. It is removed when the test
/// passes and kept when it fails, so the files written there can be read after a failure.
pub struct TempDir(PathBuf);

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// An empty scratch folder `wuzi-NAME-PID`: a name unique within one test file, the process
/// id apart from the other test files and runs.
pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("wuzi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    TempDir(dir)
}

/// The scripted engine of `tests/engines/test_engine.rs`, which `cargo test` builds as the
/// example `wuzi-test-engine` beside the test executables.
pub fn test_engine() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/NAME-xxxx → target/<profile>/examples/
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("test executable lives in target/<profile>/deps");
    let name = format!("wuzi-test-engine{}", std::env::consts::EXE_SUFFIX);
    let path = profile_dir.join("examples").join(name);
    // `cargo test` with a single `--test` target builds no examples.
    assert!(
        path.exists(),
        "test engine not built at {}: run plain `cargo test`, or build it first with \
         `cargo build --example wuzi-test-engine` (and the tests' `--release`, if given)",
        path.display()
    );
    path
}
