//! A custom command as data: what to run (`Job`, one `Run` per task or
//! group) and how it ended (`Done`, one `Outcome` per run). Rendering it is
//! `super::handle`; running it is the loop's (`crate::tui::runner`).

use std::time::Duration;

/// Output kept per stream; the rest is read and dropped (so the command
/// never blocks on a full pipe) and the overlay says it was cut.
pub const OUTPUT_CAP: usize = 64 * 1024;

/// A custom command to run, rendered for its targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The command's name (`:run NAME`).
    pub name: String,
    pub description: String,
    pub runs: Vec<Run>,
    pub interactive: bool,
    pub timeout: Duration,
}

/// One run of the script: which task(s) it is for, the script, and the
/// variables that carry the task's values (`vars::env`).
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// `#12`, or `#12 #13 #14` for a command run once for several tasks.
    pub label: String,
    pub script: String,
    pub env: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    /// Stopped after the time limit (with everything it started).
    TimedOut(Duration),
    CannotStart(String),
}

impl Exit {
    pub fn success(&self) -> bool {
        *self == Exit::Code(0)
    }
    pub fn describe(&self) -> String {
        match self {
            Exit::Code(0) => "exit status 0".into(),
            Exit::Code(n) => format!("failed: exit status {n}"),
            Exit::Signal(s) => format!("failed: killed by signal {s}"),
            Exit::TimedOut(d) => format!("failed: still running after {} s, stopped", d.as_secs()),
            Exit::CannotStart(e) => format!("failed: could not start: {e}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub label: String,
    pub exit: Exit,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// More than `OUTPUT_CAP` came on a stream.
    pub truncated: bool,
}

/// What a job did, run by run.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    pub name: String,
    pub description: String,
    pub interactive: bool,
    pub outcomes: Vec<Outcome>,
}
