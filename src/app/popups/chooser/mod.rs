//! The one picker (issue 40 §5): every list to choose from is one of
//! these — `:recent` (tasks recently opened or acted on, drafts and
//! archived ones included), `:changed` (loaded tasks changed since the
//! user last opened them), `:outbox` (edits waiting for the service),
//! `:snoozed`, and the pickers that spare typing an id: `:drafts` (accept,
//! reject after a confirmation), `:link task` (a task by `#N` or title)
//! and `:attach` (a file seen on a task); their rows are built in
//! `app/edit/pickers.rs` and `handle.rs`. Each is typed into: what is
//! typed narrows the rows (`fuzzy::words_match_folded`'s rule, accents folded),
//! the row Enter takes is marked `>`, and `empty_text` says when nothing
//! matches. Keys of the `picker` context (those that type no character):
//! move, `enter` opens (the outbox: sends an edit that waits; a picker:
//! uses the row), cancel an outbox edit or a snooze, accept or reject a
//! draft.

use crate::app::keymap::Action;
use crate::app::state::input::LineInput;
use std::time::{Duration, Instant};

/// How long typing in a picker rests before the service is asked: the
/// live filter's pause (`popups/search.rs`, `SEARCH_DEBOUNCE`; a test
/// keeps them equal — the search module sits above the state, which
/// holds this one, so it is not imported here).
pub const TYPING_PAUSE: Duration = Duration::from_millis(250);

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
    /// What is typed, the rows it narrows (`rows` are those that match),
    /// and (`:link task`) what the service is asked about it.
    pub typed: Typed,
    /// `:drafts`: the linked tasks being read (their ids), which may still
    /// add rows.
    pub reading: Vec<String>,
}

/// A row a picker narrows: `key` and `line` as in `rows`, the task's
/// `label` (`#12`) and `title` to match the typed words against, folded
/// once when the row is made (`names::fold`), not at every key.
#[derive(Clone, Debug)]
pub struct Pick {
    pub key: String,
    pub line: String,
    pub label: String,
    pub title: String,
    folded: (String, String),
}

impl Pick {
    pub fn new(key: String, line: String, label: String, title: String) -> Pick {
        let fold = crate::domain::names::fold;
        let folded = (fold(&label), fold(&title));
        Pick {
            key,
            line,
            label,
            title,
            folded,
        }
    }

    /// The row matches every word typed (`q`, as `narrow` reads it).
    fn matches(&self, q: &str) -> bool {
        crate::domain::fuzzy::words_match_folded(&self.folded.0, &[&self.folded.1], q)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Typed {
    pub input: LineInput,
    /// Every row known so far; `rows` are those that match `input`.
    pub pool: Vec<Pick>,
    /// What the service is being asked (`#1157`, or the words): its
    /// answer alone settles the note.
    pub asked: Option<String>,
    /// The answer to `asked` has not come yet.
    pub waiting: bool,
    /// A key changed the text, not yet asked, since the last tick: the
    /// tick dates it (as `list/settle` dates a move).
    pub stirred: bool,
    /// The tick after the last change, while what is typed is not yet
    /// asked: the service is asked once typing rests [`TYPING_PAUSE`].
    pub quiet_since: Option<Instant>,
}

/// `#1157` or `1157` alone: the number typed.
pub fn typed_number(text: &str) -> Option<i64> {
    let d = text.trim().trim_start_matches('#');
    (!d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
        .then(|| d.parse().ok())
        .flatten()
}

/// What a key of the `picker` context does in any picker, whatever it
/// lists (a chooser's rows, the sharing editor's candidates,
/// `popups/sharing.rs`'s `Picker`): the one rule for moving, choosing and
/// closing. `Other` is an action the picker may own (cancel an outbox
/// edit, accept a draft).
#[derive(Debug, PartialEq)]
pub enum Step {
    Stay,
    Close,
    /// Enter on the row at this index (never when no row is shown).
    Choose(usize),
    Other(Action),
}

/// `action` on a list of `len` rows with `selected` marked: down and up
/// move within the rows, Esc closes, Enter takes the marked row (none
/// when nothing matches).
pub fn step(selected: &mut usize, len: usize, action: Option<Action>) -> Step {
    match action {
        Some(Action::Close) => Step::Close,
        Some(Action::Down) => {
            *selected = (*selected + 1).min(len.saturating_sub(1));
            Step::Stay
        }
        Some(Action::Up) => {
            *selected = selected.saturating_sub(1);
            Step::Stay
        }
        Some(Action::Choose) if *selected < len => Step::Choose(*selected),
        Some(Action::Choose) | None => Step::Stay,
        Some(a) => Step::Other(a),
    }
}

/// Where the mark goes once the rows narrowed again: it stays on the row
/// it was on (`was`) while that still matches, else the first — in every
/// picker.
pub fn kept<K: PartialEq>(was: Option<K>, rows: impl IntoIterator<Item = K>) -> usize {
    was.and_then(|k| rows.into_iter().position(|r| r == k))
        .unwrap_or(0)
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
    /// A picker of `kind` over `pool`, nothing typed yet: every row shown.
    pub fn new(kind: ChooserKind, pool: Vec<Pick>) -> Chooser {
        let mut c = Chooser {
            kind,
            rows: Vec::new(),
            selected: 0,
            offset: 0,
            note: None,
            reading: Vec::new(),
            target: None,
            typed: Typed {
                pool,
                ..Default::default()
            },
        };
        c.narrow();
        c
    }

    /// A row joins the pool (the rows narrow when the caller calls
    /// `narrow`); a key already there is not again.
    pub fn add(&mut self, p: Pick) {
        if !self.typed.pool.iter().any(|q| q.key == p.key) {
            self.typed.pool.push(p)
        }
    }

    /// The rows again from the pool: those matching every typed word
    /// (`domain::narrow`'s rule, `fuzzy::words_match_folded`), the task whose
    /// number is exactly the one typed first. The highlight stays on its
    /// row while that still matches, else the first.
    pub fn narrow(&mut self) {
        let t = &self.typed;
        let text = t.input.text.trim();
        let keep = self.rows.get(self.selected).map(|(k, _)| k.clone());
        let exact = typed_number(text).map(|n| format!("#{n}"));
        // A bare number is the beginning of one (`11` as `#11`).
        let q = match typed_number(text) {
            Some(_) if !text.starts_with('#') => format!("#{text}"),
            _ => text.to_string(),
        };
        let mut hits: Vec<&Pick> = t.pool.iter().filter(|p| p.matches(&q)).collect();
        hits.sort_by_key(|p| Some(&p.label) != exact.as_ref());
        self.rows = hits
            .into_iter()
            .map(|p| (p.key.clone(), p.line.clone()))
            .collect();
        let first_exact = exact.is_some() && self.exact_shown();
        self.selected = match first_exact {
            true => 0,
            false => kept(keep.as_ref(), self.rows.iter().map(|(k, _)| k)),
        };
    }

    /// The number typed, while the service is asked for it and it is not
    /// among the rows: Enter waits for it.
    pub fn awaited_number(&self) -> Option<i64> {
        let t = &self.typed;
        let n = typed_number(&t.input.text)?;
        (t.waiting && t.asked.as_deref() == Some(format!("#{n}").as_str()) && !self.exact_shown())
            .then_some(n)
    }

    /// What is typed now waits to be asked (typing has not rested).
    pub fn ask_pending(&self) -> bool {
        self.typed.stirred || self.typed.quiet_since.is_some()
    }

    /// When typing will have rested, if a question waits (the loop may
    /// wake then).
    pub fn ask_due(&self) -> Option<Instant> {
        self.typed.quiet_since.map(|t| t + TYPING_PAUSE)
    }

    /// The tick at `now`: a change since the last tick is dated now; true
    /// once typing has rested [`TYPING_PAUSE`] since (the question is
    /// then no longer pending: the caller asks it).
    pub fn typing_rested(&mut self, now: Instant) -> bool {
        let t = &mut self.typed;
        if std::mem::take(&mut t.stirred) {
            t.quiet_since = Some(now);
            return false;
        }
        match t.quiet_since {
            Some(since) if now.saturating_duration_since(since) >= TYPING_PAUSE => {
                t.quiet_since = None;
                true
            }
            _ => false,
        }
    }

    /// The row Enter means is not there yet: none at all, or a number is
    /// typed and its task is not the first row.
    pub fn meant_row_missing(&self) -> bool {
        let typed_n = typed_number(&self.typed.input.text);
        self.rows.is_empty() || (typed_n.is_some() && !self.exact_shown())
    }

    /// The task numbered as typed (`#1157`) is among the rows (first).
    pub fn exact_shown(&self) -> bool {
        let t = &self.typed;
        let Some(n) = typed_number(&t.input.text) else {
            return false;
        };
        let label = format!("#{n}");
        t.pool
            .iter()
            .any(|p| p.label == label && self.rows.first().is_some_and(|(k, _)| *k == p.key))
    }

    /// The popup's title: what is listed, never a key (the keys are the
    /// hint line's, from the keymap in effect).
    pub fn title(&self) -> &'static str {
        match self.kind {
            ChooserKind::Recent => "Recent tasks",
            ChooserKind::Changed => "Changed since you last looked",
            ChooserKind::Outbox => "Outbox: edits waiting for the service",
            ChooserKind::Snoozed => "Snoozed and followed up",
            ChooserKind::Drafts => "Draft tasks",
            ChooserKind::LinkTask => "Link which task? (type #N or words)",
            ChooserKind::Attach => "Attach which file? (type to narrow)",
        }
    }
    pub fn empty_text(&self) -> &'static str {
        // Something typed, and rows it left out: say so, not "none seen".
        let t = &self.typed;
        let narrowed = !t.input.text.trim().is_empty() && !t.pool.is_empty();
        match self.kind {
            ChooserKind::Attach if narrowed => {
                "no file seen matches what is typed (:attach FILE_ID takes an uploaded file's id)"
            }
            ChooserKind::LinkTask => "no task seen matches what is typed (:link task UUID takes an id)",
            _ if narrowed => "no row matches what is typed",
            ChooserKind::Recent => "no task opened or acted on yet",
            ChooserKind::Changed => "no loaded task changed since you last opened it",
            ChooserKind::Outbox => "the outbox is empty: nothing waits to be sent",
            ChooserKind::Snoozed => "nothing snoozed or followed up (:snooze 2h, :follow-up fri)",
            ChooserKind::Drafts => {
                "no draft task seen (the service lists none: a draft shows here once opened or stored)"
            }
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
        self.typed.pool.retain(|p| p.key != key);
        self.rows.retain(|(k, _)| k != key);
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
    }

    pub fn on_key(&mut self, action: Option<Action>) -> ChooserOutcome {
        let key = |i: usize| self.rows[i].0.clone();
        match step(&mut self.selected, self.rows.len(), action) {
            Step::Stay => ChooserOutcome::Stay,
            Step::Close => ChooserOutcome::Close,
            Step::Choose(i) => ChooserOutcome::Enter(key(i)),
            Step::Other(a) => {
                let Some(i) = (self.selected < self.rows.len()).then_some(self.selected) else {
                    return ChooserOutcome::Stay;
                };
                match a {
                    Action::CancelItem
                        if matches!(self.kind, ChooserKind::Outbox | ChooserKind::Snoozed) =>
                    {
                        ChooserOutcome::Cancel(key(i))
                    }
                    Action::AcceptDraft if self.kind == ChooserKind::Drafts => {
                        ChooserOutcome::Accept(key(i))
                    }
                    Action::RejectDraft if self.kind == ChooserKind::Drafts => {
                        ChooserOutcome::Reject(key(i))
                    }
                    _ => ChooserOutcome::Stay,
                }
            }
        }
    }
}
