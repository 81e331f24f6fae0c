//! What every handler reads from a request, and the prologue and close of
//! a task edit: who calls (`Caller`), the JSON body, uuids, the clock. A
//! leaf below the handlers (`tasks`, `list`, `collab`, `sharing`).

use std::sync::MutexGuard;

use axum::body::Bytes;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::Json;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::shared::AppState;
use super::store::{ApiError, ApiResult, Store};

/// The user the request's API key acts as.
pub(crate) struct Caller(pub usize);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let unauthorized = |m: &str| ApiError::new(StatusCode::UNAUTHORIZED, m);
        let Some(h) = parts.headers.get(header::AUTHORIZATION) else {
            return Err(unauthorized(
                "missing API key: send the header Authorization: Bearer <key>",
            ));
        };
        let key = h
            .to_str()
            .ok()
            .and_then(|h| h.strip_prefix("Bearer "))
            .map(str::trim)
            .unwrap_or("");
        let user = state.keys.lock().unwrap().get(key).copied();
        user.map(Caller)
            .ok_or_else(|| unauthorized("invalid API key"))
    }
}

/// Current time, second precision.
pub(crate) fn now() -> Timestamp {
    Timestamp::from_second(Timestamp::now().as_second()).unwrap()
}

/// A fresh `updated_at` strictly after `prev`.
pub(crate) fn bump(prev: Timestamp) -> Timestamp {
    now().max(prev + SignedDuration::from_secs(1))
}

/// Parses a request body that must be a JSON object.
pub(crate) fn json_body(b: &Bytes) -> ApiResult<Map<String, Value>> {
    if b.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad("a JSON object body is required"));
    }
    match serde_json::from_slice::<Value>(b) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(ApiError::bad("the request body must be a JSON object")),
        Err(e) => Err(ApiError::bad(format!("invalid JSON body: {e}"))),
    }
}

pub(crate) fn parse_uuid(field: &str, v: &str) -> ApiResult<Uuid> {
    Uuid::parse_str(v).map_err(|_| ApiError::bad(format!("{field}: {v:?} is not a uuid")))
}

/// The prologue of every handler that edits a task with a body, in the
/// order the answers depend on: the body must be a JSON object (a 400
/// first), then the task one the caller sees (a 404); the store stays
/// locked for the edit.
pub(crate) fn edit_task<'a>(
    st: &'a AppState,
    u: usize,
    id: &str,
    body: &Bytes,
) -> ApiResult<(Map<String, Value>, MutexGuard<'a, Store>, usize)> {
    let b = json_body(body)?;
    let s = st.store.lock().unwrap();
    let idx = s.visible_task(id, u)?;
    Ok((b, s, idx))
}

/// The close of an edit made to task `idx` in place: a fresh `updated_at`,
/// and the task as a single-task answer shows it.
pub(crate) fn touched(s: &mut Store, idx: usize) -> Json<Value> {
    let t = &mut s.tasks[idx];
    t.updated_at = bump(t.updated_at);
    Json(s.render_task(idx, true))
}
