//! Rules of the sandbox service, over raw HTTP: comments and the requester thread.

mod sandbox_common;

use reqwest::Method;
use serde_json::json;

use sandbox_common::*;

#[tokio::test]
async fn comments_edit_by_author_only_and_replies() {
    let sb = start().await;
    let id = id_of(&sb, "#3");
    let base = format!("/api/v1/tasks/{id}/comments");
    let (st, list) = get(&sb, ALICE, &base).await;
    assert_eq!(st, 200);
    let list = list.as_array().unwrap().clone();
    assert_eq!(list.len(), 3);
    assert_eq!(list[1]["parent_comment_id"], list[0]["id"]);
    let bobs = list[0]["id"].as_str().unwrap();
    let (st, e) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{base}/{bobs}"),
        Some(json!({"content": "hijack"})),
    )
    .await;
    assert_eq!(st, 403);
    error_shape(&e, 403);

    let (st, c) = call(
        &sb,
        ALICE,
        Method::POST,
        &base,
        Some(json!({"content": "Ping @bob@acme.test"})),
    )
    .await;
    assert_eq!(st, 201);
    assert!(c["parent_comment_id"].is_null());
    assert_eq!(c["mentioned_users"][0]["email"], "bob@acme.test");
    let cid = c["id"].as_str().unwrap();
    let (st, e) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{base}/{cid}"),
        Some(json!({"content": "edited"})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(e["content"], "edited");
    assert_ne!(e["updated_at"], e["created_at"]);
    assert_eq!(
        call(
            &sb,
            BOB,
            Method::PATCH,
            &format!("{base}/{cid}"),
            Some(json!({"content": "x"}))
        )
        .await
        .0,
        403
    );

    let (st, r) = call(
        &sb,
        BOB,
        Method::POST,
        &format!("{base}/{cid}/replies"),
        Some(json!({"content": "reply"})),
    )
    .await;
    assert_eq!(st, 201);
    assert_eq!(r["parent_comment_id"], cid);
    assert_eq!(r["author"]["email"], "bob@acme.test");
    let missing = "00000000-0000-4000-8000-000000000000";
    let (st, e) = call(
        &sb,
        BOB,
        Method::POST,
        &format!("{base}/{missing}/replies"),
        Some(json!({"content": "x"})),
    )
    .await;
    assert_eq!(st, 404);
    error_shape(&e, 404);
    // a comment of another task is not a parent here
    let other = id_of(&sb, "#1");
    assert_eq!(
        call(
            &sb,
            BOB,
            Method::POST,
            &format!("/api/v1/tasks/{other}/comments/{cid}/replies"),
            Some(json!({"content": "x"}))
        )
        .await
        .0,
        404
    );
    assert_eq!(get(&sb, ALICE, &base).await.1.as_array().unwrap().len(), 5);
    assert_eq!(
        call(&sb, ALICE, Method::POST, &base, Some(json!({})))
            .await
            .0,
        400
    );
}

#[tokio::test]
async fn requester_thread_draft_sent_and_feature_flag() {
    let sb = start().await;
    let (st, m) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#1")),
        Some(json!({"content": "Agreed on clause 7."})),
    )
    .await;
    assert_eq!(st, 201);
    assert_eq!(m["delivery_status"], "draft");
    assert_eq!(m["direction"], "outbound");
    assert_eq!(m["sender"]["email"], "alice@acme.test");
    let (_, m) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#2")),
        Some(json!({"content": "Confirmed."})),
    )
    .await;
    assert_eq!(m["delivery_status"], "sent");
    let (st, th) = get(
        &sb,
        ALICE,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#1")),
    )
    .await;
    assert_eq!(st, 200);
    let th = th.as_array().unwrap();
    assert_eq!(th.len(), 2);
    assert_eq!(th[0]["direction"], "inbound");
    assert_eq!(th[1]["content"], "Agreed on clause 7.");

    let (st, e) = call(
        &sb,
        GINA,
        Method::POST,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#16")),
        Some(json!({"content": "hi"})),
    )
    .await;
    assert_eq!(st, 404);
    assert_eq!(
        e,
        json!({"error": "requester thread is not enabled for this organisation", "status": 404})
    );
}

#[tokio::test]
async fn comment_and_thread_listings_in_either_shape() {
    use taskdeck::sandbox::ListingShape;
    let sb = start().await;
    let id = id_of(&sb, "#3");
    // Default: a bare array of every comment; the query string is ignored.
    let (st, all) = get(&sb, ALICE, &format!("/api/v1/tasks/{id}/comments?limit=0")).await;
    assert_eq!(st, 200);
    let all = all.as_array().unwrap().clone();
    assert_eq!(all.len(), 3);

    sb.set_listing_shape("envelope".parse().unwrap());
    assert_eq!(sb.listing_shape(), ListingShape::Envelope);
    // Pages of 2 with a cursor, like the task list; null at the end.
    let (st, p1) = get(&sb, ALICE, &format!("/api/v1/tasks/{id}/comments?limit=2")).await;
    assert_eq!(st, 200, "{p1}");
    assert_eq!(p1["items"].as_array().unwrap()[..], all[..2]);
    let cursor = p1["cursor"].as_str().unwrap();
    let (_, p2) = get(
        &sb,
        ALICE,
        &format!("/api/v1/tasks/{id}/comments?limit=2&cursor={cursor}"),
    )
    .await;
    assert_eq!(p2["items"].as_array().unwrap()[..], all[2..]);
    assert!(p2["cursor"].is_null(), "{p2}");
    // Default limit 20: one page.
    let (_, one) = get(&sb, ALICE, &format!("/api/v1/tasks/{id}/comments")).await;
    assert_eq!(one["items"].as_array().unwrap().len(), 3);
    assert!(one["cursor"].is_null());
    // Bad limit or cursor → 400, as on the task list.
    for q in ["limit=0", "limit=101", "limit=x", "cursor=nope"] {
        let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks/{id}/comments?{q}")).await;
        assert_eq!(st, 400, "{q}: {v}");
        error_shape(&v, 400);
    }
    // The thread too; the feature flag still answers 404 first.
    let (st, t) = get(
        &sb,
        ALICE,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#1")),
    )
    .await;
    assert_eq!(st, 200);
    assert!(t["items"].as_array().is_some_and(|a| !a.is_empty()), "{t}");
    let (st, _) = get(
        &sb,
        GINA,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#16")),
    )
    .await;
    assert_eq!(st, 404);

    sb.set_listing_shape(ListingShape::Array);
    let (_, back) = get(&sb, ALICE, &format!("/api/v1/tasks/{id}/comments")).await;
    assert_eq!(back.as_array().unwrap().len(), 3);
    assert!("pages".parse::<ListingShape>().is_err());
}
