//! Requests to the service, its answers, and the effects the loop carries
//! out: what the reducer emits and what tests assert.

use crate::api::*;

/// How a periodic refresh's request is described: a check made in the
/// background, which accessible mode does not announce (a refresh that
/// changes nothing writes nothing).
pub const CHECKING: &str = "checking page";

/// A request for the worker. The reducer emits these; tests assert them.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiRequest {
    Me,
    ListPage {
        gen: u64,
        query: TaskQuery,
        limit: u32,
        cursor: Option<String>,
    },
    /// One page of the walk asked again (the periodic refresh and rows
    /// coming into view, see `list/refresh.rs`): `page` indexes
    /// `TaskList::pages`, `cursor` is what asked for it the first time.
    RefreshPage {
        gen: u64,
        page: usize,
        query: TaskQuery,
        limit: u32,
        cursor: Option<String>,
    },
    FindByNumber {
        number: i64,
        limit: u32,
    },
    GetTask {
        id: String,
    },
    /// The service's search for the `:link task` picker: one page of
    /// `query`, or `number` looked for as `:open #N` looks for it.
    PickTasks {
        query: TaskQuery,
        number: Option<i64>,
    },
    Patch {
        id: String,
        patch: TaskPatch,
    },
    Delete {
        id: String,
    },
    Subtasks {
        id: String,
    },
    CreateSubtask {
        parent: String,
        title: String,
    },
    Comments {
        id: String,
    },
    Thread {
        id: String,
    },
    AddComment {
        id: String,
        content: String,
        file_ids: Vec<String>,
    },
    ReplyComment {
        id: String,
        comment_id: String,
        content: String,
        file_ids: Vec<String>,
    },
    EditComment {
        id: String,
        comment_id: String,
        content: String,
    },
    ReplyRequester {
        id: String,
        content: String,
        file_ids: Vec<String>,
    },
    AddLinks {
        id: String,
        links: Vec<(LinkType, String)>,
    },
    UpdateLink {
        id: String,
        kind: LinkType,
        item: String,
        update: LinkUpdate,
    },
    RemoveLink {
        id: String,
        kind: LinkType,
        item: String,
    },
    GetSharing {
        id: String,
    },
    /// The sharing state read for a bulk change, undo or redo of it: never
    /// superseded (unlike the Sharing tab's `GetSharing`).
    SharingForEdit {
        id: String,
    },
    PutSharing {
        id: String,
        update: SharingUpdate,
    },
    Attach {
        id: String,
        file_ids: Vec<String>,
    },
    Detach {
        id: String,
        file_id: String,
    },
    Validate {
        path: String,
        layout: serde_json::Value,
    },
    /// The first page of view `view` (an index into `State.views`), for
    /// its count in the switcher; never the list's walk.
    ViewCount {
        view: usize,
        query: TaskQuery,
        limit: u32,
    },
    /// A read of a task near the cursor made before the user asks for it
    /// (see `list/prefetch/`): no slot, so it never aborts (or is aborted by)
    /// the user's own request; its answer fills what is known and touches
    /// the screen only if its task is current and the tab still waits.
    /// Only reads are ever wrapped.
    Prefetch(Box<ApiRequest>),
}

impl ApiRequest {
    /// The task a write changes; `None` for a read (one list of which
    /// requests are writes, for the quit lines, `:recent` and the outbox).
    pub fn written_task(&self) -> Option<&str> {
        use ApiRequest as R;
        match self {
            R::Me
            | R::ListPage { .. }
            | R::RefreshPage { .. }
            | R::FindByNumber { .. }
            | R::GetTask { .. }
            | R::PickTasks { .. }
            | R::Subtasks { .. }
            | R::Comments { .. }
            | R::Thread { .. }
            | R::GetSharing { .. }
            | R::SharingForEdit { .. }
            | R::Validate { .. }
            | R::ViewCount { .. }
            | R::Prefetch(_) => None,
            R::Patch { id, .. }
            | R::Delete { id }
            | R::CreateSubtask { parent: id, .. }
            | R::AddComment { id, .. }
            | R::ReplyComment { id, .. }
            | R::EditComment { id, .. }
            | R::ReplyRequester { id, .. }
            | R::AddLinks { id, .. }
            | R::UpdateLink { id, .. }
            | R::RemoveLink { id, .. }
            | R::PutSharing { id, .. }
            | R::Attach { id, .. }
            | R::Detach { id, .. } => Some(id),
        }
    }

    /// Requests of the same slot supersede each other: the older is aborted.
    pub fn slot(&self) -> Option<&'static str> {
        match self {
            ApiRequest::ListPage { .. } => Some("list"),
            ApiRequest::Subtasks { .. } => Some("subtasks"),
            // A newer picker's search replaces the older one's.
            ApiRequest::PickTasks { .. } => Some("pick"),
            ApiRequest::Comments { .. } => Some("comments"),
            ApiRequest::Thread { .. } => Some("thread"),
            ApiRequest::GetSharing { .. } => Some("sharing"),
            _ => None,
        }
    }
    pub fn describe(&self) -> String {
        match self {
            ApiRequest::Me => "identity".into(),
            ApiRequest::ListPage { .. } => "task list".into(),
            ApiRequest::RefreshPage { page, .. } => {
                format!("{CHECKING} {} of the list", page + 1)
            }
            ApiRequest::FindByNumber { number, .. } => format!("finding #{number}"),
            ApiRequest::GetTask { .. } => "loading task".into(),
            ApiRequest::PickTasks { .. } => "finding tasks to link".into(),
            ApiRequest::Patch { patch, .. } => {
                let keys: Vec<String> = patch
                    .to_json()
                    .as_object()
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                format!("updating {}", keys.join(", "))
            }
            ApiRequest::Delete { .. } => "rejecting draft".into(),
            ApiRequest::Subtasks { .. } => "subtasks".into(),
            ApiRequest::CreateSubtask { .. } => "creating subtask".into(),
            ApiRequest::Comments { .. } => "comments".into(),
            ApiRequest::Thread { .. } => "requester thread".into(),
            ApiRequest::AddComment { .. } => "sending comment".into(),
            ApiRequest::ReplyComment { .. } => "sending reply".into(),
            ApiRequest::EditComment { .. } => "saving comment".into(),
            ApiRequest::ReplyRequester { .. } => "replying to requester".into(),
            ApiRequest::AddLinks { .. } => "adding links".into(),
            ApiRequest::UpdateLink { .. } => "updating link".into(),
            ApiRequest::RemoveLink { .. } => "removing link".into(),
            ApiRequest::GetSharing { .. } | ApiRequest::SharingForEdit { .. } => "sharing".into(),
            ApiRequest::PutSharing { .. } => "saving sharing".into(),
            ApiRequest::Attach { .. } => "attaching files".into(),
            ApiRequest::Detach { .. } => "detaching file".into(),
            ApiRequest::Validate { .. } => "validating layout".into(),
            ApiRequest::ViewCount { .. } => "view count".into(),
            ApiRequest::Prefetch(inner) => format!("prefetch: {}", inner.describe()),
        }
    }
}

/// What the worker answers.
#[derive(Clone, Debug)]
pub enum Reply {
    Me(Identity),
    Page(TaskPage),
    Task(Box<Task>),
    /// `FindByNumber`: the task (`None`: not found), and every row seen
    /// on the way (for the number index).
    Found(Option<Box<Task>>, Vec<crate::store::Numbered>),
    Deleted,
    Items(Vec<TaskItem>),
    Comments(Vec<Comment>),
    Comment(Comment),
    Message(RequesterMessage),
    Messages(Vec<RequesterMessage>),
    Sharing(SharingState),
    Layout(Box<LayoutResult>, serde_json::Value),
}

#[derive(Clone, Debug)]
pub struct ApiResult {
    pub ticket: u64,
    pub req: ApiRequest,
    pub result: Result<Reply, ApiError>,
}

/// Side effects the loop carries out for the reducer.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Api {
        ticket: u64,
        req: Box<ApiRequest>,
    },
    Quit,
    /// Give the terminal back and stop (ctrl-z); `fg` continues and redraws.
    Suspend,
    /// Open `$EDITOR` on `initial`; the result comes back as `editor_done`.
    Editor {
        target: EditorTarget,
        initial: String,
    },
    Copy(String),
    /// Stop a prefetch that left the window around the cursor (its
    /// answer will never come).
    Cancel {
        ticket: u64,
    },
    /// Show messages and the tail of the log file.
    ShowLog,
    /// Load a layout file from disk and validate it.
    ReadLayout {
        path: String,
    },
    /// Write view `name` with `filter` into the config file (`:view
    /// save`); the result comes back as `view_saved`.
    SaveView {
        name: String,
        filter: String,
    },
    /// Run a custom command (captured off the loop, or with the terminal
    /// when interactive); the result comes back as `custom_done`.
    RunCommand(Box<crate::app::custom::run::Job>),
    /// Ask the inbox (`crate::inbox::link`); it answers with the inbox as
    /// it then stands (`on_inbox`).
    Inbox(crate::inbox::InboxCmd),
    /// Ask another profile's inbox (issue 36: its own walker, connection
    /// and store; never the current profile's).
    ProfileInbox(String, crate::inbox::InboxCmd),
    /// Something new needs the user: tell them as the config says (the
    /// bell, the terminal's desktop notification, `notify_command`).
    Notify(crate::inbox::Notice),
    /// … something new in another profile's inbox: told naming it.
    ProfileNotify(String, crate::inbox::Notice),
    /// Another profile reads the same service and user as one shown: its
    /// walker is stopped (issue 42 §11).
    ProfileStop(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum EditorTarget {
    Description { task_id: String },
    AdditionalContext { task_id: String },
    Compose,
}
