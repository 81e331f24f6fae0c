//! A task, its links, and a task list entry that may be unreadable.

use super::bound::CutField;
use super::display::short_id;
use super::enums::{LinkRole, LinkType, Priority, Status, Visibility};
use super::people::{Member, Person, TeamRef};
use super::shared::{One, Poolable, Shared, SharedPool};
use super::stamp::Stamp;
use super::values::{null_as_default, Extra, Id, Json};
use crate::text::Untrusted;
use jiff::civil::Time;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::{Mutex, OnceLock};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkContext {
    pub check_ids: Vec<Untrusted>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl LinkContext {
    /// The check ids as the service wrote them (a `context` body's form).
    pub fn ids(&self) -> Vec<String> {
        self.check_ids.iter().map(|i| i.raw().to_string()).collect()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkedItem {
    #[serde(rename = "type", default)]
    pub kind: LinkType,
    pub id: Id,
    pub display_name: Untrusted,
    pub role: Option<LinkRole>,
    pub context: Option<LinkContext>,
    pub is_output: bool,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Poolable for Untrusted {
    fn pool() -> &'static Mutex<SharedPool<Untrusted>> {
        static POOL: OnceLock<Mutex<SharedPool<Untrusted>>> = OnceLock::new();
        POOL.get_or_init(Default::default)
    }
}

impl Poolable for LinkedItem {
    fn pool() -> &'static Mutex<SharedPool<LinkedItem>> {
        static POOL: OnceLock<Mutex<SharedPool<LinkedItem>>> = OnceLock::new();
        POOL.get_or_init(Default::default)
    }
    fn shrink(&mut self) {
        if let Some(c) = &mut self.context {
            c.check_ids.shrink_to_fit();
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub id: Id,
    #[serde(default)]
    pub display_id: Untrusted,
    /// The number as an integer: also when the service sends it as text
    /// (`"12"`, `"#12"`); another shape is no number, and never makes the
    /// task unreadable (#32 §13) — the task still opens, shown by its
    /// `display_id` as received.
    #[serde(default, deserialize_with = "super::values::lenient_number")]
    pub task_number: Option<i64>,
    #[serde(default)]
    pub title: Untrusted,
    #[serde(default)]
    pub description: Option<Untrusted>,
    #[serde(default)]
    pub additional_context: Option<Untrusted>,
    #[serde(default)]
    pub status: Status,
    #[serde(default)]
    pub priority: Priority,
    /// The team, creator and assignee: shared with every task that names
    /// the same (an organisation has a handful; 8 bytes each).
    #[serde(default)]
    pub team: Option<One<TeamRef>>,
    #[serde(default)]
    pub creator: Option<One<Person>>,
    #[serde(default)]
    pub assigned_to: Option<One<Person>>,
    #[serde(default)]
    pub assigned_agent: Json,
    #[serde(default)]
    pub assigned_team: Json,
    #[serde(default)]
    pub matter: Json,
    #[serde(default)]
    pub complete_by: Option<Stamp>,
    /// Shared with every task that has the same tags.
    #[serde(default)]
    pub tags: Shared<Untrusted>,
    #[serde(default)]
    pub source_channel: Option<Untrusted>,
    #[serde(default)]
    pub visibility: Option<Visibility>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub archived: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub draft: bool,
    /// Shared with every task that lists the same people.
    #[serde(default)]
    pub involved_people: Shared<Member>,
    #[serde(default)]
    pub shared_teams: Json,
    /// Shared with every task that has the same links.
    #[serde(default)]
    pub linked_items: Shared<LinkedItem>,
    #[serde(default)]
    pub input_files: Json,
    #[serde(default)]
    pub output_files: Json,
    #[serde(default)]
    pub created_at: Option<Stamp>,
    #[serde(default)]
    pub updated_at: Option<Stamp>,
    /// The fields cut when the row was read from a listing (issue 42 §2:
    /// see [`super::bound`]); `None`: the task is whole. Kept with the task
    /// in the store, so that a row read back still says so.
    #[serde(
        default,
        rename = "taskdeck_cut",
        skip_serializing_if = "Option::is_none"
    )]
    pub cut: Option<Box<[CutField]>>,
    /// Fields this client does not know, kept as received.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Task {
    /// Give back the spare capacity decoding left in the lists: a loaded
    /// list holds thousands of tasks.
    pub fn shrink(&mut self) {
        // (The people, links and tags are shared lists, exact once read.)
    }

    pub fn due(&self) -> Option<Timestamp> {
        self.complete_by.as_deref().and_then(due_instant)
    }

    /// The task's link to `kind` item `id`, if it has one.
    pub fn link(&self, kind: &LinkType, id: &str) -> Option<&LinkedItem> {
        self.linked_items
            .iter()
            .find(|l| l.kind == *kind && l.id.as_str() == id)
    }
    /// The parent task's id when the service names it (`parent_task_id`,
    /// or a `parent` object with an id); a subtask shows it as a link.
    pub fn parent_id(&self) -> Option<String> {
        match self.extra.get("parent_task_id") {
            Some(serde_json::Value::String(s)) if !s.is_empty() => Some(s.clone()),
            _ => self
                .extra
                .get("parent")
                .and_then(|p| p.get("id"))
                .and_then(|v| v.as_str())
                .map(str::to_string),
        }
    }

    pub fn label(&self) -> String {
        if self.display_id.is_empty() {
            short_id(&self.id)
        } else {
            self.display_id.line().into_owned()
        }
    }
}

/// Parse an ISO 8601 date or date-time as the service sends them.
pub fn parse_timestamp(s: &str) -> Option<Timestamp> {
    if let Some(t) = super::clock::parse_rfc3339(s) {
        return Some(t);
    }
    if let Some(t) = super::clock::parse_datetime(s, "%Y-%m-%dT%H:%M:%S%.f") {
        return super::clock::utc(t);
    }
    super::clock::parse_date(s, "%Y-%m-%d")
        .map(|d| d.to_datetime(Time::midnight()))
        .and_then(super::clock::utc)
}

/// Orders two timestamps as received, oldest first: by instant whatever
/// the offset or fraction (as text `…10:00:00.5Z` sorts before
/// `…10:00:00Z`, and `14:00:00+05:00` after `10:00:00Z`), then the
/// unreadable and missing ones, by their text. A total order: sorting with
/// it never panics.
pub fn chronological(a: Option<&str>, b: Option<&str>) -> std::cmp::Ordering {
    let key = |s: Option<&str>| {
        let t = s.and_then(parse_timestamp);
        (t.is_none(), t)
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(&b))
}

/// A due date as received, as an instant. A date alone (`2026-12-01`: the
/// spec shows date-times, a service may still send one) is the end of that
/// day where the user is, as `:due 2026-12-01` means: read as UTC midnight
/// it showed as the evening before west of Greenwich, and was overdue from
/// the start of its day east of it.
pub fn due_instant(raw: &str) -> Option<Timestamp> {
    match super::clock::parse_date(raw, "%Y-%m-%d") {
        Some(d) => super::clock::end_of_local_day(d),
        None => parse_timestamp(raw),
    }
}

/// A task list entry: a task, or an item that could not be read (kept with
/// the reason, so one odd item never fails a page).
/// Both boxed: a list holds one per row, 16 bytes each (the unreadable
/// one's three strings inline made every row 72).
#[derive(Clone, Debug)]
pub enum TaskItem {
    Task(Box<Task>),
    Unreadable(Box<Unreadable>),
}

/// An item that could not be read: its id if it has one, why, and the
/// item as received.
#[derive(Clone, Debug)]
pub struct Unreadable {
    pub id: Option<String>,
    pub reason: String,
    pub raw: String,
}

impl TaskItem {
    /// One row of a listing, bounded as [`super::bound`] says: what was
    /// cut is named in [`Task::cut`].
    pub fn from_json(raw: &str) -> TaskItem {
        if let Some((text, cuts)) = super::bound::bounded_row(raw) {
            let mut item = TaskItem::read(&text);
            if let TaskItem::Task(t) = &mut item {
                t.cut = Some(cuts.into());
            }
            return item;
        }
        TaskItem::read(raw)
    }
    fn read(raw: &str) -> TaskItem {
        match serde_json::from_str::<Task>(raw) {
            Ok(mut t) => {
                t.shrink();
                TaskItem::Task(Box::new(t))
            }
            Err(e) => {
                let id = serde_json::from_str::<Value>(raw)
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(str::to_string));
                TaskItem::Unreadable(Box::new(Unreadable {
                    id,
                    reason: crate::text::clean(&e.to_string()),
                    // Bounded too: an item no row can hold keeps its start.
                    raw: super::bound::start(raw, super::bound::ROW_KEPT).to_string(),
                }))
            }
        }
    }
    pub fn id(&self) -> Option<&str> {
        match self {
            TaskItem::Task(t) => Some(&t.id),
            TaskItem::Unreadable(u) => u.id.as_deref(),
        }
    }
    pub fn task(&self) -> Option<&Task> {
        match self {
            TaskItem::Task(t) => Some(t),
            TaskItem::Unreadable(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_item_keeps_reason_and_id() {
        let item = TaskItem::from_json(r#"{"id":"abc","title":42}"#);
        match item {
            TaskItem::Unreadable(u) => {
                assert_eq!(u.id.as_deref(), Some("abc"));
                assert!(u.reason.contains("invalid type"), "{}", u.reason);
            }
            _ => panic!("should not parse"),
        }
    }

    /// Issue 42 §2: a loaded list holds one `Task` a row (99,497 in the
    /// bench), so every byte here is 100 KB there. 408 bytes before the
    /// team, people, tags and lists were shared thin pointers.
    #[test]
    fn a_task_stays_small() {
        let size = std::mem::size_of::<Task>();
        assert!(size <= 312, "size_of::<Task>() = {size}");
        assert_eq!(std::mem::size_of::<Option<One<Person>>>(), 8);
        assert_eq!(std::mem::size_of::<Shared<Untrusted>>(), 8);
    }

    /// The creator, assignee, team and tags many rows name alike are held
    /// once, and a task still reads and writes back exactly as received.
    #[test]
    fn people_team_and_tags_are_shared_and_round_trip() {
        let row = |id: &str| {
            format!(
                r#"{{"id":"{id}","team":{{"id":"t-1","name":"Legal","colour":"red"}},"creator":{{"id":"u-1","name":"Ann","email":"ann@x","title":"Dr"}},"assigned_to":{{"id":"u-2","name":"Ben","email":"ben@x"}},"tags":["a","b"]}}"#
            )
        };
        let a: Task = serde_json::from_str(&row("a")).unwrap();
        let b: Task = serde_json::from_str(&row("b")).unwrap();
        let (ac, bc) = (a.creator.as_ref().unwrap(), b.creator.as_ref().unwrap());
        assert!(ac.ptr_eq(bc), "one creator");
        assert!(a.team.as_ref().unwrap().ptr_eq(b.team.as_ref().unwrap()));
        assert!(a.tags.ptr_eq(&b.tags));
        assert_eq!(ac.name.raw(), "Ann");
        assert_eq!(a.assigned_to.as_ref().unwrap().id.as_str(), "u-2");
        let back = serde_json::to_value(&a).unwrap();
        let sent: Value = serde_json::from_str(&row("a")).unwrap();
        for k in ["team", "creator", "assigned_to", "tags"] {
            assert_eq!(back[k], sent[k], "{k}");
        }
        // null and missing read as none, and write back as null.
        let c: Task = serde_json::from_str(r#"{"id":"c","creator":null,"tags":null}"#).unwrap();
        assert!(c.creator.is_none() && c.team.is_none() && c.tags.is_empty());
        assert_eq!(serde_json::to_value(&c).unwrap()["creator"], Value::Null);
    }

    #[test]
    fn timestamps_parse_as_date_or_datetime() {
        assert!(parse_timestamp("2026-12-01").is_some());
        assert!(parse_timestamp("2026-12-01T10:00:00Z").is_some());
        assert!(parse_timestamp("soon").is_none());
    }
}
