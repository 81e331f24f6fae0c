//! Rules of the sandbox service, over raw HTTP: `GET /api/v1/tasks`: order, cursors and limits, exclusions, filters, scoping, quirks, size.

mod sandbox_common;

use std::collections::HashSet;
use std::time::Instant;

use reqwest::Method;
use serde_json::json;
use taskdeck::sandbox::SandboxOptions;

use sandbox_common::*;

fn rank(p: &str) -> usize {
    ["urgent", "high", "medium", "low", "no_priority"]
        .iter()
        .position(|x| *x == p)
        .unwrap()
}

#[tokio::test]
async fn list_is_ordered_by_priority_due_created_id() {
    let sb = start().await;
    let items = walk(&sb, ALICE, "", 100).await;
    assert!(items.len() > 100, "alice sees {} tasks", items.len());
    for w in items.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let (ra, rb) = (
            rank(a["priority"].as_str().unwrap()),
            rank(b["priority"].as_str().unwrap()),
        );
        assert!(ra <= rb, "priority order {a} {b}");
        if ra < rb {
            continue;
        }
        let (da, db) = (a["complete_by"].as_str(), b["complete_by"].as_str());
        match (da, db) {
            (Some(x), Some(y)) => {
                assert!(x <= y, "due order");
                if x < y {
                    continue;
                }
            }
            (None, Some(_)) => panic!("null due date before a set one"),
            (Some(_), None) => continue,
            (None, None) => {}
        }
        let (ca, cb) = (
            a["created_at"].as_str().unwrap(),
            b["created_at"].as_str().unwrap(),
        );
        assert!(ca >= cb, "created_at descending");
        if ca == cb {
            assert!(a["id"].as_str().unwrap() < b["id"].as_str().unwrap());
        }
    }
    // source_channel appears in single-task responses only.
    assert!(items[0].get("source_channel").is_none());
    let (_, one) = get(
        &sb,
        ALICE,
        &format!("/api/v1/tasks/{}", items[0]["id"].as_str().unwrap()),
    )
    .await;
    assert!(one["source_channel"].is_string());
}

#[tokio::test]
async fn full_cursor_walk_returns_each_visible_task_once() {
    let sb = start().await;
    let small = walk(&sb, ALICE, "", 7).await;
    let big = walk(&sb, ALICE, "", 100).await;
    let ids: HashSet<_> = small.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), small.len(), "no duplicates");
    assert_eq!(displays(&small), displays(&big));
    // default limit 20 and null cursor on the last page
    let (_, p) = get(&sb, ALICE, "/api/v1/tasks").await;
    assert_eq!(p["items"].as_array().unwrap().len(), 20);
    assert!(p["cursor"].is_string());
}

#[tokio::test]
async fn changing_limit_mid_walk_skips_or_repeats() {
    let sb = start().await;
    let all = displays(&walk(&sb, ALICE, "", 100).await);
    let (_, p1) = get(&sb, ALICE, "/api/v1/tasks?limit=10").await;
    let c = p1["cursor"].as_str().unwrap();
    assert_eq!(displays(p1["items"].as_array().unwrap()), all[0..10]);
    // Same cursor (page 1) with limit 5 → offset 5: repeats rows 5..10.
    let (_, rep) = get(&sb, ALICE, &format!("/api/v1/tasks?limit=5&cursor={c}")).await;
    assert_eq!(displays(rep["items"].as_array().unwrap()), all[5..10]);
    // With limit 20 → offset 20: rows 10..20 are skipped.
    let (_, skip) = get(&sb, ALICE, &format!("/api/v1/tasks?limit=20&cursor={c}")).await;
    assert_eq!(displays(skip["items"].as_array().unwrap()), all[20..40]);
}

#[tokio::test]
async fn limit_and_cursor_validation() {
    let sb = start().await;
    for bad in ["0", "101", "abc", "-1", "2.5"] {
        let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks?limit={bad}")).await;
        assert_eq!(st, 400, "limit={bad}");
        error_shape(&v, 400);
    }
    for ok in ["1", "100"] {
        let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks?limit={ok}")).await;
        assert_eq!(st, 200);
        assert_eq!(
            v["items"].as_array().unwrap().len(),
            ok.parse::<usize>().unwrap()
        );
    }
    let (st, v) = get(&sb, ALICE, "/api/v1/tasks?cursor=garbage!!").await;
    assert_eq!(st, 400);
    error_shape(&v, 400);
}

#[tokio::test]
async fn archived_and_draft_tasks_are_excluded_from_lists() {
    let sb = start().await;
    let all = walk(&sb, ALICE, "", 100).await;
    assert!(all
        .iter()
        .all(|t| t["archived"] == false && t["draft"] == false));
    let d = displays(&all);
    assert!(!d.contains(&"#4".to_string()) && !d.contains(&"#5".to_string()));
    let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks/{}", id_of(&sb, "#4"))).await;
    assert_eq!(st, 200);
    assert_eq!(v["archived"], true);
    assert_eq!(v["status"], "completed");
    let (_, v) = get(&sb, ALICE, &format!("/api/v1/tasks/{}", id_of(&sb, "#5"))).await;
    assert_eq!(v["draft"], true);
    // restoring brings it back, status unchanged
    let (st, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("/api/v1/tasks/{}", id_of(&sb, "#4")),
        Some(json!({"archived": false})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["status"], "completed");
    assert!(displays(&walk(&sb, ALICE, "", 100).await).contains(&"#4".to_string()));
}

#[tokio::test]
async fn every_filter_works() {
    let sb = start().await;
    let alice = user_id(&sb, ALICE).await;
    let all = walk(&sb, ALICE, "", 100).await;

    // query: case-insensitive, over title and comment text
    let q = walk(&sb, ALICE, "query=NORTHWIND", 100).await;
    assert!(!q.is_empty());
    for t in &q {
        if !serde_json::to_string(t)
            .unwrap()
            .to_lowercase()
            .contains("northwind")
        {
            let (_, cs) = get(
                &sb,
                ALICE,
                &format!("/api/v1/tasks/{}/comments", t["id"].as_str().unwrap()),
            )
            .await;
            assert!(cs.to_string().to_lowercase().contains("northwind"), "{t}");
        }
    }
    assert!(displays(&q).contains(&"#1".to_string()));
    let c = walk(&sb, ALICE, "query=carve-out", 100).await;
    assert_eq!(displays(&c), vec!["#1"], "comment text is searched");

    let s = walk(&sb, ALICE, "status=in_progress,completed", 100).await;
    assert!(!s.is_empty());
    assert!(s
        .iter()
        .all(|t| t["status"] == "in_progress" || t["status"] == "completed"));
    assert_eq!(
        s.len(),
        all.iter()
            .filter(|t| t["status"] == "in_progress" || t["status"] == "completed")
            .count()
    );

    let p = walk(&sb, ALICE, "priority=urgent", 100).await;
    assert_eq!(
        p.len(),
        all.iter().filter(|t| t["priority"] == "urgent").count()
    );
    assert!(!p.is_empty());

    let a = walk(&sb, ALICE, &format!("assigned_to={alice}"), 100).await;
    assert!(a.len() >= 5);
    assert!(a.iter().all(|t| t["assigned_to"]["id"] == alice.as_str()));

    let inv = walk(&sb, ALICE, &format!("involving={alice}"), 100).await;
    assert!(inv.len() > a.len());
    assert!(inv.iter().all(|t| t["creator"]["id"] == alice.as_str()
        || t["involved_people"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == alice.as_str())));

    let team = all[0]["team"]["id"].as_str().unwrap().to_string();
    let tm = walk(&sb, ALICE, &format!("team_id={team}"), 100).await;
    assert_eq!(
        tm.len(),
        all.iter()
            .filter(|t| t["team"]["id"] == team.as_str())
            .count()
    );

    let tags = walk(&sb, ALICE, "tags=nda,contract", 100).await;
    assert!(displays(&tags).contains(&"#1".to_string()));
    assert!(tags.iter().all(|t| {
        let tg: Vec<_> = t["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        tg.contains(&"nda") && tg.contains(&"contract")
    }));

    let due1 = sb.task_json("#1").unwrap()["complete_by"]
        .as_str()
        .unwrap()
        .to_string();
    let day = &due1[..10];
    let d = walk(
        &sb,
        ALICE,
        &format!("complete_by_from={day}&complete_by_to={day}"),
        100,
    )
    .await;
    assert!(displays(&d).contains(&"#1".to_string()));
    assert!(d
        .iter()
        .all(|t| t["complete_by"].as_str().unwrap().starts_with(day)));
    let d2 = walk(
        &sb,
        ALICE,
        &format!("complete_by_from={due1}&complete_by_to={due1}"),
        100,
    )
    .await;
    assert!(d2.iter().all(|t| t["complete_by"] == due1.as_str()) && !d2.is_empty());

    for bad in [
        "status=blocked",
        "priority=critical",
        "assigned_to=bob",
        "complete_by_from=yesterday",
    ] {
        let (st, _) = get(&sb, ALICE, &format!("/api/v1/tasks?{bad}")).await;
        assert_eq!(st, 400, "{bad}");
    }
}

#[tokio::test]
async fn scoping_across_users_and_organisations() {
    let sb = start().await;
    let hr = id_of(&sb, "#13");
    assert_eq!(get(&sb, ALICE, &format!("/api/v1/tasks/{hr}")).await.0, 404);
    assert!(!displays(&walk(&sb, ALICE, "", 100).await).contains(&"#13".to_string()));
    // team share: #14 is private, shared with alice's Litigation team, not with Bob's... Bob is in it too.
    let hold = id_of(&sb, "#14");
    assert_eq!(
        get(&sb, ALICE, &format!("/api/v1/tasks/{hold}")).await.0,
        200
    );
    assert_eq!(get(&sb, SAM, &format!("/api/v1/tasks/{hold}")).await.0, 200);
    // another organisation: 404 everywhere
    let t1 = id_of(&sb, "#1");
    assert_eq!(get(&sb, GINA, &format!("/api/v1/tasks/{t1}")).await.0, 404);
    assert_eq!(
        get(&sb, GINA, &format!("/api/v1/tasks/{t1}/comments"))
            .await
            .0,
        404
    );
    assert_eq!(
        call(
            &sb,
            GINA,
            Method::PATCH,
            &format!("/api/v1/tasks/{t1}"),
            Some(json!({"title": "x"}))
        )
        .await
        .0,
        404
    );
    let g = walk(&sb, GINA, "", 100).await;
    assert!(!g.is_empty());
    assert!(g.iter().all(|t| t["creator"]["email"]
        .as_str()
        .unwrap()
        .ends_with("@globex.test")));
}

#[tokio::test]
async fn quirks_list_is_still_served() {
    let sb = start_with(SandboxOptions {
        quirks: true,
        ..Default::default()
    })
    .await;
    let all = walk(&sb, ALICE, "", 25).await;
    let bad: Vec<_> = all.iter().filter(|t| !t["title"].is_string()).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["tags"], "oops");
    assert!(all.iter().any(|t| t["status"] == "blocked"
        && t["priority"] == "critical"
        && t["x_sla"]["tier"] == 2));
    assert!(all.iter().any(|t| t["title"]
        .as_str()
        .is_some_and(|s| s.contains("\u{1b}]52;c;"))));
    assert!(all.iter().any(|t| t["assigned_agent"] == "legacy-agent-7"));
}

#[tokio::test]
async fn fifty_thousand_tasks_seed_and_list() {
    let t = Instant::now();
    let sb = start_with(SandboxOptions {
        tasks: 50_000,
        ..Default::default()
    })
    .await;
    let seeded = t.elapsed();
    assert!(seeded.as_secs() < 20, "seeding took {seeded:?}");
    assert!(sb.task_json("#50000").is_some());
    assert!(sb.task_json("#50001").is_none());
    let t = Instant::now();
    let (st, v) = get(&sb, ALICE, "/api/v1/tasks?limit=100").await;
    assert_eq!(st, 200);
    assert_eq!(v["items"].as_array().unwrap().len(), 100);
    let (_, v) = get(
        &sb,
        ALICE,
        "/api/v1/tasks?limit=100&query=northwind&status=in_progress",
    )
    .await;
    assert!(!v["items"].as_array().unwrap().is_empty());
    assert!(t.elapsed().as_secs() < 10, "listing took {:?}", t.elapsed());
}

/// Where a listed task sorts: priority, due (nulls last), newest, id.
fn sort_key(t: &serde_json::Value) -> (usize, bool, String, std::cmp::Reverse<String>, String) {
    let s = |k: &str| t[k].as_str().unwrap_or_default().to_string();
    (
        rank(t["priority"].as_str().unwrap()),
        t["complete_by"].is_null(),
        s("complete_by"),
        std::cmp::Reverse(s("created_at")),
        s("id"),
    )
}

#[tokio::test]
async fn edits_creations_and_deletions_keep_the_list_in_order() {
    let sb = start().await;
    let before = walk(&sb, ALICE, "", 100).await;
    let last = before.last().unwrap()["id"].as_str().unwrap().to_string();
    let gone = before[3]["id"].as_str().unwrap().to_string();
    // The last row becomes urgent and due soon; another is deleted; one is
    // created.
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("/api/v1/tasks/{last}"),
        Some(json!({"priority": "urgent", "complete_by": "2020-01-01T00:00:00Z"})),
    )
    .await;
    assert_eq!(st, 200);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::DELETE,
        &format!("/api/v1/tasks/{gone}"),
        None,
    )
    .await;
    assert_eq!(st, 204);
    let (st, new) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/tasks",
        Some(json!({"title": "Fresh one", "priority": "medium"})),
    )
    .await;
    assert_eq!(st, 201, "{new}");
    for limit in [7, 100] {
        let after = walk(&sb, ALICE, "", limit).await;
        assert_eq!(after.len(), before.len());
        for w in after.windows(2) {
            assert!(sort_key(&w[0]) < sort_key(&w[1]), "{} then {}", w[0], w[1]);
        }
        let ids: Vec<&str> = after.iter().map(|t| t["id"].as_str().unwrap()).collect();
        assert_eq!(ids[0], last, "the edited task moved to the top");
        assert!(!ids.contains(&gone.as_str()));
        assert!(ids.contains(&new["id"].as_str().unwrap()));
    }
}

#[tokio::test]
async fn a_walk_goes_on_after_its_last_row_when_a_task_is_added_above() {
    let sb = start().await;
    let all = displays(&walk(&sb, ALICE, "", 100).await);
    let (_, p1) = get(&sb, ALICE, "/api/v1/tasks?limit=10").await;
    assert_eq!(displays(p1["items"].as_array().unwrap()), all[0..10]);
    let c = p1["cursor"].as_str().unwrap();
    // A task that sorts first arrives between the pages.
    let (st, _) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/tasks",
        Some(json!({"title": "Top", "priority": "urgent", "complete_by": "2020-01-01"})),
    )
    .await;
    assert_eq!(st, 201);
    let (_, p2) = get(&sb, ALICE, &format!("/api/v1/tasks?limit=10&cursor={c}")).await;
    assert_eq!(
        displays(p2["items"].as_array().unwrap()),
        all[10..20],
        "no row repeated: the cursor seeks after the row it ended on"
    );
}
