//! Lists of tasks and edits to act on: `:recent` (tasks recently opened or
//! acted on, drafts and archived ones included), `:changed` (loaded tasks
//! changed since the user last opened them), `:outbox` (edits waiting
//! for the service), and the pickers that spare typing an id: `:drafts`
//! (`a` accepts, `d` rejects after a confirmation), `:link task` (a task by
//! `#N` or title) and `:attach` (a file seen on a task); their rows are
//! built in `app/edit/pickers.rs`. Keys of the `picker` context: move, `enter`
//! opens (the outbox: sends an edit that waits; a picker: uses the row),
//! `x` cancels an outbox edit.

use crate::app::keymap::Action;

mod handle;
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
    /// The first row the last frame showed: the window moves only when
    /// the selection leaves it (a click must not slide the rows).
    pub offset: usize,
    /// What the rows still wait for (`reading the store…`) or why some
    /// may be missing; shown above them.
    pub note: Option<String>,
    /// The task a picker acts on (`:link task`, `:attach`), as it was when
    /// the picker opened: the choice runs on it, never on another.
    pub target: Option<(String, String)>,
    /// `:drafts`: the linked tasks being read (their ids), which may still
    /// add rows.
    pub reading: Vec<String>,
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
            offset: 0,
            note: None,
            reading: Vec::new(),
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
        self.note.as_deref().is_some_and(|n| n.ends_with('…')) || !self.reading.is_empty()
    }

    /// The note shown above the rows: what they still wait for (the store,
    /// linked tasks being read) or why some may be missing.
    pub fn shown_note(&self) -> Option<String> {
        let k = self.reading.len();
        let linked = format!("{k} linked task{}", if k == 1 { "" } else { "s" });
        match &self.note {
            _ if k == 0 => self.note.clone(),
            None => Some(format!("reading {linked}…")),
            Some(n) if n.ends_with('…') => {
                Some(format!("{} and {linked}…", n.trim_end_matches('…')))
            }
            Some(n) => Some(n.clone()),
        }
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
