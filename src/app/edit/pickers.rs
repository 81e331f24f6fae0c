//! The pickers that spare typing an id (#26 §1): `:drafts`, `:link task`
//! and `:attach` open a `Chooser` (`popups/chooser/`) filled at once
//! from what this session holds, then from the store (`StoreCmd::Scan`:
//! the service lists no drafts and no files) or the service's search
//! (`:link task`); the popup says what it still waits for, or what failed.
//!
//! Every row is text from the service: it is cleaned here, as the other
//! choosers' rows are.

use crate::api::{Task, TaskItem, TaskPage, TaskPatch, TaskQuery};
use crate::app::local::cache::from_stored;
use crate::app::popups::chooser::{typed_number, Chooser, ChooserKind, Pick};
use crate::app::state::fields::{file_entries, file_id};
use crate::app::state::input::LineInput;
use crate::app::state::{ApiRequest, Confirmed, Effect, Level, Overlay, State};
use crate::store::worker::StoreCmd;
use crate::store::{Scan, StoredTask};
use serde_json::Value;
use std::collections::HashSet;

/// Rows the service's search adds to the `:link task` picker.
pub const PICK_LIMIT: u32 = 50;

/// Linked tasks `:drafts` reads at most, each time it opens.
pub const LINKED_READS: usize = 20;

/// Every task this session holds: the open task, the list's rows, the
/// copies kept (`Local::known`), each once. The copies come newest
/// fetched first, then by id: never in the hash map's order, which
/// differs from run to run (a picker's rows would too, and the
/// simulator's seed would not be a run).
fn tasks_in_memory(s: &State) -> Vec<&Task> {
    let mut seen = HashSet::new();
    let mut kept: Vec<(i64, &str, &Task)> = s
        .local
        .known
        .iter()
        .filter_map(|(id, k)| k.copy().map(|t| (k.at, id.as_str(), t)))
        .collect();
    kept.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    s.detail
        .as_ref()
        .and_then(|d| d.task.as_ref())
        .into_iter()
        .chain(s.list.items.iter().filter_map(TaskItem::task))
        .chain(kept.into_iter().map(|(_, _, t)| t))
        .filter(|t| !s.local.deleted.contains(t.id.as_str()))
        .filter(|t| seen.insert(t.id.as_str().to_string()))
        .collect()
}

/// `#12  Title`, cleaned.
fn task_line(t: &Task) -> String {
    crate::text::clean(&format!("{:<7} {}", t.label(), t.title.raw()))
}

/// A task as a typed picker's row.
fn pick_of(t: &Task) -> Pick {
    Pick::new(
        t.id.as_str().to_string(),
        task_line(t),
        t.label(),
        t.title.raw().to_string(),
    )
}

/// What the service is to be asked for the picker's text: `(asked, the
/// number, the text)`, `asked` being `#N` or the words; none when the
/// task numbered as typed is a row already.
fn link_question(c: &Chooser) -> Option<(String, Option<i64>, String)> {
    let text = c.typed.input.text.trim().to_string();
    let number = typed_number(&text);
    if number.is_some() && c.exact_shown() {
        return None;
    }
    let asked = match number {
        Some(n) => format!("#{n}"),
        None => text.clone(),
    };
    Some((asked, number, text))
}

/// A file entry as a typed picker's row: its name, its size, its task;
/// typed words find the file's name, the task's number or title.
fn file_row(t: &Task, v: &Value) -> Option<Pick> {
    let id = file_id(v)?;
    let get = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| v.get(*k).filter(|x| !x.is_null()))
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
    };
    let name = get(&["name", "filename", "file_name"]).unwrap_or_else(|| id.clone());
    let size = ["size_bytes", "size"]
        .iter()
        .find_map(|k| v.get(*k))
        .and_then(|x| x.as_u64().or_else(|| x.as_str()?.trim().parse().ok()))
        .map(crate::domain::words::human_size)
        .unwrap_or_default();
    let clean = crate::text::clean;
    let line = format!(
        "{} {:>9}  {} {}",
        crate::cut::fit(&clean(&name), 32),
        size,
        t.label(),
        crate::cut::cut(&clean(t.title.raw()), 30)
    );
    Some(Pick::new(
        id,
        line,
        t.label(),
        format!("{name} {}", t.title.raw()),
    ))
}

impl State {
    /// `:drafts`: the draft tasks seen, to accept (`ctrl-a`) or reject
    /// (`ctrl-d`).
    /// The service lists no drafts: besides those held and stored, the
    /// tasks that the tasks held link to and that were never read are read
    /// now (a few, as read-ahead reads: no slot of the user's), since a
    /// link from a visible task is how a draft is reached; each that is a
    /// draft joins the list as it answers (`linked_task_read`).
    pub fn open_drafts(&mut self) -> Vec<Effect> {
        let held = tasks_in_memory(self);
        let rows = held
            .iter()
            .filter(|t| t.draft)
            .map(|t| pick_of(t))
            .collect();
        let ids: HashSet<&str> = held.iter().map(|t| t.id.as_str()).collect();
        let mut linked: Vec<String> = Vec::new();
        for l in held.iter().flat_map(|t| t.linked_items.iter()) {
            let id = l.id.as_str();
            if l.kind == crate::api::LinkType::Task
                && !ids.contains(id)
                && !self.local.deleted.contains(id)
                && !linked.iter().any(|x| x == id)
            {
                linked.push(id.to_string());
            }
        }
        linked.truncate(LINKED_READS);
        let mut c = Chooser::new(ChooserKind::Drafts, rows);
        c.note = self.ask_store(Scan::Drafts);
        if self.offline.is_some() {
            linked.clear();
        }
        c.reading = linked.clone();
        self.overlay = Overlay::Chooser(c);
        linked
            .into_iter()
            .map(|id| {
                let ticket = self.next_ticket;
                self.next_ticket += 1;
                Effect::Api {
                    ticket,
                    req: Box::new(ApiRequest::Prefetch(Box::new(ApiRequest::GetTask { id }))),
                }
            })
            .collect()
    }

    /// A task was read before being asked for (a linked task `:drafts`
    /// reads, or a read-ahead): a draft joins the open drafts list.
    pub(crate) fn linked_task_read(&mut self, id: &str) {
        // Only an open `:drafts` waits for these: every other read-ahead
        // answer costs nothing here (no walk of the tasks in memory).
        if !matches!(&self.overlay, Overlay::Chooser(c) if c.kind == ChooserKind::Drafts) {
            return;
        }
        let found = tasks_in_memory(self)
            .into_iter()
            .find(|t| t.id.as_str() == id && t.draft)
            .map(pick_of);
        if let Overlay::Chooser(c) = &mut self.overlay {
            // Answered (or failed): no longer waited for.
            c.reading.retain(|r| r != id);
            if let Some(row) = found {
                c.add(row);
                c.narrow();
            }
        }
    }

    /// `:attach` without an id: the files seen on tasks, but those the
    /// task already has.
    pub fn open_attach_picker(&mut self) -> Result<Vec<Effect>, String> {
        let target = self.target()?;
        // One types into it: the rows narrow as the live filter's do.
        let mut c = Chooser::new(ChooserKind::Attach, vec![]);
        let tasks: Vec<Task> = tasks_in_memory(self).into_iter().cloned().collect();
        let skip = self.files_of(&target.0);
        c.target = Some(target);
        add_files(&mut c, &tasks, &skip);
        c.note = self.ask_store(Scan::WithFiles);
        self.overlay = Overlay::Chooser(c);
        Ok(vec![])
    }

    /// `:link task [WORDS]`: a picker one types into, WORDS already
    /// typed. Its pool is every task seen (this session's, then the
    /// store's recent ones); each key narrows it (`Chooser::narrow`), and
    /// the service is asked for what is typed once typing rests
    /// (`link_typed`).
    pub fn open_link_picker(&mut self, query: &str) -> Result<Vec<Effect>, String> {
        let target = self.target()?;
        let mut pool: Vec<Pick> = tasks_in_memory(self)
            .into_iter()
            .filter(|t| t.id.as_str() != target.0)
            .map(pick_of)
            .collect();
        // Tasks opened or acted on in earlier sessions (the store's).
        for r in &self.local.recent {
            if r.task_id != target.0 && !pool.iter().any(|p| p.key == r.task_id) {
                let line = format!("{:<7} {}", r.label, r.title);
                pool.push(Pick::new(
                    r.task_id.clone(),
                    crate::text::clean(&line),
                    r.label.clone(),
                    r.title.clone(),
                ));
            }
        }
        let mut c = Chooser::new(ChooserKind::LinkTask, pool);
        c.target = Some(target);
        c.typed.input = LineInput::with(query.trim());
        // Nothing is being typed yet: the words given are asked at once.
        c.narrow();
        let fx = self.link_ask(&mut c);
        self.overlay = Overlay::Chooser(c);
        Ok(fx)
    }

    /// A typed picker's text changed (a key, a paste): the rows narrow
    /// now. `:link task` also asks the service, only once typing rests
    /// (`link_picker_tick`), or at once when Enter means a row that is not
    /// there yet (`popups/chooser/handle.rs`); a number among the rows
    /// needs no question.
    pub(crate) fn picker_typed(&mut self, c: &mut Chooser) {
        c.narrow();
        if c.kind != ChooserKind::LinkTask {
            return;
        }
        let question = link_question(c);
        let t = &mut c.typed;
        match question {
            None => {
                // The task typed is a row: nothing to ask; an older
                // question's answer only adds rows.
                t.asked = None;
                t.waiting = false;
                t.stirred = false;
                t.quiet_since = None;
                c.note = None;
            }
            // Asked already (answered, or still out): not again.
            Some((asked, ..)) if t.asked.as_deref() == Some(asked.as_str()) => {
                t.stirred = false;
                t.quiet_since = None;
            }
            Some(_) => {
                t.stirred = true;
                // The note speaks of the question out, if one is; else
                // of no older text.
                if !t.waiting {
                    c.note = None;
                }
            }
        }
    }

    /// Ask the service for what the `:link task` picker holds typed now
    /// (`:open #N`'s way for a number, the search for words); a newer
    /// question supersedes the older (one slot).
    pub(crate) fn link_ask(&mut self, c: &mut Chooser) -> Vec<Effect> {
        let question = link_question(c);
        let t = &mut c.typed;
        t.stirred = false;
        t.quiet_since = None;
        let Some((asked, number, text)) =
            question.filter(|(a, ..)| t.asked.as_deref() != Some(a.as_str()))
        else {
            return vec![];
        };
        t.asked = Some(asked.clone());
        t.waiting = true;
        c.note = Some(match number {
            Some(_) => format!("looking up {asked}…"),
            None => "searching the service…".into(),
        });
        vec![self.request(ApiRequest::PickTasks {
            query: TaskQuery {
                query: Some(text).filter(|q| !q.is_empty() && number.is_none()),
                ..Default::default()
            },
            number,
        })]
    }

    /// The tick at `now`: an open `:link task` picker whose typing has
    /// rested asks the service for what is typed.
    pub(crate) fn link_picker_tick(&mut self, now: std::time::Instant) -> Vec<Effect> {
        let mut overlay = std::mem::replace(&mut self.overlay, Overlay::None);
        let fx = match &mut overlay {
            Overlay::Chooser(c) if c.kind == ChooserKind::LinkTask => {
                if c.typing_rested(now) {
                    self.link_ask(c)
                } else {
                    vec![]
                }
            }
            _ => vec![],
        };
        self.overlay = overlay;
        fx
    }

    /// When an open `:link task` picker will ask the service, if typing
    /// has stopped and not yet rested (the loop may wake then).
    pub fn link_ask_due(&self) -> Option<std::time::Instant> {
        match &self.overlay {
            Overlay::Chooser(c) if c.kind == ChooserKind::LinkTask => c.ask_due(),
            _ => None,
        }
    }

    /// The ids of the files task `id` has (as this session knows it).
    fn files_of(&self, id: &str) -> HashSet<String> {
        self.known_task(id)
            .map(|t| {
                file_entries(t)
                    .into_iter()
                    .filter_map(|(_, v)| file_id(v))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Ask the store for `scan`; what the picker says meanwhile.
    fn ask_store(&mut self, scan: Scan) -> Option<String> {
        if self.local.on {
            self.local.store(StoreCmd::Scan(scan));
            Some("reading the store…".into())
        } else {
            Some("no local store in use: only what this session loaded".into())
        }
    }

    /// The store answered a `Scan`: its tasks join the open picker (a
    /// copy this session holds is newer, and decides).
    pub(crate) fn on_scanned(&mut self, scan: Scan, rows: Result<Vec<StoredTask>, String>) {
        let Overlay::Chooser(mut c) = std::mem::replace(&mut self.overlay, Overlay::None) else {
            return;
        };
        let wanted = match c.kind {
            ChooserKind::Drafts => Some(Scan::Drafts),
            ChooserKind::Attach => Some(Scan::WithFiles),
            _ => None,
        };
        if wanted == Some(scan) {
            match rows {
                Err(e) => {
                    c.note = Some(crate::text::clean(&format!(
                        "the store could not be read ({e}): only what this session loaded"
                    )))
                }
                Ok(rows) => {
                    c.note = None;
                    let held: HashSet<String> = tasks_in_memory(self)
                        .into_iter()
                        .map(|t| t.id.as_str().to_string())
                        .collect();
                    let stored: Vec<Task> = rows
                        .iter()
                        .filter(|r| !held.contains(&r.id))
                        .filter_map(from_stored)
                        .collect();
                    match scan {
                        Scan::Drafts => {
                            for t in stored.iter().filter(|t| t.draft) {
                                c.add(pick_of(t));
                            }
                            c.narrow();
                        }
                        Scan::WithFiles => {
                            let target = c.target.as_ref().map(|t| t.0.clone()).unwrap_or_default();
                            let skip = self.files_of(&target);
                            add_files(&mut c, &stored, &skip)
                        }
                    }
                }
            }
        }
        self.overlay = Overlay::Chooser(c);
    }

    /// The store cannot be read any more: a picker waiting on it says so.
    pub(crate) fn scan_failed(&mut self, why: &str) {
        if let Overlay::Chooser(c) = &mut self.overlay {
            if matches!(c.kind, ChooserKind::Drafts | ChooserKind::Attach) && c.note.is_some() {
                c.note = Some(crate::text::clean(&format!(
                    "the store could not be read ({why}): only what this session loaded"
                )));
            }
        }
    }

    /// The service answered the `:link task` picker (`number`: a lookup
    /// of `#N`): its tasks join the pool; the answer to what is asked now
    /// settles the note.
    /// The service's search for the `:link task` picker answered.
    pub(crate) fn picked_tasks_answered(
        &mut self,
        query: TaskQuery,
        number: Option<i64>,
        result: Result<crate::app::state::Reply, crate::api::ApiError>,
    ) -> Vec<Effect> {
        use crate::app::state::Reply;
        let page = match result {
            Ok(Reply::Page(p)) => Ok(p),
            Ok(Reply::Found(found, _)) => Ok(TaskPage {
                items: found.into_iter().map(TaskItem::Task).collect(),
                cursor: None,
            }),
            Ok(_) => Err("unexpected answer".into()),
            Err(e) => Err(e.to_string()),
        };
        self.on_picked_tasks(Some(query.query.unwrap_or_default()), number, page);
        vec![]
    }

    pub(crate) fn on_picked_tasks(
        &mut self,
        query: Option<String>,
        number: Option<i64>,
        page: Result<TaskPage, String>,
    ) {
        let Overlay::Chooser(c) = &mut self.overlay else {
            return;
        };
        if c.kind != ChooserKind::LinkTask {
            return;
        }
        let target = c.target.as_ref().map(|t| t.0.clone()).unwrap_or_default();
        let t = &mut c.typed;
        let asked = match number {
            Some(n) => format!("#{n}"),
            None => query.unwrap_or_default(),
        };
        let current = t.asked.as_deref() == Some(asked.as_str());
        let note = match page {
            Err(e) if number.is_some() => format!("looking up {asked} failed ({e})"),
            Err(e) => format!("the service's search failed ({e}): only the tasks seen"),
            Ok(page) => {
                let found = page.items.iter().filter_map(TaskItem::task).count();
                for t2 in page.items.iter().filter_map(TaskItem::task) {
                    let id = t2.id.as_str();
                    match t.pool.iter_mut().find(|p| p.key == id) {
                        // The service's copy is the newer.
                        Some(p) => *p = pick_of(t2),
                        None if id != target => t.pool.push(pick_of(t2)),
                        None => {}
                    }
                }
                match number {
                    Some(_) if found == 0 => format!(
                        "no task {asked} on the service: it does not exist, or you cannot see it"
                    ),
                    _ => String::new(),
                }
            }
        };
        if current {
            // (Asked once: not again for the same text.)
            t.waiting = false;
            // Typed on since: the answer speaks of older text, and no
            // question is out until typing rests.
            let typed_on = t.stirred || t.quiet_since.is_some();
            c.note = Some(crate::text::clean(&note)).filter(|n| !n.is_empty() && !typed_on);
        }
        c.narrow();
    }

    /// `a` in `:drafts`: accept the highlighted draft; the list stays
    /// open on the next one, and the message line tells the outcome.
    pub(crate) fn accept_draft_row(&mut self, mut c: Chooser, id: String) -> Vec<Effect> {
        let label = self.label_of(&id);
        c.remove(&id);
        self.overlay = Overlay::Chooser(c);
        self.say(Level::Info, format!("accepting draft {label}…"));
        let patch = TaskPatch {
            draft: Some(false),
            ..Default::default()
        };
        vec![self.patch_task(
            id,
            crate::domain::task_field::TaskField::Draft.wire(),
            "accepted".into(),
            patch,
        )]
    }

    /// `d` in `:drafts`: the same question as `D` on the task; the answer
    /// returns to the list.
    pub(crate) fn reject_draft_row(&mut self, c: Chooser, id: String) -> Vec<Effect> {
        let label = self.label_of(&id);
        self.overlay = Overlay::Confirm {
            lines: vec![
                format!("Reject draft {label}?"),
                "The draft task is deleted on the service.".into(),
            ],
            on_yes: Confirmed::RejectDraft { id },
            back_to: Some(Box::new(Overlay::Chooser(c))),
            scroll: 0,
        };
        vec![]
    }
}

/// The files of `tasks` not yet in the picker, nor in `skip` (those its
/// task already has); the rows narrow to what is typed.
fn add_files(c: &mut Chooser, tasks: &[Task], skip: &HashSet<String>) {
    for t in tasks {
        for (_, v) in file_entries(t) {
            if let Some(p) = file_row(t, v).filter(|p| !skip.contains(&p.key)) {
                c.add(p);
            }
        }
    }
    c.narrow();
}
