//! Telling the user that something new needs them, as the config says
//! (`notify`, `notify_command`, `notify_osc`): the bell, a desktop
//! notification through the terminal (wrapped for tmux or screen), the
//! title with the inbox's count, and `notify_command`. What is new and the
//! words are decided below (`crate::inbox::notify`); the bytes are made in
//! [`osc`]; this module writes them between frames (the loop calls it
//! after a frame has been drawn and flushed, never during one).

pub mod osc;

use super::Msg;
use crate::app::custom::run::Run;
use crate::app::state::{Level, State};
use crate::config::Notify;
use crate::inbox::Notice;
use std::io::Write;
use std::time::Duration;
use tokio::sync::mpsc;

/// `notify_command` is stopped after this long (and what it started).
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);
/// Output of `notify_command` kept (its first line explains a failure).
const COMMAND_OUTPUT_CAP: usize = 4096;

pub struct Notifier {
    cfg: Notify,
    osc: osc::Osc,
    mux: osc::Mux,
    /// The title last written, and the terminal's resumes then (after a
    /// resume the shell's title is back: ours is written again).
    shown: Option<(String, usize)>,
    /// A failure of `notify_command` was said (the next ones are logged).
    failure_said: bool,
}

impl Notifier {
    pub fn new(cfg: Notify, env: &dyn Fn(&str) -> Option<String>) -> Notifier {
        Notifier {
            osc: osc::choose(cfg.osc, env),
            mux: osc::mux(env),
            cfg,
            shown: None,
            failure_said: false,
        }
    }

    /// The bytes of a notice: the bell, then the desktop notification.
    pub fn bytes(&self, n: &Notice) -> Vec<u8> {
        let mut out = Vec::new();
        if self.cfg.bell {
            out.push(0x07);
        }
        if self.cfg.desktop {
            let (title, body) = match self.osc {
                // One text: the words, the task's title after them.
                osc::Osc::Nine => (
                    "taskdeck".to_string(),
                    match n.items.as_slice() {
                        [one] if !one.title.is_empty() => format!("{} — {}", n.words, one.title),
                        _ => n.words.clone(),
                    },
                ),
                _ => (n.heading(), n.words.clone()),
            };
            out.extend(osc::desktop(self.osc, self.mux, &title, &body));
        }
        out
    }

    /// Tell the user: bytes to the terminal, and `notify_command` started
    /// (its end comes back as `Msg::NotifyDone`). Returns false when the
    /// terminal is gone.
    pub fn notify(
        &mut self,
        n: &Notice,
        profile: Option<&str>,
        tx: &mpsc::UnboundedSender<Msg>,
    ) -> bool {
        let mut ok = true;
        let bytes = self.bytes(n);
        if !bytes.is_empty() {
            ok = write_out(&bytes);
        }
        if let Some(script) = &self.cfg.command {
            let run = Run {
                label: "notify_command".into(),
                script: script.clone(),
                env: n.env(profile),
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let o =
                    super::runner::run_captured(&run, COMMAND_TIMEOUT, COMMAND_OUTPUT_CAP).await;
                let failure = (!o.exit.success()).then(|| {
                    let first = String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .next()
                        .map(|l| format!(" ({})", crate::text::clean(l)))
                        .unwrap_or_default();
                    format!("{}{first}", o.exit.describe())
                });
                let _ = tx.send(Msg::NotifyDone(failure));
            });
        }
        ok
    }

    /// `notify_command` ended; a failure is said once (then only logged).
    pub fn command_done(&mut self, failure: Option<String>, state: &mut State) {
        let Some(why) = failure else { return };
        tracing::warn!(why = %why, "notify_command failed");
        if !self.failure_said {
            self.failure_said = true;
            state.say(
                Level::Warn,
                format!("notify_command {why} — said once; later failures go to :log"),
            );
        }
    }

    /// The title for the state as it stands, written when it changed.
    /// Returns false when the terminal is gone.
    pub fn title(&mut self, state: &State) -> bool {
        if !self.cfg.title {
            return true;
        }
        let text = crate::ui::osc::title_of(state);
        let now = (text, super::terminal::resumes());
        if self.shown.as_ref() == Some(&now) {
            return true;
        }
        let ok = write_out(&osc::title(&now.0));
        self.shown = Some(now);
        ok
    }
}

/// Write and flush to the terminal; false when it is gone.
fn write_out(bytes: &[u8]) -> bool {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => true,
        Err(e) => !super::terminal::is_hangup(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::{Kind, UnreadItem};

    fn notice() -> Notice {
        Notice::of(vec![UnreadItem {
            task_id: "t1".into(),
            key: "comment:a".into(),
            kind: Some(Kind::Mention),
            words: "Bob Okafor mentioned you".into(),
            label: "#12".into(),
            title: "Fix the login".into(),
        }])
        .unwrap()
    }

    fn notifier(ways: &[&str], env: &[(&str, &str)]) -> Notifier {
        let (bell, desktop, title) = Notify::ways(ways).unwrap();
        let cfg = Notify {
            bell,
            desktop,
            title,
            ..Notify::default()
        };
        let env = |k: &str| {
            env.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        };
        Notifier::new(cfg, &env)
    }

    #[test]
    fn the_config_chooses_the_bytes() {
        let n = notice();
        assert_eq!(notifier(&[], &[]).bytes(&n), b"");
        assert_eq!(notifier(&["title"], &[]).bytes(&n), b"");
        assert_eq!(notifier(&["bell"], &[]).bytes(&n), b"\x07");
        assert_eq!(
            notifier(&["bell", "desktop"], &[]).bytes(&n),
            "\x07\x1b]9;taskdeck: Bob Okafor mentioned you on #12 — Fix the login\x07".as_bytes()
        );
        assert_eq!(
            notifier(&["desktop"], &[("VTE_VERSION", "7600")]).bytes(&n),
            "\x1b]777;notify;#12 Fix the login;Bob Okafor mentioned you on #12\x07".as_bytes()
        );
        let tmux = notifier(&["desktop"], &[("TMUX", "/tmp/t,1,0")]).bytes(&n);
        assert!(
            tmux.starts_with(b"\x1bPtmux;\x1b\x1b]9;taskdeck: "),
            "{tmux:?}"
        );
        assert!(tmux.ends_with(b"\x07\x1b\\"), "{tmux:?}");
    }

    #[test]
    fn a_failing_command_is_said_once() {
        let mut state =
            crate::app::new_state("h".into(), &crate::config::Settings::default(), false);
        let mut n = notifier(&["title"], &[]);
        let said = |s: &State| {
            s.messages
                .iter()
                .filter(|m| m.text.contains("notify_command"))
                .count()
        };
        n.command_done(None, &mut state);
        assert_eq!(said(&state), 0);
        n.command_done(Some("failed: exit status 1 (no such)".into()), &mut state);
        n.command_done(Some("failed: exit status 1 (no such)".into()), &mut state);
        assert_eq!(said(&state), 1);
        assert!(state
            .messages
            .back()
            .unwrap()
            .text
            .contains("exit status 1"));
    }

    #[test]
    fn the_command_runs_with_the_notice_in_its_environment_and_its_failure_comes_back() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("env");
        let cfg = Notify {
            command: Some(format!(
                "printf '%s|%s' \"$TASKDECK_WORDS\" \"$TASKDECK_TASK_ID\" > '{}'; exit 3",
                out.display()
            )),
            ..Notify::default()
        };
        let mut n = Notifier::new(cfg, &|_| None);
        let (tx, mut rx) = mpsc::unbounded_channel();
        let done = rt.block_on(async {
            n.notify(&notice(), None, &tx);
            rx.recv().await
        });
        match done {
            Some(Msg::NotifyDone(Some(why))) => assert!(why.contains("exit status 3"), "{why}"),
            _ => panic!("the command's end comes back as NotifyDone"),
        }
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "Bob Okafor mentioned you on #12|t1"
        );
    }
}
