//! Rules of the sandbox service, over raw HTTP: layout validation (`POST /api/v1/artifacts/validate`).

mod sandbox_common;

use reqwest::Method;
use serde_json::{json, Value};

use sandbox_common::*;

#[tokio::test]
async fn layout_validation_caps_and_normalises() {
    let sb = start().await;
    let mut blocks: Vec<Value> = (0..60)
        .map(|_| json!({"type": "heading", "text": "T", "level": 9}))
        .collect();
    for _ in 0..55 {
        blocks.push(json!({"type": "paragraph", "text": "p", "colour": "red"}));
    }
    blocks.push(json!({"type": "image", "file_id": "8b9f1c2e-1111-4222-8333-444455556666", "alt_text": "Chart"}));
    blocks.push(json!({"type": "sparkline"}));
    let (st, v) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/artifacts/validate",
        Some(json!({"layout": {"type": "report", "version": "1", "blocks": blocks}})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["errors"].as_array().unwrap().len(), 50);
    assert_eq!(v["omitted_errors"], 11);
    assert_eq!(
        v["errors"][3],
        json!({"path": "blocks[3].level", "code": "out_of_range", "message": "level must be from 1 to 6, got 9"})
    );
    assert_eq!(v["warnings"].as_array().unwrap().len(), 50);
    assert_eq!(v["omitted_warnings"], 5);
    assert_eq!(v["warnings"][0]["code"], "unknown_field");
    assert_eq!(v["warnings"][0]["path"], "blocks[60].colour");
    let img = &v["layout"]["blocks"][115];
    assert_eq!(
        img,
        &json!({"type": "image", "fileId": "8b9f1c2e-1111-4222-8333-444455556666", "altText": "Chart"})
    );
    assert_eq!(
        v["layout"]["blocks"].as_array().unwrap().len(),
        116,
        "unknown block type dropped"
    );
    assert_eq!(
        v["layout"]["blocks"][60],
        json!({"type": "paragraph", "text": "p"})
    );

    let (_, ok) = call(&sb, ALICE, Method::POST, "/api/v1/artifacts/validate", Some(json!({"layout": {"type": "dashboard", "blocks": [{"type": "table", "columns": ["a", "b"], "rows": [[1, "x"]]}]}}))).await;
    assert_eq!(ok["valid"], true);
    assert_eq!(
        (
            ok["omitted_errors"].as_u64(),
            ok["layout"]["version"].as_str()
        ),
        (Some(0), Some("1"))
    );

    let (st, nl) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/artifacts/validate",
        Some(json!({"layout": "not an object"})),
    )
    .await;
    assert_eq!(st, 200);
    assert!(nl["layout"].is_null());
    assert_eq!(nl["valid"], false);

    let r = raw(
        &sb,
        Some(GINA),
        Method::POST,
        "/api/v1/artifacts/validate",
        Some(json!({"layout": {}})),
    )
    .await;
    assert_eq!(r.status(), 404);
    assert_eq!(r.bytes().await.unwrap().len(), 0);
    for (m, path) in [
        (Method::GET, "/api/v1/artifacts/validate"),
        (Method::GET, "/api/v1/artifacts"),
    ] {
        let r = raw(&sb, Some(GINA), m, path, None).await;
        assert_eq!(r.status(), 404);
        assert_eq!(r.bytes().await.unwrap().len(), 0);
    }
    assert_eq!(get(&sb, ALICE, "/api/v1/artifacts").await.1["status"], 404);
}
