//! The service's resources, read tolerantly.
//!
//! Enums keep values the client does not know (`Other`), open-shape fields
//! stay JSON, and fields the client does not know are kept in `extra` so that
//! nothing the service sent is lost.

use crate::text::Untrusted;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// An enum of the spec that keeps values it does not know.
macro_rules! open_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $wire:literal),+ $(,)? } default $default:ident) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant,)+ Other(Untrusted) }

        impl $name {
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];
            pub fn as_wire(&self) -> &str {
                match self { $($name::$variant => $wire,)+ $name::Other(s) => s.raw() }
            }
            pub fn parse(s: &str) -> Self {
                match s { $($wire => $name::$variant,)+ other => $name::Other(Untrusted::new(other)) }
            }
            pub fn is_known(&self) -> bool { !matches!(self, $name::Other(_)) }
        }
        impl Default for $name { fn default() -> Self { $name::$default } }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self { $name::Other(s) => write!(f, "{s}"), v => f.write_str(v.as_wire()) }
            }
        }
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> { s.serialize_str(self.as_wire()) }
        }
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok($name::parse(&s))
            }
        }
    };
}

open_enum!(Status { NotStarted = "not_started", InProgress = "in_progress", WaitingOnExternal = "waiting_on_external", Completed = "completed" } default NotStarted);
open_enum!(Priority { Urgent = "urgent", High = "high", Medium = "medium", Low = "low", NoPriority = "no_priority" } default NoPriority);
open_enum!(Visibility { Private = "private", Customer = "customer" } default Private);
open_enum!(LinkType { Chat = "chat", Review = "review", Report = "report", Task = "task" } default Task);
open_enum!(LinkRole { Reference = "reference", Subject = "subject", Output = "output" } default Reference);
open_enum!(AccessLevel { Read = "read", Write = "write" } default Read);
open_enum!(DeliveryStatus { Sent = "sent", Draft = "draft" } default Draft);

/// An id from the service. Shared like short untrusted strings (the same
/// person's id on every task is stored once); `Display` is sanitised, and
/// `as_str()` gives the raw id for requests and comparisons.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Id(Untrusted);

impl Id {
    pub fn new(s: impl AsRef<str>) -> Id {
        Id(Untrusted::new(s))
    }
    pub fn as_str(&self) -> &str {
        self.0.raw()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::ops::Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.raw()
    }
}

impl std::borrow::Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.0.raw()
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}
impl PartialEq<&str> for Id {
    fn eq(&self, o: &&str) -> bool {
        self.as_str() == *o
    }
}
impl PartialEq<String> for Id {
    fn eq(&self, o: &String) -> bool {
        self.as_str() == o
    }
}
impl PartialEq<Id> for String {
    fn eq(&self, o: &Id) -> bool {
        self == o.as_str()
    }
}
impl PartialEq<Id> for str {
    fn eq(&self, o: &Id) -> bool {
        self == o.as_str()
    }
}
impl From<&Id> for String {
    fn from(i: &Id) -> String {
        i.as_str().to_string()
    }
}
impl From<Id> for String {
    fn from(i: Id) -> String {
        i.as_str().to_string()
    }
}
impl From<&str> for Id {
    fn from(s: &str) -> Id {
        Id::new(s)
    }
}
impl From<String> for Id {
    fn from(s: String) -> Id {
        Id::new(s)
    }
}

/// Fields the client does not know, kept as received. Nearly always empty,
/// so it costs one pointer until there is something to keep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extra(Option<Box<Map<String, Value>>>);

impl Extra {
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|m| m.is_empty())
    }
    pub fn get(&self, k: &str) -> Option<&Value> {
        self.0.as_ref().and_then(|m| m.get(k))
    }
    pub fn contains_key(&self, k: &str) -> bool {
        self.get(k).is_some()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().flat_map(|m| m.iter())
    }
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |m| m.len())
    }
}

impl std::ops::Index<&str> for Extra {
    type Output = Value;
    fn index(&self, k: &str) -> &Value {
        self.get(k).unwrap_or(&Value::Null)
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = Map::<String, Value>::deserialize(d)?;
        Ok(Extra((!m.is_empty()).then(|| Box::new(m))))
    }
}

/// An open-shape field (agent, team, matter, files…). Kept as its compact
/// JSON text, parsed only when shown: a list of ten thousand tasks does not
/// hold ten thousand parsed trees. `null` or absent costs nothing.
#[derive(Clone, Debug, Default)]
pub struct Json {
    raw: Option<Box<str>>,
    parsed: std::sync::OnceLock<Box<Value>>,
}

static NULL: Value = Value::Null;

impl Json {
    /// From JSON text; `null` keeps nothing.
    fn from_text(text: &str) -> Json {
        Json {
            raw: (text.trim() != "null").then(|| Box::from(text)),
            parsed: std::sync::OnceLock::new(),
        }
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        self.raw == other.raw
    }
}

impl std::ops::Deref for Json {
    type Target = Value;
    fn deref(&self) -> &Value {
        match &self.raw {
            None => &NULL,
            Some(raw) => self
                .parsed
                .get_or_init(|| Box::new(serde_json::from_str(raw).unwrap_or(Value::Null))),
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The text as received, without building a tree on the way.
        let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
        Ok(Json::from_text(raw.get()))
    }
}

impl Status {
    pub fn label(&self) -> String {
        match self {
            Status::NotStarted => "not started".into(),
            Status::InProgress => "in progress".into(),
            Status::WaitingOnExternal => "waiting".into(),
            Status::Completed => "completed".into(),
            Status::Other(s) => s.line().into_owned(),
        }
    }
}

impl Priority {
    pub fn label(&self) -> String {
        match self {
            Priority::NoPriority => "-".into(),
            other => other.to_string(),
        }
    }
}

/// `{id, name, email}`; missing parts read as empty rather than failing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Person {
    pub id: Id,
    pub name: Untrusted,
    pub email: Untrusted,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Person {
    pub fn label(&self) -> String {
        if !self.name.is_empty() {
            self.name.line().into_owned()
        } else if !self.email.is_empty() {
            self.email.line().into_owned()
        } else {
            short_id(&self.id)
        }
    }
}

/// A person on a task or in a sharing state, with role and access.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Member {
    pub id: Id,
    pub name: Untrusted,
    pub email: Untrusted,
    pub role: Option<Untrusted>,
    pub access_level: Option<AccessLevel>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TeamRef {
    pub id: Id,
    pub name: Untrusted,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TeamAccess {
    pub id: Id,
    pub name: Untrusted,
    pub access_level: Option<AccessLevel>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkContext {
    pub check_ids: Vec<Untrusted>,
    #[serde(flatten)]
    pub extra: Extra,
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

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub id: Id,
    #[serde(default)]
    pub display_id: Untrusted,
    #[serde(default)]
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
    #[serde(default)]
    pub team: Option<TeamRef>,
    #[serde(default)]
    pub creator: Option<Person>,
    #[serde(default)]
    pub assigned_to: Option<Person>,
    #[serde(default)]
    pub assigned_agent: Json,
    #[serde(default)]
    pub assigned_team: Json,
    #[serde(default)]
    pub matter: Json,
    #[serde(default)]
    pub complete_by: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub tags: Vec<Untrusted>,
    #[serde(default)]
    pub source_channel: Option<Untrusted>,
    #[serde(default)]
    pub visibility: Option<Visibility>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub archived: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub draft: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub involved_people: Vec<Member>,
    #[serde(default)]
    pub shared_teams: Json,
    #[serde(default, deserialize_with = "null_as_default")]
    pub linked_items: Vec<LinkedItem>,
    #[serde(default)]
    pub input_files: Json,
    #[serde(default)]
    pub output_files: Json,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// Fields this client does not know, kept as received.
    #[serde(flatten)]
    pub extra: Extra,
}

fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

impl Task {
    /// Give back the spare capacity decoding left in the lists: a loaded
    /// list holds thousands of tasks.
    pub fn shrink(&mut self) {
        self.tags.shrink_to_fit();
        self.involved_people.shrink_to_fit();
        self.linked_items.shrink_to_fit();
        for l in &mut self.linked_items {
            if let Some(c) = &mut l.context {
                c.check_ids.shrink_to_fit();
            }
        }
    }

    pub fn due(&self) -> Option<DateTime<Utc>> {
        self.complete_by.as_deref().and_then(parse_timestamp)
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
pub fn parse_timestamp(s: &str) -> Option<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    if let Ok(t) = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f") {
        return Some(t.and_utc());
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc())
}

/// A task list entry: a task, or an item that could not be read (kept with
/// the reason, so one odd item never fails a page).
#[derive(Clone, Debug)]
pub enum TaskItem {
    Task(Box<Task>),
    Unreadable {
        id: Option<String>,
        reason: String,
        raw: String,
    },
}

impl TaskItem {
    pub fn from_json(raw: &str) -> TaskItem {
        match serde_json::from_str::<Task>(raw) {
            Ok(mut t) => {
                t.shrink();
                TaskItem::Task(Box::new(t))
            }
            Err(e) => {
                let id = serde_json::from_str::<Value>(raw)
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(str::to_string));
                TaskItem::Unreadable {
                    id,
                    reason: crate::text::clean(&e.to_string()),
                    raw: raw.to_string(),
                }
            }
        }
    }
    pub fn id(&self) -> Option<&str> {
        match self {
            TaskItem::Task(t) => Some(&t.id),
            TaskItem::Unreadable { id, .. } => id.as_deref(),
        }
    }
    pub fn task(&self) -> Option<&Task> {
        match self {
            TaskItem::Task(t) => Some(t),
            TaskItem::Unreadable { .. } => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comment {
    pub id: Id,
    pub task_id: String,
    pub content: Untrusted,
    pub author: Person,
    pub parent_comment_id: Option<String>,
    pub mentioned_users: Json,
    #[serde(default, deserialize_with = "null_as_default")]
    pub file_ids: Vec<Untrusted>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Comment {
    pub fn edited(&self) -> bool {
        match (&self.created_at, &self.updated_at) {
            (Some(c), Some(u)) => match (parse_timestamp(c), parse_timestamp(u)) {
                (Some(a), Some(b)) => a != b,
                _ => c != u,
            },
            _ => false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RequesterMessage {
    pub id: Id,
    pub task_id: String,
    pub direction: Option<Untrusted>,
    pub content: Untrusted,
    #[serde(default, deserialize_with = "null_as_default")]
    pub file_ids: Vec<Untrusted>,
    pub sender: Option<Person>,
    pub sender_agent: Json,
    pub sender_display_name: Option<Untrusted>,
    /// `None` when the service did not say: never shown as sent.
    pub delivery_status: Option<DeliveryStatus>,
    pub created_at: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SharingState {
    pub visibility: Visibility,
    #[serde(default, deserialize_with = "null_as_default")]
    pub users: Vec<Member>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub teams: Vec<TeamAccess>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Identity {
    pub user_id: String,
    pub customer_id: String,
    pub user_name: Untrusted,
    pub user_email: Untrusted,
    pub customer_name: Untrusted,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayoutIssue {
    pub path: Untrusted,
    pub code: Untrusted,
    pub message: Untrusted,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayoutResult {
    pub valid: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub errors: Vec<LayoutIssue>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub warnings: Vec<LayoutIssue>,
    pub omitted_errors: u64,
    pub omitted_warnings: u64,
    pub layout: Value,
}

/// First 8 characters of an id, for compact display.
pub fn short_id(id: &str) -> String {
    crate::text::clean(&id.chars().take(8).collect::<String>())
}

/// Render open-shape JSON as readable, sanitised `key: value` lines.
pub fn json_lines(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(v, "", &mut out);
    out
}

fn walk(v: &Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, v) in m {
                let key = crate::text::clean(k);
                let p = if prefix.is_empty() {
                    key
                } else {
                    format!("{prefix}.{key}")
                };
                walk(v, &p, out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, v) in a.iter().enumerate() {
                walk(v, &format!("{prefix}[{i}]"), out);
            }
        }
        scalar => {
            let val = match scalar {
                Value::String(s) => crate::text::clean(s),
                Value::Null => "none".into(),
                Value::Object(_) => "{}".into(),
                Value::Array(_) => "[]".into(),
                other => other.to_string(),
            };
            if prefix.is_empty() {
                out.push(val);
            } else {
                out.push(format!("{prefix}: {val}"));
            }
        }
    }
}

/// A readable one-line summary of an open-shape value (agent, matter, file).
pub fn json_summary(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::String(s) => crate::text::clean(s),
        Value::Object(m) => {
            for key in [
                "name",
                "display_name",
                "title",
                "filename",
                "file_name",
                "id",
            ] {
                if let Some(Value::String(s)) = m.get(key) {
                    return crate::text::clean(s);
                }
            }
            json_lines(v).join(", ")
        }
        other => json_lines(other).join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_enum_values_are_kept() {
        let t: Task = serde_json::from_value(serde_json::json!({
            "id": "x", "status": "blocked", "priority": "critical", "x_sla": {"tier": 2}
        }))
        .unwrap();
        assert_eq!(t.status, Status::Other("blocked".into()));
        assert_eq!(t.priority.to_string(), "critical");
        assert_eq!(t.extra["x_sla"]["tier"], 2);
        let back = serde_json::to_value(&t).unwrap();
        assert_eq!(back["status"], "blocked");
        assert_eq!(back["x_sla"]["tier"], 2);
    }

    #[test]
    fn open_shapes_survive_both_ways_of_decoding() {
        let v = serde_json::json!({"id": "x", "matter": {"name": "M-1", "n": [1, 2]}, "assigned_agent": null});
        let a: Task = serde_json::from_value(v.clone()).unwrap();
        let b: Task = serde_json::from_str(&v.to_string()).unwrap();
        for t in [&a, &b] {
            assert_eq!(*t.matter, serde_json::json!({"name": "M-1", "n": [1, 2]}));
            assert!(t.assigned_agent.is_null());
        }
        assert_eq!(serde_json::to_value(&a).unwrap()["matter"]["n"][1], 2);
    }

    #[test]
    fn unreadable_item_keeps_reason_and_id() {
        let item = TaskItem::from_json(r#"{"id":"abc","title":42}"#);
        match item {
            TaskItem::Unreadable { id, reason, .. } => {
                assert_eq!(id.as_deref(), Some("abc"));
                assert!(reason.contains("invalid type"), "{reason}");
            }
            _ => panic!("should not parse"),
        }
    }

    #[test]
    fn open_shapes_render_as_lines() {
        let v = serde_json::json!({"name": "Bot", "meta": {"v": [1, "a\u{1b}b"]}});
        assert_eq!(
            json_lines(&v),
            vec!["name: Bot", "meta.v[0]: 1", "meta.v[1]: a\u{241b}b"]
        );
        assert_eq!(json_summary(&v), "Bot");
    }

    #[test]
    fn timestamps_parse_as_date_or_datetime() {
        assert!(parse_timestamp("2026-12-01").is_some());
        assert!(parse_timestamp("2026-12-01T10:00:00Z").is_some());
        assert!(parse_timestamp("soon").is_none());
    }
}
