//! Sharing state and file attachments.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};
use uuid::Uuid;

use super::collab::file_ids_of;
use super::request::{bump, edit_task, touched, Caller};
use super::shared::AppState;
use super::store::*;

pub(crate) async fn get_sharing(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    Ok(Json(s.sharing_json(idx)))
}

fn access_of(field: &str, e: &Value) -> ApiResult<String> {
    match e.get("access_level") {
        None | Some(Value::Null) => Ok("read".into()),
        Some(Value::String(a)) if a == "read" || a == "write" => Ok(a.clone()),
        Some(other) => Err(ApiError::bad(format!(
            "{field}.access_level: {other} is not read or write"
        ))),
    }
}

fn ambiguous(field: &str, r: &str, what: &str, candidates: Vec<Value>) -> ApiError {
    let mut e = ApiError::bad(format!(
        "{field}: {r:?} matches {} {what}; send the id of the one you mean",
        candidates.len()
    ));
    e.extra = Some(("candidates", Value::Array(candidates)));
    e
}

fn resolve_user(s: &Store, org: usize, field: &str, r: &str) -> ApiResult<usize> {
    if let Ok(id) = Uuid::parse_str(r) {
        if let Some(u) = s.user_by_id(org, &id) {
            return Ok(u);
        }
    }
    let m: Vec<usize> = (0..s.users.len())
        .filter(|&i| {
            let u = &s.users[i];
            u.org == org
                && (u.email.eq_ignore_ascii_case(r) || u.name.to_lowercase() == r.to_lowercase())
        })
        .collect();
    match m.len() {
        1 => Ok(m[0]),
        0 => Err(ApiError::bad(format!(
            "{field}: no person matches {r:?} (by id, e-mail or name)"
        ))),
        _ => Err(ambiguous(
            field,
            r,
            "people",
            m.iter().map(|u| s.person(*u)).collect(),
        )),
    }
}

fn resolve_team(s: &Store, org: usize, field: &str, r: &str) -> ApiResult<usize> {
    let m: Vec<usize> = (0..s.teams.len())
        .filter(|&i| {
            let t = &s.teams[i];
            t.org == org
                && (Uuid::parse_str(r).is_ok_and(|id| id == t.id)
                    || t.name.to_lowercase() == r.to_lowercase())
        })
        .collect();
    match m.len() {
        1 => Ok(m[0]),
        0 => Err(ApiError::bad(format!(
            "{field}: no team matches {r:?} (by id or name)"
        ))),
        _ => Err(ambiguous(
            field,
            r,
            "teams",
            m.iter()
                .map(|t| json!({"id": s.teams[*t].id, "name": s.teams[*t].name}))
                .collect(),
        )),
    }
}

pub(crate) async fn put_sharing(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let (b, mut s, idx) = edit_task(&st, u, &id, &body)?;
    let visibility = match b.get("visibility").and_then(Value::as_str) {
        Some(v @ ("private" | "customer")) => v.to_string(),
        _ => return Err(ApiError::bad("visibility is required: private or customer")),
    };
    let list = |k: &str| -> ApiResult<Vec<Value>> {
        match b.get(k) {
            None | Some(Value::Null) => Ok(vec![]),
            Some(Value::Array(a)) => Ok(a.clone()),
            _ => Err(ApiError::bad(format!("{k} must be an array"))),
        }
    };
    let org = s.tasks[idx].org;
    let mut users: Vec<(usize, String)> = Vec::new();
    for (i, e) in list("users")?.iter().enumerate() {
        let f = format!("users[{i}]");
        let r = e.get("user_id").and_then(Value::as_str).ok_or_else(|| {
            ApiError::bad(format!("{f}.user_id is required (id, e-mail or name)"))
        })?;
        let user = resolve_user(&s, org, &format!("{f}.user_id"), r.trim())?;
        let access = access_of(&f, e)?;
        users.retain(|x| x.0 != user);
        users.push((user, access));
    }
    let mut teams: Vec<(usize, String)> = Vec::new();
    for (i, e) in list("teams")?.iter().enumerate() {
        let f = format!("teams[{i}]");
        let r = e
            .get("team_id")
            .and_then(Value::as_str)
            .ok_or_else(|| ApiError::bad(format!("{f}.team_id is required (id or name)")))?;
        let team = resolve_team(&s, org, &format!("{f}.team_id"), r.trim())?;
        let access = access_of(&f, e)?;
        teams.retain(|x| x.0 != team);
        teams.push((team, access));
    }
    let t = &mut s.tasks[idx];
    let old = std::mem::take(&mut t.involved);
    let mut inv = Vec::new();
    // The creator and the assignee keep their entries (their access comes from the role).
    for e in old
        .iter()
        .filter(|e| e.role == "creator" || e.role == "assignee")
    {
        let mut e = e.clone();
        if let Some((_, a)) = users.iter().find(|x| x.0 == e.user) {
            e.access = a.clone();
        }
        inv.push(e);
    }
    for (user, access) in users {
        if inv.iter().any(|e| e.user == user) {
            continue;
        }
        let role = old
            .iter()
            .find(|e| e.user == user)
            .map(|e| e.role.clone())
            .unwrap_or_else(|| {
                if access == "write" {
                    "collaborator"
                } else {
                    "watcher"
                }
                .into()
            });
        inv.push(Involved { user, role, access });
    }
    t.involved = inv;
    t.shared_teams = teams;
    t.visibility = visibility;
    t.updated_at = bump(t.updated_at);
    Ok(Json(s.sharing_json(idx)))
}

pub(crate) async fn attach_files(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let (b, mut s, idx) = edit_task(&st, u, &id, &body)?;
    if b.get("file_ids")
        .and_then(Value::as_array)
        .is_none_or(|a| a.is_empty())
    {
        return Err(ApiError::bad(
            "file_ids is required: an array of at least one file id",
        ));
    }
    let org = s.tasks[idx].org;
    let ids = file_ids_of(&s, org, &b)?;
    let files: Vec<usize> = ids
        .iter()
        .map(|id| {
            s.files
                .iter()
                .position(|f| f.id == *id && f.org == org)
                .unwrap()
        })
        .collect();
    let t = &mut s.tasks[idx];
    for f in files {
        if !t.input_files.contains(&f) && !t.output_files.contains(&f) {
            t.input_files.push(f);
        }
    }
    Ok(touched(&mut s, idx))
}

pub(crate) async fn detach_file(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path((id, fid)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let mut s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    let nf = || ApiError::not_found(format!("file {fid} is not attached to task {id}"));
    let f_id = Uuid::parse_str(&fid).map_err(|_| nf())?;
    let Some(f) = s.files.iter().position(|f| f.id == f_id) else {
        return Err(nf());
    };
    let t = &mut s.tasks[idx];
    let before = t.input_files.len() + t.output_files.len();
    t.input_files.retain(|x| *x != f);
    t.output_files.retain(|x| *x != f);
    if t.input_files.len() + t.output_files.len() == before {
        return Err(nf());
    }
    Ok(touched(&mut s, idx))
}
