//! The command line.

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    0
}
