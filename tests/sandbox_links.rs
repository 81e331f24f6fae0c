//! Rules of the sandbox service, over raw HTTP: links between a task and chats, reviews, reports and tasks.

mod sandbox_common;

use reqwest::Method;
use serde_json::json;

use sandbox_common::*;

#[tokio::test]
async fn link_rules() {
    let sb = start().await;
    let id = id_of(&sb, "#3");
    let t = sb.task_json("#3").unwrap();
    let review = t["linked_items"][0].clone();
    assert_eq!(review["type"], "review");
    assert_eq!(
        review["context"],
        json!({"check_ids": ["chk-104", "chk-221"]})
    );
    let chat = t["linked_items"][1]["id"].as_str().unwrap().to_string();
    let rid = review["id"].as_str().unwrap();
    let links = format!("/api/v1/tasks/{id}/links");

    for bad in [
        json!({"linked_items": []}),
        json!({}),
        json!({"linked_items": [{"type": "doc", "id": rid}]}),
        json!({"linked_items": [{"type": "chat", "id": "nope"}]}),
    ] {
        let (st, e) = call(&sb, ALICE, Method::POST, &links, Some(bad.clone())).await;
        assert_eq!(st, 400, "{bad}");
        error_shape(&e, 400);
    }
    // link task #2 with defaults
    let t2 = id_of(&sb, "#2");
    let (st, v) = call(
        &sb,
        ALICE,
        Method::POST,
        &links,
        Some(json!({"linked_items": [{"type": "task", "id": t2}]})),
    )
    .await;
    assert_eq!(st, 200);
    let l = v["linked_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == t2.as_str())
        .unwrap()
        .clone();
    assert_eq!(l["role"], "reference");
    assert!(l["context"].is_null());
    assert_eq!(l["is_output"], false);
    assert_eq!(
        l["display_name"],
        "#2 Confirm engagement letter with Contoso"
    );

    // PATCH: unknown link 404, context on a chat 400, role change, context edit
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/report/{rid}"),
        Some(json!({"role": "output"})),
    )
    .await;
    assert_eq!(st, 404);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/chat/{chat}"),
        Some(json!({"context": {"check_ids": ["a"]}})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({"context": {"checks": 1}})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/chat/{chat}"),
        Some(json!({"role": "output"})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["source_channel"], "web");
    let l = &v["linked_items"][1];
    assert_eq!(
        (l["role"].as_str(), l["is_output"].as_bool()),
        (Some("output"), Some(true))
    );
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({"context": {"check_ids": ["chk-104"]}})),
    )
    .await;
    assert_eq!(
        v["linked_items"][0]["context"],
        json!({"check_ids": ["chk-104"]})
    );
    assert_eq!(v["linked_items"][0]["role"], "subject");
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({"context": null})),
    )
    .await;
    assert!(v["linked_items"][0]["context"].is_null());
    // DELETE
    let (st, v) = call(
        &sb,
        ALICE,
        Method::DELETE,
        &format!("{links}/chat/{chat}"),
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert!(!v["linked_items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["id"] == chat.as_str()));
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::DELETE,
            &format!("{links}/chat/{chat}"),
            None
        )
        .await
        .0,
        404
    );
}
