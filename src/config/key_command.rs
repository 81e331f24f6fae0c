//! `api_key_command`: running it, bounded in time and in output, without
//! ever showing its output.

use crate::api::ApiKey;
use crate::platform::ffi;
use std::io::Read;
use std::time::Duration;

/// How long `api_key_command` may run by default (it may ask for a
/// passphrase); `api_key_command_timeout_secs` changes it.
pub const KEY_COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest `api_key_command_timeout_secs`.
pub(crate) const KEY_COMMAND_TIMEOUT_MAX_SECS: i64 = 600;
/// The most output `api_key_command` may print: a key is a line, and a
/// command printing without end must not take the memory with it.
pub const KEY_COMMAND_OUTPUT_MAX: usize = 64 * 1024;

/// Failure to obtain the API key. Every variant names only the command's
/// first word: the rest of the command may hold anything (a path, a
/// passphrase given inline).
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
    #[error(
        "api_key_command `{command}` printed more than {} KiB and was stopped \
         (a key is one short line; its output is not shown)",
        KEY_COMMAND_OUTPUT_MAX / 1024
    )]
    TooMuchOutput { command: String },
    #[error("api_key_command `{command}` printed no key")]
    Empty { command: String },
    #[error("api_key_command `{command}` printed something that is not UTF-8 text")]
    NotText { command: String },
}

/// Run `api_key_command` with `sh -c` and the default time limit.
pub fn run_key_command(cmd: &str) -> Result<ApiKey, KeyError> {
    run_key_command_within(cmd, KEY_COMMAND_TIMEOUT)
}

/// What the thread reading the command's stdout found.
enum Output {
    /// The first line that is not blank, complete (its line end left
    /// out): sent as soon as it is read, reading goes on.
    FirstLine(Vec<u8>),
    /// Everything up to end of file, at most [`KEY_COMMAND_OUTPUT_MAX`].
    Done(Vec<u8>),
    /// More than [`KEY_COMMAND_OUTPUT_MAX`]: reading stopped there.
    TooMuch,
}

/// Run `api_key_command` with `sh -c`; its trimmed stdout is the key. Its
/// output is never shown, even on failure; its stderr and stdin are the
/// terminal's, so a passphrase prompt shows and can be answered (it runs
/// before the screen is taken). The command is done when its shell has
/// exited and either its stdout is closed (the key: all of it, trimmed) or
/// its first line is complete (the key: that line — a process it started
/// in the background, `sleep 30 & echo key`, may hold the pipe open);
/// whatever it started that still runs in its process group is then
/// ended. A shell that failed is a failure at once. All of it must be done
/// within `limit`, and the output may be at most
/// [`KEY_COMMAND_OUTPUT_MAX`]; otherwise the command's whole process group
/// (whatever it started too) is killed and the error names its first word.
pub fn run_key_command_within(cmd: &str, limit: Duration) -> Result<ApiKey, KeyError> {
    run_within(cmd, limit, true)
}

/// [`run_key_command_within`] away from the terminal, for a profile
/// connected in the background while the TUI holds the screen: stdin and
/// stderr are `/dev/null` and the command runs in a session of its own
/// (no controlling terminal), so nothing it prints or asks reaches the
/// screen or takes the keyboard; a command that must ask on the terminal
/// fails (within `limit`) and the error says so.
pub fn run_key_command_detached(cmd: &str, limit: Duration) -> Result<ApiKey, KeyError> {
    run_within(cmd, limit, false)
}

fn run_within(cmd: &str, limit: Duration, attached: bool) -> Result<ApiKey, KeyError> {
    use crate::platform::child::{Kind, Limited, Place};
    use std::process::{Command, Stdio};
    let command = first_word(cmd);
    // taskdeck's own group while it holds the terminal: the command's
    // group takes the terminal while it runs (otherwise reading a
    // passphrase from it would stop it with SIGTTIN), and dropping this
    // gives it back.
    let foreground = if attached { Foreground::ours() } else { None };
    let mut c = Command::new("sh");
    c.arg("-c").arg(cmd).stdout(Stdio::piped());
    // Its own process group (a session of its own when detached), so that
    // a time-out stops everything it started, not only the shell; tracked
    // with every child, so taskdeck's exit (a second signal too) ends it.
    let place = if attached {
        c.stdin(Stdio::inherit()).stderr(Stdio::inherit());
        match foreground {
            Some(_) => Place::Foreground(0),
            None => Place::Group,
        }
    } else {
        c.stdin(Stdio::null()).stderr(Stdio::null());
        // No terminal to ask on: without GPG_TTY, gpg's pinentry cannot
        // open the TUI's terminal and draw over it (or wait for keys it
        // will never get); a graphical pinentry or an agent still works.
        c.env_remove("GPG_TTY");
        Place::Session
    };
    let kind = if attached { Kind::Command } else { Kind::Key };
    let mut child = Limited::spawn(&mut c, place, kind, limit).map_err(|e| KeyError::Spawn {
        command: command.clone(),
        reason: e.to_string(),
    })?;
    let stop = |child: &mut Limited| child.end();
    let mut out = child.child.stdout.take();
    // The pipe is read on a thread of its own that is never joined: the
    // output arrives on a channel, so waiting for it is bounded too.
    let (tx, rx) = std::sync::mpsc::channel();
    // The pipe closes only once the answer is sent: a writer killed by
    // SIGPIPE when reading stops at the cap exits after "too much" is on
    // the channel, so its failed status is never taken for the reason.
    std::thread::spawn(move || {
        let o = read_output(out.as_mut(), &tx);
        let _ = tx.send(o);
        drop(out);
    });
    let mut stdout = None;
    let mut first_line = None;
    let mut status = None;
    loop {
        while let Ok(o) = rx.try_recv() {
            match o {
                Output::TooMuch => {
                    stop(&mut child);
                    return Err(KeyError::TooMuchOutput { command });
                }
                Output::FirstLine(line) => first_line = Some(line),
                Output::Done(buf) => stdout = Some(buf),
            }
        }
        if status.is_none() {
            match child.child.try_wait() {
                Ok(s) => status = s,
                Err(e) => {
                    stop(&mut child);
                    return Err(KeyError::Spawn {
                        command,
                        reason: e.to_string(),
                    });
                }
            }
        }
        match &status {
            Some(s) if !s.success() => {
                stop(&mut child);
                // Too much output first: the reader said so before it
                // closed the pipe that ended the writer (exit 141).
                if rx.try_iter().any(|o| matches!(o, Output::TooMuch)) {
                    return Err(KeyError::TooMuchOutput { command });
                }
                return Err(KeyError::Failed {
                    command,
                    status: s.to_string(),
                });
            }
            // The shell is done: what it left running in its group goes
            // (also when the output is closed: `sleep 30 >/dev/null &`).
            Some(_) if stdout.is_some() || first_line.is_some() => {
                stop(&mut child);
                break;
            }
            _ => {}
        }
        if child.past_deadline() {
            // Also when the shell is gone but something it started holds
            // the output open without a complete line: the whole group goes.
            stop(&mut child);
            return Err(KeyError::TimedOut { command, limit });
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let Some(stdout) = stdout.or(first_line) else {
        unreachable!("the loop ends with one")
    };
    // The key is one line: the first that is not blank (the same whether
    // the output closed or only that line was complete when it was taken).
    let line = stdout
        .split(|b| *b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())
        .unwrap_or_default();
    let text = std::str::from_utf8(line).map_err(|_| KeyError::NotText {
        command: command.clone(),
    })?;
    let key = ApiKey::new(text.trim());
    if key.is_empty() {
        return Err(KeyError::Empty { command });
    }
    Ok(key)
}

/// Read the command's stdout to its end, at most
/// [`KEY_COMMAND_OUTPUT_MAX`] (one byte past the cap tells "too much" from
/// "exactly the cap"); the first line is sent on `tx` as soon as it is
/// complete.
fn read_output(
    out: Option<&mut std::process::ChildStdout>,
    tx: &std::sync::mpsc::Sender<Output>,
) -> Output {
    let mut buf = Vec::new();
    let Some(out) = out else {
        return Output::Done(buf);
    };
    let mut out = out.take(KEY_COMMAND_OUTPUT_MAX as u64 + 1);
    let mut chunk = [0u8; 4096];
    let mut line_sent = false;
    loop {
        match out.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        if buf.len() > KEY_COMMAND_OUTPUT_MAX {
            return Output::TooMuch;
        }
        if !line_sent {
            if let Some(line) = first_complete_line(&buf) {
                line_sent = true;
                let _ = tx.send(Output::FirstLine(line.to_vec()));
            }
        }
    }
    Output::Done(buf)
}

/// The first line of `buf` that is not blank, if its line end has come.
fn first_complete_line(buf: &[u8]) -> Option<&[u8]> {
    let mut lines = buf.split(|b| *b == b'\n');
    // The last piece has no line end (yet).
    let complete = buf.iter().filter(|b| **b == b'\n').count();
    lines
        .by_ref()
        .take(complete)
        .find(|l| !l.trim_ascii().is_empty())
}

/// Stop every key command still running in the background (at exit, at a
/// profile switch): with everything it started, as its time limit would.
pub fn stop_detached_key_commands() {
    crate::platform::child::end_groups_of(crate::platform::child::Kind::Key);
}

/// taskdeck's own process group while it is the terminal's foreground one:
/// the key command's group is made the foreground for the time it runs
/// (otherwise reading a passphrase from the terminal would stop it with
/// SIGTTIN), and dropping this gives the terminal back.
struct Foreground(ffi::pid_t);

impl Foreground {
    fn ours() -> Option<Self> {
        let ours = ffi::getpgrp();
        (ffi::foreground_group(0) == Some(ours)).then_some(Foreground(ours))
    }
}

impl Drop for Foreground {
    fn drop(&mut self) {
        ffi::set_foreground(0, self.0);
    }
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
    use std::time::Instant;

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

    #[test]
    fn a_huge_key_command_output_is_refused_with_bounded_memory() {
        // 100 MB of output: reading stops one byte past the 64 KiB cap and
        // the command is killed, so this holds at most 64 KiB. `yes` never
        // ends by itself: a reader that did not stop at the cap and end it
        // would wait out the limit and say `TimedOut` instead (no timing
        // is measured here: the kind of error proves the stop).
        for cmd in ["head -c 100000000 /dev/zero # secret-arg", "yes secret-arg"] {
            let e = run_key_command_within(cmd, Duration::from_secs(60)).unwrap_err();
            assert!(matches!(e, KeyError::TooMuchOutput { .. }), "{e:?}");
            let s = e.to_string();
            assert!(s.contains("more than 64 KiB"), "{s}");
            assert!(!s.contains("secret-arg"), "only the first word: {s}");
        }
        // Exactly the cap is still a (long) key.
        let cmd = format!("head -c {KEY_COMMAND_OUTPUT_MAX} /dev/zero | tr '\\0' k");
        let key = run_key_command_within(&cmd, Duration::from_secs(20)).unwrap();
        assert_eq!(key.expose().len(), KEY_COMMAND_OUTPUT_MAX);
    }

    /// Whether a process is gone (or a zombie no one has reaped yet).
    fn gone(pid: i32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    #[test]
    fn a_time_out_stops_everything_the_key_command_started() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let cmd = format!(
            "sh -c 'sleep 100 & echo $! > {}; sleep 100'",
            pidfile.display()
        );
        let e = run_key_command_within(&cmd, Duration::from_millis(500)).unwrap_err();
        assert!(matches!(e, KeyError::TimedOut { .. }), "{e:?}");
        let pid: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SIGKILL is delivered at once; reaping by init may take a moment.
        let started = Instant::now();
        while !gone(pid) && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(gone(pid), "the grandchild {pid} still runs");
    }

    /// #42 §9: `sleep 30 & echo key` printed its key and its shell exited,
    /// but the background `sleep` held stdout open: it failed after the
    /// limit ("did not finish"). The key is taken once the shell has exited
    /// and its first line is complete, and what it left running is ended —
    /// also when that holds no pipe at all.
    #[test]
    fn the_key_is_taken_when_the_shell_exits_and_the_rest_of_its_group_ended() {
        let dir = tempfile::tempdir().unwrap();
        let wait_gone = |pidfile: &std::path::Path| {
            let pid: i32 = std::fs::read_to_string(pidfile)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            let started = Instant::now();
            while !gone(pid) && started.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(20));
            }
            assert!(gone(pid), "the background {pid} still runs");
        };
        for (n, (holds, detached)) in [("", false), (" >/dev/null 2>&1", false), ("", true)]
            .into_iter()
            .enumerate()
        {
            let pidfile = dir.path().join(format!("pid{n}"));
            let cmd = format!(
                "sleep 30{holds} & echo $! > {}; echo key-alice",
                pidfile.display()
            );
            let key = if detached {
                run_key_command_detached(&cmd, Duration::from_secs(20))
            } else {
                run_key_command_within(&cmd, Duration::from_secs(20))
            };
            assert_eq!(key.unwrap().expose(), "key-alice", "{cmd}");
            wait_gone(&pidfile);
        }
        // The key is the first line that is not blank (the same whether the
        // output closed or only that line had come).
        let key = run_key_command_within(
            "printf '\\n  key-carol \\nuser: carol\\n'",
            Duration::from_secs(20),
        )
        .unwrap();
        assert_eq!(key.expose(), "key-carol");
        // A shell that failed fails at once, though its child holds stdout.
        let e = run_key_command_within("sleep 30 & exit 3", Duration::from_secs(20)).unwrap_err();
        assert!(matches!(e, KeyError::Failed { .. }), "{e:?}");
    }

    #[test]
    fn key_command_errors_name_only_the_first_word() {
        let cases = [
            "false --passphrase=secret-arg",
            "printf '' secret-arg",
            "printf '\\377' secret-arg",
            "FOO=secret-arg /nonexistent/prog secret-arg",
        ];
        for cmd in cases {
            let s = run_key_command(cmd).unwrap_err().to_string();
            assert!(!s.contains("secret-arg"), "{cmd}: {s}");
            assert!(s.starts_with("api_key_command `"), "{s}");
        }
        let s = run_key_command("false --passphrase=secret-arg")
            .unwrap_err()
            .to_string();
        assert!(s.starts_with("api_key_command `false` failed"), "{s}");
    }

    /// In the background: its own session (no controlling terminal),
    /// nothing to read, nowhere to print; a time-out stops what it started,
    /// and so does taskdeck's exit while it runs.
    #[test]
    fn a_detached_key_command_has_no_terminal_and_is_stopped() {
        // The shell leads a session of its own; stdin is empty.
        let cmd = "[ \"$(cut -d' ' -f6 /proc/$$/stat)\" = \"$$\" ] || exit 7; \
                   read line && exit 8; echo the-key";
        let key = run_key_command_detached(cmd, Duration::from_secs(20)).unwrap();
        assert_eq!(key.expose(), "the-key");
        // The same command in the foreground way is in taskdeck's session.
        let e = run_key_command_within(cmd, Duration::from_secs(20)).unwrap_err();
        assert!(e.to_string().contains("exit status: 7"), "{e}");

        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let cmd = format!(
            "sh -c 'sleep 100 & echo $! > {}; sleep 100'",
            pidfile.display()
        );
        let e = run_key_command_detached(&cmd, Duration::from_millis(500)).unwrap_err();
        assert!(matches!(e, KeyError::TimedOut { .. }), "{e:?}");
        let pid = |f: &std::path::Path| -> i32 {
            std::fs::read_to_string(f).unwrap().trim().parse().unwrap()
        };
        let grandchild = pid(&pidfile);
        let started = Instant::now();
        while !gone(grandchild) && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(gone(grandchild), "the grandchild {grandchild} still runs");

        // Still running at exit: stopped with everything it started.
        let pidfile = dir.path().join("pid2");
        let cmd = format!(
            "sh -c 'sleep 100 & echo $! > {}; sleep 100'",
            pidfile.display()
        );
        let t = std::thread::spawn(move || run_key_command_detached(&cmd, Duration::from_secs(60)));
        let started = Instant::now();
        while !pidfile.exists() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(50));
        stop_detached_key_commands();
        let e = t.join().unwrap().unwrap_err();
        assert!(matches!(e, KeyError::Failed { .. }), "{e:?}");
        let grandchild = pid(&pidfile);
        let started = Instant::now();
        while !gone(grandchild) && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(gone(grandchild), "the grandchild {grandchild} still runs");
    }
}
