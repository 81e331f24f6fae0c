//! Signals: every signal that asks taskdeck to end (SIGTERM, SIGHUP,
//! SIGINT, SIGQUIT and the few whose default is to end a process without
//! asking anything else of it) ends the loop with the terminal restored
//! and drafts saved (128 + the signal); SIGHUP also raises the flag the
//! editor and custom commands watch. A second one while the first is being
//! carried out ends the process at once. The rest — SIGUSR1/2, SIGPROF,
//! SIGVTALRM, SIGIO, SIGWINCH (a resize, read by the input thread) — are
//! left alone: a profiler or a stray `kill -USR1` never closes a session.
//! SIGCONT (continued after any stop) takes the terminal again and draws
//! the screen whole.

use super::editor;
use super::Msg;
use crate::platform::ffi;
use std::sync::atomic::Ordering;
use tokio::sync::mpsc;

/// The signals that are a request to end (each leaves the terminal
/// restored and drafts saved, and exits with 128 + the signal). SIGABRT has
/// a handler of its own; SIGSEGV and the like cannot be survived.
pub(super) const TERMINATING: &[i32] = &[
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGALRM,
    libc::SIGXCPU,
    #[cfg(target_os = "linux")]
    libc::SIGPWR,
];

/// Signals whose default action would end the process, though nobody
/// meant it as a request to end: caught and nothing done (a handler, not
/// SIG_IGN, which the commands taskdeck starts would inherit). SIGWINCH is
/// the input thread's (a resize). SIGXFSZ (over a file-size limit) is
/// caught the same way by `main`, first of all, for every subcommand: the
/// write fails with EFBIG instead, and is said as any failed write.
const LEFT_ALONE: &[i32] = &[
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGPROF,
    libc::SIGVTALRM,
    libc::SIGIO,
    #[cfg(target_os = "linux")]
    libc::SIGSTKFLT,
];

/// The action of a signal that asks to end (a signal action: atomics and
/// async-signal-safe calls only). Our own (a hang-up passed on to the
/// editor's group, which is ours) is not a second request. One arriving
/// while the run is already leaving ends the process at once: the terminal
/// restored when it is still there, every child's process group ended (a
/// key command's too), exit 128 + the signal.
fn on_second_signal(sig: i32, from_ourselves: bool) {
    if from_ourselves {
        return;
    }
    if editor::LEAVING.swap(true, Ordering::SeqCst) {
        super::terminal::restore_from_signal_handler();
        crate::platform::child::end_all_groups();
        ffi::exit_now(128 + sig);
    }
}

/// Once per process: [`on_second_signal`] for each signal that asks to
/// end; the signals left alone are caught here too.
pub(super) fn install_second_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for &sig in TERMINATING {
            if let Err(e) = ffi::on_signal_from(sig, on_second_signal) {
                tracing::warn!(sig, error = %e, "cannot watch for a second signal");
            }
        }
        for &sig in LEFT_ALONE {
            if let Err(e) = ffi::leave_alone(sig) {
                tracing::warn!(sig, error = %e, "cannot leave a signal alone");
            }
        }
    });
}

/// Listens while it lives: dropped (the run ends, a `:profile` switch
/// starts the next), its task ends.
pub(super) struct Listening(Option<tokio::task::JoinHandle<()>>);

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            h.abort();
        }
    }
}

pub(super) fn spawn_signals(tx: mpsc::UnboundedSender<Msg>) -> Listening {
    // The flag the editor and custom commands watch: registered once per
    // process (each run would add one more action otherwise).
    static HUP_FLAG: std::sync::Once = std::sync::Once::new();
    install_second_signal();
    editor::LEAVING.store(false, Ordering::SeqCst);
    HUP_FLAG.call_once(|| {
        let flag = editor::HUNG_UP.get_or_init(Default::default).clone();
        if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGHUP, flag) {
            tracing::warn!(error = %e, "cannot watch for SIGHUP");
        }
    });
    use tokio::signal::unix::{signal, SignalKind};
    let mut streams = Vec::new();
    for &sig in TERMINATING {
        match signal(SignalKind::from_raw(sig)) {
            Ok(s) => streams.push((sig, s)),
            Err(e) => tracing::warn!(sig, error = %e, "cannot listen for a signal"),
        }
    }
    // Continued after a stop: the screen taken again (`Screen::continued`).
    match signal(SignalKind::from_raw(libc::SIGCONT)) {
        Ok(s) => streams.push((libc::SIGCONT, s)),
        Err(e) => tracing::warn!(error = %e, "cannot listen for SIGCONT"),
    }
    if streams.is_empty() {
        return Listening(None);
    }
    Listening(Some(tokio::spawn(async move {
        loop {
            // The first of the signals to arrive (each stream keeps its
            // own, none is lost while another is sent on).
            let next = futures::future::select_all(
                streams
                    .iter_mut()
                    .map(|(sig, s)| Box::pin(async move { s.recv().await.map(|()| *sig) })),
            );
            let (got, _, _) = next.await;
            let Some(sig) = got else { break };
            if tx.send(Msg::Signal(sig)).is_err() {
                break;
            }
        }
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Set in the copy of the test binary that plays taskdeck.
    const CHILD: &str = "TASKDECK_TEST_SECOND_SIGNAL_DIR";

    /// Whether process `pid` is gone (or a zombie no one has reaped yet).
    fn gone(pid: i32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !cond() {
            assert!(Instant::now() < deadline, "waited in vain for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Issue 45 §4: the second signal's `_exit` path ended only the custom
    /// commands' groups, so a key command running in the background (a
    /// pinentry waiting for a passphrase) outlived taskdeck. It runs here
    /// in a copy of this test binary, playing taskdeck while it leaves;
    /// SIGTERM from another process is the second request: the copy exits
    /// 128 + 15 at once, and the key command's group has ended with it.
    #[test]
    fn a_second_signal_ends_a_running_key_command_with_what_it_started() {
        if let Some(dir) = std::env::var_os(CHILD) {
            install_second_signal();
            editor::leaving();
            let pidfile = Path::new(&dir).join("pid");
            let cmd = format!(
                "sh -c 'sleep 100 & echo $! > {}.tmp; mv {0}.tmp {0}; sleep 100'",
                pidfile.display()
            );
            let _ = crate::config::run_key_command_detached(&cmd, Duration::from_secs(60));
            // Not reached when the signal ends the process.
            std::process::exit(3);
        }
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut copy = Command::new(std::env::current_exe().unwrap())
            .args([
                "tui::signals::tests::a_second_signal_ends_a_running_key_command_with_what_it_started",
                "--exact",
                "--test-threads=1",
            ])
            .env(CHILD, dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for("the key command to start", || pidfile.exists());
        let grandchild: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let sent = Command::new("kill")
            .args(["-TERM", &copy.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let mut status = None;
        wait_for("the copy to exit", || {
            status = copy.try_wait().unwrap();
            status.is_some()
        });
        assert_eq!(status.unwrap().code(), Some(128 + libc::SIGTERM));
        wait_for("the key command's group to end", || gone(grandchild));
    }
}
