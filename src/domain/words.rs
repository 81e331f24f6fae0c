//! Small words shared by the state and the drawing: counts, ages, a
//! reply's delivery.

use crate::api::DeliveryStatus;

/// `1 file`, `3 files`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "3m ago", "2h ago", "yesterday".
pub fn age(secs: i64, now: i64) -> String {
    let d = (now - secs).max(0);
    match d {
        0..=59 => "just now".into(),
        60..=3599 => format!("{}m ago", d / 60),
        3600..=86_399 => format!("{}h ago", d / 3600),
        86_400..=172_799 => "yesterday".into(),
        _ => format!("{}d ago", d / 86_400),
    }
}

/// How a requester reply's delivery reads: never "sent" unless the service
/// said `sent`.
pub fn delivery_text(s: Option<&DeliveryStatus>) -> &'static str {
    match s {
        Some(DeliveryStatus::Sent) => "Sent",
        Some(DeliveryStatus::Draft) => "DRAFT — staged in the mailbox owner's drafts, not sent",
        Some(DeliveryStatus::Other(_)) | None => "delivery status unknown — NOT confirmed as sent",
    }
}
