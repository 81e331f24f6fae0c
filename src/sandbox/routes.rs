//! The router: every endpoint wired to its handler (`tasks`, `list`,
//! `collab`, `sharing`), the small ones (`me`, files, layouts) and the
//! answers for unknown paths and methods.

use axum::body::Bytes;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::odd::middleware;
use super::request::{json_body, Caller};
use super::shared::AppState;
use super::store::{ApiError, ApiResult};
use super::{collab, layout, list, sharing, tasks};

pub(crate) fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/v1/me", get(me))
        .route("/api/v1/files", get(list_files))
        .route(
            "/api/v1/tasks",
            get(list::list_tasks).post(tasks::create_task),
        )
        .route(
            "/api/v1/tasks/{id}",
            get(tasks::get_task)
                .patch(tasks::patch_task)
                .delete(tasks::delete_task),
        )
        .route("/api/v1/tasks/{id}/subtasks", get(tasks::subtasks))
        .route(
            "/api/v1/tasks/{id}/comments",
            get(collab::list_comments).post(collab::add_comment),
        )
        .route(
            "/api/v1/tasks/{id}/comments/{cid}",
            patch(collab::edit_comment).delete(collab::delete_comment),
        )
        .route(
            "/api/v1/tasks/{id}/comments/{cid}/replies",
            post(collab::reply_comment),
        )
        .route(
            "/api/v1/tasks/{id}/thread",
            get(collab::list_thread).post(collab::post_thread),
        )
        .route("/api/v1/tasks/{id}/links", post(collab::add_links))
        .route(
            "/api/v1/tasks/{id}/links/{kind}/{item}",
            patch(collab::update_link).delete(collab::delete_link),
        )
        .route(
            "/api/v1/tasks/{id}/sharing",
            get(sharing::get_sharing).put(sharing::put_sharing),
        )
        .route("/api/v1/tasks/{id}/files", post(sharing::attach_files))
        .route(
            "/api/v1/tasks/{id}/files/{fid}",
            axum::routing::delete(sharing::detach_file),
        )
        .route("/api/v1/artifacts/validate", post(validate_layout))
        .fallback(fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::middleware,
        ))
        .with_state(state)
}

async fn me(State(st): State<AppState>, Caller(u): Caller) -> Json<Value> {
    let s = st.store.lock().unwrap();
    let user = &s.users[u];
    let org = &s.orgs[user.org];
    Json(json!({
        "user_id": user.id,
        "customer_id": org.id,
        "user_name": user.name,
        "user_email": user.email,
        "customer_name": org.name,
    }))
}

async fn list_files(State(st): State<AppState>, Caller(u): Caller) -> Json<Value> {
    let s = st.store.lock().unwrap();
    let org = s.users[u].org;
    Json(Value::Array(
        (0..s.files.len())
            .filter(|f| s.files[*f].org == org)
            .map(|f| s.file_json(f))
            .collect(),
    ))
}

async fn validate_layout(
    State(st): State<AppState>,
    Caller(u): Caller,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    {
        let s = st.store.lock().unwrap();
        if !s.orgs[s.users[u].org].visual_builder {
            return Err(ApiError::empty_404());
        }
    }
    let b = json_body(&body)?;
    Ok(Json(layout::validate(b.get("layout"))))
}

/// Artifact paths answer an empty 404 for organisations without the Visual Builder.
async fn artifacts_gate(st: &AppState, parts: &mut Parts) -> Option<Response> {
    if !parts.uri.path().starts_with("/api/v1/artifacts") {
        return None;
    }
    match Caller::from_request_parts(parts, st).await {
        Err(e) => Some(e.into_response()),
        Ok(Caller(u)) => {
            let s = st.store.lock().unwrap();
            (!s.orgs[s.users[u].org].visual_builder).then(|| ApiError::empty_404().into_response())
        }
    }
}

async fn fallback(State(st): State<AppState>, req: axum::extract::Request) -> Response {
    let (mut parts, _) = req.into_parts();
    if let Some(r) = artifacts_gate(&st, &mut parts).await {
        return r;
    }
    let msg = format!("no such endpoint: {} {}", parts.method, parts.uri.path());
    ApiError::not_found(msg).into_response()
}

async fn method_not_allowed(State(st): State<AppState>, req: axum::extract::Request) -> Response {
    let (mut parts, _) = req.into_parts();
    if let Some(r) = artifacts_gate(&st, &mut parts).await {
        return r;
    }
    let msg = format!(
        "method {} is not allowed on {}",
        parts.method,
        parts.uri.path()
    );
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, msg).into_response()
}
