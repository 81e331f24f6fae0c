//! Answers that replace what is shown: list pages and tasks, under one
//! staleness rule — an answer about a task never replaces a newer version.

use crate::api::*;

mod handle;

/// `b` is a version at least as new as `a` (unreadable times: assume so).
pub fn newer_or_same(a: Option<&str>, b: Option<&str>) -> bool {
    let p = |s: Option<&str>| s.and_then(crate::api::parse_timestamp);
    match (p(a), p(b)) {
        (Some(a), Some(b)) => b >= a,
        _ => true,
    }
}

/// `b` is a newer version than `a` (unreadable times: assume so).
pub fn newer(a: Option<&str>, b: Option<&str>) -> bool {
    let p = |s: Option<&str>| s.and_then(crate::api::parse_timestamp);
    match (p(a), p(b)) {
        (Some(a), Some(b)) => b > a,
        _ => true,
    }
}

/// `a` and `b` name the same version: the same instant however written
/// (`…10:00:00Z`, `…10:00:00.000+00:00`), else the same text.
pub fn same_version(a: Option<&str>, b: Option<&str>) -> bool {
    let p = |s: Option<&str>| s.and_then(crate::api::parse_timestamp);
    match (p(a), p(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
