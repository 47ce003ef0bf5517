//! Ctrl-C handling: the first SIGINT raises a flag so the runner can stop after writing what
//! finished; a second one ends the process the usual way.
//!
//! On Unix this installs a handler with the C library's `signal`, declared here to avoid a
//! dependency. Elsewhere nothing is installed and Ctrl-C ends the runner at once (engines then
//! see their stdin close).

use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the first Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag raised by Ctrl-C once [`install`] has run.
pub fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

#[cfg(unix)]
mod sys {
    pub const SIGINT: i32 = 2;
    /// `SIG_DFL`: the default action.
    pub const SIG_DFL: usize = 0;
    extern "C" {
        pub fn signal(signum: i32, handler: usize) -> usize;
    }
}

#[cfg(unix)]
extern "C" fn on_sigint(_signum: i32) {
    // Only async-signal-safe work here: an atomic store and restoring the default action, so
    // that a second Ctrl-C ends the runner even if it is stuck.
    INTERRUPTED.store(true, Ordering::SeqCst);
    // SAFETY: signal(2) is async-signal-safe; SIG_DFL is a valid disposition.
    unsafe {
        sys::signal(sys::SIGINT, sys::SIG_DFL);
    }
}

/// Installs the Ctrl-C handler (Unix); returns false where it is not supported.
pub fn install() -> bool {
    #[cfg(unix)]
    {
        let handler: extern "C" fn(i32) = on_sigint;
        // SAFETY: the handler only touches an atomic and calls signal(2), both allowed in a
        // signal handler; the cast is how the C API takes a handler.
        unsafe {
            sys::signal(sys::SIGINT, handler as usize);
        }
        true
    }
    #[cfg(not(unix))]
    {
        let _ = Ordering::SeqCst;
        false
    }
}
