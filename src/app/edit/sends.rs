//! What becomes of a send from the composer: the draft loses only what
//! was sent; an unknown outcome is said as such.

use crate::api::*;
use crate::app::state::{Level, Overlay, SendState, State};

impl State {
    /// The service confirmed a send from the composer. Only the text that
    /// was sent leaves the draft: text added or edited since stays (on
    /// disk and in an open composer), and the message says so.
    pub(crate) fn compose_succeeded(&mut self, ticket: u64, message: &str) {
        let Some(sent) = self.sending.remove(&ticket) else {
            self.say(Level::Success, message.to_string());
            return;
        };
        let label = format!("{}: ", sent.label);
        // The draft of the user who typed it, whoever the key acts as now.
        let drafts = self.drafts.of(sent.owner.as_deref());
        let open = match &self.overlay {
            Overlay::Compose(c) if same_draft(c, &sent) => Some(c.text()),
            _ => None,
        };
        let current = open
            .clone()
            .or_else(|| drafts.load(&sent.task_id, &sent.key));
        let left = crate::app::state::drafts::left_after_send(
            &sent.text,
            current.as_deref(),
            sent.appends,
        );
        // The draft first, then the record of the send: a crash between
        // the two leaves a warning, never a draft said to be unsent.
        let mut note = String::new();
        match &left {
            None => drafts.delete(&sent.task_id, &sent.key),
            Some(rest) => match drafts.save(&sent.task_id, &sent.key, rest) {
                Ok(_) => {
                    note = if current.as_deref() == Some(rest.as_str()) {
                        "; the text you edited since it was sent is kept as a draft (not sent)"
                            .into()
                    } else {
                        "; what you wrote after the sent text is kept as a draft (not sent)".into()
                    }
                }
                Err(e) => note = format!("; could not save the text written since: {e}"),
            },
        }
        drafts.clear_sent(&sent.task_id, &sent.key);
        if let Overlay::Compose(c) = &mut self.overlay {
            if same_draft(c, &sent) {
                match &left {
                    None => self.overlay = Overlay::None,
                    Some(rest) => {
                        if c.text() != *rest {
                            c.set_text(rest);
                        }
                        c.state = SendState::Editing;
                        c.initial = String::new();
                        c.set_banner(Some(format!(
                            "sent: \"{}\" — what is here is not sent",
                            crate::text::clean(sent.text.lines().next().unwrap_or_default())
                        )));
                    }
                }
            }
        }
        let level = if note.is_empty() {
            Level::Success
        } else {
            Level::Warn
        };
        self.say(level, format!("{label}{message}{note}"));
    }

    pub(crate) fn compose_failed(&mut self, ticket: u64, e: ApiError) {
        let sent = self.sending.remove(&ticket);
        let unknown = e.outcome_unknown();
        let message = if unknown {
            format!("{e} — outcome unknown: check before resending (your text is kept)")
        } else {
            format!("{e} — not sent, your text is kept")
        };
        if let Some(sent) = &sent {
            let drafts = self.drafts.of(sent.owner.as_deref());
            if unknown {
                drafts.mark_unknown(&sent.task_id, &sent.key);
            } else {
                drafts.send_refused(&sent.task_id, &sent.key);
            }
        }
        if let Overlay::Compose(c) = &mut self.overlay {
            if c.state == SendState::Sending(ticket) {
                c.state = SendState::Failed {
                    message: crate::text::clean(&message),
                    outcome_unknown: unknown,
                };
            }
            if sent.as_ref().is_some_and(|s| same_draft(c, s)) {
                c.set_banner(
                    unknown.then(|| crate::app::popups::compose::SEND_MAY_HAVE_REACHED.into()),
                );
            }
        }
        let label = sent.map(|s| format!("{}: ", s.label)).unwrap_or_default();
        self.say(Level::Error, format!("{label}{message}"));
    }

    /// Called at quit or hang-up: save what is being typed, say where.
    pub fn save_drafts_now(&mut self) -> Option<std::path::PathBuf> {
        self.keep_composer_at_quit().kept
    }

    /// Called at quit or hang-up: save what is being typed. Where it was
    /// kept, or, when it could not be written (a full disk, a read-only
    /// folder), what was not kept and why: never lost without a word.
    pub fn keep_composer_at_quit(&mut self) -> AtQuit {
        let Overlay::Compose(c) = &self.overlay else {
            return AtQuit::default();
        };
        let text = c.text();
        if text == c.initial {
            // Opened and not changed: nothing of the user's to keep.
            return AtQuit::default();
        }
        let drafts = self.drafts.of(c.owner.as_deref());
        match drafts.save(&c.task_id, &c.kind.draft_key(), &text) {
            Ok(kept) => AtQuit { kept, lost: None },
            Err(e) => AtQuit {
                kept: None,
                lost: Some(NotKept {
                    what: format!("{} on {}", c.kind.title().to_lowercase(), c.task_label),
                    error: e.to_string(),
                    text,
                    spilled: None,
                }),
            },
        }
    }
}

/// What became of the open composer's text at a quit.
#[derive(Debug, Default)]
pub struct AtQuit {
    /// The draft file it is kept in.
    pub kept: Option<std::path::PathBuf>,
    /// Typed and not kept: the draft could not be written.
    pub lost: Option<NotKept>,
}

/// The composer's text that could not be kept at a quit.
#[derive(Debug)]
pub struct NotKept {
    /// `internal comment on #12`.
    pub what: String,
    pub error: String,
    pub text: String,
    /// Where [`NotKept::spill`] wrote it, or why it could not.
    pub spilled: Option<Result<std::path::PathBuf, String>>,
}

/// At most this much of a text not kept is written on stderr.
const NOT_KEPT_SHOWN: usize = 64 * 1024;

impl NotKept {
    /// Said on stderr after the terminal is restored: NOT KEPT, why, and
    /// the text itself (up to 64 KiB), the one copy left.
    pub fn lines(&self) -> Vec<String> {
        let mut end = self.text.len().min(NOT_KEPT_SHOWN);
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let spilled = match &self.spilled {
            Some(Ok(p)) => format!("; written instead to {}", p.display()),
            Some(Err(why)) => format!("; nor written to a private folder ({why})"),
            None => String::new(),
        };
        let mut out = vec![crate::text::clean(&format!(
            "taskdeck: your {} could NOT be kept as a draft ({}) — NOT KEPT{spilled}; its text follows, copy it now:",
            self.what, self.error
        ))];
        out.push(self.text[..end].to_string());
        if end < self.text.len() {
            out.push(format!(
                "taskdeck: (the last {} bytes of the text are not shown)",
                self.text.len() - end
            ));
        }
        out
    }
}

impl NotKept {
    /// Writes the text, cleaned as its stderr copy is, to the last private
    /// place left (`platform::spill`): when the terminal is gone, stderr
    /// goes nowhere and this file is the one copy.
    pub fn spill(&mut self) {
        let text = crate::text::sanitize(&self.text, true);
        self.spilled = Some(crate::platform::spill::write(&self.what, &text));
    }
}

/// Said at a start when texts of an earlier run that no draft could keep
/// are in the private folder: one line, with the path, never the text.
pub fn spilled_said(found: &[std::path::PathBuf]) -> Option<String> {
    let last = found.last()?;
    let more = match found.len() {
        1 => String::new(),
        n => format!(" ({} more in that folder)", n - 1),
    };
    Some(format!(
        "unsaved text of an earlier run (not kept as a draft) is in {}{more}",
        last.display()
    ))
}

/// The open composer is the one whose text was sent: same task, same
/// kind, typed by the same user.
fn same_draft(c: &crate::app::state::Compose, sent: &crate::app::state::drafts::InFlight) -> bool {
    c.task_id == sent.task_id && c.kind.draft_key() == sent.key && c.owner == sent.owner
}
