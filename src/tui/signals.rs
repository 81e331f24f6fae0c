//! Signals: every signal that asks taskdeck to end (SIGTERM, SIGHUP,
//! SIGINT, SIGQUIT and the few whose default is to end a process without
//! asking anything else of it) ends the loop with the terminal restored
//! and drafts saved (128 + the signal); SIGHUP also raises the flag the
//! editor and custom commands watch. A second one while the first is being
//! carried out ends the process at once. The rest — SIGUSR1/2, SIGPROF,
//! SIGVTALRM, SIGIO, SIGWINCH (a resize, read by the input thread) — are
//! left alone: a profiler or a stray `kill -USR1` never closes a session.

use super::editor;
use super::Msg;
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
/// the input thread's (a resize); over a file-size limit (SIGXFSZ) the
/// write fails with EFBIG instead, and is said as any failed write.
const LEFT_ALONE: &[i32] = &[
    libc::SIGXFSZ,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGPROF,
    libc::SIGVTALRM,
    libc::SIGIO,
    #[cfg(target_os = "linux")]
    libc::SIGSTKFLT,
];

/// Once per process: a signal that asks to end, arriving while the run
/// is already leaving, ends the process at once — the terminal restored
/// when it is still there, the commands' process groups ended, exit 128 +
/// the signal. Only async-signal-safe calls (atomics, write, tcsetattr,
/// kill, _exit). The signals left alone are ignored here too.
fn install_second_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for &sig in TERMINATING {
            // SAFETY: the action only makes async-signal-safe calls.
            let r = unsafe {
                signal_hook_registry::register_sigaction(sig, move |info| {
                    // Our own (a hang-up passed on to the editor's group,
                    // which is ours) is not a second request.
                    if info.si_pid() == libc::getpid() {
                        return;
                    }
                    if editor::LEAVING.swap(true, Ordering::SeqCst) {
                        super::terminal::restore_from_signal_handler();
                        super::runner::end_all_groups();
                        libc::_exit(128 + sig);
                    }
                })
            };
            if let Err(e) = r {
                tracing::warn!(sig, error = %e, "cannot watch for a second signal");
            }
        }
        for &sig in LEFT_ALONE {
            // SAFETY: an action that does nothing.
            if let Err(e) = unsafe { signal_hook::low_level::register(sig, || {}) } {
                tracing::warn!(sig, error = %e, "cannot leave a signal alone");
            }
        }
    });
}

/// Listens while it lives: dropped (the run ends, a `:profile` switch
/// starts the next), its registration is closed and its task ends.
pub(super) struct Listening(Option<signal_hook_tokio::Handle>);

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            h.close();
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
    use futures::StreamExt;
    match signal_hook_tokio::Signals::new(TERMINATING) {
        Ok(mut signals) => {
            let handle = signals.handle();
            tokio::spawn(async move {
                while let Some(sig) = signals.next().await {
                    if tx.send(Msg::Signal(sig)).is_err() {
                        break;
                    }
                }
            });
            Listening(Some(handle))
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot listen for signals");
            Listening(None)
        }
    }
}
