//! Application state. Owned by the event loop alone; changed only by the
//! handlers (`dispatch/reducer.rs`, `dispatch/results.rs` and the features'
//! `handle.rs`). `State` composes the features' data; the data it shares
//! with all of them is here: the panes (`panes`), the overlay and the
//! messages (`screen`), requests and effects (`requests`), a one-line input
//! (`input`), the one vocabulary of commands (`command`), who is who
//! (`directory`) and the filter fields as it knows them (`fields`), the
//! composer (`composer`) and its drafts on disk (`drafts`).

use super::keymap::Keymap;
use crate::api::*;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::{Duration, Instant};

pub mod command;
pub mod composer;
pub mod directory;
pub mod drafts;
pub mod fields;
pub mod input;
pub mod panes;
pub mod requests;
pub mod screen;

pub use composer::{Compose, ComposeKind, SendState};
pub use panes::*;
pub use requests::*;
pub use screen::{Confirmed, Focus, Hit, Level, Message, Overlay, Pending, MAX_MESSAGES};

/// The version of a task shown (`State::versions`), for telling a late
/// answer from a newer one (`State::is_stale`, `State::note_version`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShownVersion {
    /// The ticket of the newest answer applied.
    pub ticket: u64,
    /// Its `updated_at`, as the service wrote it.
    pub updated_at: Option<String>,
    /// The first ticket not yet given out when it was applied: a request
    /// from this one on was answered by a service that had this version.
    pub issued: u64,
}

pub struct State {
    pub keymap: Keymap,
    pub demo: bool,
    /// The first start's hint (where help is, how to leave) shows in the
    /// key line until the first key (issue 34 §6).
    pub welcome: bool,
    pub host: String,
    pub me: Option<Identity>,
    pub me_error: Option<String>,
    pub page_size: u32,
    pub refresh_every: Option<Duration>,
    pub last_refresh: Instant,
    pub list: TaskList,
    /// The view the filters came from (an index into `views`); `None`
    /// once the filters were edited away from it.
    pub view: Option<usize>,
    pub filters: TaskQuery,
    pub search: String,
    /// When the search text last changed; the request goes out after a pause.
    pub search_due: Option<Instant>,
    pub focus: Focus,
    /// The current task (see `Detail`). Only user navigation changes it.
    pub detail: Option<Detail>,
    /// History of current tasks left by a jump (back) and by going back
    /// (forward).
    pub back_stack: Vec<String>,
    pub forward_stack: Vec<String>,
    /// The focused pane fills the screen.
    pub zoom: bool,
    /// Text is shown as written instead of rendered Markdown (`m`).
    pub markdown_raw: bool,
    /// Per task: the version shown, as the answers applied left it. An
    /// answer sent earlier, or describing an older version, never
    /// replaces what is shown; one to a request sent after that answer
    /// was applied always does (see `State::is_stale`).
    pub versions: HashMap<String, ShownVersion>,
    /// Reads that decide between a write's answer and a newer-looking
    /// copy shown (`State::write_answered`): by the read's ticket, the
    /// write's answer, shown if the read fails.
    pub deciding: HashMap<u64, Task>,
    /// Detail pane metrics of the last frame: (visible height, content
    /// height), so scrolling stops at the end of the content.
    pub detail_view: (usize, usize),
    pub overlay: Overlay,
    /// The sharing editor whose PUT is in flight (its ticket): a refusal
    /// brings it back with its edits and the reason.
    pub sharing_sent: Option<(u64, Box<super::popups::sharing::SharingEditor>)>,
    /// Requests in flight: ticket -> (what, slot).
    pub inflight: BTreeMap<u64, (String, Option<&'static str>)>,
    pub pending: Vec<Pending>,
    pub messages: VecDeque<Message>,
    pub status: Option<(Level, String, Instant)>,
    /// What the status line's error is about (`list`, a task id, …): a
    /// later success of the same thing clears it.
    pub status_about: Option<String>,
    /// The status line answers a key the user pressed (said while
    /// `keying`): a background answer's words (`say_about`) go to the
    /// messages instead of covering its warning or error — and so can
    /// never clear it.
    pub status_keyed: bool,
    /// A key is being handled (`State::on_key`): what is said now answers
    /// it.
    pub keying: bool,
    pub next_ticket: u64,
    /// People seen so far, for the assignee picker.
    pub directory: crate::app::state::directory::Directory,
    /// Comments created or edited this session, per task (for services
    /// without a comment-listing endpoint).
    pub local_comments: HashMap<String, Vec<Comment>>,
    /// Requester replies sent this session, per task.
    pub replies: HashMap<String, Vec<RequesterMessage>>,
    /// Marked tasks: task actions act on them (`command_targets`).
    pub marks: crate::app::list::marks::Marks,
    /// Bulk edits, undo and redo in progress (bounded concurrency).
    pub engine: super::bulk::Engine,
    /// Every edit made from taskdeck, with its inverse (`z` / `Z`).
    pub history: crate::app::bulk::history::History,
    pub spinner: usize,
    /// Accessible mode: messages stay until the next one (no expiry).
    pub accessible: bool,
    /// Where the last frame drew what a click can land on.
    pub hits: Vec<(ratatui::layout::Rect, Hit)>,
    /// The last click, for a double click: when, and on what.
    pub last_click: Option<(Instant, Hit)>,
    pub list_height: usize,
    pub quit: bool,
    pub drafts: crate::app::state::drafts::Drafts,
    /// Sends in flight from the composer, by ticket: which draft, and
    /// exactly the text sent. When the service confirms, that text (and
    /// only that text) leaves the draft.
    pub sending: HashMap<u64, crate::app::state::drafts::InFlight>,
    /// What is known locally (answers, the store), see `local/cache/`.
    pub local: crate::app::local::cache::Local,
    /// The service cannot be reached (see `local/offline/`).
    pub offline: Option<crate::app::local::offline::Offline>,
    /// Edits waiting for the service, in order.
    pub outbox: Vec<crate::app::local::outbox::OutItem>,
    /// The last place in the queue given to an edit in this run: never
    /// given again (`local/outbox/handle.rs`, `next_seq`).
    pub outbox_seq: i64,
    /// Whose edits may go out now, and another user's that wait.
    pub owner: crate::app::local::outbox::Owner,
    /// Queued edits cancelled in `:outbox` that the store holds, until it
    /// says the cancel is kept (`outbox/keep.rs`).
    pub cancels: Vec<crate::app::local::outbox::Cancel>,
    /// Per queueable write in flight: its task and the version of the
    /// task shown when it was made, the base it is checked against if it
    /// is queued. A write chained behind an earlier one of its task (made
    /// before that one's answer) is moved onto that answer when it comes
    /// (`State::take_edit_base`): our own change never holds it. With
    /// it, the task as the user saw it then: kept with a queued edit, it
    /// is what a restart compares the task read back with.
    #[allow(clippy::type_complexity)]
    pub edit_bases: HashMap<u64, (String, Option<String>, Option<Box<Task>>)>,
    /// The profile in use (shown in the header); `None`: the top level's
    /// connection, the profile named [`State::default_profile`].
    pub profile: Option<String>,
    /// The top level's connection as a profile (`default_profile`,
    /// `default`): `:profile` by that name goes back to it.
    pub default_profile: String,
    /// `:profile NAME`: the loop ends and starts again with that profile.
    pub switch_to: Option<String>,
    /// Saved views: the built-in ones and `[[views]]` (see `views/`).
    pub views: super::views::Views,
    /// Custom commands: `[[commands]]` (see `custom/`).
    pub custom: super::custom::Custom,
    /// Macros: `[[macros]]` without a fault, their keys free (`bulk/macros.rs`).
    pub macros: Vec<crate::domain::macros::Macro>,
    /// The board (`:board`) is shown instead of the list and the detail.
    pub board: Option<crate::app::views::board::Board>,
    /// Reads of the tasks around the cursor before they are asked for.
    pub prefetch: crate::app::list::prefetch::Prefetch,
    /// Whether the list cursor rests or passes rows (see `list/settle/`).
    pub settle: crate::app::list::settle::Settle,
    /// What needs the user (see `inbox/`).
    pub inbox: super::inbox::InboxView,
    /// An edit of a field the list row holds cut, waiting for the whole
    /// task (GET /tasks/{id}, issue 42 §2): the task's id and the edit.
    pub whole_first: Option<(String, AfterWhole)>,
}

/// An edit that waits for the whole task, because the field it changes was
/// cut in the list row (`edit/task.rs`, `State::whole_first`): sending the
/// cut text back would cut the task's real value.
#[derive(Clone, Debug, PartialEq)]
pub enum AfterWhole {
    /// `e` on the title: the palette, holding the whole title.
    EditTitle,
    /// `:title TEXT` typed from the cut title: the palette again, holding
    /// the text as typed (nothing sent), to send once checked.
    Title(String),
    /// `:description` / `:context` (here or in `$EDITOR`).
    Text {
        field: &'static str,
        how: command::TextEdit,
    },
    /// `:tags …`: run as typed, against the whole list of tags.
    Tags(String),
}

impl State {
    pub fn new(
        keymap: Keymap,
        host: String,
        demo: bool,
        page_size: u32,
        refresh_secs: u64,
    ) -> State {
        State {
            keymap,
            demo,
            welcome: false,
            host,
            me: None,
            me_error: None,
            page_size: page_size.clamp(1, 100),
            refresh_every: (refresh_secs > 0).then(|| Duration::from_secs(refresh_secs)),
            last_refresh: crate::clock::instant(),
            list: TaskList::default(),
            view: Some(0),
            filters: TaskQuery::default(),
            search: String::new(),
            search_due: None,
            focus: Focus::List,
            detail: None,
            back_stack: Vec::new(),
            forward_stack: Vec::new(),
            zoom: false,
            markdown_raw: false,
            versions: HashMap::new(),
            detail_view: (0, 0),
            overlay: Overlay::None,
            sharing_sent: None,
            inflight: BTreeMap::new(),
            pending: Vec::new(),
            messages: VecDeque::new(),
            status: None,
            status_about: None,
            status_keyed: false,
            keying: false,
            next_ticket: 1,
            directory: Default::default(),
            local_comments: HashMap::new(),
            replies: HashMap::new(),
            marks: Default::default(),
            engine: Default::default(),
            history: Default::default(),
            spinner: 0,
            accessible: false,
            hits: Vec::new(),
            last_click: None,
            list_height: 20,
            quit: false,
            drafts: crate::app::state::drafts::Drafts::new(None),
            sending: HashMap::new(),
            local: Default::default(),
            offline: None,
            outbox: Vec::new(),
            outbox_seq: 0,
            owner: Default::default(),
            cancels: Vec::new(),
            edit_bases: HashMap::new(),
            profile: None,
            default_profile: crate::config::DEFAULT_PROFILE.into(),
            switch_to: None,
            views: Default::default(),
            custom: Default::default(),
            macros: Vec::new(),
            board: None,
            prefetch: Default::default(),
            settle: Default::default(),
            inbox: Default::default(),
            whole_first: None,
            deciding: HashMap::new(),
        }
    }

    pub fn request(&mut self, req: ApiRequest) -> Effect {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        if let Some(slot) = req.slot() {
            // The worker aborts the older request of this slot: it will
            // never answer, so it is no longer in flight.
            self.inflight.retain(|_, (_, s)| *s != Some(slot));
        }
        self.inflight.insert(ticket, (req.describe(), req.slot()));
        // Writes are remembered with the task as it was, for undo.
        self.note_write(ticket, &req);
        if let Some(id) = req
            .written_task()
            .filter(|_| crate::app::local::outbox::queueable(&req))
        {
            // What the user saw when making it: a queued edit is checked
            // against this, whatever arrives before its answer.
            let saw = self.shown_copy(id);
            let base = saw
                .as_ref()
                .and_then(|t| t.updated_at.as_deref().map(String::from));
            self.edit_bases
                .insert(ticket, (id.to_string(), base, saw.map(Box::new)));
        }
        Effect::Api {
            ticket,
            req: Box::new(req),
        }
    }

    /// An error about `about`: cleared from the status line when the same
    /// thing later succeeds (`cleared`).
    pub fn say_about(&mut self, about: &str, level: Level, text: impl Into<String>) {
        // A background answer (a page, a task read) never covers the
        // notice of something the user did that failed (a refused edit),
        // nor a key's refusal ("nothing to send", a warning said while the
        // key was handled): it goes to the messages (ctrl-l) and the
        // notice stays. Covered, the refusal could be gone before a frame
        // showed it, and the line then cleared by the next success of the
        // same thing (`cleared`): a key that seemed to do nothing.
        let action_failed =
            self.status_about.is_none() && matches!(self.status, Some((Level::Error, _, _)));
        let refused = self.status_keyed
            && !self.keying
            && matches!(self.status, Some((Level::Warn | Level::Error, _, _)));
        if action_failed || refused {
            self.keep_message(level, crate::text::clean(&text.into()));
            return;
        }
        self.say(level, text);
        self.status_about = Some(about.to_string());
    }

    /// `about` succeeded: its error no longer stands in the status line.
    pub fn cleared(&mut self, about: &str) {
        if self.status_about.as_deref() == Some(about) {
            self.status = None;
            self.status_about = None;
        }
    }

    /// The status line says `text` (cleaned), and the messages (`ctrl-l`)
    /// keep it.
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        let text = self.say_passing(level, text);
        self.keep_message(level, text);
    }

    /// The status line says `text`, not kept in the messages: a run's
    /// progress, said again at each step. The one place the status line
    /// is written (`say` and `say_about` come here); returns the text as
    /// shown.
    pub fn say_passing(&mut self, level: Level, text: impl Into<String>) -> String {
        self.status_about = None;
        self.status_keyed = self.keying;
        let text = crate::text::clean(&text.into());
        self.status = Some((level, text.clone(), crate::clock::instant()));
        text
    }

    /// Into the messages (`ctrl-l`), the oldest going past [`MAX_MESSAGES`].
    fn keep_message(&mut self, level: Level, text: String) {
        self.messages.push_back(Message {
            at: crate::clock::timestamp(),
            level,
            text,
        });
        while self.messages.len() > MAX_MESSAGES {
            self.messages.pop_front();
        }
    }

    /// The current task: the one the detail shows, whatever has focus.
    /// Every task action resolves its target here (see `target`).
    pub fn current_task(&self) -> Option<&Task> {
        self.detail.as_ref().and_then(|d| d.task.as_ref())
    }

    /// The current task's id and its label (`#12 Title`), or why there is
    /// none to act on.
    pub fn target(&self) -> Result<(String, String), String> {
        self.current_task()
            .map(|t| (t.id.as_str().to_string(), t.label()))
            .ok_or_else(|| self.no_task_reason().to_string())
    }

    /// Why there is no current task to act on.
    pub fn no_task_reason(&self) -> &'static str {
        match &self.detail {
            Some(d) if d.task.is_none() && d.error.is_none() => "the task is still loading",
            Some(d) if d.task.is_none() => "the task could not be loaded",
            Some(_) => "no task selected",
            None if self.list.loading => "the list is still loading",
            None => "no task selected",
        }
    }

    /// The list cursor is on the current task (else it is drawn inactive).
    pub fn cursor_on_current(&self) -> bool {
        match (&self.detail, self.list.selected_id()) {
            (Some(d), Some(sel)) => d.origin == Origin::List && d.task_id == sel,
            _ => false,
        }
    }

    pub fn my_id(&self) -> Option<&str> {
        self.me.as_ref().map(|m| m.user_id.as_str())
    }

    /// The query the list is walked with: the filters (a quick view sets
    /// them) plus the search text.
    pub fn effective_query(&self) -> TaskQuery {
        let mut q = self.filters.clone();
        if !self.search.trim().is_empty() {
            q.query = Some(self.search.trim().to_string());
        }
        q
    }

    /// Set the filters (form or `:filter`): the view's name stays while the
    /// filters still hold what the view stands for.
    pub fn set_filters(&mut self, q: TaskQuery) {
        self.filters = q;
        self.rename_view_for_filters();
    }

    pub fn pending_for(&self, task_id: &str, field: &str) -> Option<&Pending> {
        self.pending
            .iter()
            .rev()
            .find(|p| p.task_id == task_id && p.field == field)
    }

    /// The current task's comments as a tree: (depth, comment), replies
    /// under their parent, oldest first. Built once per answer
    /// (`rebuild_comment_tree`), not on every frame or key.
    pub fn comment_rows(&self) -> Vec<(usize, &Comment)> {
        self.detail
            .as_ref()
            .map(|d| d.tree.iter().map(|(depth, c)| (*depth, c)).collect())
            .unwrap_or_default()
    }

    /// Build the comment tree of the current task from what the service
    /// listed and what this session created or edited (a service without
    /// a listing endpoint still shows them).
    pub fn rebuild_comment_tree(&mut self) {
        let Some(d) = &self.detail else { return };
        let mut all: Vec<&Comment> = match &d.comments {
            Load::Loaded(v) => v.iter().collect(),
            _ => vec![],
        };
        if let Some(local) = self.local_comments.get(&d.task_id) {
            for c in local {
                if let Some(slot) = all.iter_mut().find(|x| x.id == c.id) {
                    *slot = c;
                } else {
                    all.push(c);
                }
            }
        }
        let tree: Vec<(usize, Comment)> = comment_tree(all)
            .into_iter()
            .map(|(depth, c)| (depth, c.clone()))
            .collect();
        if let Some(d) = &mut self.detail {
            // Opened from the inbox at a comment: the cursor goes to it.
            if let Some(at) = d
                .focus_comment
                .as_ref()
                .and_then(|id| tree.iter().position(|(_, c)| c.id == *id))
            {
                d.cursor = at;
                d.focus_comment = None;
            }
            d.tree = tree;
        }
    }

    /// Remember the people and teams of a task (the directory).
    pub fn learn_people(&mut self, t: &Task) {
        self.directory.learn_task(t);
    }
}

/// Comments as a tree: (depth, comment), replies under their parent, oldest
/// first; whatever a broken parent chain (a loop, or deeper than 64) leaves
/// out is still shown, at the top level.
fn comment_tree(mut all: Vec<&Comment>) -> Vec<(usize, &Comment)> {
    use std::collections::{HashMap, HashSet};
    all.sort_by(|a, b| crate::api::chronological(a.created_at.as_deref(), b.created_at.as_deref()));
    let ids: HashSet<&str> = all.iter().map(|c| c.id.as_str()).collect();
    // Children by parent, in order: one pass, not one scan per node.
    let mut children: HashMap<Option<&str>, Vec<&Comment>> = HashMap::new();
    for c in &all {
        let p = c.parent_comment_id.as_deref().filter(|p| ids.contains(p));
        children.entry(p).or_default().push(c);
    }
    let mut out = Vec::with_capacity(all.len());
    let mut placed: HashSet<&str> = HashSet::new();
    // Depth-first with an explicit stack: no recursion limit to hit.
    let mut stack: Vec<(usize, &Comment)> = children
        .get(&None)
        .map(|v| v.iter().rev().map(|c| (0, *c)).collect())
        .unwrap_or_default();
    while let Some((depth, c)) = stack.pop() {
        if !placed.insert(c.id.as_str()) {
            continue;
        }
        out.push((depth, c));
        if depth < 64 {
            if let Some(kids) = children.get(&Some(c.id.as_str())) {
                stack.extend(kids.iter().rev().map(|k| (depth + 1, *k)));
            }
        }
    }
    if out.len() < all.len() {
        let missing: Vec<&Comment> = all
            .iter()
            .copied()
            .filter(|c| !placed.contains(c.id.as_str()))
            .collect();
        out.extend(missing.into_iter().map(|c| (0, c)));
    }
    out
}
