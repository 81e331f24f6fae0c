//! Rules of the sandbox service, over raw HTTP: one task: PATCH rules, creation, subtasks, deletion.

mod sandbox_common;

use reqwest::Method;
use serde_json::json;

use sandbox_common::*;

#[tokio::test]
async fn patch_null_rules_and_validation() {
    let sb = start().await;
    let id = id_of(&sb, "#2");
    let before = sb.task_json("#2").unwrap();
    let path = format!("/api/v1/tasks/{id}");
    let (st, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &path,
        Some(json!({
            "title": null, "status": null, "tags": null, "complete_by": null, "description": null
        })),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["title"], before["title"]);
    assert_eq!(v["status"], before["status"]);
    assert_eq!(v["tags"], before["tags"]);
    assert!(v["complete_by"].is_null());
    assert!(v["description"].is_null());
    assert_ne!(v["updated_at"], before["updated_at"]);

    let (_, v) = call(&sb, ALICE, Method::PATCH, &path, Some(json!({}))).await;
    assert_eq!(v["title"], before["title"]);

    let bob = user_id(&sb, BOB).await;
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &path,
        Some(json!({
            "assigned_to": bob, "complete_by": "2026-12-01", "priority": "low", "tags": ["a", "b"]
        })),
    )
    .await;
    assert_eq!(v["assigned_to"]["id"], bob.as_str());
    assert_eq!(v["complete_by"], "2026-12-01T00:00:00Z");
    assert_eq!(v["tags"], json!(["a", "b"]));
    let assignees: Vec<_> = v["involved_people"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["role"] == "assignee")
        .collect();
    assert_eq!(assignees.len(), 1);
    assert_eq!(assignees[0]["id"], bob.as_str());
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &path,
        Some(json!({"assigned_to": null})),
    )
    .await;
    assert!(v["assigned_to"].is_null());
    assert!(!v["involved_people"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["role"] == "assignee"));

    for bad in [
        json!({"status": "blocked"}),
        json!({"priority": "critical"}),
        json!({"assigned_to": "not-a-uuid"}),
        json!({"assigned_to": "00000000-0000-4000-8000-000000000000"}),
        json!({"complete_by": "tomorrow"}),
        json!({"archived": "yes"}),
    ] {
        let (st, e) = call(&sb, ALICE, Method::PATCH, &path, Some(bad.clone())).await;
        assert_eq!(st, 400, "{bad}");
        error_shape(&e, 400);
    }
}

#[tokio::test]
async fn create_subtasks_and_delete_draft() {
    let sb = start().await;
    let parent = id_of(&sb, "#6");
    let (st, subs) = get(&sb, ALICE, &format!("/api/v1/tasks/{parent}/subtasks")).await;
    assert_eq!(st, 200);
    assert_eq!(displays(subs.as_array().unwrap()), vec!["#7", "#8", "#9"]);
    let (st, t) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/tasks",
        Some(json!({"title": "Check slide numbers", "parent_task_id": parent, "priority": "high"})),
    )
    .await;
    assert_eq!(st, 201, "{t}");
    assert_eq!(t["parent_task_id"], parent.as_str());
    assert_eq!(t["creator"]["email"], "alice@acme.test");
    let (_, subs) = get(&sb, ALICE, &format!("/api/v1/tasks/{parent}/subtasks")).await;
    assert_eq!(subs.as_array().unwrap().len(), 4);
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::POST,
            "/api/v1/tasks",
            Some(json!({"description": "x"}))
        )
        .await
        .0,
        400
    );

    let draft = id_of(&sb, "#5");
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::DELETE,
            &format!("/api/v1/tasks/{draft}"),
            None
        )
        .await
        .0,
        204
    );
    assert_eq!(
        get(&sb, ALICE, &format!("/api/v1/tasks/{draft}")).await.0,
        404
    );
}

#[tokio::test]
async fn a_deleted_subtask_leaves_its_parents_listing_and_a_deleted_parent_its_children() {
    let sb = start().await;
    let parent = id_of(&sb, "#6");
    let child = id_of(&sb, "#8");
    let path = |id: &str| format!("/api/v1/tasks/{id}");
    assert_eq!(
        call(&sb, ALICE, Method::DELETE, &path(&child), None)
            .await
            .0,
        204
    );
    let (_, subs) = get(&sb, ALICE, &format!("{}/subtasks", path(&parent))).await;
    assert_eq!(displays(subs.as_array().unwrap()), vec!["#7", "#9"]);
    let kept = id_of(&sb, "#7");
    assert_eq!(
        call(&sb, ALICE, Method::DELETE, &path(&parent), None)
            .await
            .0,
        204
    );
    let (st, t) = get(&sb, ALICE, &path(&kept)).await;
    assert_eq!(st, 200);
    assert!(t["parent_task_id"].is_null(), "{t}");
}

/// Every handler that edits a task with a body shares one prologue
/// (`sandbox/request.rs::edit_task`): the body is read first (400 when it
/// is not a JSON object, whoever asks), then the task must be one the
/// caller sees (404).
#[tokio::test]
async fn task_edits_read_the_body_before_the_task() {
    let sb = start().await;
    let id = id_of(&sb, "#2");
    let before = sb.task_json("#2").unwrap();
    let nobody = "00000000-0000-4000-8000-000000000000";
    let edits = [
        (Method::PATCH, format!("/api/v1/tasks/{id}")),
        (Method::POST, format!("/api/v1/tasks/{id}/comments")),
        (
            Method::POST,
            format!("/api/v1/tasks/{id}/comments/{nobody}/replies"),
        ),
        (
            Method::PATCH,
            format!("/api/v1/tasks/{id}/comments/{nobody}"),
        ),
        (Method::POST, format!("/api/v1/tasks/{id}/links")),
        (
            Method::PATCH,
            format!("/api/v1/tasks/{id}/links/chat/{nobody}"),
        ),
        (Method::PUT, format!("/api/v1/tasks/{id}/sharing")),
        (Method::POST, format!("/api/v1/tasks/{id}/files")),
    ];
    for (m, path) in edits {
        // Gina (another organisation) does not see #2.
        let (st, v) = call(&sb, GINA, m.clone(), &path, Some(json!([1]))).await;
        assert_eq!(st, 400, "{m} {path}: {v}");
        error_shape(&v, 400);
        let (st, v) = call(&sb, GINA, m.clone(), &path, Some(json!({}))).await;
        assert_eq!(st, 404, "{m} {path}: {v}");
    }
    assert_eq!(sb.task_json("#2").unwrap(), before, "nothing was changed");
}
