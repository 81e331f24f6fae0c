//! Copying, in this order: `copy_command` from the config when set; the
//! system clipboard when there is one (a local desktop session); inside
//! tmux, tmux's own paste buffer (`tmux load-buffer -w -`, which tmux also
//! hands to the outer terminal when its `set-clipboard` allows); and OSC 52
//! through the terminal, which works over SSH where the terminal allows
//! it. What the message says is only what taskdeck knows: a command that
//! succeeded, or a sequence written that the terminal may have ignored.

pub use super::msg::Copied;
use super::{terminal, Msg};
use crate::app::state::{Level, State};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How long a copying command (`copy_command`, the system clipboard's
/// tool, tmux) may take before it is abandoned, its process group ended.
pub const COPY_LIMIT: Duration = Duration::from_secs(3);

/// Copy `text` (an id: anything else is refused, see [`copyable_id`]) the
/// first way that works, and say how; `command` is `copy_command` from the
/// config. The commands run on a thread of their own, [`COPY_LIMIT`] at
/// most each: what they come to arrives as `Msg::Copied` ([`copied`]).
pub fn copy(text: &str, command: Option<&str>, state: &mut State, tx: &UnboundedSender<Msg>) {
    // Only what an id can be: a value from the service is pasted
    // into shells, and a line break in it would run what follows.
    if let Err(why) = copyable_id(text) {
        state.say(Level::Error, format!("not copied: {why}"));
        return;
    }
    let (text, command, tx) = (text.to_string(), command.map(str::to_string), tx.clone());
    let spawned = std::thread::Builder::new()
        .name("copy".into())
        .spawn(move || {
            let _ = tx.send(Msg::Copied(copy_off_loop(text, command.as_deref())));
        });
    if let Err(e) = spawned {
        state.say(Level::Error, format!("not copied: {e}"));
    }
}

/// The commands' part of [`copy`]: `copy_command`, or the system
/// clipboard, or tmux; what is left for the terminal.
fn copy_off_loop(text: String, command: Option<&str>) -> Copied {
    let shown = crate::text::clean(&text);
    if let Some(cmd) = command {
        return match copy_with_command(&text, cmd) {
            Ok(tool) => Copied::Said(Level::Success, format!("copied {shown} ({tool})")),
            Err(e) => Copied::Said(Level::Error, format!("not copied: {e}")),
        };
    }
    if let Ok(tool) = copy_native(&text) {
        return Copied::Said(Level::Success, format!("copied {shown} ({tool})"));
    }
    let in_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
    let tmux = in_tmux && copy_to_tmux(&text).is_ok();
    Copied::Terminal { text, tmux }
}

/// What copying off the loop came to: said, or offered to the terminal
/// (OSC 52) here, on the loop. A hang-up while offering it is the
/// screen's (`screen.hangup`).
pub fn copied(c: Copied, state: &mut State, screen: &mut terminal::Screen) {
    let (text, tmux) = match c {
        Copied::Said(level, words) => return state.say(level, words),
        Copied::Terminal { text, tmux } => (text, tmux),
    };
    let shown = crate::text::clean(&text);
    let in_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
    if text.len() > terminal::OSC52_MAX {
        if tmux {
            state.say(
                Level::Success,
                format!("copied {shown} into tmux's paste buffer"),
            );
        } else {
            state.say(Level::Error, "too large to copy through the terminal");
        }
        return;
    }
    let in_screen = !in_tmux && std::env::var_os("STY").is_some_and(|v| !v.is_empty());
    let seq = terminal::osc52(&text, in_tmux, in_screen);
    let mut out = std::io::stdout();
    match out.write_all(seq.as_bytes()).and_then(|_| out.flush()) {
        // Only what is known: tmux took it; the terminal was sent a
        // sequence it may ignore.
        Ok(()) if tmux => state.say(
            Level::Success,
            format!(
                "copied {shown} into tmux's paste buffer (prefix ] pastes); \
                 also offered to the terminal's clipboard (OSC 52)"
            ),
        ),
        Ok(()) => state.say(
            Level::Success,
            format!(
                "offered {shown} to the terminal's clipboard (OSC 52) — if it does \
                 not arrive, set copy_command in the config"
            ),
        ),
        Err(e) if terminal::is_hangup(&e) => {
            terminal::mark_gone();
            screen.hangup = true
        }
        Err(_) => state.say(Level::Error, "could not write to the terminal to copy"),
    }
}

/// The command that writes the system clipboard here, if any. Over SSH the
/// "system" clipboard is the remote machine's, so there is none.
pub fn native_command(
    env: &dyn Fn(&str) -> Option<String>,
    on_path: &dyn Fn(&str) -> bool,
) -> Option<Vec<&'static str>> {
    if env("SSH_CONNECTION").is_some() || env("SSH_TTY").is_some() {
        return None;
    }
    if cfg!(target_os = "macos") && on_path("pbcopy") {
        return Some(vec!["pbcopy"]);
    }
    if env("WAYLAND_DISPLAY").is_some() && on_path("wl-copy") {
        return Some(vec!["wl-copy"]);
    }
    if env("DISPLAY").is_some() {
        if on_path("xclip") {
            return Some(vec!["xclip", "-selection", "clipboard"]);
        }
        if on_path("xsel") {
            return Some(vec!["xsel", "--clipboard", "--input"]);
        }
    }
    None
}

pub(crate) fn on_path(cmd: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
        .unwrap_or(false)
}

/// Copy with the system clipboard; `Err` when there is none or it failed.
/// Registered secrets (the API key) are scrubbed first, as everywhere text
/// leaves the program.
pub fn copy_native(text: &str) -> Result<&'static str, String> {
    let text = crate::secret::scrub(text);
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let cmd = native_command(&env, &on_path).ok_or("no system clipboard")?;
    pipe_to(Command::new(cmd[0]).args(&cmd[1..]), &text)
        .map(|()| cmd[0])
        .map_err(|e| format!("{} failed: {e}", cmd[0]))
}

/// Copy with the configured `copy_command` (run with `sh -c`, the text on
/// its standard input); returns its first word for the message.
pub fn copy_with_command(text: &str, command: &str) -> Result<String, String> {
    let first = crate::text::clean(command.split_whitespace().next().unwrap_or(command));
    let text = crate::secret::scrub(text);
    pipe_to(Command::new("sh").arg("-c").arg(command), &text).map_err(|e| match e {
        PipeError::TimedOut(_) => format!("copy command `{first}` {e}; abandoned"),
        PipeError::Failed(_) => format!("copy_command `{first}` failed: {e}"),
    })?;
    Ok(first)
}

/// Inside tmux: put the text in tmux's paste buffer (`-w` also asks tmux
/// to set the outer terminal's clipboard; tmux before 3.2 lacks it).
pub fn copy_to_tmux(text: &str) -> Result<(), String> {
    let text = crate::secret::scrub(text);
    pipe_to(Command::new("tmux").args(["load-buffer", "-w", "-"]), &text)
        .or_else(|_| pipe_to(Command::new("tmux").args(["load-buffer", "-"]), &text))
        .map_err(|e| e.to_string())
}

/// Why a copying command did not copy.
#[derive(Debug, PartialEq, Eq)]
enum PipeError {
    /// Not done within its limit: abandoned, its whole group ended.
    TimedOut(Duration),
    /// It could not start, or failed (what to say after its name).
    Failed(String),
}

impl std::fmt::Display for PipeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PipeError::TimedOut(limit) => write!(f, "did not finish in {} s", limit.as_secs()),
            PipeError::Failed(why) => f.write_str(why),
        }
    }
}

/// Run `cmd` with `text` on its standard input; its output is dropped.
/// In a process group of its own: one that has not ended within
/// [`COPY_LIMIT`] is abandoned, the whole group ended. One that ended is
/// left to what it started (`xclip` stays to serve the selection).
fn pipe_to(cmd: &mut Command, text: &str) -> Result<(), PipeError> {
    pipe_within(cmd, text, COPY_LIMIT)
}

fn pipe_within(cmd: &mut Command, text: &str, limit: Duration) -> Result<(), PipeError> {
    use crate::platform::child::{Kind, Limited, Place, Waited};
    let failed = |e: std::io::Error| PipeError::Failed(e.to_string());
    let mut child = Limited::spawn(
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        Place::Group,
        Kind::Command,
        limit,
    )
    .map_err(failed)?;
    // A command that ended without reading (not found, say) closes the
    // pipe: its exit status says why, not the broken pipe. An id is far
    // smaller than a pipe's buffer: the write never waits.
    let written = match child.child.stdin.take() {
        Some(mut stdin) => stdin.write_all(text.as_bytes()),
        None => Ok(()),
    };
    let status = match child.wait() {
        Ok(st) => st,
        Err(Waited::TimedOut(limit)) => return Err(PipeError::TimedOut(limit)),
        Err(Waited::Failed(e)) => return Err(failed(e)),
    };
    child.leave();
    if status.success() {
        written.map_err(failed)
    } else {
        Err(PipeError::Failed(match status.code() {
            Some(127) => "not found".to_string(),
            Some(c) => format!("exit status {c}"),
            None => "stopped by a signal".to_string(),
        }))
    }
}

pub use crate::ui::osc::copyable_id;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn only_ids_are_copied() {
        assert!(copyable_id("#12").is_ok());
        assert!(copyable_id("TASK-12_b").is_ok());
        assert!(copyable_id("00000000-0000-4000-8000-000000000001").is_ok());
        for bad in [
            "#1\n touch /tmp/pwned",
            "#1; rm -rf ~",
            "#1 && x",
            "$(touch x)",
            "`id`",
            "-rf",
            "",
            "#1\u{1b}]52;c;aGk=\u{7}",
            "#1\r",
            "0000000000000000000000000000000000000000000000001",
        ] {
            let e = copyable_id(bad).expect_err(bad);
            assert!(!e.contains('\n') && !e.contains('\u{1b}'), "{e:?}");
        }
        assert!(copyable_id("#1\n touch x")
            .unwrap_err()
            .contains("line break"));
    }

    #[test]
    fn copy_command_gets_the_text_on_its_input_and_a_failure_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("clip");
        let cmd = format!("cat > '{}'", out.display());
        assert_eq!(copy_with_command("#12", &cmd).unwrap(), "cat");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "#12");
        let e = copy_with_command("#12", "no-such-copier-xyz --sel").unwrap_err();
        assert_eq!(e, "copy_command `no-such-copier-xyz` failed: not found");
    }

    #[test]
    fn a_copy_command_that_hangs_is_abandoned_with_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        // The shell's pid is its group's; a child that ignores SIGTERM.
        let script = format!(
            "echo $$ > '{}'; (trap '' TERM; exec sleep 771) & sleep 60",
            pid_file.display()
        );
        let start = Instant::now();
        let e = pipe_within(
            Command::new("sh").arg("-c").arg(&script),
            "#1",
            Duration::from_millis(300),
        )
        .unwrap_err();
        assert_eq!(e, PipeError::TimedOut(Duration::from_millis(300)));
        assert_eq!(e.to_string(), "did not finish in 0 s");
        assert!(start.elapsed() < Duration::from_secs(5));
        let pgid: i32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let gone = || !crate::platform::ffi::group_alive(pgid);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !gone() {
            assert!(Instant::now() < deadline, "the copy's group outlived it");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn picks_the_native_tool_only_locally() {
        let all = |_: &str| true;
        let x11 = |k: &str| (k == "DISPLAY").then(|| ":0".to_string());
        assert_eq!(
            native_command(&x11, &all),
            Some(vec!["xclip", "-selection", "clipboard"])
        );
        let ssh = |k: &str| matches!(k, "DISPLAY" | "SSH_CONNECTION").then(|| "x".to_string());
        assert_eq!(native_command(&ssh, &all), None);
        let wayland = |k: &str| (k == "WAYLAND_DISPLAY").then(|| "w".to_string());
        assert_eq!(native_command(&wayland, &all), Some(vec!["wl-copy"]));
        let none = |_: &str| None;
        assert_eq!(native_command(&none, &all), None);
        assert_eq!(native_command(&x11, &|_: &str| false), None);
    }
}
