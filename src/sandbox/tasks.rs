//! The task endpoints: get, subtasks, create, patch, delete.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use jiff::Timestamp;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::collab;
use super::request::{bump, edit_task, json_body, now, parse_uuid, Caller};
use super::shared::AppState;
use super::store::*;

/// A uuid-valued body field that may be null (`Ok(None)`).
fn nullable_uuid(field: &str, v: &Value) -> ApiResult<Option<Uuid>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => parse_uuid(field, s).map(Some),
        _ => Err(ApiError::bad(format!(
            "{field} must be a uuid string or null"
        ))),
    }
}

fn nullable_string(field: &str, v: &Value) -> ApiResult<Option<String>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        _ => Err(ApiError::bad(format!("{field} must be a string or null"))),
    }
}

fn enum_value(field: &str, v: &Value, allowed: &[&str]) -> ApiResult<String> {
    match v.as_str() {
        Some(s) if allowed.contains(&s) => Ok(s.to_string()),
        _ => Err(ApiError::bad(format!(
            "{field}: {v} is not one of {}",
            allowed.join(", ")
        ))),
    }
}

fn tags_value(v: &Value) -> ApiResult<Vec<String>> {
    let arr = v
        .as_array()
        .ok_or_else(|| ApiError::bad("tags must be an array of strings"))?;
    let mut out = Vec::new();
    for t in arr {
        let t = t
            .as_str()
            .ok_or_else(|| ApiError::bad("tags must be an array of strings"))?
            .trim();
        if !t.is_empty() && !out.iter().any(|x: &String| x == t) {
            out.push(t.to_string());
        }
    }
    Ok(out)
}

fn date_value(field: &str, v: &Value) -> ApiResult<Option<Timestamp>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => parse_ts(s).map(Some).ok_or_else(|| {
            ApiError::bad(format!(
                "{field}: {s:?} is not an ISO 8601 date or date-time"
            ))
        }),
        _ => Err(ApiError::bad(format!(
            "{field} must be an ISO 8601 string or null"
        ))),
    }
}

fn org_person(s: &Store, org: usize, field: &str, id: Uuid) -> ApiResult<usize> {
    s.user_by_id(org, &id).ok_or_else(|| {
        ApiError::bad(format!(
            "{field}: no person with id {id} in this organisation"
        ))
    })
}

fn org_record(list: &[Named], org: usize, field: &str, id: Uuid) -> ApiResult<usize> {
    list.iter()
        .position(|n| n.id == id && n.org == org)
        .ok_or_else(|| {
            ApiError::bad(format!(
                "{field}: no record with id {id} in this organisation"
            ))
        })
}

fn org_team(s: &Store, org: usize, field: &str, id: Uuid) -> ApiResult<usize> {
    s.teams
        .iter()
        .position(|t| t.id == id && t.org == org)
        .ok_or_else(|| {
            ApiError::bad(format!(
                "{field}: no team with id {id} in this organisation"
            ))
        })
}

pub(crate) async fn get_task(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    Ok(Json(s.render_task(idx, true)))
}

pub(crate) async fn subtasks(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    let pid = s.tasks[idx].id;
    let mut subs: Vec<usize> = s
        .children
        .get(&pid)
        .into_iter()
        .flatten()
        .copied()
        .filter(|&i| {
            let t = &s.tasks[i];
            t.parent == Some(pid) && !t.archived && !t.draft && s.visible(t, u)
        })
        .collect();
    subs.sort_by_key(|i| s.tasks[*i].number);
    Ok(Json(Value::Array(
        subs.into_iter().map(|i| s.render_task(i, false)).collect(),
    )))
}

pub(crate) async fn create_task(
    State(st): State<AppState>,
    Caller(u): Caller,
    body: Bytes,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let b = json_body(&body)?;
    let mut s = st.store.lock().unwrap();
    let org = s.users[u].org;
    let title = match b.get("title") {
        Some(Value::String(t)) if !t.trim().is_empty() => t.clone(),
        _ => {
            return Err(ApiError::bad(
                "title is required and must be a non-empty string",
            ))
        }
    };
    let parent = match b.get("parent_task_id") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let id = nullable_uuid("parent_task_id", v)?.unwrap_or_default();
            let p = s.visible_task(&id.to_string(), u).map_err(|_| {
                ApiError::bad(format!("parent_task_id: no task {id} that you can see"))
            })?;
            Some(p)
        }
    };
    let team = match b.get("team_id") {
        None | Some(Value::Null) => parent
            .map(|p| s.tasks[p].team)
            .or_else(|| s.user_teams(u).next())
            .or_else(|| s.teams.iter().position(|t| t.org == org))
            .unwrap_or(0),
        Some(v) => {
            let id = nullable_uuid("team_id", v)?.unwrap_or_default();
            org_team(&s, org, "team_id", id)?
        }
    };
    let created = now();
    s.next_number += 1;
    let mut t = Task {
        id: Uuid::new_v4(),
        number: s.next_number,
        org,
        title,
        status: "not_started".into(),
        priority: "no_priority".into(),
        team,
        creator: u,
        source_channel: "web".into(),
        visibility: "customer".into(),
        involved: vec![Involved {
            user: u,
            role: "creator".into(),
            access: "write".into(),
        }],
        parent: parent.map(|p| s.tasks[p].id),
        created_at: created,
        updated_at: created,
        ..Default::default()
    };
    if let Some(v) = b.get("visibility").filter(|v| !v.is_null()) {
        t.visibility = enum_value("visibility", v, &["private", "customer"])?;
    }
    if let Some(v) = b.get("draft").filter(|v| !v.is_null()) {
        t.draft = v
            .as_bool()
            .ok_or_else(|| ApiError::bad("draft must be a boolean"))?;
    }
    let mut rest = b.clone();
    for k in [
        "title",
        "parent_task_id",
        "team_id",
        "visibility",
        "draft",
        "archived",
    ] {
        rest.remove(k);
    }
    apply_patch(&s, &mut t, u, &rest)?;
    t.updated_at = created;
    let idx = s.add_task(t);
    Ok((StatusCode::CREATED, Json(s.render_task(idx, true))))
}

/// Applies a PATCH body to `t` (a copy; the caller stores it on success).
pub(crate) fn apply_patch(
    s: &Store,
    t: &mut Task,
    _user: usize,
    b: &Map<String, Value>,
) -> ApiResult<()> {
    let org = t.org;
    let present = |k: &str| b.get(k);
    let non_null = |k: &str| b.get(k).filter(|v| !v.is_null());
    if let Some(v) = non_null("title") {
        match v.as_str() {
            Some(x) if !x.trim().is_empty() => t.title = x.to_string(),
            _ => return Err(ApiError::bad("title must be a non-empty string")),
        }
    }
    if let Some(v) = present("description") {
        t.description = nullable_string("description", v)?;
    }
    if let Some(v) = present("additional_context") {
        t.additional_context = nullable_string("additional_context", v)?;
    }
    if let Some(v) = present("assigned_to") {
        t.assignee = match nullable_uuid("assigned_to", v)? {
            None => None,
            Some(id) => Some(org_person(s, org, "assigned_to", id)?),
        };
    }
    if let Some(v) = present("assigned_agent") {
        t.agent = match nullable_uuid("assigned_agent", v)? {
            None => None,
            Some(id) => Some(org_record(&s.agents, org, "assigned_agent", id)?),
        };
    }
    if let Some(v) = present("assigned_team_id") {
        t.assigned_team = match nullable_uuid("assigned_team_id", v)? {
            None => None,
            Some(id) => Some(org_team(s, org, "assigned_team_id", id)?),
        };
    }
    if let Some(v) = present("matter_id") {
        t.matter = match nullable_uuid("matter_id", v)? {
            None => None,
            Some(id) => Some(org_record(&s.matters, org, "matter_id", id)?),
        };
    }
    if let Some(v) = non_null("status") {
        t.status = enum_value("status", v, &STATUSES)?;
    }
    if let Some(v) = non_null("priority") {
        t.priority = enum_value("priority", v, &PRIORITIES)?;
    }
    if let Some(v) = present("complete_by") {
        t.complete_by = date_value("complete_by", v)?;
    }
    if let Some(v) = non_null("tags") {
        t.tags = tags_value(v)?;
    }
    if let Some(v) = non_null("linked_items") {
        let arr = v
            .as_array()
            .ok_or_else(|| ApiError::bad("linked_items must be an array"))?;
        let mut links = Vec::new();
        for (i, e) in arr.iter().enumerate() {
            let l = collab::parse_link_entry(s, t, &format!("linked_items[{i}]"), e)?;
            links.retain(|x: &Link| !(x.kind == l.kind && x.id == l.id));
            links.push(l);
        }
        t.links = links;
    }
    if let Some(v) = non_null("involved_people") {
        let arr = v
            .as_array()
            .ok_or_else(|| ApiError::bad("involved_people must be an array"))?;
        let creator_access = t
            .involved
            .iter()
            .find(|i| i.user == t.creator)
            .map(|i| i.access.clone())
            .unwrap_or_else(|| "write".into());
        let mut inv = vec![Involved {
            user: t.creator,
            role: "creator".into(),
            access: creator_access,
        }];
        for (i, e) in arr.iter().enumerate() {
            let f = format!("involved_people[{i}]");
            let id = e
                .get("id")
                .or_else(|| e.get("user_id"))
                .and_then(Value::as_str)
                .ok_or_else(|| ApiError::bad(format!("{f}.id is required (a person's uuid)")))?;
            let user = org_person(
                s,
                org,
                &format!("{f}.id"),
                parse_uuid(&format!("{f}.id"), id)?,
            )?;
            let role = match e.get("role").filter(|r| !r.is_null()) {
                None => "collaborator".to_string(),
                Some(r) => enum_value(&format!("{f}.role"), r, &["collaborator", "watcher"])?,
            };
            let access = match e.get("access_level").filter(|r| !r.is_null()) {
                None if role == "watcher" => "read".to_string(),
                None => "write".to_string(),
                Some(a) => enum_value(&format!("{f}.access_level"), a, &["read", "write"])?,
            };
            if user == t.creator || Some(user) == t.assignee {
                continue;
            }
            inv.retain(|x| x.user != user);
            inv.push(Involved { user, role, access });
        }
        t.involved = inv;
    }
    for k in ["archived", "draft"] {
        if let Some(v) = non_null(k) {
            let b = v
                .as_bool()
                .ok_or_else(|| ApiError::bad(format!("{k} must be a boolean")))?;
            if k == "archived" {
                t.archived = b;
            } else {
                t.draft = b;
            }
        }
    }
    t.sync_assignee();
    t.updated_at = bump(t.updated_at);
    t.reindex();
    Ok(())
}

pub(crate) async fn patch_task(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let (b, mut s, idx) = edit_task(&st, u, &id, &body)?;
    let mut t = s.tasks[idx].clone();
    apply_patch(&s, &mut t, u, &b)?;
    s.set_task(idx, t);
    Ok(Json(s.render_task(idx, true)))
}

pub(crate) async fn delete_task(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let mut s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    let tid = s.tasks[idx].id;
    s.delete_task(idx);
    for i in s.children.remove(&tid).unwrap_or_default() {
        if s.tasks[i].parent == Some(tid) {
            s.tasks[i].parent = None;
        }
    }
    Ok(StatusCode::NO_CONTENT)
}
