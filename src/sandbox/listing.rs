//! The shape of the listings the spec does not show (comments, requester
//! thread): a bare array (the default) or the task list's envelope
//! `{"items": [...], "cursor": ...}` paged like the task list. `--quirks`
//! turns the envelope on; tests pick either with
//! [`Sandbox::set_listing_shape`](super::Sandbox::set_listing_shape). Also
//! the paging every listing shares, the task list's too: `limit` and the
//! page-number cursor.

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use base64::Engine;
use serde_json::{json, Value};

use super::store::{ApiError, ApiResult};

/// How comment and thread listings are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListingShape {
    /// A bare JSON array of every item (the query string is ignored).
    #[default]
    Array,
    /// `{"items": [...], "cursor": "..." | null}`, `limit` 1–100 (default
    /// 20) and `cursor` exactly as on the task list.
    Envelope,
}

impl std::str::FromStr for ListingShape {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "array" => Ok(ListingShape::Array),
            "envelope" => Ok(ListingShape::Envelope),
            other => Err(format!(
                "listing shape {other:?} is not one of: array, envelope"
            )),
        }
    }
}

/// The query string of a listing request; read only in the envelope shape
/// (the array shape ignores it, as before).
pub(crate) type ListingQuery = Result<Query<HashMap<String, String>>, QueryRejection>;

/// Answer a listing of `total` items in `shape`; `render(range)` renders the
/// items of the page asked for.
pub(crate) fn respond(
    shape: ListingShape,
    q: ListingQuery,
    total: usize,
    render: impl FnOnce(std::ops::Range<usize>) -> Vec<Value>,
) -> ApiResult<Json<Value>> {
    match shape {
        ListingShape::Array => Ok(Json(Value::Array(render(0..total)))),
        ListingShape::Envelope => {
            let Query(q) = q.map_err(|e| ApiError::bad(format!("invalid query string: {e}")))?;
            let (limit, page) = paging(&q)?;
            let (range, cursor) = page_range(total, limit, page);
            Ok(Json(json!({"items": render(range), "cursor": cursor})))
        }
    }
}

fn encode_cursor(page: u64) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("page:{page}"))
}

fn decode_cursor(c: &str) -> Option<u64> {
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(c.trim_end_matches('='))
        .ok()?;
    String::from_utf8(raw)
        .ok()?
        .strip_prefix("page:")?
        .parse()
        .ok()
}

/// `limit`: 1–100, default 20; 400 for bad values.
pub(crate) fn limit_of(q: &HashMap<String, String>) -> ApiResult<u64> {
    let get = |k: &str| q.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
    Ok(match get("limit") {
        None => 20,
        Some(l) => match l.parse::<i64>() {
            Ok(n) if (1..=100).contains(&n) => n as u64,
            _ => {
                return Err(ApiError::bad(format!(
                    "limit must be an integer from 1 to 100, got {l:?}"
                )))
            }
        },
    })
}

/// `limit` (1–100, default 20) and the page number of `cursor` (default 0)
/// of a paged listing; 400 for bad values.
pub(crate) fn paging(q: &HashMap<String, String>) -> ApiResult<(u64, u64)> {
    let get = |k: &str| q.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
    let limit = limit_of(q)?;
    let page = match get("cursor") {
        None => 0,
        Some(c) => {
            decode_cursor(c).ok_or_else(|| ApiError::bad(format!("invalid cursor {c:?}")))?
        }
    };
    Ok((limit, page))
}

/// The rows of page `page` of `total` rows (offset = page × limit of the
/// current request) and the next page's cursor (null at the end).
pub(crate) fn page_range(total: usize, limit: u64, page: u64) -> (std::ops::Range<usize>, Value) {
    let total = total as u64;
    let offset = page.saturating_mul(limit);
    let start = offset.min(total) as usize;
    let end = offset.saturating_add(limit).min(total) as usize;
    let cursor = if offset.saturating_add(limit) < total {
        Value::String(encode_cursor(page + 1))
    } else {
        Value::Null
    };
    (start..end, cursor)
}
