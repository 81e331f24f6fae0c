//! The command line: argument parsing and the scriptable commands.

/// Entry point of the binary; returns the process exit code.
pub fn main() -> i32 {
    eprintln!("taskdeck: not built yet");
    2
}
