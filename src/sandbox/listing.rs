//! The shape of the listings the spec does not show (comments, requester
//! thread): a bare array (the default) or the task list's envelope
//! `{"items": [...], "cursor": ...}` paged like the task list. `--quirks`
//! turns the envelope on; tests pick either with
//! [`Sandbox::set_listing_shape`](super::Sandbox::set_listing_shape).

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use serde_json::{json, Value};

use super::list::{page_range, paging};
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
