//! Rules of the sandbox service, over raw HTTP: the service as a whole: authentication, identity and demo keys, fault injection, the request log.

mod sandbox_common;

use std::time::Instant;

use reqwest::Method;
use serde_json::{json, Value};
use taskdeck::sandbox::{Faults, SandboxOptions};

use sandbox_common::*;

#[tokio::test]
async fn unauthenticated_requests_get_401_body() {
    let sb = start().await;
    let r = raw(&sb, None, Method::GET, "/api/v1/me", None).await;
    assert_eq!(r.status(), 401);
    error_shape(&r.json().await.unwrap(), 401);
    let (st, v) = get(&sb, "not-a-key", "/api/v1/tasks").await;
    assert_eq!(st, 401);
    error_shape(&v, 401);
}

#[tokio::test]
async fn me_returns_identity_and_keys_are_deterministic() {
    let sb = start().await;
    assert_eq!(sb.keys[0].key, ALICE);
    assert_eq!(sb.keys[0].org_name, "Acme Legal LLP");
    let (st, v) = get(&sb, ALICE, "/api/v1/me").await;
    assert_eq!(st, 200);
    assert_eq!(v["user_name"], "Alice Martin");
    assert_eq!(v["user_email"], "alice@acme.test");
    assert_eq!(v["customer_name"], "Acme Legal LLP");
    let sb2 = start().await;
    assert_eq!(user_id(&sb2, ALICE).await, v["user_id"].as_str().unwrap());
    assert_eq!(id_of(&sb, "#3"), id_of(&sb2, "#3"));
}

#[tokio::test]
async fn faults_fail_every_with_retry_after_and_garbage() {
    let sb = start_with(SandboxOptions {
        faults: "fail_every=2,status=503,retry_after=7".parse().unwrap(),
        ..Default::default()
    })
    .await;
    let r1 = raw(&sb, Some(ALICE), Method::GET, "/api/v1/me", None).await;
    assert_eq!(r1.status(), 200);
    let r2 = raw(&sb, Some(ALICE), Method::GET, "/api/v1/me", None).await;
    assert_eq!(r2.status(), 503);
    assert_eq!(r2.headers()["retry-after"], "7");
    error_shape(&r2.json().await.unwrap(), 503);

    sb.set_faults(Faults {
        garbage_every: 1,
        ..Default::default()
    });
    let r = raw(&sb, Some(ALICE), Method::GET, "/api/v1/tasks", None).await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");

    sb.set_faults(Faults {
        reset_every: 1,
        ..Default::default()
    });
    let r = reqwest::Client::new()
        .get(format!("{}/api/v1/tasks", sb.base_url()))
        .bearer_auth(ALICE)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.text().await.is_err(), "the body must fail mid-stream");

    sb.set_faults(Faults {
        delay_ms: 150,
        ..Default::default()
    });
    let t = Instant::now();
    assert_eq!(
        raw(&sb, Some(ALICE), Method::GET, "/api/v1/me", None)
            .await
            .status(),
        200
    );
    assert!(t.elapsed().as_millis() >= 150);

    assert!("fail_every=x".parse::<Faults>().is_err());
    assert!("bogus=1".parse::<Faults>().is_err());
    assert_eq!(
        "delay=5,reset_every=3".parse::<Faults>().unwrap(),
        Faults {
            delay_ms: 5,
            reset_every: 3,
            ..Default::default()
        }
    );
}

#[tokio::test]
async fn requests_are_recorded() {
    let sb = start().await;
    sb.clear_requests();
    let id = id_of(&sb, "#2");
    call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("/api/v1/tasks/{id}"),
        Some(json!({"priority": "low"})),
    )
    .await;
    get(&sb, ALICE, "/api/v1/tasks?limit=5&status=completed").await;
    let r = sb.requests();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].method, "PATCH");
    assert_eq!(r[0].path, format!("/api/v1/tasks/{id}"));
    assert_eq!(r[0].body, Some(json!({"priority": "low"})));
    assert_eq!(r[1].query.as_deref(), Some("limit=5&status=completed"));
    assert_eq!(r[1].body, None);
}
