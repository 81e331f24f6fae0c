//! What the state does for `chooser` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::keymap::Context;
use crate::app::local::outbox::OutState;
use crate::app::state::input::edits_text;
use crate::app::state::{Effect, Focus, Level, Overlay, State};
use crossterm::event::KeyEvent;

impl State {
    /// A key in a chooser: text keys go into its line (the rows narrow
    /// at once); the others go by the `picker` keymap.
    pub(crate) fn chooser_key(&mut self, mut c: Chooser, ev: KeyEvent) -> Vec<Effect> {
        if edits_text(&ev) {
            let t = &mut c.typed;
            let before = t.input.text.clone();
            t.input.handle(&ev);
            if t.input.text != before {
                // The rows narrow now; the service is asked once typing
                // rests (`link_picker_tick`).
                self.picker_typed(&mut c);
            }
            self.overlay = Overlay::Chooser(c);
            return vec![];
        }
        let action = self.keymap.lookup(&[Context::Picker], &ev);
        let mut fx = vec![];
        if action == Some(crate::app::keymap::Action::Choose) {
            if c.ask_pending() && c.meant_row_missing() {
                // Enter before typing rested, on a row not there yet: ask
                // now rather than after the pause.
                fx = self.link_ask(&mut c);
            }
            if let Some(wait) = c.awaited_number() {
                // Enter means the task typed: never another row meanwhile.
                self.say(Level::Info, format!("still looking up #{wait}…"));
                self.overlay = Overlay::Chooser(c);
                return fx;
            }
        }
        let out = c.on_key(action);
        fx.extend(self.chooser_outcome(c, out));
        fx
    }

    /// `:recent`, `:changed`, `:outbox`, `:snoozed`: the chooser of that
    /// kind, opened (nothing to send).
    pub fn choose(&mut self, kind: ChooserKind) -> Vec<Effect> {
        self.open_chooser(kind);
        vec![]
    }

    pub fn open_chooser(&mut self, kind: ChooserKind) {
        let now = crate::app::local::cache::now_secs();
        let age = |at| crate::app::local::cache::age(at, now);
        // (key, line, label, the words typed may find beside the label)
        let rows: Vec<(String, String, String, String)> = match kind {
            // Built with what they wait for (`app/edit/pickers.rs`).
            ChooserKind::Drafts | ChooserKind::LinkTask | ChooserKind::Attach => {
                return;
            }
            ChooserKind::Recent => self
                .local
                .recent
                .iter()
                .map(|r| {
                    let line = format!(
                        "{:<7} {}  {}  ({})",
                        r.label,
                        crate::cut::fit(&r.title, 40),
                        r.action,
                        age(r.at)
                    );
                    let words = format!("{} {}", r.title, r.action);
                    (r.task_id.clone(), line, r.label.clone(), words)
                })
                .collect(),
            ChooserKind::Changed => crate::app::local::seen::changed_rows(self)
                .into_iter()
                .map(|(id, label, title)| {
                    let line = format!("{label:<7} {}", crate::cut::cut(&title, 60));
                    (id, line, label, title)
                })
                .collect(),
            ChooserKind::Outbox => self
                .outbox
                .iter()
                .map(|i| {
                    let state = match &i.state {
                        OutState::Queued if self.offline.is_some() => {
                            "queued (offline)".to_string()
                        }
                        OutState::Queued => "queued".to_string(),
                        OutState::Checking(_) => "reading the task…".to_string(),
                        OutState::Sending(_) => "sending…".to_string(),
                        OutState::Waiting(why) => format!("WAITS FOR YOU: {why}"),
                    };
                    let state = match &i.kept {
                        crate::app::local::outbox::Kept::Not(why) => {
                            format!("{state}, NOT KEPT ({why}): lost if you quit")
                        }
                        _ => state,
                    };
                    let line = format!(
                        "{:<7} {}  — {state}, made {}",
                        i.label,
                        i.what,
                        age(i.created_at)
                    );
                    let words = format!("{} {state}", i.what);
                    (i.seq.to_string(), line, i.label.clone(), words)
                })
                .collect(),
            ChooserKind::Snoozed => self.snoozed_rows(),
        };
        let clean = crate::text::clean;
        let pool = rows
            .into_iter()
            .map(|(k, l, label, words)| Pick::new(k, clean(&l), clean(&label), clean(&words)))
            .collect();
        let mut c = Chooser::new(kind, pool);
        if kind == ChooserKind::Outbox {
            // An empty outbox here is not an empty store: another
            // taskdeck's queued edits are said above the rows.
            c.note = self.outbox_elsewhere_words();
        }
        self.overlay = Overlay::Chooser(c);
    }

    /// The chooser of `kind` again, built from what is now (an edit
    /// cancelled, a snooze ended), with what was typed and the highlight
    /// kept on its row, else its place (the next row).
    fn reopen_chooser(&mut self, old: &Chooser) {
        let key = old.rows.get(old.selected).map(|(k, _)| k.clone());
        self.open_chooser(old.kind);
        if let Overlay::Chooser(n) = &mut self.overlay {
            n.typed.input = old.typed.input.clone();
            n.narrow();
            n.selected = key
                .and_then(|k| n.rows.iter().position(|(r, _)| *r == k))
                .unwrap_or(old.selected)
                .min(n.rows.len().saturating_sub(1));
        }
    }

    /// An open `:outbox` follows the outbox (#32 §13): its rows are built
    /// again from the entries as they are now (one sent or refused leaves,
    /// `sending…` never outlives its answer), the highlight stays on its
    /// entry, and `note` (a refusal) is said above them.
    pub(crate) fn refresh_outbox_chooser(&mut self, note: Option<String>) {
        let Overlay::Chooser(c) = &self.overlay else {
            return;
        };
        if c.kind != ChooserKind::Outbox {
            return;
        }
        let c = c.clone();
        self.reopen_chooser(&c);
        if let Overlay::Chooser(n) = &mut self.overlay {
            n.note = note.map(|t| crate::text::clean(&t)).or(c.note);
        }
    }

    pub(crate) fn chooser_outcome(&mut self, c: Chooser, out: ChooserOutcome) -> Vec<Effect> {
        match out {
            ChooserOutcome::Stay => {
                self.overlay = Overlay::Chooser(c);
                vec![]
            }
            ChooserOutcome::Close => vec![],
            ChooserOutcome::Enter(key) => match c.kind {
                ChooserKind::Recent | ChooserKind::Changed | ChooserKind::Drafts => {
                    self.focus = Focus::Detail;
                    self.jump_to(key, None)
                }
                ChooserKind::Snoozed => {
                    self.focus = Focus::Detail;
                    let id = key
                        .split_once(':')
                        .map_or(key.clone(), |(_, id)| id.to_string());
                    self.jump_to(id, None)
                }
                // Through the palette's own check: the task it was opened
                // for is still current.
                ChooserKind::LinkTask => self.run_palette(&format!("link task {key}"), c.target),
                ChooserKind::Attach => self.run_palette(&format!("attach {key}"), c.target),
                ChooserKind::Outbox => {
                    // A field edit that met a change: three ways first.
                    if let Some(fx) = key
                        .parse::<i64>()
                        .ok()
                        .and_then(|seq| self.open_conflict(seq))
                    {
                        return fx;
                    }
                    let fx = key
                        .parse::<i64>()
                        .map(|seq| self.outbox_send_anyway(seq))
                        .unwrap_or_default();
                    self.reopen_chooser(&c);
                    fx
                }
            },
            ChooserOutcome::Cancel(key) if c.kind == ChooserKind::Snoozed => {
                let fx = self.cancel_mark(&key);
                self.reopen_chooser(&c);
                fx
            }
            ChooserOutcome::Accept(id) => self.accept_draft_row(c, id),
            ChooserOutcome::Reject(id) => self.reject_draft_row(c, id),
            ChooserOutcome::Cancel(key) => {
                if let Ok(seq) = key.parse::<i64>() {
                    self.outbox_cancel(seq);
                }
                self.reopen_chooser(&c);
                vec![]
            }
        }
    }
}
