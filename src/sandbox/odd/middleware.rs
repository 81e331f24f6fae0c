//! Request recording and fault injection (one middleware, outermost layer).

use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::sandbox::shared::{record, AppState, RecordedRequest, LOG_KEPT};

fn hits(n: u64, every: u64) -> bool {
    every > 0 && n % every == 0
}

/// Records the request, then applies the configured faults.
pub(crate) async fn middleware(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    if state.faults.lock().unwrap().down {
        // Away: the connection fails before any answer (a body that errors
        // at once makes hyper abort the connection).
        let stream = futures::stream::once(async {
            Err::<Bytes, std::io::Error>(std::io::Error::new(
                std::io::ErrorKind::ConnectionReset,
                "injected fault: the service is down",
            ))
        });
        let mut resp = Response::new(Body::from_stream(stream));
        resp.headers_mut().remove(header::CONTENT_LENGTH);
        return resp;
    }
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, 16 * 1024 * 1024)
        .await
        .unwrap_or_default();
    let parsed = if bytes.is_empty() {
        None
    } else {
        serde_json::from_slice::<serde_json::Value>(&bytes).ok()
    };
    let caller = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|k| state.callers.lock().unwrap().get(k.trim()).cloned());
    record(
        &mut state.log.lock().unwrap(),
        RecordedRequest {
            method: parts.method.to_string(),
            path: parts.uri.path().to_string(),
            query: parts.uri.query().map(str::to_string),
            body: parsed,
            caller,
        },
        LOG_KEPT,
    );
    let n = state.counter.fetch_add(1, Ordering::SeqCst) + 1;
    let faults = state.faults.lock().unwrap().clone();
    if faults.delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(faults.delay_ms)).await;
    }
    if hits(n, faults.fail_every) {
        let status = StatusCode::from_u16(faults.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        let body = serde_json::json!({
            "error": format!("injected fault: request {n} fails with {}", status.as_u16()),
            "status": status.as_u16(),
        });
        let mut resp = (status, axum::Json(body)).into_response();
        if let Some(secs) = faults.retry_after {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        return resp;
    }
    if hits(n, faults.garbage_every) {
        return Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("{\"items\": [{\"id\": <<garbage>> ]"))
            .unwrap();
    }
    let req = Request::from_parts(parts, Body::from(bytes));
    let resp = next.run(req).await;
    if hits(n, faults.reset_every) {
        let (parts, body) = resp.into_parts();
        let full = axum::body::to_bytes(body, usize::MAX)
            .await
            .unwrap_or_default();
        let head = full.slice(..full.len().min(7));
        // Send the head and a few bytes, then fail the body: hyper aborts the connection.
        let stream = futures::stream::unfold(0u8, move |step| {
            let head = head.clone();
            async move {
                match step {
                    0 => Some((Ok::<Bytes, std::io::Error>(head), 1)),
                    1 => {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        let e = std::io::Error::new(
                            std::io::ErrorKind::ConnectionReset,
                            "injected fault: connection reset",
                        );
                        Some((Err(e), 2))
                    }
                    _ => None,
                }
            }
        });
        let mut resp = Response::from_parts(parts, Body::from_stream(stream));
        resp.headers_mut().remove(header::CONTENT_LENGTH);
        return resp;
    }
    resp
}
