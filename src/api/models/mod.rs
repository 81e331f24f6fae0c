//! The service's resources, read tolerantly.
//!
//! Enums keep values the client does not know (`Other`), open-shape fields
//! stay JSON, and fields the client does not know are kept in `extra` so that
//! nothing the service sent is lost.

pub mod bound;
mod clock;
mod conversation;
mod display;
mod enums;
mod layout;
mod people;
mod shared;
mod stamp;
mod task;
mod values;

#[cfg(test)]
pub use clock::with_zone;
pub use clock::{
    end_of_local_day, parse_date, parse_datetime, parse_rfc3339, set_zone, system_zone, to_rfc3339,
    to_utc_seconds, unix_millis, unix_seconds, utc, ymd, zone,
};
pub use conversation::*;
pub use display::*;
pub use enums::*;
pub use layout::*;
pub use people::*;
pub use shared::{One, Shared};
pub use stamp::Stamp;
pub use task::*;
pub use values::*;

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
