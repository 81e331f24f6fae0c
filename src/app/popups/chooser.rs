//! Lists of tasks and edits to act on: `:recent` (tasks recently opened or
//! acted on, drafts and archived ones included), `:changed` (loaded tasks
//! changed since the user last opened them), `:outbox` (edits waiting
//! for the service), and the pickers that spare typing an id: `:drafts`
//! (`a` accepts, `d` rejects after a confirmation), `:link task` (a task by
//! `#N` or title) and `:attach` (a file seen on a task); their rows are
//! built in `app/pickers.rs`. Keys of the `picker` context: move, `enter`
//! opens (the outbox: sends an edit that waits; a picker: uses the row),
//! `x` cancels an outbox edit.

use crate::app::keymap::Action;
use crate::app::outbox::OutState;
use crate::app::state::{Effect, Focus, Overlay, State};
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChooserKind {
    Recent,
    Changed,
    Outbox,
    /// `:snoozed`: snoozes and follow-ups waiting.
    Snoozed,
    /// Draft tasks seen (the service lists none): key a task id.
    Drafts,
    /// A task to link to the target: key a task id.
    LinkTask,
    /// A file seen on a task, to attach to the target: key a file id.
    Attach,
}

#[derive(Clone, Debug)]
pub struct Chooser {
    pub kind: ChooserKind,
    /// (key: a task id, or an outbox entry's number; the line shown)
    pub rows: Vec<(String, String)>,
    pub selected: usize,
    /// What the rows still wait for (`reading the store…`) or why some
    /// may be missing; shown above them.
    pub note: Option<String>,
    /// The task a picker acts on (`:link task`, `:attach`), as it was when
    /// the picker opened: the choice runs on it, never on another.
    pub target: Option<(String, String)>,
}

pub enum ChooserOutcome {
    Stay,
    Close,
    Enter(String),
    Cancel(String),
    Accept(String),
    Reject(String),
}

impl Chooser {
    pub fn new(kind: ChooserKind, rows: Vec<(String, String)>) -> Chooser {
        Chooser {
            kind,
            rows,
            selected: 0,
            note: None,
            target: None,
        }
    }

    pub fn title(&self) -> &'static str {
        match self.kind {
            ChooserKind::Recent => "Recent tasks (Enter opens)",
            ChooserKind::Changed => "Changed since you last looked (Enter opens)",
            ChooserKind::Outbox => {
                "Outbox: edits waiting for the service (x cancels, Enter sends one that waits)"
            }
            ChooserKind::Snoozed => "Snoozed and followed up (Enter opens, x cancels)",
            ChooserKind::Drafts => "Draft tasks (a accepts, d rejects, Enter opens)",
            ChooserKind::LinkTask => "Link which task? (Enter links it, Esc cancels)",
            ChooserKind::Attach => "Attach which file? (Enter attaches it, Esc cancels)",
        }
    }
    pub fn empty_text(&self) -> &'static str {
        match self.kind {
            ChooserKind::Recent => "no task opened or acted on yet",
            ChooserKind::Changed => "no loaded task changed since you last opened it",
            ChooserKind::Outbox => "the outbox is empty: nothing waits to be sent",
            ChooserKind::Snoozed => "nothing snoozed or followed up (:snooze 2h, :follow-up fri)",
            ChooserKind::Drafts => {
                "no draft task seen (the service lists none: a draft shows here once opened or stored)"
            }
            ChooserKind::LinkTask => "no task matches (type :link task #N, WORDS or a uuid)",
            ChooserKind::Attach => {
                "no file seen on a stored task: :attach FILE_ID takes an uploaded file's id"
            }
        }
    }

    /// Rows may still come (the note says what it reads: `…`): "none"
    /// is not said yet.
    pub fn waiting(&self) -> bool {
        self.note.as_deref().is_some_and(|n| n.ends_with('…'))
    }

    /// The highlighted row goes (accepted, rejected): the next takes its place.
    pub fn remove(&mut self, key: &str) {
        self.rows.retain(|(k, _)| k != key);
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
    }

    pub fn on_key(&mut self, action: Option<Action>) -> ChooserOutcome {
        let key = || self.rows.get(self.selected).map(|(k, _)| k.clone());
        match action {
            Some(Action::Close) => ChooserOutcome::Close,
            Some(Action::Down) => {
                self.selected = (self.selected + 1).min(self.rows.len().saturating_sub(1));
                ChooserOutcome::Stay
            }
            Some(Action::Up) => {
                self.selected = self.selected.saturating_sub(1);
                ChooserOutcome::Stay
            }
            Some(Action::Choose) => key().map_or(ChooserOutcome::Stay, ChooserOutcome::Enter),
            Some(Action::CancelItem)
                if matches!(self.kind, ChooserKind::Outbox | ChooserKind::Snoozed) =>
            {
                key().map_or(ChooserOutcome::Stay, ChooserOutcome::Cancel)
            }
            Some(Action::AcceptDraft) if self.kind == ChooserKind::Drafts => {
                key().map_or(ChooserOutcome::Stay, ChooserOutcome::Accept)
            }
            Some(Action::RejectDraft) if self.kind == ChooserKind::Drafts => {
                key().map_or(ChooserOutcome::Stay, ChooserOutcome::Reject)
            }
            _ => ChooserOutcome::Stay,
        }
    }
}

impl State {
    pub fn open_chooser(&mut self, kind: ChooserKind) {
        let now = crate::app::cache::now_secs();
        let rows: Vec<(String, String)> = match kind {
            // Built with what they wait for (`app/pickers.rs`).
            ChooserKind::Drafts | ChooserKind::LinkTask | ChooserKind::Attach => {
                return;
            }
            ChooserKind::Recent => self
                .local
                .recent
                .iter()
                .map(|r| {
                    (
                        r.task_id.clone(),
                        format!(
                            "{:<7} {:<40}  {}  ({})",
                            r.label,
                            short(&r.title, 40),
                            r.action,
                            crate::app::cache::age(r.at, now)
                        ),
                    )
                })
                .collect(),
            ChooserKind::Changed => crate::app::seen::changed_rows(self)
                .into_iter()
                .map(|(id, label, title)| (id, format!("{label:<7} {}", short(&title, 60))))
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
                        crate::app::outbox::Kept::Not(why) => {
                            format!("{state}, NOT KEPT ({why}): lost if you quit")
                        }
                        _ => state,
                    };
                    (
                        i.seq.to_string(),
                        format!(
                            "{:<7} {}  — {state}, made {}",
                            i.label,
                            i.what,
                            crate::app::cache::age(i.created_at, now)
                        ),
                    )
                })
                .collect(),
            ChooserKind::Snoozed => self.snoozed_rows(),
        };
        let rows = rows
            .into_iter()
            .map(|(k, l)| (k, crate::text::clean(&l)))
            .collect();
        self.overlay = Overlay::Chooser(Chooser::new(kind, rows));
    }

    pub(super) fn chooser_outcome(&mut self, c: Chooser, out: ChooserOutcome) -> Vec<Effect> {
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
                    self.open_chooser(ChooserKind::Outbox);
                    fx
                }
            },
            ChooserOutcome::Cancel(key) if c.kind == ChooserKind::Snoozed => {
                let fx = self.cancel_mark(&key);
                let selected = c.selected;
                self.open_chooser(ChooserKind::Snoozed);
                if let Overlay::Chooser(n) = &mut self.overlay {
                    n.selected = selected.min(n.rows.len().saturating_sub(1));
                }
                fx
            }
            ChooserOutcome::Accept(id) => self.accept_draft_row(c, id),
            ChooserOutcome::Reject(id) => self.reject_draft_row(c, id),
            ChooserOutcome::Cancel(key) => {
                if let Ok(seq) = key.parse::<i64>() {
                    self.outbox_cancel(seq);
                }
                let selected = c.selected;
                self.open_chooser(ChooserKind::Outbox);
                if let Overlay::Chooser(n) = &mut self.overlay {
                    n.selected = selected.min(n.rows.len().saturating_sub(1));
                }
                vec![]
            }
        }
    }
}

/// At most `n` characters, with `…` when cut.
fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}
