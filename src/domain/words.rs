//! Small words shared by the state and the drawing: counts, ages, a
//! reply's delivery.

use crate::api::DeliveryStatus;

/// `1 file`, `3 files`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "3m ago", "2h ago", "yesterday"; a time ahead (a skewed clock) is
/// "just now".
pub fn age(secs: i64, now: i64) -> String {
    // Saturating: the seconds come from the store, which may hold anything.
    let d = now.saturating_sub(secs).max(0);
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

/// A reply to the requester as the status line says it: `reply sent`, as
/// other actions say what they did (`comment saved`), else `reply` and
/// its delivery as the service said it (`reply DRAFT — …`); the compose
/// path and a macro's step say it alike.
pub fn reply_said(s: Option<&DeliveryStatus>) -> String {
    match s {
        Some(DeliveryStatus::Sent) => "reply sent".into(),
        _ => format!("reply {}", delivery_text(s)),
    }
}

/// What a task answering 404 is: deleted, or its sharing changed.
pub const GONE: &str = "gone, or no longer visible to you";

/// How a held edit whose task can no longer be read says so (#32 §12).
pub const ACCESS_LOST: &str = "access lost";

/// Joins a number to its unit so that wrapping never parts them.
pub const NBSP: char = '\u{a0}';

/// A size as people say it: `1 byte`, `512 bytes`, `225 KB`, `1.2 MB`
/// (1 KB = 1024 bytes); the number and unit are joined by a no-break
/// space.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KB", "MB", "GB", "TB", "PB", "EB"];
    match bytes {
        1 => return format!("1{NBSP}byte"),
        n if n < 1024 => return format!("{n}{NBSP}bytes"),
        _ => {}
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    let mut text = if v < 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    };
    // 1023.7 KB reads as 1 MB, not 1024 KB.
    if text == "1024" && unit < UNITS.len() - 1 {
        text = "1".into();
        unit += 1;
    }
    let text = text.strip_suffix(".0").unwrap_or(&text).to_string();
    format!("{text}{NBSP}{}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::age;

    #[test]
    fn ages_never_overflow() {
        assert_eq!(age(i64::MIN, 1_800_000_000), "106751991167300d ago");
        assert_eq!(age(i64::MAX, 1_800_000_000), "just now");
        assert_eq!(age(1_800_000_000 - 7200, 1_800_000_000), "2h ago");
    }
}
