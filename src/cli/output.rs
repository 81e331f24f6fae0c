//! What the scriptable commands say: exit codes, the one-line failure,
//! stdout (scrubbed, a closed pipe ending it quietly) and stderr. Shared by
//! every command module, which import nothing of each other for it.

use crate::api::ApiError;
use std::io::Write;

pub const EXIT_OK: i32 = 0;
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_AUTH: i32 = 4;
/// How this computer reaches the service is misconfigured: a certificate
/// not trusted (ca_file), a proxy refusing or failing. Not the key.
pub const EXIT_CONNECTION: i32 = 5;
/// `taskdeck inbox`: the walk was partial (a page, some comments or some
/// tasks could not be read): what was read is shown, and stderr says
/// which part is missing.
pub const EXIT_PARTIAL: i32 = 3;
/// Several profiles were asked (`inbox --all-profiles`): some answered,
/// some failed (each named on stderr); what answered is printed.
pub const EXIT_SOME_PROFILES: i32 = 6;

/// A failed command: its exit code and the one line for stderr (without
/// the `taskdeck: ` prefix).
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub message: String,
    /// Further instructions printed after the error line.
    pub hint: Option<String>,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_USAGE,
            message: message.into(),
            hint: None,
        }
    }
    pub fn failed(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_FAILED,
            message: message.into(),
            hint: None,
        }
    }
    /// `what failed: why`, exit 4 for a refused key, 5 for a TLS or proxy
    /// failure (a setting to fix on this side), else 1.
    pub fn api(what: &str, e: &ApiError) -> Self {
        tracing::warn!(error = %e, "{what} failed");
        let code = if e.is_auth() {
            EXIT_AUTH
        } else if e.is_setup() {
            EXIT_CONNECTION
        } else {
            EXIT_FAILED
        };
        Failure {
            code,
            message: format!("{what} failed: {e}"),
            hint: None,
        }
    }
}

pub type Outcome = Result<i32, Failure>;

/// Stdout was closed by its reader: a walk writing page by page stops.
pub static STDOUT_GONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Write to stdout; a closed pipe (`| head`) ends the output quietly.
/// Registered secrets (the API key) are scrubbed from everything written,
/// `--json` included: a service that echoes the key in a task must not put
/// it in a script's output.
pub fn emit(text: &str) -> Result<(), Failure> {
    let text = crate::secret::scrub(text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_GONE.store(true, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(Failure::failed(format!("cannot write the output: {e}"))),
    }
}

/// One line (or lines) on stderr, cleaned as stdout and the screen are
/// (issue 42, point 4): registered secrets scrubbed, and control
/// characters (ESC, BEL, C1, bidi overrides…) shown as their visible
/// stand-ins — a profile's name or a service's words never set the
/// window's title or clear the terminal. Line breaks are kept.
pub fn say(text: &str) {
    eprintln!("{}", crate::text::sanitize(text, true));
}

/// `--json` output. Control, bidi and zero-width characters inside strings
/// are always written as `\uXXXX` escapes — on a terminal and in a pipe
/// alike. It is the same JSON value (so still lossless for `jq` and any
/// parser), and the bytes can never act on a terminal, whether stdout is
/// one now or the output is `cat`ed to one later; deciding by `isatty`
/// would leave the second case open.
pub fn emit_json(json: &str) -> Result<(), Failure> {
    emit(&crate::text::escape_json_controls(json))
}
