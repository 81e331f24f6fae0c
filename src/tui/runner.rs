//! Running a custom command (`crate::app::custom::run::Job`): `sh -c SCRIPT`, off the UI loop, with a
//! time limit and a cap on the output kept; or, for `interactive = true`,
//! with the terminal handed over (like `$EDITOR`).
//!
//! Why `sh -c` and not a command split into words: a command is written as
//! shell (pipes, `>> file`, `;`, `$(…)`), and docs/custom-commands.md promises it. It is
//! safe because the script is only what the config file says plus plain
//! identifiers (see `template`): the task's text comes in the environment
//! (`TASKDECK_TITLE`…), and the shell expands a variable as data, never as
//! code. Splitting into words would make no difference to that, and would
//! take the shell away from the people who wrote it.

use super::terminal::Screen;
use super::Msg;
use crate::app::custom::run::{Done, Exit, Job, Outcome, Run, OUTPUT_CAP};
use crate::app::state::{Effect, State};
use crate::platform::child::{Kind, LimitedAsync, Waited};
use crate::platform::ffi;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// Read `r` to its end, keeping at most `cap` bytes.
async fn read_capped<R: tokio::io::AsyncRead + Unpin>(mut r: R, cap: usize) -> (Vec<u8>, bool) {
    use tokio::io::AsyncReadExt;
    let mut kept = Vec::new();
    let mut cut = false;
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                cut |= n > room;
            }
        }
    }
    (kept, cut)
}

/// Run `r.script` with `sh -c` and `r.env`, no terminal, stdin empty; stop
/// it (and what it started: its process group) after `limit`.
pub async fn run_captured(r: &Run, limit: Duration, cap: usize) -> Outcome {
    use std::process::Stdio;
    let label = &r.label;
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(&r.script)
        .envs(r.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let outcome = |exit, stdout, stderr, truncated| Outcome {
        label: label.to_string(),
        exit,
        stdout,
        stderr,
        truncated,
    };
    // Its own process group, so that the time limit stops all of it, and
    // a ctrl-c typed into taskdeck never reaches it.
    let mut child = match LimitedAsync::spawn(&mut cmd, Kind::Command, limit) {
        Ok(c) => c,
        Err(e) => return outcome(Exit::CannotStart(e.to_string()), vec![], vec![], false),
    };
    let mut out = child
        .child
        .stdout
        .take()
        .map(|o| tokio::spawn(read_capped(o, cap)));
    let mut err = child
        .child
        .stderr
        .take()
        .map(|e| tokio::spawn(read_capped(e, cap)));
    let exit = match child.wait().await {
        Ok(st) => exit_of(st),
        Err(Waited::Failed(e)) => Exit::CannotStart(e.to_string()),
        // The whole group ended, what it started too.
        Err(Waited::TimedOut(limit)) => Exit::TimedOut(limit),
    };
    // What it left running goes on until the time limit, then is ended
    // (at once when taskdeck exits).
    child.end_at_deadline();
    // Something it left running in the background may hold the pipes
    // open: what came by now is what is shown.
    let grace = Duration::from_millis(500);
    let collect = |h: &mut Option<tokio::task::JoinHandle<(Vec<u8>, bool)>>| {
        let h = h.take();
        async move {
            match h {
                Some(mut h) => match tokio::time::timeout(grace, &mut h).await {
                    Ok(Ok(v)) => v,
                    _ => {
                        h.abort();
                        (vec![], false)
                    }
                },
                None => (vec![], false),
            }
        }
    };
    let (stdout, cut_out) = collect(&mut out).await;
    let (stderr, cut_err) = collect(&mut err).await;
    outcome(exit, stdout, stderr, cut_out || cut_err)
}

fn exit_of(st: std::process::ExitStatus) -> Exit {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = st.signal() {
            return Exit::Signal(sig);
        }
    }
    Exit::Code(st.code().unwrap_or(-1))
}

/// Run `job` off the loop, captured (a task of its own); what it did
/// comes back to the loop as [`Msg::CommandDone`].
pub fn spawn_job(job: Job, tx: UnboundedSender<Msg>) {
    tokio::spawn(async move {
        let done = run_job(job).await;
        let _ = tx.send(Msg::CommandDone(Box::new(done)));
    });
}

/// Run `job` with the terminal lent to it (like `$EDITOR`); what it did
/// goes back to the state, which answers with what to do next.
pub fn in_terminal(job: Job, state: &mut State, screen: &mut Screen) -> Vec<Effect> {
    state.custom_done(screen.lend(|| run_interactive(job)))
}

/// Run every run of `job` in turn, captured.
pub async fn run_job(job: Job) -> Done {
    let mut outcomes = Vec::new();
    for r in &job.runs {
        outcomes.push(run_captured(r, job.timeout, OUTPUT_CAP).await);
    }
    Done {
        name: job.name,
        description: job.description,
        interactive: false,
        outcomes,
    }
}

/// `sh -c script` (with its variables) as a shell runs a job: in its own process group, which
/// owns the terminal until it ends. So ctrl-c and ctrl-\ typed into it
/// interrupt the command, never taskdeck (which would quit); taskdeck then
/// takes the terminal back. A hang-up meanwhile is passed on to it.
fn run_in_foreground(r: &Run) -> std::io::Result<std::process::ExitStatus> {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(&r.script)
        .envs(r.env.iter().map(|(k, v)| (k, v)));
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty");
        if let Ok(tty) = tty {
            let fd = tty.as_raw_fd();
            cmd.process_group(0);
            // Both sides hand over the terminal, so the command never
            // reads it while still in the background (it would be stopped).
            ffi::take_terminal_at_exec(&mut cmd, fd);
            let mut child = cmd.spawn()?;
            let pgid = child.id() as i32;
            ffi::set_foreground(fd, pgid);
            let status = wait_passing_hangup(&mut child, pgid, fd);
            ffi::set_foreground(fd, ffi::getpgrp());
            drop(tty);
            return status;
        }
    }
    // No terminal to hand over: as `$EDITOR` runs.
    cmd.spawn().and_then(super::editor::wait_for_editor)
}

/// Wait for `child`; a hang-up meanwhile goes on to its process group
/// (as `$EDITOR`'s does), since the terminal that would send it is gone.
/// The command stopped (ctrl-z typed into it, which the terminal sends to
/// its group alone): taskdeck stops with it as one job (`stopped_together`),
/// rather than wait forever on a command nobody can continue.
#[cfg(unix)]
fn wait_passing_hangup(
    child: &mut std::process::Child,
    pgid: i32,
    tty: i32,
) -> std::io::Result<std::process::ExitStatus> {
    use std::sync::atomic::Ordering;
    let mut passed_on = false;
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok(st);
        }
        if ffi::child_stopped(child.id() as i32) {
            stopped_together(tty, pgid);
            continue;
        }
        let hung_up = super::editor::HUNG_UP
            .get()
            .is_some_and(|f| f.load(Ordering::SeqCst))
            || super::editor::is_leaving();
        if hung_up && !passed_on {
            passed_on = true;
            ffi::kill_group(pgid, libc::SIGHUP);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The command's group stopped: take the terminal back and stop our own
/// group, as the command's job would have stopped under a shell (the shell
/// that started taskdeck sees a stopped job). Once continued (`fg`), give
/// the terminal to the command again and continue it. In a group with no
/// job control (orphaned) SIGTSTP stops nothing: the command goes on at once.
#[cfg(unix)]
fn stopped_together(tty: i32, pgid: i32) {
    tracing::info!("interactive command stopped; stopping with it");
    ffi::set_foreground(tty, ffi::getpgrp());
    ffi::signal_own_group(libc::SIGTSTP);
    tracing::info!("continued; continuing the interactive command");
    ffi::set_foreground(tty, pgid);
    ffi::kill_group(pgid, libc::SIGCONT);
}

/// Run `job` with the terminal: the TUI is suspended meanwhile
/// ([`in_terminal`] gives the terminal back and takes it again).
fn run_interactive(job: Job) -> Done {
    let mut outcomes = Vec::new();
    for r in &job.runs {
        let exit = match run_in_foreground(r) {
            Ok(st) => exit_of(st),
            Err(e) => Exit::CannotStart(e.to_string()),
        };
        let stop = !exit.success();
        outcomes.push(Outcome {
            label: r.label.clone(),
            exit,
            stdout: vec![],
            stderr: vec![],
            truncated: false,
        });
        // A failure (or ctrl-c) stops the rest, as a shell loop with -e.
        if stop {
            break;
        }
    }
    Done {
        name: job.name,
        description: job.description,
        interactive: true,
        outcomes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(s: &str) -> Run {
        Run {
            label: "#1".into(),
            script: s.into(),
            env: vec![],
        }
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn output_status_and_stderr_come_back() {
        let o = rt().block_on(run_captured(
            &script("echo out; echo err >&2; exit 3"),
            Duration::from_secs(10),
            OUTPUT_CAP,
        ));
        assert_eq!(o.exit, Exit::Code(3));
        assert_eq!(o.stdout, b"out\n");
        assert_eq!(o.stderr, b"err\n");
        assert!(!o.truncated);
        assert!(o.exit.describe().contains("exit status 3"));
    }

    #[test]
    fn the_time_limit_stops_it_and_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let late = dir.path().join("late");
        let run = script(&format!("(sleep 2; touch {}) & sleep 30", late.display()));
        let o = rt().block_on(run_captured(&run, Duration::from_millis(300), OUTPUT_CAP));
        assert_eq!(o.exit, Exit::TimedOut(Duration::from_millis(300)));
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!late.exists(), "the background child was stopped too");
    }

    /// Issue 42 §7: the shell returns at once, leaving a child and one
    /// that ignores SIGTERM; the whole group is ended at the time limit.
    #[test]
    fn what_a_command_left_running_is_ended_at_its_time_limit() {
        let run = script("sleep 774 & (trap '' TERM; exec sleep 773) & echo $$");
        let limit = Duration::from_millis(400);
        let o = rt().block_on(run_captured(&run, limit, OUTPUT_CAP));
        assert_eq!(o.exit, Exit::Code(0));
        let pgid: i32 = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
        let alive = || ffi::group_alive(pgid);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while alive() {
            assert!(
                std::time::Instant::now() < deadline,
                "the command's group outlived its limit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn output_is_capped() {
        let o = rt().block_on(run_captured(
            &script("head -c 100000 /dev/zero"),
            Duration::from_secs(10),
            1000,
        ));
        assert_eq!(o.exit, Exit::Code(0));
        assert_eq!(o.stdout.len(), 1000);
        assert!(o.truncated);
    }
}
