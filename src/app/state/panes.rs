//! What the panes show: the list walk, the current task and its tabs
//! (views are in `app/views/`).

use crate::api::*;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Comments,
    Requester,
    Links,
    Sharing,
    Files,
    Subtasks,
}

impl Tab {
    pub const ALL: [Tab; 7] = [
        Tab::Overview,
        Tab::Comments,
        Tab::Requester,
        Tab::Links,
        Tab::Sharing,
        Tab::Files,
        Tab::Subtasks,
    ];
    /// Short names for narrow panes.
    pub fn short(self) -> &'static str {
        match self {
            Tab::Overview => "Info",
            Tab::Comments => "Cmts",
            Tab::Requester => "Reqr",
            Tab::Links => "Links",
            Tab::Sharing => "Share",
            Tab::Files => "Files",
            Tab::Subtasks => "Subs",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Comments => "Comments",
            Tab::Requester => "Requester",
            Tab::Links => "Links",
            Tab::Sharing => "Sharing",
            Tab::Files => "Files",
            Tab::Subtasks => "Subtasks",
        }
    }
}

/// Data loaded for the open task, by tab.
#[derive(Clone, Debug, PartialEq)]
pub enum Load<T> {
    NotLoaded,
    Loading,
    Loaded(T),
    Failed(String),
}

/// How the current task became current.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// It is the row under the list cursor.
    List,
    /// Opened from elsewhere (`:open`, a link, a subtask, history); the
    /// list cursor is shown inactive until the user moves it.
    Elsewhere,
}

/// The current task: the one every task action acts on, and the one the
/// detail pane shows.
#[derive(Clone, Debug)]
pub struct Detail {
    pub task_id: String,
    pub origin: Origin,
    pub task: Option<Task>,
    pub error: Option<String>,
    pub tab: Tab,
    /// Selected row within the tab (comments, links, files, subtasks).
    pub cursor: usize,
    pub scroll: u16,
    pub comments: Load<Vec<Comment>>,
    /// True when the service has no comment-listing endpoint.
    pub comments_local_only: bool,
    pub subtasks: Load<Vec<TaskItem>>,
    pub sharing: Load<SharingState>,
    /// The requester thread, when the service can list it.
    pub thread: Load<Vec<RequesterMessage>>,
    pub thread_unavailable: bool,
    /// `S` was pressed before sharing loaded: open the editor when it does.
    pub edit_sharing_when_loaded: bool,
    /// The comment tree (depth, comment), built once per answer.
    pub tree: Vec<(usize, Comment)>,
    /// Shown values that came from what was known (memory, the store)
    /// and were not asked of the service yet in this look: `task`,
    /// `comments`, `thread`, `subtasks`, `sharing`.
    pub stale: std::collections::BTreeSet<&'static str>,
    /// When what is shown from the store was fetched (seconds since the
    /// epoch); `None` once the service answered.
    pub cached_at: Option<i64>,
    /// What the user had seen of this task when it became current: new
    /// comments and messages are marked against it.
    pub seen_before: Option<crate::store::Seen>,
    /// Opened by `:open #N` through the number index: checked against the
    /// service's answer; its label and title head the detail meanwhile.
    pub by_number: Option<crate::app::list::numbers::ByNumber>,
    /// Became current while the cursor passed rows: shown from what is
    /// known, not read, not opened (recent) nor seen until the cursor
    /// rests on it (`list/settle/`).
    pub passing: bool,
    /// Opened from the inbox at this comment: the cursor goes to it once
    /// the comments are there.
    pub focus_comment: Option<String>,
    /// Opened from the inbox at a changed field (the task's own field
    /// name, `complete_by`…): the overview marks it.
    pub focus_field: Option<String>,
}

impl Detail {
    pub fn new(task_id: String, task: Option<Task>) -> Self {
        Detail {
            task_id,
            origin: Origin::Elsewhere,
            task,
            error: None,
            tab: Tab::Overview,
            cursor: 0,
            scroll: 0,
            comments: Load::NotLoaded,
            comments_local_only: false,
            subtasks: Load::NotLoaded,
            sharing: Load::NotLoaded,
            thread: Load::NotLoaded,
            thread_unavailable: false,
            edit_sharing_when_loaded: false,
            tree: Vec::new(),
            stale: Default::default(),
            cached_at: None,
            seen_before: None,
            by_number: None,
            passing: false,
            focus_comment: None,
            focus_field: None,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct TaskList {
    pub items: Vec<TaskItem>,
    pub selected: usize,
    pub offset: usize,
    pub cursor: Option<String>,
    pub end_reached: bool,
    pub loading: bool,
    /// Generation of the walk; results of an older walk are dropped.
    pub gen: u64,
    /// `G` was pressed before the end was loaded: follow the new pages down.
    pub to_bottom: bool,
    /// While refreshing: the task to keep selected once its page arrives.
    pub keep_selected: Option<String>,
    /// While refreshing: keep walking until this many rows are loaded.
    pub refill_to: usize,
    /// id -> updated_at before the last refresh, to mark changed rows.
    pub previous: HashMap<String, Option<String>>,
    pub changed: std::collections::HashSet<String>,
    pub error: Option<String>,
    /// Rows loaded in the current walk are replacing the old ones.
    pub replacing: bool,
    /// Cursors this walk has followed: a service that repeats one would
    /// make the walk endless.
    pub seen_cursors: std::collections::HashSet<String>,
    /// A new walk (view, filter, search): the first row becomes current
    /// when it arrives (unless a task opened from elsewhere is current).
    pub follow_on_load: bool,
    /// A refresh keeps the rows it replaces until its first page comes: if
    /// it fails, the old walk goes on from its cursor (`cursor`,
    /// `end_reached`).
    pub before_refresh: Option<(Option<String>, bool)>,
    /// The rows came from the store, saved then (seconds since the epoch),
    /// until the service's first page replaces them.
    pub cached_at: Option<i64>,
    /// The rows are the store's matches for the search being typed.
    pub local_search: bool,
    /// Row id -> where the store's search found it, when not in what the
    /// row shows (`comment by Bob: "…the zebra memo…"`); for the search
    /// it was found with (`found_for`).
    pub found: HashMap<String, String>,
    pub found_for: String,
    /// The rows are those of the list on screen when `/` opened (this
    /// many) that match the search being typed, until the service's
    /// first page replaces them (`popups/search.rs`).
    pub narrowed: Option<usize>,
    /// The pages of this walk as the service answered them: the cursor
    /// that asks for each again and when it was last answered (the
    /// periodic refresh asks again only the pages in view and the first,
    /// see `list/refresh.rs`).
    pub pages: Vec<PageMark>,
    /// Row id -> the page (index in `pages`) whose last answer listed it.
    /// A row without one was not listed by its page's last answer: it
    /// stays, marked not recently checked, until `r` walks the list anew.
    /// Keyed by the row's own `Id` (a shared pointer, 8 bytes), not a
    /// second copy of every id.
    pub page_of: HashMap<crate::api::Id, usize>,
    /// Row id -> its place in `items`, so that finding a row does not walk
    /// the list (see [`TaskList::position`]).
    pub rows: RowIndex,
}

/// Where each row of `TaskList::items` is, by id. The code that changes
/// `items` keeps it ([`TaskList::reindex`], [`TaskList::extend_rows`]); a
/// list it does not cover (rows pushed by a test) is searched row by row.
/// It holds a 64-bit hash of each id, not the id (16 bytes a row, not a
/// second copy of every id); the row an entry names is checked on use, so
/// two ids with one hash cost a search, never a wrong answer.
#[derive(Clone, Debug, Default)]
pub struct RowIndex {
    at: HashMap<u64, usize>,
    hasher: std::hash::RandomState,
    /// How many rows it covers.
    len: usize,
}

impl RowIndex {
    fn key(&self, id: &str) -> u64 {
        use std::hash::BuildHasher;
        self.hasher.hash_one(id)
    }
}

/// One page of the list's walk (see `TaskList::pages`).
#[derive(Clone, Debug)]
pub struct PageMark {
    pub cursor: Option<String>,
    pub checked: std::time::Instant,
    /// Asked again, the answer not in yet.
    pub asking: bool,
}

impl TaskList {
    pub fn selected_id(&self) -> Option<&str> {
        self.items.get(self.selected).and_then(|i| i.id())
    }
    /// The row of task `id`: by the index when it covers the list (an
    /// entry it holds is checked), else row by row.
    pub fn position(&self, id: &str) -> Option<usize> {
        if self.rows.len == self.items.len() {
            match self.rows.at.get(&self.rows.key(id)) {
                None => return None,
                Some(&i) if self.items.get(i).and_then(TaskItem::id) == Some(id) => return Some(i),
                Some(_) => {}
            }
        }
        self.items.iter().position(|i| i.id() == Some(id))
    }

    /// Index every row again (after `items` was replaced or a row left).
    pub fn reindex(&mut self) {
        self.rows.at.clear();
        for (i, item) in self.items.iter().enumerate() {
            if let Some(id) = item.id() {
                let k = self.rows.key(id);
                self.rows.at.entry(k).or_insert(i);
            }
        }
        self.rows.len = self.items.len();
    }

    /// Every row is where the index says (tests).
    pub fn index_exact(&self) -> bool {
        self.index_covers()
            && self.items.iter().enumerate().all(|(i, item)| {
                item.id()
                    .is_none_or(|id| self.rows.at.get(&self.rows.key(id)) == Some(&i))
            })
    }

    /// The index covers every row (see [`TaskList::reindex_range`]).
    pub fn index_covers(&self) -> bool {
        self.rows.len == self.items.len()
    }

    /// Index the rows in `range` again after they changed places, the
    /// index covering the list before the change and no row having left it
    /// (an entry of a row that did is checked on use).
    pub fn reindex_range(&mut self, range: std::ops::Range<usize>) {
        self.rows.len = self.items.len();
        for i in range {
            if let Some(id) = self.items.get(i).and_then(TaskItem::id) {
                let k = self.rows.key(id);
                self.rows.at.insert(k, i);
            }
        }
    }

    /// Append rows, indexing only them.
    pub fn extend_rows(&mut self, rows: Vec<TaskItem>) {
        if self.rows.len != self.items.len() {
            self.items.extend(rows);
            return self.reindex();
        }
        for item in rows {
            if let Some(id) = item.id() {
                let k = self.rows.key(id);
                self.rows.at.entry(k).or_insert(self.items.len());
            }
            self.items.push(item);
        }
        self.rows.len = self.items.len();
    }

    /// The first row shown in `rows` lines so that the cursor is in view;
    /// at the last row, also the line under it (loading…, an error, the
    /// end of the list). The list pane draws with it; the refresh uses it
    /// to know which pages are in view.
    pub fn first_shown(&self, rows: usize) -> usize {
        let must_see = if self.selected + 1 >= self.items.len() {
            self.selected + 1
        } else {
            self.selected
        };
        let mut offset = self.offset;
        if self.selected < offset {
            offset = self.selected;
        } else if must_see >= offset + rows {
            offset = must_see + 1 - rows;
        }
        offset.min((self.items.len() + 1).saturating_sub(rows))
    }
}

/// The live filter's box (`/`, `popups/search.rs`).
pub struct SearchBox {
    pub input: super::input::LineInput,
    /// The list when `/` opened: each key narrows its rows; `esc` puts it
    /// back.
    pub before: Box<TaskList>,
    /// The search then (`esc` restores it too).
    pub search_before: String,
    /// The current task then, when the list cursor was on it: `esc`
    /// makes it current again if an answer moved the cursor meanwhile.
    pub task_before: Option<String>,
    /// `before`'s rows folded (`domain::narrow::fold_rows`), once when `/`
    /// opens: each key narrows by them, folding only what is typed.
    pub folded: Vec<Option<crate::domain::narrow::Folded>>,
}

impl SearchBox {
    /// A box over `list` with `text` typed (tests draw one this way).
    pub fn over(list: &TaskList, text: &str) -> SearchBox {
        SearchBox {
            input: super::input::LineInput::with(text),
            before: Box::new(list.clone()),
            search_before: text.to_string(),
            task_before: None,
            folded: crate::domain::narrow::fold_rows(&list.items),
        }
    }
}
