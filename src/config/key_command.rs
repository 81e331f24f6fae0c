//! `api_key_command`: running it, bounded in time, without ever showing
//! its output.

use crate::api::ApiKey;
use std::io::Read;
use std::time::{Duration, Instant};

/// How long `api_key_command` may run by default (it may ask for a
/// passphrase); `api_key_command_timeout_secs` changes it.
pub const KEY_COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest `api_key_command_timeout_secs`.
pub(super) const KEY_COMMAND_TIMEOUT_MAX_SECS: i64 = 600;

/// Failure to obtain the API key.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("api_key_command `{command}` could not be started: {reason}")]
    Spawn { command: String, reason: String },
    #[error("api_key_command `{command}` failed ({status}); its output is not shown")]
    Failed { command: String, status: String },
    #[error(
        "api_key_command `{command}` did not finish within {} and was stopped \
         (its output, if any, is not used; api_key_command_timeout_secs sets the limit)",
        shown_duration(*.limit)
    )]
    TimedOut {
        /// The command's first word only: the rest may hold anything.
        command: String,
        limit: Duration,
    },
    #[error("api_key_command `{command}` printed no key")]
    Empty { command: String },
    #[error("api_key_command `{command}` printed something that is not UTF-8 text")]
    NotText { command: String },
}

/// Run `api_key_command` with `sh -c` and the default time limit.
pub fn run_key_command(cmd: &str) -> Result<ApiKey, KeyError> {
    run_key_command_within(cmd, KEY_COMMAND_TIMEOUT)
}

/// Run `api_key_command` with `sh -c`; its trimmed stdout is the key. Its
/// output is never shown, even on failure. Everything — the command and the
/// reading of its output (a background process it started may hold the
/// pipe open) — must be done within `limit`; after that the command is
/// killed and the error names its first word and the limit.
pub fn run_key_command_within(cmd: &str, limit: Duration) -> Result<ApiKey, KeyError> {
    use std::process::{Command, Stdio};
    let command = crate::text::clean(cmd);
    let deadline = Instant::now() + limit;
    let timed_out = || KeyError::TimedOut {
        command: first_word(cmd),
        limit,
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| KeyError::Spawn {
            command: command.clone(),
            reason: e.to_string(),
        })?;
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    // Both pipes are read on threads of their own that are never joined:
    // the output arrives on a channel, so waiting for it is bounded too.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_end(&mut buf);
        }
        let _ = tx.send(buf);
    });
    // Drain stderr so the command never blocks on a full pipe; discard it.
    std::thread::spawn(move || {
        if let Some(e) = err.as_mut() {
            let _ = std::io::copy(e, &mut std::io::sink());
        }
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(timed_out());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                let _ = child.kill();
                return Err(KeyError::Spawn {
                    command,
                    reason: e.to_string(),
                });
            }
        }
    };
    let stdout = rx
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        .map_err(|_| timed_out())?;
    if !status.success() {
        return Err(KeyError::Failed {
            command,
            status: status.to_string(),
        });
    }
    let text = String::from_utf8(stdout).map_err(|_| KeyError::NotText {
        command: command.clone(),
    })?;
    let key = ApiKey::new(text.trim());
    if key.is_empty() {
        return Err(KeyError::Empty { command });
    }
    Ok(key)
}

/// The program a shell command runs (its first word that is not a variable
/// assignment), for messages that should not repeat the whole command.
fn first_word(cmd: &str) -> String {
    let word = cmd
        .split_whitespace()
        .find(|w| !w.contains('='))
        .unwrap_or("sh");
    crate::text::clean(word)
}

/// "30 s", or "250 ms" below a second or for fractions.
fn shown_duration(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_command_failure_hides_output() {
        let e = run_key_command("printf 'hidden%s' -output; exit 3").unwrap_err();
        let s = e.to_string();
        assert!(s.contains("exit status: 3"), "{s}");
        assert!(!s.contains("hidden-output"), "{s}");
        assert!(matches!(
            run_key_command("true"),
            Err(KeyError::Empty { .. })
        ));
    }

    #[test]
    fn a_hanging_key_command_is_stopped_at_the_limit() {
        let started = Instant::now();
        let e = run_key_command_within("sleep 60 # secret-arg", Duration::from_millis(300))
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5), "{e}");
        assert!(matches!(e, KeyError::TimedOut { .. }), "{e:?}");
        let s = e.to_string();
        assert!(
            s.starts_with("api_key_command `sleep` did not finish within 300 ms"),
            "{s}"
        );
        assert!(s.contains("api_key_command_timeout_secs"), "{s}");
        assert!(!s.contains("secret-arg"), "only the first word: {s}");

        // The command exits at once but a process it started in the
        // background keeps its output open: bounded as well.
        let started = Instant::now();
        let e =
            run_key_command_within("printf key-123456; (sleep 5 &)", Duration::from_millis(300))
                .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(3), "{e}");
        assert!(matches!(e, KeyError::TimedOut { .. }), "{e:?}");

        assert_eq!(first_word("  FOO=bar  pass show x"), "pass");
        assert_eq!(shown_duration(Duration::from_secs(30)), "30 s");
    }
}
