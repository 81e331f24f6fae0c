//! The service's resources, read tolerantly.
//!
//! Enums keep values the client does not know (`Other`), open-shape fields
//! stay JSON, and fields the client does not know are kept in `extra` so that
//! nothing the service sent is lost.

mod conversation;
mod display;
mod layout;
mod people;
mod shared;
mod stamp;
mod task;
mod values;

pub use conversation::*;
pub use display::*;
pub use layout::*;
pub use people::*;
pub use shared::Shared;
pub use stamp::Stamp;
pub use task::*;
pub use values::*;

use crate::text::Untrusted;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
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
}
