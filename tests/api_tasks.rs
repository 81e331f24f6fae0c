//! The typed client against the sandbox over real HTTP: identity, the task list and its filters, cursors, task CRUD.

mod api_common;

use api_common::*;

#[tokio::test]
async fn identity_and_bad_key() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let me = c.me().await.unwrap();
    assert_eq!(me.user_name.raw(), sb.keys[0].user_name);
    assert_eq!(me.customer_name.raw(), sb.keys[0].org_name);
    assert!(!me.user_id.is_empty());
    let raw = c.me_raw().await.unwrap();
    assert_eq!(raw["user_id"], json!(me.user_id));

    let bad = client_with(&sb, "not-a-key");
    let e = bad.me().await.unwrap_err();
    assert!(matches!(e, ApiError::Unauthorized { .. }), "{e:?}");
    assert!(e.to_string().starts_with("authentication failed (401)"));
    // 401 is not retried.
    let e = bad
        .list_tasks(&TaskQuery::default(), 5, None)
        .await
        .unwrap_err();
    assert!(e.is_auth());
}

#[tokio::test]
async fn list_filters_are_applied() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let me = c.me().await.unwrap();
    let all = walk(&c, &TaskQuery::default(), 100).await;
    let tasks: Vec<&Task> = all.iter().filter_map(|i| i.task()).collect();
    assert!(tasks.len() > 50);
    assert!(tasks.iter().all(|t| !t.archived && !t.draft));

    let n = check(
        &c,
        TaskQuery {
            status: vec!["in_progress".into(), "completed".into()],
            ..Default::default()
        },
        |t: &Task| matches!(t.status, Status::InProgress | Status::Completed),
    )
    .await;
    assert!(n < tasks.len());
    check(
        &c,
        TaskQuery {
            priority: Some("urgent".into()),
            ..Default::default()
        },
        |t: &Task| t.priority == Priority::Urgent,
    )
    .await;
    let uid = me.user_id.clone();
    check(
        &c,
        TaskQuery {
            assigned_to: Some(uid.clone()),
            ..Default::default()
        },
        |t: &Task| t.assigned_to.as_ref().is_some_and(|p| p.id == uid),
    )
    .await;
    check(
        &c,
        TaskQuery {
            involving: Some(uid.clone()),
            ..Default::default()
        },
        |t: &Task| people_ids(t).contains(&uid),
    )
    .await;
    let team = tasks
        .iter()
        .find_map(|t| t.team.as_ref())
        .unwrap()
        .id
        .as_str()
        .to_string();
    check(
        &c,
        TaskQuery {
            team_id: Some(team.clone()),
            ..Default::default()
        },
        |t: &Task| t.team.as_ref().is_some_and(|tm| tm.id == team),
    )
    .await;
    check(
        &c,
        TaskQuery {
            tags: vec!["contract".into()],
            ..Default::default()
        },
        |t: &Task| t.tags.iter().any(|g| g.raw() == "contract"),
    )
    .await;
    check(
        &c,
        TaskQuery {
            query: Some("Fabrikam".into()),
            ..Default::default()
        },
        |_: &Task| true,
    )
    .await;
    let from = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(3 * 24);
    let to = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(10 * 24);
    let n = check(
        &c,
        TaskQuery {
            complete_by_from: Some(taskdeck::api::to_utc_seconds(from)),
            complete_by_to: Some(to.strftime("%Y-%m-%d").to_string()),
            ..Default::default()
        },
        |t: &Task| t.due().is_some_and(|d| d >= from),
    )
    .await;
    assert!(n < tasks.len());
}

#[tokio::test]
async fn cursor_walk_keeps_the_limit() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let reference: Vec<String> = walk(&c, &TaskQuery::default(), 100)
        .await
        .iter()
        .map(|i| i.id().unwrap().to_string())
        .collect();
    sb.clear_requests();
    let items = walk(&c, &TaskQuery::default(), 37).await;
    let mut ids: Vec<String> = items.iter().map(|i| i.id().unwrap().to_string()).collect();
    assert_eq!(ids, reference, "same rows, same order, each once");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), reference.len());
    let gets: Vec<_> = sb
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET" && r.path == "/api/v1/tasks")
        .collect();
    assert_eq!(gets.len(), reference.len().div_ceil(37));
    for r in gets {
        let q = r.query.unwrap_or_default();
        assert!(q.split('&').any(|p| p == "limit=37"), "{q}");
    }
}

#[tokio::test]
async fn create_get_patch_subtasks_delete() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let parent = find(&c, "Assess review findings for Fabrikam").await;
    let created = c
        .create_task(&NewTask {
            title: "Draft the disclosure letter".into(),
            description: Some("first pass".into()),
            parent_task_id: Some(parent.id.as_str().to_string()),
        })
        .await
        .unwrap();
    assert_eq!(created.title.raw(), "Draft the disclosure letter");
    let subs = c.subtasks(&parent.id).await.unwrap();
    assert!(subs.iter().any(|s| s.id() == Some(created.id.as_str())));

    let got = c.get_task(&created.id).await.unwrap();
    assert_eq!(got.id, created.id);

    // Set, then clear with explicit nulls; unrelated fields stay.
    let t = c
        .patch_task(
            &created.id,
            &TaskPatch {
                complete_by: Field::Set("2030-01-15T09:00:00Z".into()),
                status: Some(Status::InProgress),
                priority: Some(Priority::High),
                tags: Some(vec!["a".into(), "b".into()]),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(t.due().is_some());
    assert_eq!(t.status, Status::InProgress);
    assert_eq!(t.tags.len(), 2);
    let t = c
        .patch_task(
            &created.id,
            &TaskPatch {
                complete_by: Field::Clear,
                description: Field::Clear,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(t.complete_by, None);
    assert_eq!(t.description, None);
    assert_eq!(t.status, Status::InProgress);
    assert_eq!(t.tags.len(), 2);
    let last = sb
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.method == "PATCH")
        .unwrap();
    assert_eq!(
        last.body,
        Some(json!({"description": null, "complete_by": null}))
    );
    // {} changes nothing.
    let same = c
        .patch_task(&created.id, &TaskPatch::default())
        .await
        .unwrap();
    assert_eq!(same.tags.len(), 2);

    // Archive hides it from lists; the status is kept.
    let t = c
        .patch_task(
            &created.id,
            &TaskPatch {
                archived: Some(true),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(t.archived);
    assert_eq!(t.status, Status::InProgress);
    let all = walk(&c, &TaskQuery::default(), 100).await;
    assert!(all.iter().all(|i| i.id() != Some(created.id.as_str())));

    c.delete_task(&created.id).await.unwrap();
    let e = c.get_task(&created.id).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}
