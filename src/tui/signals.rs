//! Signals: every terminating one ends the loop with the terminal restored
//! and drafts saved (128 + the signal); SIGHUP also raises the flag the
//! editor and custom commands watch.

use super::editor;
use super::Msg;
use tokio::sync::mpsc;

/// Every signal whose default action ends the process and that can be
/// caught and is not a fault of the program itself (SIGABRT has a handler
/// of its own; SIGSEGV and the like cannot be survived). Each one leaves the
/// terminal restored and drafts saved, and exits with 128 + the signal.
/// SIGXFSZ is not among them: it is ignored from the start (`main.rs`), so
/// a file-size limit fails a write (`EFBIG`) rather than ending the TUI.
const TERMINATING: &[i32] = &[
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGIO,
    #[cfg(target_os = "linux")]
    libc::SIGPWR,
    #[cfg(target_os = "linux")]
    libc::SIGSTKFLT,
];

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
