//! The tolerant value types of the models: ids, unknown fields kept as
//! received, open-shape JSON kept as text.

use crate::text::Untrusted;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

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

/// Fields the client does not know, kept as received: their compact JSON
/// text, parsed when read (the open task) and kept then. Empty, it costs
/// one pointer; the same few fields on every task of a list (a service
/// sending `"parent_task_id": null`) are stored once, like short strings.
#[derive(Clone, Default)]
pub struct Extra(Option<Arc<ExtraFields>>);

struct ExtraFields {
    text: Box<str>,
    parsed: OnceLock<Map<String, Value>>,
}

/// Texts of unknown fields up to this length are shared.
const EXTRA_SHARED_MAX: usize = 64;

impl Extra {
    fn from_map(m: Map<String, Value>) -> Extra {
        if m.is_empty() {
            return Extra(None);
        }
        let text = serde_json::to_string(&m).unwrap_or_default();
        if text.len() > EXTRA_SHARED_MAX {
            return Extra(Some(Arc::new(ExtraFields {
                text: text.into(),
                parsed: OnceLock::new(),
            })));
        }
        type Pool = Mutex<HashMap<Box<str>, Arc<ExtraFields>>>;
        static POOL: OnceLock<Pool> = OnceLock::new();
        let mut pool = POOL
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let shared = pool.entry(text.as_str().into()).or_insert_with(|| {
            Arc::new(ExtraFields {
                text: text.into(),
                parsed: OnceLock::from(m),
            })
        });
        Extra(Some(shared.clone()))
    }

    /// The fields, parsed once and kept.
    fn map(&self) -> Option<&Map<String, Value>> {
        let f = self.0.as_ref()?;
        Some(
            f.parsed
                .get_or_init(|| serde_json::from_str(&f.text).unwrap_or_default()),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    pub fn get(&self, k: &str) -> Option<&Value> {
        self.map().and_then(|m| m.get(k))
    }
    pub fn contains_key(&self, k: &str) -> bool {
        self.get(k).is_some()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.map().into_iter().flat_map(|m| m.iter())
    }
    pub fn len(&self) -> usize {
        self.map().map_or(0, |m| m.len())
    }
}

impl PartialEq for Extra {
    fn eq(&self, other: &Extra) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) if a.text != b.text => self.map() == other.map(),
            (a, b) => a.is_some() == b.is_some(),
        }
    }
}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("Extra({})"),
            Some(x) => write!(f, "Extra({})", x.text),
        }
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
        // Storing a task does not leave a parsed map behind in it.
        let parsed;
        let map = match &self.0 {
            None => None,
            Some(f) => match f.parsed.get() {
                Some(m) => Some(m),
                None => {
                    parsed = serde_json::from_str::<Map<String, Value>>(&f.text).ok();
                    parsed.as_ref()
                }
            },
        };
        let mut m = s.serialize_map(map.map(|m| m.len()))?;
        for (k, v) in map.into_iter().flatten() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Extra::from_map(Map::<String, Value>::deserialize(d)?))
    }
}

/// An open-shape field (agent, team, matter, files…). Kept as its compact
/// JSON text, parsed only when shown: a list of ten thousand tasks does not
/// hold ten thousand parsed trees. `null` or absent costs nothing but its
/// pointer (8 bytes). The same text on many tasks (`[]`, the same agent,
/// team or matter: an organisation has a handful) is stored once, parsed
/// once when shown.
#[derive(Clone, Default)]
pub struct Json(Option<Arc<JsonText>>);

struct JsonText {
    raw: Box<str>,
    parsed: OnceLock<Box<Value>>,
}

/// The pool of open-shape texts, keyed by the text itself (no second copy).
struct Pooled(Arc<JsonText>);

impl std::borrow::Borrow<str> for Pooled {
    fn borrow(&self) -> &str {
        &self.0.raw
    }
}
impl std::hash::Hash for Pooled {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.raw.hash(h)
    }
}
impl PartialEq for Pooled {
    fn eq(&self, o: &Pooled) -> bool {
        self.0.raw == o.0.raw
    }
}
impl Eq for Pooled {}

struct JsonPool {
    set: std::collections::HashSet<Pooled>,
    prune_at: usize,
}

/// Pruned when it has doubled since the last time: texts only the pool
/// holds (their tasks are gone) are let go, so it follows what is loaded.
const JSON_PRUNE_FLOOR: usize = 1024;

fn json_pool() -> std::sync::MutexGuard<'static, JsonPool> {
    static POOL: OnceLock<Mutex<JsonPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        Mutex::new(JsonPool {
            set: Default::default(),
            prune_at: JSON_PRUNE_FLOOR,
        })
    })
    .lock()
    .unwrap_or_else(|e| e.into_inner())
}

fn prune_json(pool: &mut JsonPool) {
    // Under the lock: a text held by the pool alone cannot be handed out
    // meanwhile.
    pool.set.retain(|p| Arc::strong_count(&p.0) > 1);
    pool.set.shrink_to_fit();
    pool.prune_at = (pool.set.len() * 2).max(JSON_PRUNE_FLOOR);
}

static NULL: Value = Value::Null;

impl Json {
    /// From JSON text; `null` keeps nothing.
    fn from_text(text: &str) -> Json {
        if text.trim() == "null" {
            return Json(None);
        }
        let mut pool = json_pool();
        if let Some(shared) = pool.set.get(text) {
            return Json(Some(shared.0.clone()));
        }
        if pool.set.len() >= pool.prune_at {
            prune_json(&mut pool);
        }
        let shared = Arc::new(JsonText {
            raw: Box::from(text),
            parsed: OnceLock::new(),
        });
        pool.set.insert(Pooled(shared.clone()));
        Json(Some(shared))
    }
}

impl Json {
    /// The value without keeping a parsed tree: what was parsed already,
    /// else a parse for the caller alone. For reading every task of a
    /// list (the directory, the store) where keeping ten thousand trees
    /// would cost megabytes.
    pub fn value(&self) -> std::borrow::Cow<'_, Value> {
        use std::borrow::Cow;
        match &self.0 {
            None => Cow::Borrowed(&NULL),
            Some(j) => match j.parsed.get() {
                Some(v) => Cow::Borrowed(v),
                None => Cow::Owned(serde_json::from_str(&j.raw).unwrap_or(Value::Null)),
            },
        }
    }

    /// A tree is kept (the field was shown).
    pub fn is_parsed(&self) -> bool {
        self.0.as_ref().is_some_and(|j| j.parsed.get().is_some())
    }
}

impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("Json(null)"),
            Some(j) => write!(f, "Json({})", j.raw),
        }
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        self.0.as_ref().map(|j| &j.raw) == other.0.as_ref().map(|j| &j.raw)
    }
}

impl std::ops::Deref for Json {
    type Target = Value;
    fn deref(&self) -> &Value {
        match &self.0 {
            None => &NULL,
            Some(j) => j
                .parsed
                .get_or_init(|| Box::new(serde_json::from_str(&j.raw).unwrap_or(Value::Null))),
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Storing a task does not leave a tree behind in it.
        self.value().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The text as received, without building a tree on the way.
        let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
        Ok(Json::from_text(raw.get()))
    }
}

pub(crate) fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A number the service may send as a number, as text (`"12"`, `"#12"`)
/// or in another shape: an integer when it is one, else none — never an
/// error that makes the whole record unreadable.
pub(crate) fn lenient_number<'de, D>(d: D) -> Result<Option<i64>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        serde_json::Value::String(s) => s.trim().trim_start_matches('#').parse().ok(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::Task;

    /// #32 §13: a task whose `task_number` is text (or another odd shape)
    /// decodes, both ways, with its `display_id` as received.
    #[test]
    fn a_task_number_sent_as_text_or_an_odd_shape_still_decodes() {
        for (n, want) in [
            (serde_json::json!("1157"), Some(1157)),
            (serde_json::json!("#12"), Some(12)),
            (serde_json::json!(12.0), Some(12)),
            (serde_json::json!(7), Some(7)),
            (serde_json::json!("A-12"), None),
            (serde_json::json!(true), None),
            (serde_json::json!({"n": 1}), None),
            (serde_json::json!(null), None),
        ] {
            let v = serde_json::json!({"id": "x", "display_id": "A-12", "task_number": n, "title": "T"});
            let a: Task = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{n}: {e}"));
            let b: Task =
                serde_json::from_str(&v.to_string()).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert_eq!(a.task_number, want, "{n}");
            assert_eq!(b.task_number, want, "{n}");
            assert_eq!(a.label(), "A-12");
        }
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
    fn unknown_fields_are_kept_as_received_and_the_same_few_are_stored_once() {
        let a: Task = serde_json::from_str(r#"{"id":"a","parent_task_id":null}"#).unwrap();
        let b: Task = serde_json::from_str(r#"{"id":"b","parent_task_id":null}"#).unwrap();
        let (Some(x), Some(y)) = (&a.extra.0, &b.extra.0) else {
            panic!("kept: {:?}", a.extra)
        };
        assert!(std::sync::Arc::ptr_eq(x, y), "one copy for every task");
        assert_eq!(a.extra, b.extra);
        assert!(a.extra.contains_key("parent_task_id") && a.extra.len() == 1);
        assert!(a.parent_id().is_none());
        let back = serde_json::to_value(&a).unwrap();
        assert!(
            back.as_object().unwrap().contains_key("parent_task_id"),
            "{back}"
        );
        // Larger ones are kept per task, parsed only when read.
        let long = "x".repeat(80);
        let json = format!(r#"{{"id":"c","parent_task_id":"p-1","x_note":"{long}","x_n":[1,2]}}"#);
        let c: Task = serde_json::from_str(&json).unwrap();
        let c2: Task = serde_json::from_str(&json).unwrap();
        assert!(!std::sync::Arc::ptr_eq(
            c.extra.0.as_ref().unwrap(),
            c2.extra.0.as_ref().unwrap()
        ));
        let stored = serde_json::to_string(&c).unwrap();
        assert!(
            stored.ends_with(&format!(
                r#""parent_task_id":"p-1","x_note":"{long}","x_n":[1,2]}}"#
            )),
            "{stored}"
        );
        assert!(
            c.extra.0.as_ref().unwrap().parsed.get().is_none(),
            "storing parses for itself"
        );
        assert_eq!(c.parent_id().as_deref(), Some("p-1"));
        assert_eq!(c.extra["x_n"][1], 2);
        assert_eq!(c, c2, "parsed or not, the same fields");
        let none: Task = serde_json::from_str(r#"{"id":"d"}"#).unwrap();
        assert!(none.extra.is_empty() && none.extra.0.is_none());
        assert_ne!(none.extra, a.extra);
    }

    #[test]
    fn the_same_open_shape_text_is_stored_once_and_let_go_with_its_last_task() {
        use super::{json_pool, prune_json};
        let json = r#"{"id":"x","matter":{"id":"m-shared-once","name":"Shared matter, a long name past sixty-four bytes"}}"#;
        let a: Task = serde_json::from_str(json).unwrap();
        let b: Task = serde_json::from_str(json).unwrap();
        let (Some(x), Some(y)) = (&a.matter.0, &b.matter.0) else {
            panic!("kept: {:?}", a.matter)
        };
        assert!(std::sync::Arc::ptr_eq(x, y), "one copy for every task");
        assert_eq!(
            b.matter["name"],
            "Shared matter, a long name past sixty-four bytes"
        );
        assert!(a.matter.is_parsed(), "parsed once for both");
        let text = x.raw.to_string();
        let mut pool = json_pool();
        drop((a, b));
        assert!(pool.set.contains(text.as_str()));
        prune_json(&mut pool);
        assert!(!pool.set.contains(text.as_str()), "no task holds it");
        assert_eq!(std::mem::size_of::<super::Json>(), 8);
    }

    #[test]
    fn reading_an_open_shape_for_the_store_or_the_directory_keeps_no_tree() {
        let v = serde_json::json!({"id": "x", "matter": {"name": "M-1"}, "shared_teams": [{"id": "t"}]});
        let t: Task = serde_json::from_str(&v.to_string()).unwrap();
        assert_eq!(t.shared_teams.value()[0]["id"], "t");
        let json = serde_json::to_string(&t).unwrap();
        assert!(json.contains(r#""matter":{"name":"M-1"}"#), "{json}");
        assert!(!t.matter.is_parsed() && !t.shared_teams.is_parsed());
        // Shown: parsed once and kept, and read from then on.
        assert_eq!(t.matter["name"], "M-1");
        assert!(t.matter.is_parsed());
        assert!(matches!(t.matter.value(), std::borrow::Cow::Borrowed(_)));
    }
}
