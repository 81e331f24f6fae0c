//! Timestamps as the service sent them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A timestamp as the service sent it (ISO 8601), kept exactly: inline up
/// to 24 bytes (every timestamp the service sends), so the three of a task
/// cost no allocation. Reads as a `str`.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp(compact_str::CompactString);

impl Stamp {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Stamp {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Stamp {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl From<&str> for Stamp {
    fn from(s: &str) -> Stamp {
        Stamp(s.into())
    }
}
impl From<String> for Stamp {
    fn from(s: String) -> Stamp {
        Stamp(s.into())
    }
}
impl From<&String> for Stamp {
    fn from(s: &String) -> Stamp {
        Stamp(s.as_str().into())
    }
}
impl From<Stamp> for String {
    fn from(s: Stamp) -> String {
        s.0.into()
    }
}
impl From<&Stamp> for String {
    fn from(s: &Stamp) -> String {
        s.as_str().to_string()
    }
}
impl PartialEq<str> for Stamp {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}
impl PartialEq<&str> for Stamp {
    fn eq(&self, o: &&str) -> bool {
        self.as_str() == *o
    }
}
impl PartialEq<String> for Stamp {
    fn eq(&self, o: &String) -> bool {
        self.as_str() == o
    }
}
impl PartialEq<Stamp> for String {
    fn eq(&self, o: &Stamp) -> bool {
        self == o.as_str()
    }
}

impl Serialize for Stamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Stamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a timestamp")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Stamp, E> {
                Ok(Stamp::from(v))
            }
            // A number or a boolean (the spec says a string) is kept as its
            // text, shown as received: one odd time must not make the whole
            // task unreadable.
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Stamp, E> {
                Ok(Stamp::from(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Stamp, E> {
                Ok(Stamp::from(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Stamp, E> {
                Ok(Stamp::from(v.to_string()))
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Stamp, E> {
                Ok(Stamp::from(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A time of a comment or message as received: a string, or a number or
/// boolean kept as its text (see [`Stamp`]); null is none.
pub fn time_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<Stamp>::deserialize(d)?.map(String::from))
}

#[cfg(test)]
mod tests {
    use super::super::Task;
    use super::Stamp;

    #[test]
    fn timestamps_are_kept_exactly_and_inline() {
        let json = r#"{"id":"x","created_at":"2026-11-10T18:18:19Z","updated_at":"2026-11-10T18:18:19.123456789+01:00","complete_by":"2026-12-01"}"#;
        let t: Task = serde_json::from_str(json).unwrap();
        let c = t.created_at.as_ref().unwrap();
        assert!(!c.0.is_heap_allocated(), "no allocation for a timestamp");
        assert_eq!(c, "2026-11-10T18:18:19Z");
        assert_eq!(t.complete_by.as_deref(), Some("2026-12-01"));
        assert!(t.due().is_some());
        let back = serde_json::to_value(&t).unwrap();
        assert_eq!(back["updated_at"], "2026-11-10T18:18:19.123456789+01:00");
        assert_eq!(
            std::mem::size_of::<Option<Stamp>>(),
            std::mem::size_of::<String>()
        );
    }

    #[test]
    fn a_time_sent_as_a_number_keeps_the_task_readable() {
        let json = r#"{"id":"x","title":"t","created_at":1732000000,"updated_at":1.5,"complete_by":false}"#;
        let item = super::super::TaskItem::from_json(json);
        let t = item.task().expect("one odd time is not an unreadable task");
        assert_eq!(t.created_at.as_deref(), Some("1732000000"));
        assert_eq!(t.updated_at.as_deref(), Some("1.5"));
        // Shown as received, never read as a date.
        assert_eq!(t.complete_by.as_deref(), Some("false"));
        assert_eq!(t.due(), None);
        assert_eq!(
            crate::domain::dates::when(t.created_at.as_deref()),
            "1732000000"
        );
        // Null is no time; an object is still not one.
        let t: Task = serde_json::from_str(r#"{"id":"x","updated_at":null}"#).unwrap();
        assert_eq!(t.updated_at, None);
        assert!(serde_json::from_str::<Task>(r#"{"id":"x","updated_at":{}}"#).is_err());
    }
}
