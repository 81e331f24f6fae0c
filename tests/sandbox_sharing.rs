//! Rules of the sandbox service, over raw HTTP: sharing (who sees a task) and attached files.

mod sandbox_common;

use std::collections::HashSet;

use reqwest::Method;
use serde_json::json;

use sandbox_common::*;

#[tokio::test]
async fn sharing_ambiguity_resolution_and_loss_of_access() {
    let sb = start().await;
    let id = id_of(&sb, "#10");
    let path = format!("/api/v1/tasks/{id}/sharing");
    let (st, s) = get(&sb, CAROL, &path).await;
    assert_eq!(st, 200);
    assert_eq!(s["visibility"], "private");
    assert_eq!(s["users"].as_array().unwrap().len(), 3);
    assert_eq!(get(&sb, BOB, &format!("/api/v1/tasks/{id}")).await.0, 200);

    let (st, e) = call(&sb, CAROL, Method::PUT, &path, Some(json!({"visibility": "private", "users": [{"user_id": "sam taylor", "access_level": "read"}]}))).await;
    assert_eq!(st, 400);
    error_shape(&e, 400);
    let cands = e["candidates"].as_array().unwrap();
    assert_eq!(cands.len(), 2);
    let emails: HashSet<_> = cands.iter().map(|c| c["email"].as_str().unwrap()).collect();
    assert_eq!(
        emails,
        HashSet::from(["sam.taylor@acme.test", "samuel.taylor@acme.test"])
    );
    let sam_id = cands
        .iter()
        .find(|c| c["email"] == "sam.taylor@acme.test")
        .unwrap()["id"]
        .clone();

    let (st, e) = call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "private", "teams": [{"team_id": "Litigation"}]})),
    )
    .await;
    assert_eq!(st, 400);
    assert_eq!(e["candidates"].as_array().unwrap().len(), 2);
    assert!(e["candidates"][0]["email"].is_null() && e["candidates"][0]["name"] == "Litigation");

    let (st, e) = call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "private", "users": [{"user_id": "nobody@nowhere"}]})),
    )
    .await;
    assert_eq!(st, 400);
    assert!(e["error"].as_str().unwrap().contains("nobody@nowhere"));

    // Resolve by id and e-mail; Bob is omitted and loses access.
    let (st, s) = call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "private", "users": [
        {"user_id": sam_id, "access_level": "write"},
        {"user_id": "ALICE@acme.test", "access_level": "read"}
    ], "teams": [{"team_id": "Corporate", "access_level": "read"}]})),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    let emails: Vec<_> = s["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        emails,
        vec!["carol@acme.test", "sam.taylor@acme.test", "alice@acme.test"]
    );
    assert_eq!(s["teams"][0]["name"], "Corporate");
    assert_eq!(get(&sb, BOB, &format!("/api/v1/tasks/{id}")).await.0, 404);
    assert_eq!(get(&sb, SAM, &format!("/api/v1/tasks/{id}")).await.0, 200);
    let t = sb.task_json("#10").unwrap();
    assert_eq!(t["involved_people"].as_array().unwrap().len(), 3);
    assert_eq!(t["shared_teams"][0]["access_level"], "read");
    // customer visibility lets Bob in again
    call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "customer"})),
    )
    .await;
    assert_eq!(get(&sb, BOB, &format!("/api/v1/tasks/{id}")).await.0, 200);
}

#[tokio::test]
async fn attach_and_detach_files() {
    let sb = start().await;
    let (_, files) = get(&sb, ALICE, "/api/v1/files").await;
    let files = files.as_array().unwrap().clone();
    assert!(files.len() >= 5);
    let f = files[2]["id"].as_str().unwrap();
    let id = id_of(&sb, "#2");
    let (st, v) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{id}/files"),
        Some(json!({"file_ids": [f]})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["input_files"][0], files[2]);
    let (st, v) = call(
        &sb,
        ALICE,
        Method::DELETE,
        &format!("/api/v1/tasks/{id}/files/{f}"),
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["input_files"], json!([]));
    assert_eq!(
        get(&sb, ALICE, "/api/v1/files")
            .await
            .1
            .as_array()
            .unwrap()
            .len(),
        files.len()
    );
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::DELETE,
            &format!("/api/v1/tasks/{id}/files/{f}"),
            None
        )
        .await
        .0,
        404
    );
    let (st, e) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{id}/files"),
        Some(json!({"file_ids": ["00000000-0000-4000-8000-000000000000"]})),
    )
    .await;
    assert_eq!(st, 404);
    error_shape(&e, 404);
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::POST,
            &format!("/api/v1/tasks/{id}/files"),
            Some(json!({"file_ids": []}))
        )
        .await
        .0,
        400
    );
}
