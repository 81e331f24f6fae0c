//! `GET /api/v1/tasks`: filters, ordering and page-number cursors.

use std::collections::HashMap;
use std::ops::Bound;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use jiff::{SignedDuration, Timestamp};
use serde_json::{json, Value};

use super::index::{ListCursor, ListKey};
use super::listing::limit_of;
use super::request::{parse_uuid, Caller};
use super::shared::AppState;
use super::store::*;

pub(crate) async fn list_tasks(
    State(st): State<AppState>,
    Caller(u): Caller,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = q.map_err(|e| ApiError::bad(format!("invalid query string: {e}")))?;
    let get = |k: &str| q.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
    let (limit, ListCursor { page, after }) = list_paging(&q)?;
    let list = |k: &str| -> Vec<String> {
        get(k)
            .map(|v| {
                v.split(',')
                    .map(|x| x.trim().to_lowercase())
                    .filter(|x| !x.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    let statuses = list("status");
    for st in &statuses {
        if !STATUSES.contains(&st.as_str()) {
            return Err(ApiError::bad(format!(
                "status: {st:?} is not one of {}",
                STATUSES.join(", ")
            )));
        }
    }
    let priority = get("priority").map(str::to_lowercase);
    if let Some(p) = &priority {
        if !PRIORITIES.contains(&p.as_str()) {
            return Err(ApiError::bad(format!(
                "priority: {p:?} is not one of {}",
                PRIORITIES.join(", ")
            )));
        }
    }
    let uuid_param = |k: &str| get(k).map(|v| parse_uuid(k, v)).transpose();
    let assigned_to = uuid_param("assigned_to")?;
    let involving = uuid_param("involving")?;
    let team_id = uuid_param("team_id")?;
    let tags = list("tags");
    let date_param = |k: &str, end_of_day: bool| -> ApiResult<Option<Timestamp>> {
        let Some(v) = get(k) else { return Ok(None) };
        let d = parse_ts(v).ok_or_else(|| {
            ApiError::bad(format!("{k}: {v:?} is not an ISO 8601 date or date-time"))
        })?;
        let date_only = v.len() == 10;
        Ok(Some(if end_of_day && date_only {
            d + SignedDuration::from_hours(24) - SignedDuration::from_secs(1)
        } else {
            d
        }))
    };
    let from = date_param("complete_by_from", false)?;
    let to = date_param("complete_by_to", true)?;
    let query = get("query").map(str::to_lowercase);

    let s = st.store.lock().unwrap();
    let user_id_of = |i: usize| s.users[i].id;
    let matches = |i: usize| -> bool {
        let t = &s.tasks[i];
        if t.archived || t.draft || !s.visible(t, u) {
            return false;
        }
        if !statuses.is_empty() && !statuses.contains(&t.status) {
            return false;
        }
        if priority.as_ref().is_some_and(|p| *p != t.priority) {
            return false;
        }
        if let Some(a) = assigned_to {
            if t.assignee.map(user_id_of) != Some(a) {
                return false;
            }
        }
        if let Some(p) = involving {
            if !(user_id_of(t.creator) == p
                || t.assignee.map(user_id_of) == Some(p)
                || t.involved.iter().any(|x| user_id_of(x.user) == p))
            {
                return false;
            }
        }
        if team_id.is_some_and(|id| s.teams[t.team].id != id) {
            return false;
        }
        if !tags
            .iter()
            .all(|tag| t.tags.iter().any(|x| x.to_lowercase() == *tag))
        {
            return false;
        }
        if from.is_some() || to.is_some() {
            let Some(due) = t.complete_by else {
                return false;
            };
            if from.is_some_and(|f| due < f) || to.is_some_and(|x| due > x) {
                return false;
            }
        }
        if let Some(q) = &query {
            if !t.search.contains(q.as_str()) {
                return false;
            }
        }
        true
    };
    let empty = Default::default();
    let list = s.org_list(s.users[u].org).unwrap_or(&empty);
    let offset = page.saturating_mul(limit);
    // Seek from where the cursor's page ended; with another limit than
    // it was issued with, count from there (the spec's skip or repeat).
    let (from_key, skip) = match after {
        None => (Bound::Unbounded, offset),
        Some((ended, key)) if offset >= ended => (Bound::Excluded(key), offset - ended),
        Some((ended, key)) => {
            let back = (ended - offset) as usize;
            let start = list
                .range(..=key)
                .rev()
                .filter(|(_, &i)| matches(i))
                .nth(back - 1)
                .map(|(k, _)| *k);
            (start.map_or(Bound::Unbounded, Bound::Included), 0)
        }
    };
    let rows: Vec<(&ListKey, usize)> = list
        .range((from_key, Bound::Unbounded))
        .filter(|(_, &i)| matches(i))
        .skip(usize::try_from(skip).unwrap_or(usize::MAX))
        .take(limit as usize + 1)
        .map(|(k, &i)| (k, i))
        .collect();
    let more = rows.len() > limit as usize;
    let rows = &rows[..rows.len().min(limit as usize)];
    let cursor = match rows.last() {
        Some((last, _)) if more => Value::String(ListCursor::encode(page + 1, limit, last)),
        _ => Value::Null,
    };
    let items: Vec<Value> = rows.iter().map(|(_, i)| s.render_task(*i, false)).collect();
    Ok(Json(json!({"items": items, "cursor": cursor})))
}

/// `limit` and the cursor of the task list (see [`ListCursor`]); 400 for
/// bad values.
fn list_paging(q: &HashMap<String, String>) -> ApiResult<(u64, ListCursor)> {
    let limit = limit_of(q)?;
    let cursor = match q.get("cursor").map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => ListCursor {
            page: 0,
            after: None,
        },
        Some(c) => {
            ListCursor::decode(c).ok_or_else(|| ApiError::bad(format!("invalid cursor {c:?}")))?
        }
    };
    Ok((limit, cursor))
}
