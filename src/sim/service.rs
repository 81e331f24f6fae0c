//! The model service: the service's tasks, comments and requester threads
//! in memory, answering the client's requests (`ApiRequest`) synchronously
//! with what the real worker would give the reducer (`Reply` or
//! `ApiError`). It records every write it applies and as whom, which is
//! what the simulator's invariants are checked against. Only the rules the
//! invariants need are modelled: a listing ignores filters, links, files
//! and sharing are accepted and change nothing shown.

use crate::api::{
    ApiError, Comment, Identity, RequesterMessage, SharingState, Task, TaskItem, TaskPage,
};
use crate::app::state::{ApiRequest, Reply};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The user the client's key belongs to, and the one who edits beside.
pub const ME: &str = "u-me";
pub const OTHER: &str = "u-eve";

/// Text the service sends that must never reach the terminal as is.
pub const HOSTILE: &[&str] = &[
    "Fix \u{1b}[2J\u{1b}[31mlogin\u{1b}[0m now",
    "\u{202e}gnp.exe invoice",
    "bell\u{7}\u{7} and C1 \u{9b}31m here",
    "zero\u{200b}width\u{feff} title",
    "tab\tand\u{2028}separator",
    "OSC \u{1b}]0;pwned\u{7} title \u{1b}]52;c;ZXZpbA==\u{7}",
    "DEL\u{7f} and NUL\u{0} and \u{1b}P dcs \u{1b}\\",
    "isolate \u{2066}hidden\u{2069} and \u{200f}mark",
];

/// What another user did that the user's inbox must show once (a
/// mention, a reply to the user's comment, the task assigned to them).
#[derive(Clone, Debug, PartialEq)]
pub struct Act {
    pub task: String,
    /// `comment:<id>` for a comment; `assigned` for an assignment.
    pub key: String,
    /// The user it is for (the key's user when it happened).
    pub user: String,
}

/// One write the service applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The client's ticket for it (0: not the client's).
    pub ticket: u64,
    /// Whom it was applied as (the key's user).
    pub user: String,
    pub task: String,
    pub what: String,
}

pub struct Service {
    tasks: Vec<Value>,
    comments: BTreeMap<String, Vec<Value>>,
    thread: BTreeMap<String, Vec<Value>>,
    /// Seconds past the model epoch: every write moves it on.
    clock: i64,
    next: u64,
    hostile: bool,
    /// The requester thread is turned off.
    pub thread_off: bool,
    /// Whom the client's key acts as.
    pub key_owner: String,
    pub applied: Vec<Applied>,
    /// What others did for the user's inbox, newest last (`Act`).
    pub acts: Vec<Act>,
    /// Each task's assignee changes so far (by anyone): an assignment's
    /// item is looked for only while nothing changed the assignee since.
    pub assignee_moves: BTreeMap<String, u64>,
    /// Each task's changes by the other users so far (a field, an
    /// archive; not a comment): an undo's check that waits for a read of
    /// the task lets it go when another changed it meanwhile.
    pub others_changes: BTreeMap<String, u64>,
    /// How many times its clock was set back.
    pub set_backs: u64,
    /// The numbers of the tasks made so far (`Service::number`).
    made: std::collections::BTreeSet<u64>,
}

/// 2026-11-01T10:00:00Z.
pub const EPOCH: i64 = 1_793_527_200;

/// The tasks not archived that others keep the service to (`Service::other`).
const LIVE: usize = 12;

pub fn tid(n: u64) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

fn person(id: &str) -> Value {
    match id {
        ME => json!({"id": ME, "name": "Me Myself", "email": "me@acme.test"}),
        OTHER => json!({"id": OTHER, "name": "Eve \u{1b}[5mOther", "email": "eve@acme.test"}),
        _ => json!({"id": "u-bob", "name": "Bob", "email": "bob@acme.test"}),
    }
}

impl Service {
    pub fn new(hostile: bool, tasks: u64) -> Service {
        let mut s = Service {
            tasks: Vec::new(),
            comments: BTreeMap::new(),
            thread: BTreeMap::new(),
            clock: 0,
            next: 1000,
            hostile,
            thread_off: false,
            key_owner: ME.into(),
            applied: Vec::new(),
            acts: Vec::new(),
            assignee_moves: BTreeMap::new(),
            others_changes: BTreeMap::new(),
            set_backs: 0,
            made: std::collections::BTreeSet::new(),
        };
        for n in 1..=tasks {
            let title = if hostile && n % 3 == 0 {
                HOSTILE[(n as usize / 3) % HOSTILE.len()].to_string()
            } else {
                format!("Task number {n}")
            };
            let t = s.task_json(n, &title);
            s.tasks.push(t);
            if n % 2 == 0 {
                let c = s.comment_json(&tid(n), OTHER, &s.text(n as usize, "a comment"), None);
                s.comments.entry(tid(n)).or_default().push(c);
                // Each comment its own id (`c-<next>-<clock>`).
                s.next += 1;
            }
        }
        s
    }

    fn now(&self) -> String {
        jiff::Timestamp::from_second(EPOCH + self.clock)
            .map(|t| t.to_string())
            .unwrap_or_default()
    }

    fn text(&self, i: usize, plain: &str) -> String {
        if self.hostile {
            format!("{plain} {}", HOSTILE[i % HOSTILE.len()])
        } else {
            plain.to_string()
        }
    }

    fn task_json(&self, n: u64, title: &str) -> Value {
        let status = ["not_started", "in_progress", "waiting_on_external"][n as usize % 3];
        let priority = ["urgent", "high", "medium", "low"][n as usize % 4];
        json!({
            "id": tid(n),
            // What `:copy` puts on the clipboard: an id the service wrote.
            "display_id": if self.hostile && n % 5 == 4 {
                format!("#{n}{}", HOSTILE[n as usize % HOSTILE.len()])
            } else {
                format!("#{n}")
            },
            "task_number": n,
            "title": title,
            "description": self.text(n as usize + 1, "Do the thing\n\nwith **markdown**"),
            "additional_context": null,
            "status": status,
            "priority": priority,
            "team": {"id": "team-1", "name": self.text(n as usize + 2, "Ops")},
            "creator": person(OTHER),
            "assigned_to": person(ME),
            "assigned_agent": null, "assigned_team": null, "matter": null,
            "complete_by": null,
            "tags": ["a", self.text(n as usize + 3, "b")],
            "visibility": "customer",
            "archived": false, "draft": n % 7 == 0,
            "involved_people": [],
            "shared_teams": [],
            "linked_items": [],
            "input_files": [],
            "output_files": [],
            "created_at": "2026-11-01T09:00:00Z",
            "updated_at": self.now(),
        })
    }

    fn comment_json(&self, task: &str, author: &str, content: &str, parent: Option<&str>) -> Value {
        json!({
            "id": format!("c-{}-{}", self.next, self.clock),
            "task_id": task,
            "content": content,
            "author": person(author),
            "parent_comment_id": parent,
            "mentioned_users": [],
            "file_ids": [],
            "created_at": self.now(),
            "updated_at": self.now(),
        })
    }

    fn tick(&mut self) {
        self.clock += 1;
        self.next += 1;
    }

    /// A new task's number (its id's): the count of tasks and writes so
    /// far, or past every number made when that one was made before — a
    /// task deleted without a write (by another user, or as a walk ran)
    /// lowers the count, and two such deletions between two tasks made
    /// gave the second the first's id (two tasks with one id, or a task
    /// taking a deleted one's id and comments).
    fn number(&mut self) -> u64 {
        let mut n = self.tasks.len() as u64 + 1 + self.next;
        if self.made.contains(&n) {
            n = self.made.last().copied().unwrap_or(n) + 1;
        }
        self.made.insert(n);
        n
    }

    fn find(&self, id: &str) -> Option<usize> {
        self.tasks.iter().position(|t| t["id"] == id)
    }

    /// One task, as `GET /tasks/{id}` answers (the inbox's reads too).
    pub fn task(&self, id: &str) -> Result<Task, ApiError> {
        let i = self.find(id).ok_or_else(|| not_found(id))?;
        parse(&self.tasks[i])
    }

    /// A task's comments, as the listing of its comments answers.
    pub fn comments_of(&self, id: &str) -> Result<Vec<Comment>, ApiError> {
        self.task(id)?;
        let cs = self.comments.get(id).cloned().unwrap_or_default();
        cs.iter().map(parse).collect()
    }

    /// The inbox keys (`comment:<id>`) that stand for the comment of
    /// `key` on task `id`: its own and those of the comments the inbox
    /// takes for the same comment — the same author, time and text
    /// (`derive::comment_print`; docs/inbox.md, "one comment, one item").
    /// Another user may post one text twice in one second: one item says it.
    /// Another user posts `text` on task `id` now: its inbox key.
    #[cfg(test)]
    pub(crate) fn post_as_other(&mut self, id: &str, text: &str) -> String {
        let c = self.comment_json(id, OTHER, text, None);
        self.comments
            .entry(id.to_string())
            .or_default()
            .push(c.clone());
        self.next += 1;
        format!("comment:{}", c["id"].as_str().unwrap())
    }

    pub fn same_comment_keys(&self, id: &str, key: &str) -> Vec<String> {
        let mut keys = vec![key.to_string()];
        let Ok(cs) = self.comments_of(id) else {
            return keys;
        };
        let print = |c: &Comment| crate::inbox::derive::comment_print(c);
        if let Some(this) = cs
            .iter()
            .find(|c| format!("comment:{}", c.id.as_str()) == key)
        {
            let p = print(this);
            keys.extend(
                cs.iter()
                    .filter(|c| print(c) == p)
                    .map(|c| format!("comment:{}", c.id.as_str()))
                    .filter(|k| k != key),
            );
        }
        keys
    }

    /// Another user deletes task `id` (one the inbox's walk met deleted
    /// while it ran).
    pub fn delete(&mut self, id: &str) {
        if let Some(i) = self.find(id) {
            self.tasks.remove(i);
        }
    }

    /// The tasks assigned to `user`, not archived.
    pub fn assigned_to(&self, user: &str) -> Vec<String> {
        self.tasks
            .iter()
            .filter(|t| t["assigned_to"]["id"] == user && !t["archived"].as_bool().unwrap_or(false))
            .filter_map(|t| t["id"].as_str().map(str::to_string))
            .collect()
    }

    /// Whether the task is archived (`None`: gone).
    pub fn archived(&self, id: &str) -> Option<bool> {
        self.find(id)
            .map(|i| self.tasks[i]["archived"].as_bool().unwrap_or(false))
    }

    fn page(&self, limit: u32, cursor: Option<&str>) -> Result<Reply, ApiError> {
        self.list(limit, cursor).map(Reply::Page)
    }

    /// A page of the listing (every task, filters ignored), `limit` long.
    pub fn list(&self, limit: u32, cursor: Option<&str>) -> Result<TaskPage, ApiError> {
        let from: usize = cursor.and_then(|c| c.parse().ok()).unwrap_or(0);
        let limit = limit.max(1) as usize;
        let items = self
            .tasks
            .iter()
            .skip(from)
            .take(limit)
            .map(|t| parse(t).map(|t| TaskItem::Task(Box::new(t))))
            .collect::<Result<Vec<_>, _>>()?;
        let cursor = (from + limit < self.tasks.len()).then(|| (from + limit).to_string());
        Ok(TaskPage { items, cursor })
    }

    fn found(&self, number: i64) -> Result<Reply, ApiError> {
        let mut seen = Vec::new();
        let mut hit = None;
        for t in &self.tasks {
            let t = parse(t)?;
            if let Some(n) = crate::app::list::numbers::numbered(&t) {
                seen.push(n);
            }
            if t.task_number == Some(number) {
                hit = Some(Box::new(t));
            }
        }
        Ok(Reply::Found(hit, seen))
    }

    /// A write applied: recorded as the key's user, the task's version
    /// moved on.
    fn wrote(&mut self, ticket: u64, id: &str, what: &str) {
        self.tick();
        let now = self.now();
        if let Some(i) = self.find(id) {
            self.tasks[i]["updated_at"] = now.into();
        }
        self.applied.push(Applied {
            ticket,
            user: self.key_owner.clone(),
            task: id.to_string(),
            what: what.to_string(),
        });
    }

    /// Answer one request, applying it if it writes.
    pub fn answer(&mut self, ticket: u64, req: &ApiRequest) -> Result<Reply, ApiError> {
        use ApiRequest as R;
        if let Some(id) = req.written_task() {
            if self.find(id).is_none() {
                return Err(not_found(id));
            }
        }
        match req {
            R::Me => Ok(Reply::Me(Identity {
                user_id: self.key_owner.clone(),
                customer_id: "c1".into(),
                // The names go into the window title.
                user_name: if self.key_owner == ME {
                    self.text(5, "Me Myself")
                } else {
                    self.text(0, "Eve")
                }
                .into(),
                user_email: format!("{}@acme.test", self.key_owner).into(),
                customer_name: self.text(2, "Acme").into(),
                extra: Default::default(),
            })),
            R::ListPage { limit, cursor, .. } | R::RefreshPage { limit, cursor, .. } => {
                self.page(*limit, cursor.as_deref())
            }
            R::ViewCount { limit, .. } => self.page(*limit, None),
            R::PickTasks {
                number: Some(n), ..
            }
            | R::FindByNumber { number: n, .. } => self.found(*n),
            R::PickTasks { .. } => self.page(50, None),
            R::GetTask { id } => Ok(Reply::Task(Box::new(self.task(id)?))),
            R::Prefetch(inner) => self.answer(ticket, inner),
            R::Patch { id, patch } => {
                let i = self.find(id).ok_or_else(|| not_found(id))?;
                let mut t = self.tasks[i].clone();
                let json = patch.to_json();
                if json.get("assigned_to").is_some() {
                    *self.assignee_moves.entry(id.clone()).or_default() += 1;
                }
                apply_patch(&mut t, &json);
                if parse::<Task>(&t).is_ok() {
                    self.tasks[i] = t;
                }
                self.wrote(ticket, id, &format!("patch {}", patch.to_json()));
                Ok(Reply::Task(Box::new(self.task(id)?)))
            }
            R::Delete { id } => {
                self.wrote(ticket, id, "delete");
                self.tasks.retain(|t| t["id"] != id.as_str());
                Ok(Reply::Deleted)
            }
            R::Subtasks { .. } => Ok(Reply::Items(Vec::new())),
            R::CreateSubtask { parent, title } => {
                self.wrote(ticket, parent, &format!("subtask {title}"));
                let n = self.number();
                let t = self.task_json(n, title);
                self.tasks.push(t);
                Ok(Reply::Task(Box::new(self.task(&tid(n))?)))
            }
            R::Comments { id } => Ok(Reply::Comments(self.comments_of(id)?)),
            R::AddComment { id, content, .. } | R::ReplyComment { id, content, .. } => {
                let parent = match req {
                    R::ReplyComment { comment_id, .. } => Some(comment_id.as_str()),
                    _ => None,
                };
                let c = self.comment_json(id, &self.key_owner.clone(), content, parent);
                self.wrote(ticket, id, &format!("comment {content}"));
                self.comments.entry(id.clone()).or_default().push(c.clone());
                Ok(Reply::Comment(parse::<Comment>(&c)?))
            }
            R::EditComment {
                id,
                comment_id,
                content,
            } => {
                self.wrote(ticket, id, &format!("edit comment {content}"));
                let cs = self.comments.entry(id.clone()).or_default();
                let c = cs
                    .iter_mut()
                    .find(|c| c["id"] == comment_id.as_str())
                    .ok_or_else(|| not_found(comment_id))?;
                c["content"] = content.clone().into();
                Ok(Reply::Comment(parse::<Comment>(c)?))
            }
            R::Thread { id } | R::ReplyRequester { id, .. } if self.thread_off => {
                let _ = id;
                Err(ApiError::FeatureDisabled {
                    feature: "requester thread",
                })
            }
            R::Thread { id } => {
                self.task(id)?;
                let ms = self.thread.get(id).cloned().unwrap_or_default();
                Ok(Reply::Messages(
                    ms.iter().map(parse).collect::<Result<_, _>>()?,
                ))
            }
            R::ReplyRequester { id, content, .. } => {
                self.wrote(ticket, id, &format!("reply {content}"));
                let m = json!({
                    "id": format!("m-{}", self.next),
                    "task_id": id,
                    "direction": "outbound",
                    "content": content,
                    "file_ids": [],
                    "sender": person(&self.key_owner.clone()),
                    "sender_agent": null,
                    "sender_display_name": null,
                    "delivery_status": "sent",
                    "created_at": self.now(),
                });
                self.thread.entry(id.clone()).or_default().push(m.clone());
                Ok(Reply::Message(parse::<RequesterMessage>(&m)?))
            }
            R::GetSharing { id } | R::SharingForEdit { id } => {
                self.task(id)?;
                Ok(Reply::Sharing(sharing()?))
            }
            R::PutSharing { id, .. } => {
                self.wrote(ticket, id, "sharing");
                Ok(Reply::Sharing(sharing()?))
            }
            R::AddLinks { id, .. }
            | R::UpdateLink { id, .. }
            | R::RemoveLink { id, .. }
            | R::Attach { id, .. }
            | R::Detach { id, .. } => {
                self.wrote(ticket, id, &req.describe());
                Ok(Reply::Task(Box::new(self.task(id)?)))
            }
            R::Validate { .. } => Err(ApiError::NotAvailable {
                endpoint: "layouts/validate",
            }),
        }
    }

    /// Another user's comment on task `id` (drawn from `r`): a plain one
    /// (its `mentioned_users` empty: the list decides, `@Me` in its text is
    /// no mention), one that mentions the user (`mentioned_users`), a reply
    /// to the user's newest comment there, or the task's assignee moved —
    /// to the user, or from them to Bob. What the user's inbox must show
    /// once is recorded (`acts`).
    fn other_comment(&mut self, id: &str, r: u64) {
        let text = self.text((r >> 16) as usize, "@Me look");
        let i = self.find(id);
        match (r >> 24) % 4 {
            1 => {
                let mut c = self.comment_json(id, OTHER, &text, None);
                c["mentioned_users"] = json!([ME]);
                self.act(id, &c);
                self.comments.entry(id.to_string()).or_default().push(c);
            }
            2 => {
                let mine = self
                    .comments
                    .get(id)
                    .and_then(|cs| cs.iter().rev().find(|c| c["author"]["id"] == ME))
                    .and_then(|c| c["id"].as_str().map(str::to_string));
                let c = self.comment_json(id, OTHER, &text, mine.as_deref());
                if mine.is_some() {
                    self.act(id, &c);
                }
                self.comments.entry(id.to_string()).or_default().push(c);
            }
            3 if i.is_some() => {
                let i = i.unwrap_or_default();
                let to_me = self.tasks[i]["assigned_to"]["id"] != ME;
                self.tasks[i]["assigned_to"] = person(if to_me { ME } else { "u-bob" });
                *self.assignee_moves.entry(id.to_string()).or_default() += 1;
                if to_me {
                    self.acts.push(Act {
                        task: id.to_string(),
                        key: "assigned".into(),
                        user: ME.into(),
                    });
                }
            }
            _ => {
                let c = self.comment_json(id, OTHER, &text, None);
                self.comments.entry(id.to_string()).or_default().push(c);
            }
        }
    }

    fn act(&mut self, task: &str, c: &Value) {
        self.acts.push(Act {
            task: task.to_string(),
            key: format!("comment:{}", c["id"].as_str().unwrap_or_default()),
            user: ME.into(),
        });
    }

    /// Someone else changes the service: a field, a comment, an archive,
    /// a delete, the requester thread turned off or on.
    pub fn other(&mut self, r: u64, thread_off: bool) {
        // Others make tasks too: those archived or deleted (by anyone, or
        // as a walk ran) are made up for, so that a long run still has
        // tasks to mention the user on (their pool drained within a few
        // thousand steps, and the inbox had almost nothing to check).
        let live = |s: &Service| {
            s.tasks
                .iter()
                .filter(|t| !t["archived"].as_bool().unwrap_or(false))
                .count()
        };
        while live(self) < LIVE {
            self.tick();
            let n = self.number();
            let mut t = self.task_json(n, &format!("Made by another {n}"));
            t["creator"] = person(OTHER);
            self.tasks.push(t);
        }
        let i = (r % self.tasks.len() as u64) as usize;
        let id = self.tasks[i]["id"].as_str().unwrap_or_default().to_string();
        let hostile = self.hostile;
        match (r >> 8) % 20 {
            0..=5 => {
                self.tasks[i]["status"] = [
                    "not_started",
                    "in_progress",
                    "completed",
                    "waiting_on_external",
                ][(r >> 16) as usize % 4]
                    .into();
            }
            6..=7 => {
                self.tasks[i]["title"] = if hostile {
                    HOSTILE[(r >> 16) as usize % HOSTILE.len()].into()
                } else {
                    format!("Renamed {}", r % 100).into()
                };
            }
            8..=14 => self.other_comment(&id, r),
            15..=16 => self.tasks[i]["archived"] = true.into(),
            17 => {
                self.tasks.remove(i);
                return;
            }
            _ if thread_off => self.thread_off = !self.thread_off,
            _ => self.tasks[i]["priority"] = "urgent".into(),
        }
        self.tick();
        let now = self.now();
        if let Some(t) = self.tasks.get_mut(i) {
            t["updated_at"] = now.into();
        }
        *self.others_changes.entry(id).or_default() += 1;
    }

    /// The service's clock is set back: what it writes from now on is
    /// dated earlier than what it wrote before.
    pub fn set_back(&mut self, secs: u32) {
        self.clock -= i64::from(secs);
        self.set_backs += 1;
    }

    /// A task's version: its `updated_at` in milliseconds.
    pub fn version(&self, id: &str) -> Option<i64> {
        let i = self.find(id)?;
        let at = self.tasks[i]["updated_at"].as_str()?;
        at.parse::<jiff::Timestamp>()
            .ok()
            .map(|t| t.as_millisecond())
    }

    /// The writes applied to a task so far (the client's, as whoever).
    pub fn writes_to(&self, id: &str) -> usize {
        self.applied.iter().filter(|a| a.task == id).count()
    }

    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }
}

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound {
        what: "task".into(),
        message: format!("task {id} not found"),
    }
}

fn sharing() -> Result<SharingState, ApiError> {
    parse(&json!({"visibility": "customer", "users": [], "teams": []}))
}

fn parse<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, ApiError> {
    serde_json::from_value(v.clone()).map_err(|e| ApiError::Decode {
        message: e.to_string(),
        excerpt: String::new(),
    })
}

/// A PATCH's fields onto the task, as the service shows them.
fn apply_patch(t: &mut Value, patch: &Value) {
    let Some(m) = patch.as_object() else { return };
    for (k, v) in m {
        match k.as_str() {
            "assigned_to" => {
                t["assigned_to"] = match v.as_str() {
                    Some(id) => person(id),
                    None => Value::Null,
                }
            }
            "assigned_team_id" => {
                t["assigned_team"] = match v.as_str() {
                    Some(id) => json!({"id": id, "name": "Team"}),
                    None => Value::Null,
                }
            }
            "matter_id" | "linked_items" | "involved_people" => {}
            _ => t[k.as_str()] = v.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another user's text posted twice in one second is one comment to
    /// the inbox (docs/inbox.md, "one comment, one item"): the checker
    /// finds the act of either under the key of the other (simulator seed
    /// 7538945697178514737, step 5211: "inbox dropped" for the second of
    /// two such mentions, the first one's item in the inbox); a comment
    /// with another text, or in another second, stands for itself.
    #[test]
    fn a_text_posted_twice_in_one_second_stands_for_one_comment() {
        let mut s = Service::new(false, 4);
        let id = tid(2);
        let post = |s: &mut Service, text: &str| s.post_as_other(&id, text);
        let first = post(&mut s, "@Me look");
        let again = post(&mut s, "@Me look");
        let other = post(&mut s, "@Me look here");
        s.tick();
        let later = post(&mut s, "@Me look");
        assert_ne!(first, again);
        assert_eq!(
            s.same_comment_keys(&id, &again),
            vec![again.clone(), first.clone()]
        );
        assert_eq!(
            s.same_comment_keys(&id, &first),
            vec![first.clone(), again.clone()]
        );
        assert_eq!(s.same_comment_keys(&id, &other), vec![other.clone()]);
        assert_eq!(s.same_comment_keys(&id, &later), vec![later.clone()]);
        assert_eq!(
            s.same_comment_keys(&tid(99), "comment:c-0-0"),
            vec!["comment:c-0-0".to_string()]
        );
    }

    /// Tasks deleted without a write (by another user, or as a walk ran)
    /// between two tasks made never give the second the first's id: the
    /// three deleted here after another user made one had the next one
    /// made take its id (two tasks with one id in the service).
    #[test]
    fn a_task_made_never_takes_the_id_of_one_made_before() {
        let mut s = Service::new(false, u64::try_from(LIVE).unwrap());
        s.delete(&tid(1));
        // Another user changes a status (`(r >> 8) % 20 == 0`): the task
        // deleted is made up for first.
        s.other(0, false);
        let made = s.tasks.last().unwrap()["id"].clone();
        for n in 2..=4 {
            s.delete(&tid(n));
        }
        s.other(0, false);
        let ids: Vec<&Value> = s.tasks.iter().map(|t| &t["id"]).collect();
        let unique: std::collections::BTreeSet<String> =
            ids.iter().map(|v| v.to_string()).collect();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        assert_eq!(ids.iter().filter(|v| ***v == made).count(), 1, "{made}");
    }
}
