//! Our typed client against the sandbox service over real HTTP (127.0.0.1:0).

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use taskdeck::api::*;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

async fn sandbox(quirks: bool) -> Sandbox {
    Sandbox::start_local(SandboxOptions {
        tasks: 300,
        quirks,
        ..Default::default()
    })
    .await
    .unwrap()
}

fn client_with(sb: &Sandbox, key: &str) -> Client {
    let mut cfg = ClientConfig::new(sb.base_url(), ApiKey::new(key));
    cfg.backoff_base = Duration::from_millis(1);
    Client::new(cfg).unwrap()
}

fn alice(sb: &Sandbox) -> Client {
    client_with(sb, &sb.keys[0].key)
}

/// The key of a user in an organisation without the requester thread and
/// the Visual Builder.
fn no_features_key(sb: &Sandbox) -> String {
    sb.keys
        .iter()
        .find(|k| k.org_name != sb.keys[0].org_name && k.note.contains("no requester thread"))
        .expect("a key of an organisation without the features")
        .key
        .clone()
}

async fn find(c: &Client, query: &str) -> Task {
    let q = TaskQuery {
        query: Some(query.into()),
        ..Default::default()
    };
    let page = c.list_tasks(&q, 100, None).await.unwrap();
    page.items
        .iter()
        .filter_map(|i| i.task())
        .find(|t| t.title.raw().contains(query))
        .unwrap_or_else(|| panic!("no task matching {query:?}"))
        .clone()
}

async fn walk(c: &Client, q: &TaskQuery, limit: u32) -> Vec<TaskItem> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = c.list_tasks(q, limit, cursor.as_deref()).await.unwrap();
        out.extend(page.items);
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => return out,
        }
    }
}

/// Walk a filtered list; every item must satisfy `ok`; returns the count.
async fn check(c: &Client, q: TaskQuery, ok: impl Fn(&Task) -> bool) -> usize {
    let got = walk(c, &q, 100).await;
    assert!(!got.is_empty(), "{q:?} matched nothing");
    for t in got.iter().filter_map(|i| i.task()) {
        assert!(ok(t), "{q:?} returned {}", t.label());
    }
    got.len()
}

fn people_ids(t: &Task) -> Vec<String> {
    let mut ids: Vec<String> = t
        .involved_people
        .iter()
        .map(|m| m.id.as_str().to_string())
        .collect();
    ids.extend(t.creator.iter().map(|p| p.id.as_str().to_string()));
    ids.extend(t.assigned_to.iter().map(|p| p.id.as_str().to_string()));
    ids
}

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
    let from = chrono::Utc::now() - chrono::Duration::days(3);
    let to = chrono::Utc::now() + chrono::Duration::days(10);
    let n = check(
        &c,
        TaskQuery {
            complete_by_from: Some(from.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            complete_by_to: Some(to.format("%Y-%m-%d").to_string()),
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

#[tokio::test]
async fn comments_thread_and_authorship() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let me = c.me().await.unwrap();
    let t = find(&c, "Assess review findings for Fabrikam").await;
    let before = c.list_comments(&t.id).await.unwrap();
    assert!(before.len() >= 3);

    let mine = c
        .add_comment(&t.id, "Looking at chk-221 now.", &[])
        .await
        .unwrap();
    assert_eq!(mine.parent_comment_id, None);
    assert_eq!(mine.author.id, me.user_id);
    let reply = c
        .reply_to_comment(&t.id, &mine.id, "Done.", &[])
        .await
        .unwrap();
    assert_eq!(reply.parent_comment_id.as_deref(), Some(mine.id.as_str()));
    let edited = c
        .edit_comment(&t.id, &mine.id, "Looking at chk-221 and chk-104.")
        .await
        .unwrap();
    assert_eq!(edited.content.raw(), "Looking at chk-221 and chk-104.");
    assert!(edited.edited());

    let theirs = before
        .iter()
        .find(|c| c.author.id != me.user_id)
        .expect("a comment by someone else");
    let e = c
        .edit_comment(&t.id, &theirs.id, "hijack")
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Forbidden { .. }), "{e:?}");

    let after = c.list_comments(&t.id).await.unwrap();
    assert_eq!(after.len(), before.len() + 2);
}

#[tokio::test]
async fn requester_thread_sent_draft_and_disabled() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let mailbox = find(&c, "Reply to Northwind re: NDA redlines").await;
    let m = c
        .reply_to_requester(&mailbox.id, "Clause 7 is acceptable.", &[])
        .await
        .unwrap();
    assert_eq!(m.delivery_status, Some(DeliveryStatus::Draft));
    let email = find(&c, "Confirm engagement letter with Contoso").await;
    let m = c
        .reply_to_requester(&email.id, "Confirmed.", &[])
        .await
        .unwrap();
    assert_eq!(m.delivery_status, Some(DeliveryStatus::Sent));

    let other = client_with(&sb, &no_features_key(&sb));
    let t = walk(&other, &TaskQuery::default(), 100).await;
    let id = t[0].id().unwrap().to_string();
    let e = other
        .reply_to_requester(&id, "hello", &[])
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::FeatureDisabled { .. }), "{e:?}");
}

#[tokio::test]
async fn links_add_update_remove() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let t = find(&c, "Assess review findings for Fabrikam").await;
    let other = find(&c, "Confirm engagement letter with Contoso").await;

    let added = c
        .add_links(&t.id, &[LinkRef::new(&LinkType::Task, &other.id)])
        .await
        .unwrap();
    assert!(added.linked_items.iter().any(|l| l.id == other.id));

    let upd = c
        .update_link(
            &t.id,
            &LinkType::Task,
            &other.id,
            &LinkUpdate {
                role: Some(LinkRole::Subject),
                context: None,
            },
        )
        .await
        .unwrap();
    let l = upd.linked_items.iter().find(|l| l.id == other.id).unwrap();
    assert_eq!(l.role, Some(LinkRole::Subject));

    // Only review links take a context.
    let e = c
        .update_link(
            &t.id,
            &LinkType::Task,
            &other.id,
            &LinkUpdate {
                role: None,
                context: Some(Some(vec!["chk-1".into()])),
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::BadRequest { .. }), "{e:?}");

    let review = t
        .linked_items
        .iter()
        .find(|l| l.kind == LinkType::Review)
        .expect("a review link");
    let upd = c
        .update_link(
            &t.id,
            &LinkType::Review,
            &review.id,
            &LinkUpdate {
                role: None,
                context: Some(Some(vec!["chk-221".into()])),
            },
        )
        .await
        .unwrap();
    let l = upd.linked_items.iter().find(|l| l.id == review.id).unwrap();
    let ids: Vec<&str> = l
        .context
        .as_ref()
        .unwrap()
        .check_ids
        .iter()
        .map(|s| s.raw())
        .collect();
    assert_eq!(ids, vec!["chk-221"]);
    let upd = c
        .update_link(
            &t.id,
            &LinkType::Review,
            &review.id,
            &LinkUpdate {
                role: None,
                context: Some(None),
            },
        )
        .await
        .unwrap();
    let l = upd.linked_items.iter().find(|l| l.id == review.id).unwrap();
    assert!(l.context.as_ref().is_none_or(|c| c.check_ids.is_empty()));

    let removed = c
        .remove_link(&t.id, &LinkType::Task, &other.id)
        .await
        .unwrap();
    assert!(removed.linked_items.iter().all(|l| l.id != other.id));
    let e = c
        .update_link(
            &t.id,
            &LinkType::Task,
            &other.id,
            &LinkUpdate {
                role: Some(LinkRole::Output),
                context: None,
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn sharing_with_ambiguous_reference() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let me = c.me().await.unwrap();
    let t = find(&c, "Assess review findings for Fabrikam").await;
    let current = c.get_sharing(&t.id).await.unwrap();

    let mut update = SharingUpdate::new(&current.visibility);
    for u in &current.users {
        update = update.user(&u.id, u.access_level.as_ref().unwrap_or(&AccessLevel::Read));
    }
    for tm in &current.teams {
        update = update.team(
            &tm.id,
            tm.access_level.as_ref().unwrap_or(&AccessLevel::Read),
        );
    }
    if !current.users.iter().any(|u| u.id == me.user_id) {
        update = update.user(&me.user_id, &AccessLevel::Write);
    }
    let ambiguous = update.clone().user("Sam Taylor", &AccessLevel::Read);
    let e = c.put_sharing(&t.id, &ambiguous).await.unwrap_err();
    let body = e.bad_request_body().expect("400 with a body");
    let candidates = body["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 2, "{body}");
    let pick = candidates[0]["id"].as_str().unwrap().to_string();

    let resolved = update.user(&pick, &AccessLevel::Read);
    let after = c.put_sharing(&t.id, &resolved).await.unwrap();
    assert!(after.users.iter().any(|u| u.id == pick));
    let again = c.get_sharing(&t.id).await.unwrap();
    assert_eq!(again.users.len(), after.users.len());
}

#[tokio::test]
async fn files_attach_and_detach() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let files: Value = reqwest::Client::new()
        .get(format!("{}/api/v1/files", sb.base_url()))
        .bearer_auth(&sb.keys[0].key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let fid = files[0]["id"].as_str().unwrap().to_string();
    let t = find(&c, "Confirm engagement letter with Contoso").await;
    let has = |t: &Task| {
        serde_json::to_string(&t.input_files)
            .unwrap()
            .contains(&fid)
            || serde_json::to_string(&t.output_files)
                .unwrap()
                .contains(&fid)
    };
    let attached = c
        .attach_files(&t.id, std::slice::from_ref(&fid))
        .await
        .unwrap();
    assert!(has(&attached));
    let detached = c.detach_file(&t.id, &fid).await.unwrap();
    assert!(!has(&detached));
}

#[tokio::test]
async fn layout_validation() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let (res, raw) = c
        .validate_layout(&json!({"type": "page", "blocks": [{"type": "heading", "levl": 9}]}))
        .await
        .unwrap();
    assert!(!res.valid);
    assert!(!res.errors.is_empty());
    assert!(res.warnings.iter().any(|w| w.code.raw() == "unknown_field"));
    assert_eq!(raw["valid"], json!(false));

    let many: Vec<Value> = (0..80).map(|_| json!({"type": "nope"})).collect();
    let (res, _) = c
        .validate_layout(&json!({"type": "report", "blocks": many}))
        .await
        .unwrap();
    assert_eq!(res.errors.len(), 50);
    assert!(res.omitted_errors > 0);

    let other = client_with(&sb, &no_features_key(&sb));
    let e = other
        .validate_layout(&json!({"blocks": []}))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::FeatureDisabled {
            feature: "Visual Builder"
        }
    );
}

#[tokio::test]
async fn get_retried_on_503_with_retry_after() {
    let sb = sandbox(false).await;
    let mut cfg = ClientConfig::new(sb.base_url(), ApiKey::new(sb.keys[0].key.clone()));
    cfg.get_retries = 2;
    cfg.backoff_base = Duration::from_secs(30); // would fail the test if Retry-After were ignored
    let c = Client::new(cfg).unwrap();
    c.me().await.unwrap();

    // Every request fails: 1 + 2 retries, each after Retry-After: 1.
    // (The log is never cleared here: its length is the fault counter.)
    sb.set_faults("fail_every=1,status=503,retry_after=1".parse().unwrap());
    let before = sb.requests().len();
    let started = Instant::now();
    let e = c.me().await.unwrap_err();
    assert!(matches!(e, ApiError::Status { status: 503, .. }), "{e:?}");
    assert_eq!(sb.requests().len() - before, 3);
    assert!(started.elapsed() >= Duration::from_secs(2));

    // Only the next request fails: the retry succeeds.
    let n = sb.requests().len() as u64;
    sb.set_faults(
        format!("fail_every={},retry_after=0", n + 1)
            .parse()
            .unwrap(),
    );
    let me = c.me().await.unwrap();
    assert!(!me.user_id.is_empty());
    assert_eq!(sb.requests().len() as u64 - n, 2, "one failure, one retry");
}

#[tokio::test]
async fn post_is_not_retried() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let t = find(&c, "Confirm engagement letter with Contoso").await;
    sb.set_faults("fail_every=1,status=503,retry_after=0".parse().unwrap());
    sb.clear_requests();
    let e = c.add_comment(&t.id, "only once", &[]).await.unwrap_err();
    assert!(matches!(e, ApiError::Status { status: 503, .. }), "{e:?}");
    assert!(e.outcome_unknown());
    let reqs = sb.requests();
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    assert_eq!(reqs[0].method, "POST");
}

#[tokio::test]
async fn garbage_body_is_a_decode_error() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    c.me().await.unwrap();
    sb.set_faults("garbage_every=1".parse().unwrap());
    let e = c
        .list_tasks(&TaskQuery::default(), 10, None)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    assert!(!e.to_string().contains('\n'));
}

#[tokio::test]
async fn quirks_are_kept() {
    let sb = sandbox(true).await;
    let c = alice(&sb);
    let items = walk(&c, &TaskQuery::default(), 50).await;
    let unreadable: Vec<_> = items
        .iter()
        .filter(|i| matches!(i, TaskItem::Unreadable { .. }))
        .collect();
    assert_eq!(unreadable.len(), 1);
    assert!(unreadable[0].id().is_some());
    let tasks: Vec<&Task> = items.iter().filter_map(|i| i.task()).collect();
    let odd = tasks
        .iter()
        .find(|t| t.status == Status::Other("blocked".into()))
        .expect("a task with an unknown status");
    assert!(!odd.priority.is_known());
    assert!(odd.extra.contains_key("x_sla"));
    assert!(tasks
        .iter()
        .any(|t| t.title.raw().contains('\u{1b}') && !t.title.line().contains('\u{1b}')));
}

#[tokio::test]
async fn cross_origin_redirect_drops_the_key() {
    use axum::http::HeaderMap;
    use axum::response::Redirect;
    use axum::routing::get;
    use std::sync::{Arc, Mutex};

    let seen: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let seen_b = seen.clone();
    let b = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let b_addr = b.local_addr().unwrap();
    let app_b = axum::Router::new().fallback(move |h: HeaderMap| {
        let seen = seen_b.clone();
        async move {
            seen.lock().unwrap().push(
                h.get("authorization")
                    .map(|v| v.to_str().unwrap_or("?").to_string()),
            );
            axum::Json(json!({"user_id": "u", "customer_id": "c", "user_name": "B",
                              "user_email": "b@b", "customer_name": "B"}))
        }
    });
    tokio::spawn(async move { axum::serve(b, app_b).await.unwrap() });

    let got_auth: Arc<Mutex<Vec<bool>>> = Arc::default();
    let got_auth_a = got_auth.clone();
    let a = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let a_addr = a.local_addr().unwrap();
    let target = format!("http://{b_addr}/api/v1/me");
    let app_a = axum::Router::new().route(
        "/api/v1/me",
        get(move |h: HeaderMap| {
            got_auth_a
                .lock()
                .unwrap()
                .push(h.get("authorization").is_some());
            let target = target.clone();
            async move { Redirect::temporary(&target) }
        }),
    );
    tokio::spawn(async move { axum::serve(a, app_a).await.unwrap() });

    let c = Client::new(ClientConfig::new(
        format!("http://{a_addr}"),
        ApiKey::new("secret-key-123"),
    ))
    .unwrap();
    let result = c.me().await;
    assert_eq!(
        *got_auth.lock().unwrap(),
        vec![true],
        "the first hop is authenticated"
    );
    for h in seen.lock().unwrap().iter() {
        assert!(
            h.as_deref().is_none_or(|v| !v.contains("secret-key-123")),
            "the key reached another origin: {h:?}"
        );
    }
    // Either stopped at the redirect or followed without the key; never the key.
    if let Ok(me) = result {
        assert_eq!(me.user_name.raw(), "B");
    }
}
