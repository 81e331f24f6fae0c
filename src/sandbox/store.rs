//! In-memory data model of the sandbox, scoping and JSON rendering.

use std::collections::{BTreeMap, HashMap};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jiff::Timestamp;
use serde_json::{json, Map, Value};
use uuid::Uuid;

use super::index::ListKey;
use crate::sandbox::odd::quirks;

pub(crate) const STATUSES: [&str; 4] = [
    "not_started",
    "in_progress",
    "waiting_on_external",
    "completed",
];
pub(crate) const PRIORITIES: [&str; 5] = ["urgent", "high", "medium", "low", "no_priority"];
pub(crate) const LINK_TYPES: [&str; 4] = ["chat", "review", "report", "task"];
pub(crate) const LINK_ROLES: [&str; 3] = ["reference", "subject", "output"];

pub(crate) fn priority_rank(p: &str) -> u8 {
    PRIORITIES.iter().position(|x| *x == p).unwrap_or(5) as u8
}

pub(crate) fn ts(d: Timestamp) -> String {
    crate::api::to_utc_seconds(d)
}

/// Parses a date (`2026-12-01`, start of that day in UTC) or a date-time
/// (RFC 3339, or without offset meaning UTC).
pub(crate) fn parse_ts(s: &str) -> Option<Timestamp> {
    // The client's reading, after trimming.
    crate::api::parse_timestamp(s.trim())
}

/// An error answer: `{"error": msg, "status": N, ...extra}` (or an empty body).
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub msg: String,
    pub extra: Option<(&'static str, Value)>,
    pub empty: bool,
}

impl ApiError {
    pub fn new(status: StatusCode, msg: impl Into<String>) -> Self {
        ApiError {
            status,
            msg: msg.into(),
            extra: None,
            empty: false,
        }
    }
    pub fn bad(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, msg)
    }
    pub fn not_found(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, msg)
    }
    pub fn empty_404() -> Self {
        ApiError {
            empty: true,
            ..Self::not_found("")
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.empty {
            return self.status.into_response();
        }
        let mut body = json!({"error": self.msg, "status": self.status.as_u16()});
        if let Some((k, v)) = self.extra {
            body[k] = v;
        }
        (self.status, axum::Json(body)).into_response()
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

pub(crate) struct Org {
    pub id: Uuid,
    pub name: String,
    pub requester_thread: bool,
    pub visual_builder: bool,
}

pub(crate) struct User {
    pub id: Uuid,
    pub org: usize,
    pub name: String,
    pub email: String,
}

pub(crate) struct Team {
    pub id: Uuid,
    pub org: usize,
    pub name: String,
    pub members: Vec<usize>,
}

/// A chat, review or report that can be linked (seeded only).
pub(crate) struct Item {
    pub id: Uuid,
    pub org: usize,
    pub kind: &'static str,
    pub display_name: String,
    pub check_ids: Vec<String>,
}

pub(crate) struct FileObj {
    pub id: Uuid,
    pub org: usize,
    pub name: String,
    pub size_bytes: u64,
    pub content_type: String,
}

/// Agents and matters: `{id, name, ...}` records of an organisation.
pub(crate) struct Named {
    pub id: Uuid,
    pub org: usize,
    pub name: String,
    pub extra: String,
}

#[derive(Clone)]
pub(crate) struct Involved {
    pub user: usize,
    pub role: String,
    pub access: String,
}

#[derive(Clone)]
pub(crate) struct Link {
    pub kind: String,
    pub id: Uuid,
    pub display_name: String,
    pub role: String,
    pub context: Option<Value>,
}

#[derive(Clone)]
pub(crate) struct Comment {
    pub id: Uuid,
    pub author: usize,
    pub content: String,
    pub parent: Option<Uuid>,
    pub mentioned: Vec<usize>,
    pub file_ids: Vec<Uuid>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

#[derive(Clone)]
pub(crate) struct Message {
    pub id: Uuid,
    pub direction: &'static str,
    pub content: String,
    pub file_ids: Vec<Uuid>,
    pub sender: Option<usize>,
    pub sender_display_name: String,
    pub delivery_status: &'static str,
    pub created_at: Timestamp,
}

#[derive(Clone, Default)]
pub(crate) struct Task {
    pub id: Uuid,
    pub number: u64,
    pub org: usize,
    pub title: String,
    pub description: Option<String>,
    pub additional_context: Option<String>,
    pub status: String,
    pub priority: String,
    pub team: usize,
    pub creator: usize,
    pub assignee: Option<usize>,
    pub agent: Option<usize>,
    pub assigned_team: Option<usize>,
    pub matter: Option<usize>,
    pub complete_by: Option<Timestamp>,
    pub tags: Vec<String>,
    pub source_channel: String,
    pub visibility: String,
    pub archived: bool,
    pub draft: bool,
    pub involved: Vec<Involved>,
    pub shared_teams: Vec<(usize, String)>,
    pub links: Vec<Link>,
    pub input_files: Vec<usize>,
    pub output_files: Vec<usize>,
    pub parent: Option<Uuid>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub comments: Vec<Comment>,
    pub thread: Vec<Message>,
    /// 0 = a normal task; otherwise which forward-compatibility quirk to apply when rendering.
    pub quirk: u8,
    pub deleted: bool,
    /// Lower-cased title, description, additional context and comment text.
    pub search: String,
}

impl Task {
    /// Where the task sorts in the list (`index.rs`).
    pub fn list_key(&self) -> ListKey {
        ListKey::new(
            priority_rank(&self.priority),
            self.complete_by,
            self.created_at,
            self.id,
        )
    }

    pub fn reindex(&mut self) {
        let mut s = self.title.to_lowercase();
        for part in [&self.description, &self.additional_context]
            .into_iter()
            .flatten()
        {
            s.push('\n');
            s.push_str(&part.to_lowercase());
        }
        for c in &self.comments {
            s.push('\n');
            s.push_str(&c.content.to_lowercase());
        }
        self.search = s;
    }

    pub fn is_involved(&self, user: usize) -> bool {
        self.creator == user
            || self.assignee == Some(user)
            || self.involved.iter().any(|i| i.user == user)
    }

    /// Makes the `assignee` entry of involved_people follow `assignee`.
    pub fn sync_assignee(&mut self) {
        let creator = self.creator;
        self.involved.retain_mut(|i| {
            if i.role == "assignee" {
                if i.user == creator {
                    i.role = "creator".into();
                } else {
                    return false;
                }
            }
            true
        });
        if let Some(a) = self.assignee {
            if let Some(e) = self.involved.iter_mut().find(|i| i.user == a) {
                e.role = "assignee".into();
                e.access = "write".into();
            } else {
                self.involved.insert(
                    0,
                    Involved {
                        user: a,
                        role: "assignee".into(),
                        access: "write".into(),
                    },
                );
            }
        }
    }
}

#[derive(Default)]
pub(crate) struct Store {
    pub orgs: Vec<Org>,
    pub users: Vec<User>,
    pub teams: Vec<Team>,
    pub items: Vec<Item>,
    pub files: Vec<FileObj>,
    pub agents: Vec<Named>,
    pub matters: Vec<Named>,
    pub tasks: Vec<Task>,
    pub index: HashMap<Uuid, usize>,
    /// Per organisation, its live tasks in list order (`index.rs`).
    pub lists: HashMap<usize, BTreeMap<ListKey, usize>>,
    /// Parent id -> the tasks created under it (a subtask listing reads
    /// these, not every task; entries are checked on use).
    pub children: HashMap<Uuid, Vec<usize>>,
    pub next_number: u64,
}

impl Store {
    pub fn task_index(&self, id: &Uuid) -> Option<usize> {
        self.index
            .get(id)
            .copied()
            .filter(|&i| !self.tasks[i].deleted)
    }

    pub fn user_teams(&self, user: usize) -> impl Iterator<Item = usize> + '_ {
        self.teams
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.members.contains(&user))
            .map(|(i, _)| i)
    }

    /// Whether `user` may see task `t` (archived and draft tasks included).
    pub fn visible(&self, t: &Task, user: usize) -> bool {
        if t.deleted || t.org != self.users[user].org {
            return false;
        }
        t.visibility == "customer"
            || t.is_involved(user)
            || t.shared_teams
                .iter()
                .any(|(team, _)| self.teams[*team].members.contains(&user))
    }

    /// The task `id` if `user` may see it, else 404.
    pub fn visible_task(&self, id: &str, user: usize) -> ApiResult<usize> {
        let nf = || ApiError::not_found(format!("task {id} not found"));
        let uuid = Uuid::parse_str(id).map_err(|_| nf())?;
        let idx = self.task_index(&uuid).ok_or_else(nf)?;
        if self.visible(&self.tasks[idx], user) {
            Ok(idx)
        } else {
            Err(nf())
        }
    }

    pub fn person(&self, u: usize) -> Value {
        let u = &self.users[u];
        json!({"id": u.id, "name": u.name, "email": u.email})
    }

    pub fn user_by_id(&self, org: usize, id: &Uuid) -> Option<usize> {
        self.users.iter().position(|u| u.id == *id && u.org == org)
    }

    pub fn file_json(&self, f: usize) -> Value {
        let f = &self.files[f];
        json!({"id": f.id, "name": f.name, "size_bytes": f.size_bytes, "content_type": f.content_type})
    }

    pub fn link_json(l: &Link) -> Value {
        json!({
            "type": l.kind,
            "id": l.id,
            "display_name": l.display_name,
            "role": l.role,
            "context": l.context.clone().unwrap_or(Value::Null),
            "is_output": l.role == "output",
        })
    }

    pub fn involved_json(&self, i: &Involved) -> Value {
        let u = &self.users[i.user];
        json!({"id": u.id, "name": u.name, "email": u.email, "role": i.role, "access_level": i.access})
    }

    pub fn shared_team_json(&self, (team, access): &(usize, String)) -> Value {
        let t = &self.teams[*team];
        json!({"id": t.id, "name": t.name, "access_level": access})
    }

    /// Renders a task. `single` adds `source_channel` (single-task responses).
    pub fn render_task(&self, idx: usize, single: bool) -> Value {
        let t = &self.tasks[idx];
        let team = &self.teams[t.team];
        let mut m = Map::new();
        m.insert("id".into(), json!(t.id));
        m.insert("display_id".into(), json!(format!("#{}", t.number)));
        m.insert("task_number".into(), json!(t.number));
        m.insert("title".into(), json!(t.title));
        m.insert("description".into(), json!(t.description));
        m.insert("additional_context".into(), json!(t.additional_context));
        m.insert("status".into(), json!(t.status));
        m.insert("priority".into(), json!(t.priority));
        m.insert("team".into(), json!({"id": team.id, "name": team.name}));
        m.insert("creator".into(), self.person(t.creator));
        m.insert(
            "assigned_to".into(),
            t.assignee.map(|a| self.person(a)).unwrap_or(Value::Null),
        );
        m.insert(
            "assigned_agent".into(),
            t.agent
                .map(|a| {
                    let a = &self.agents[a];
                    json!({"id": a.id, "name": a.name, "kind": a.extra})
                })
                .unwrap_or(Value::Null),
        );
        m.insert(
            "assigned_team".into(),
            t.assigned_team
                .map(|a| json!({"id": self.teams[a].id, "name": self.teams[a].name}))
                .unwrap_or(Value::Null),
        );
        m.insert(
            "matter".into(),
            t.matter
                .map(|a| {
                    let a = &self.matters[a];
                    json!({"id": a.id, "name": a.name, "reference": a.extra})
                })
                .unwrap_or(Value::Null),
        );
        m.insert("complete_by".into(), json!(t.complete_by.map(ts)));
        m.insert("tags".into(), json!(t.tags));
        if single {
            m.insert("source_channel".into(), json!(t.source_channel));
        }
        m.insert("visibility".into(), json!(t.visibility));
        m.insert("archived".into(), json!(t.archived));
        m.insert("draft".into(), json!(t.draft));
        m.insert(
            "involved_people".into(),
            Value::Array(t.involved.iter().map(|i| self.involved_json(i)).collect()),
        );
        m.insert(
            "shared_teams".into(),
            Value::Array(
                t.shared_teams
                    .iter()
                    .map(|s| self.shared_team_json(s))
                    .collect(),
            ),
        );
        m.insert(
            "linked_items".into(),
            Value::Array(t.links.iter().map(Self::link_json).collect()),
        );
        m.insert(
            "input_files".into(),
            Value::Array(t.input_files.iter().map(|f| self.file_json(*f)).collect()),
        );
        m.insert(
            "output_files".into(),
            Value::Array(t.output_files.iter().map(|f| self.file_json(*f)).collect()),
        );
        m.insert("parent_task_id".into(), json!(t.parent));
        m.insert("created_at".into(), json!(ts(t.created_at)));
        m.insert("updated_at".into(), json!(ts(t.updated_at)));
        let mut v = Value::Object(m);
        if t.quirk != 0 {
            quirks::apply_quirk(t.quirk, &mut v);
        }
        v
    }

    pub fn comment_json(&self, task: usize, c: &Comment) -> Value {
        json!({
            "id": c.id,
            "task_id": self.tasks[task].id,
            "content": c.content,
            "author": self.person(c.author),
            "parent_comment_id": c.parent,
            "mentioned_users": c.mentioned.iter().map(|u| self.person(*u)).collect::<Vec<_>>(),
            "file_ids": c.file_ids,
            "created_at": ts(c.created_at),
            "updated_at": ts(c.updated_at),
        })
    }

    pub fn message_json(&self, task: usize, m: &Message) -> Value {
        json!({
            "id": m.id,
            "task_id": self.tasks[task].id,
            "direction": m.direction,
            "content": m.content,
            "file_ids": m.file_ids,
            "sender": m.sender.map(|u| self.person(u)).unwrap_or(Value::Null),
            "sender_agent": Value::Null,
            "sender_display_name": m.sender_display_name,
            "delivery_status": m.delivery_status,
            "created_at": ts(m.created_at),
        })
    }

    pub fn sharing_json(&self, idx: usize) -> Value {
        let t = &self.tasks[idx];
        json!({
            "visibility": t.visibility,
            "users": t.involved.iter().map(|i| self.involved_json(i)).collect::<Vec<_>>(),
            "teams": t.shared_teams.iter().map(|s| self.shared_team_json(s)).collect::<Vec<_>>(),
        })
    }

    pub fn add_task(&mut self, mut t: Task) -> usize {
        t.reindex();
        let idx = self.tasks.len();
        self.index.insert(t.id, idx);
        if let Some(p) = t.parent {
            self.children.entry(p).or_default().push(idx);
        }
        self.tasks.push(t);
        self.list_insert(idx);
        idx
    }
}

/// The list index (`index.rs`): kept true by every change of a task.
impl Store {
    /// The organisation's live tasks in list order: key → task index.
    pub fn org_list(&self, org: usize) -> Option<&BTreeMap<ListKey, usize>> {
        self.lists.get(&org)
    }

    pub(crate) fn list_insert(&mut self, idx: usize) {
        let t = &self.tasks[idx];
        if !t.deleted {
            self.lists
                .entry(t.org)
                .or_default()
                .insert(t.list_key(), idx);
        }
    }

    fn list_remove(&mut self, idx: usize) {
        let t = &self.tasks[idx];
        if let Some(l) = self.lists.get_mut(&t.org) {
            l.remove(&t.list_key());
        }
    }

    /// Replace task `idx` (an edit), moving it in its list if its place
    /// changed.
    pub fn set_task(&mut self, idx: usize, t: Task) {
        let moved = self.tasks[idx].list_key() != t.list_key();
        if moved {
            self.list_remove(idx);
        }
        self.tasks[idx] = t;
        if moved {
            self.list_insert(idx);
        }
    }

    /// Delete task `idx`: it leaves every list.
    pub fn delete_task(&mut self, idx: usize) {
        self.list_remove(idx);
        self.tasks[idx].deleted = true;
    }
}
