//! Comments, requester thread, links, sharing and files.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};
use uuid::Uuid;

use super::listing::{self, ListingQuery};
use super::request::{bump, edit_task, json_body, now, parse_uuid, touched, Caller};
use super::shared::AppState;
use super::store::*;

type Created = (StatusCode, Json<Value>);

fn content_of(b: &serde_json::Map<String, Value>) -> ApiResult<String> {
    match b.get("content") {
        Some(Value::String(c)) if !c.trim().is_empty() => Ok(c.clone()),
        _ => Err(ApiError::bad(
            "content is required and must be a non-empty string",
        )),
    }
}

pub(crate) fn file_ids_of(
    s: &Store,
    org: usize,
    b: &serde_json::Map<String, Value>,
) -> ApiResult<Vec<Uuid>> {
    let Some(v) = b.get("file_ids").filter(|v| !v.is_null()) else {
        return Ok(vec![]);
    };
    let arr = v
        .as_array()
        .ok_or_else(|| ApiError::bad("file_ids must be an array of uuid strings"))?;
    let mut out = Vec::new();
    for (i, f) in arr.iter().enumerate() {
        let f = f
            .as_str()
            .ok_or_else(|| ApiError::bad(format!("file_ids[{i}] must be a uuid string")))?;
        let id = parse_uuid(&format!("file_ids[{i}]"), f)?;
        if !s.files.iter().any(|x| x.id == id && x.org == org) {
            return Err(ApiError::not_found(format!("file {id} not found")));
        }
        if !out.contains(&id) {
            out.push(id);
        }
    }
    Ok(out)
}

/// People mentioned as `@email` in `content`.
fn mentions(s: &Store, org: usize, content: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for w in content.split_whitespace() {
        let Some(w) = w.strip_prefix('@') else {
            continue;
        };
        let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
        if let Some(u) = s
            .users
            .iter()
            .position(|u| u.org == org && u.email.eq_ignore_ascii_case(w))
        {
            if !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

pub(crate) async fn list_comments(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    q: ListingQuery,
) -> ApiResult<Json<Value>> {
    let shape = *st.listing.lock().unwrap();
    let s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    let t = &s.tasks[idx];
    listing::respond(shape, q, t.comments.len(), |range| {
        range
            .map(|i| {
                let mut v = s.comment_json(idx, &t.comments[i]);
                crate::sandbox::odd::quirks::apply_comment_quirk(t.quirk, i, &mut v);
                v
            })
            .collect()
    })
}

fn new_comment(
    st: &AppState,
    u: usize,
    id: &str,
    parent: Option<&str>,
    body: &Bytes,
) -> ApiResult<Created> {
    let (b, mut s, idx) = edit_task(st, u, id, body)?;
    let parent = match parent {
        None => None,
        Some(p) => {
            let nf = || ApiError::not_found(format!("comment {p} not found on task {id}"));
            let pid = Uuid::parse_str(p).map_err(|_| nf())?;
            if !s.tasks[idx].comments.iter().any(|c| c.id == pid) {
                return Err(nf());
            }
            Some(pid)
        }
    };
    let content = content_of(&b)?;
    let org = s.tasks[idx].org;
    let file_ids = file_ids_of(&s, org, &b)?;
    let at = now();
    let c = Comment {
        id: Uuid::new_v4(),
        author: u,
        mentioned: mentions(&s, org, &content),
        content,
        parent,
        file_ids,
        created_at: at,
        updated_at: at,
    };
    let json = s.comment_json(idx, &c);
    let t = &mut s.tasks[idx];
    t.comments.push(c);
    t.reindex();
    Ok((StatusCode::CREATED, Json(json)))
}

pub(crate) async fn add_comment(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Created> {
    new_comment(&st, u, &id, None, &body)
}

pub(crate) async fn reply_comment(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path((id, cid)): Path<(String, String)>,
    body: Bytes,
) -> ApiResult<Created> {
    new_comment(&st, u, &id, Some(&cid), &body)
}

fn find_comment(s: &Store, idx: usize, id: &str, cid: &str) -> ApiResult<usize> {
    let nf = || ApiError::not_found(format!("comment {cid} not found on task {id}"));
    let c = Uuid::parse_str(cid).map_err(|_| nf())?;
    s.tasks[idx]
        .comments
        .iter()
        .position(|x| x.id == c)
        .ok_or_else(nf)
}

pub(crate) async fn edit_comment(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path((id, cid)): Path<(String, String)>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let (b, mut s, idx) = edit_task(&st, u, &id, &body)?;
    let ci = find_comment(&s, idx, &id, &cid)?;
    if s.tasks[idx].comments[ci].author != u {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the author of a comment can edit it",
        ));
    }
    let content = content_of(&b)?;
    let org = s.tasks[idx].org;
    let mentioned = mentions(&s, org, &content);
    let t = &mut s.tasks[idx];
    let c = &mut t.comments[ci];
    c.content = content;
    c.mentioned = mentioned;
    c.updated_at = bump(c.updated_at);
    t.reindex();
    let c = s.tasks[idx].comments[ci].clone();
    Ok(Json(s.comment_json(idx, &c)))
}

pub(crate) async fn delete_comment(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path((id, cid)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let mut s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    let ci = find_comment(&s, idx, &id, &cid)?;
    if s.tasks[idx].comments[ci].author != u {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the author of a comment can delete it",
        ));
    }
    let t = &mut s.tasks[idx];
    let mut gone = vec![t.comments[ci].id];
    // Remove the comment and every reply below it.
    loop {
        let before = gone.len();
        for c in &t.comments {
            if c.parent.is_some_and(|p| gone.contains(&p)) && !gone.contains(&c.id) {
                gone.push(c.id);
            }
        }
        if gone.len() == before {
            break;
        }
    }
    t.comments.retain(|c| !gone.contains(&c.id));
    t.reindex();
    Ok(StatusCode::NO_CONTENT)
}

fn thread_enabled(s: &Store, u: usize) -> ApiResult<()> {
    if s.orgs[s.users[u].org].requester_thread {
        Ok(())
    } else {
        Err(ApiError::not_found(
            "requester thread is not enabled for this organisation",
        ))
    }
}

pub(crate) async fn list_thread(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    q: ListingQuery,
) -> ApiResult<Json<Value>> {
    let shape = *st.listing.lock().unwrap();
    let s = st.store.lock().unwrap();
    thread_enabled(&s, u)?;
    let idx = s.visible_task(&id, u)?;
    let thread = &s.tasks[idx].thread;
    listing::respond(shape, q, thread.len(), |range| {
        thread[range]
            .iter()
            .map(|m| s.message_json(idx, m))
            .collect()
    })
}

pub(crate) async fn post_thread(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Created> {
    let mut s = st.store.lock().unwrap();
    thread_enabled(&s, u)?;
    let idx = s.visible_task(&id, u)?;
    let b = json_body(&body)?;
    let content = content_of(&b)?;
    let file_ids = file_ids_of(&s, s.tasks[idx].org, &b)?;
    let m = Message {
        id: Uuid::new_v4(),
        direction: "outbound",
        content,
        file_ids,
        sender: Some(u),
        sender_display_name: s.users[u].name.clone(),
        delivery_status: if s.tasks[idx].source_channel == "personal_mailbox" {
            "draft"
        } else {
            "sent"
        },
        created_at: now(),
    };
    let json = s.message_json(idx, &m);
    s.tasks[idx].thread.push(m);
    Ok((StatusCode::CREATED, Json(json)))
}

/// Validates a link `context`: null, or `{check_ids: [string]}` on a review link.
fn parse_context(field: &str, kind: &str, v: &Value) -> ApiResult<Option<Value>> {
    if v.is_null() {
        return Ok(None);
    }
    if kind != "review" {
        return Err(ApiError::bad(format!(
            "{field}: only review links take a context; a {kind} link takes none"
        )));
    }
    let bad = || {
        ApiError::bad(format!(
            "{field} must be null or {{\"check_ids\": [string, ...]}}"
        ))
    };
    let obj = v.as_object().ok_or_else(bad)?;
    if obj.keys().any(|k| k != "check_ids") {
        return Err(bad());
    }
    let ids = obj
        .get("check_ids")
        .and_then(Value::as_array)
        .ok_or_else(bad)?;
    if !ids.iter().all(Value::is_string) {
        return Err(bad());
    }
    Ok(Some(json!({"check_ids": ids})))
}

/// Parses one `{type, id, role?, context?}` link entry and resolves its display name.
pub(crate) fn parse_link_entry(s: &Store, t: &Task, field: &str, e: &Value) -> ApiResult<Link> {
    if !e.is_object() {
        return Err(ApiError::bad(format!(
            "{field} must be an object {{type, id}}"
        )));
    }
    let kind = match e.get("type").and_then(Value::as_str) {
        Some(k) if LINK_TYPES.contains(&k) => k.to_string(),
        _ => {
            return Err(ApiError::bad(format!(
                "{field}.type must be one of {}",
                LINK_TYPES.join(", ")
            )))
        }
    };
    let id_str = e
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad(format!("{field}.id is required (a uuid string)")))?;
    let id = parse_uuid(&format!("{field}.id"), id_str)?;
    let role = match e.get("role").filter(|v| !v.is_null()) {
        None => "reference".to_string(),
        Some(r) => parse_role(&format!("{field}.role"), r)?,
    };
    let context = match e.get("context") {
        None => None,
        Some(c) => parse_context(&format!("{field}.context"), &kind, c)?,
    };
    let display_name = if kind == "task" {
        if id == t.id {
            return Err(ApiError::bad(format!(
                "{field}: a task cannot link to itself"
            )));
        }
        let i = s
            .task_index(&id)
            .filter(|i| s.tasks[*i].org == t.org)
            .ok_or_else(|| ApiError::not_found(format!("task {id} not found")))?;
        format!("#{} {}", s.tasks[i].number, s.tasks[i].title)
    } else {
        s.items
            .iter()
            .find(|it| it.id == id && it.kind == kind && it.org == t.org)
            .map(|it| it.display_name.clone())
            .ok_or_else(|| ApiError::not_found(format!("{kind} {id} not found")))?
    };
    Ok(Link {
        kind,
        id,
        display_name,
        role,
        context,
    })
}

pub(crate) async fn add_links(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let (b, mut s, idx) = edit_task(&st, u, &id, &body)?;
    let arr = match b.get("linked_items") {
        Some(Value::Array(a)) if !a.is_empty() => a.clone(),
        _ => {
            return Err(ApiError::bad(
                "linked_items is required: an array of at least one {type, id}",
            ))
        }
    };
    let mut t = s.tasks[idx].clone();
    for (i, e) in arr.iter().enumerate() {
        let l = parse_link_entry(&s, &t, &format!("linked_items[{i}]"), e)?;
        if let Some(old) = t
            .links
            .iter_mut()
            .find(|x| x.kind == l.kind && x.id == l.id)
        {
            if e.get("role").is_some_and(|v| !v.is_null()) {
                old.role = l.role;
            }
            if e.get("context").is_some() {
                old.context = l.context;
            }
        } else {
            t.links.push(l);
        }
    }
    t.updated_at = bump(t.updated_at);
    s.set_task(idx, t);
    Ok(Json(s.render_task(idx, true)))
}

fn find_link(s: &Store, idx: usize, kind: &str, item: &str) -> ApiResult<usize> {
    if !LINK_TYPES.contains(&kind) {
        return Err(ApiError::bad(format!(
            "link type {kind:?} is not one of {}",
            LINK_TYPES.join(", ")
        )));
    }
    let nf = || ApiError::not_found(format!("the task has no {kind} link to {item}"));
    let id = Uuid::parse_str(item).map_err(|_| nf())?;
    s.tasks[idx]
        .links
        .iter()
        .position(|l| l.kind == kind && l.id == id)
        .ok_or_else(nf)
}

pub(crate) async fn update_link(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path((id, kind, item)): Path<(String, String, String)>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let (b, mut s, idx) = edit_task(&st, u, &id, &body)?;
    let li = find_link(&s, idx, &kind, &item)?;
    if !b.contains_key("role") && !b.contains_key("context") {
        return Err(ApiError::bad("send at least one of role, context"));
    }
    let role = b.get("role").map(|r| parse_role("role", r)).transpose()?;
    let context = match b.get("context") {
        None => None,
        Some(c) => Some(parse_context("context", &kind, c)?),
    };
    let t = &mut s.tasks[idx];
    if let Some(r) = role {
        t.links[li].role = r;
    }
    if let Some(c) = context {
        t.links[li].context = c;
    }
    Ok(touched(&mut s, idx))
}

pub(crate) async fn delete_link(
    State(st): State<AppState>,
    Caller(u): Caller,
    Path((id, kind, item)): Path<(String, String, String)>,
) -> ApiResult<Json<Value>> {
    let mut s = st.store.lock().unwrap();
    let idx = s.visible_task(&id, u)?;
    let li = find_link(&s, idx, &kind, &item)?;
    let t = &mut s.tasks[idx];
    t.links.remove(li);
    Ok(touched(&mut s, idx))
}

/// A link role from a request body, or a 400 naming the field.
fn parse_role(field: &str, v: &Value) -> Result<String, ApiError> {
    match v.as_str() {
        Some(x) if LINK_ROLES.contains(&x) => Ok(x.to_string()),
        _ => Err(ApiError::bad(format!(
            "{field} must be one of {}",
            LINK_ROLES.join(", ")
        ))),
    }
}
