//! The tolerant value types of the models: ids, unknown fields kept as
//! received, open-shape JSON kept as text.

use crate::text::Untrusted;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

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

impl Json {
    /// The value without keeping a parsed tree: what was parsed already,
    /// else a parse for the caller alone. For reading every task of a
    /// list (the directory, the store) where keeping ten thousand trees
    /// would cost megabytes.
    pub fn value(&self) -> std::borrow::Cow<'_, Value> {
        use std::borrow::Cow;
        match (&self.raw, self.parsed.get()) {
            (None, _) => Cow::Borrowed(&NULL),
            (Some(_), Some(v)) => Cow::Borrowed(v),
            (Some(raw), None) => Cow::Owned(serde_json::from_str(raw).unwrap_or(Value::Null)),
        }
    }

    /// A tree is kept (the field was shown).
    pub fn is_parsed(&self) -> bool {
        self.parsed.get().is_some()
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

#[cfg(test)]
mod tests {
    use super::super::Task;

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
