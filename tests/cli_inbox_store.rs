//! `taskdeck inbox` over a damaged store: a stored inbox base that does
//! not decode is learnt again, never read as "no base" (which would make
//! every task the user follows news: "assigned to you").

mod cli_env;

use cli_env::*;
use serde_json::Value;
use taskdeck::api::{Field, TaskPatch, TaskQuery};
use taskdeck::sandbox::{Sandbox, SandboxOptions};

fn stores(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            stores(&p, out);
        } else if p.extension().is_some_and(|x| x == "sqlite3") {
            out.push(p);
        }
    }
}

fn reasons(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["reason"].as_str().unwrap_or("?").to_string())
        .collect()
}

#[tokio::test]
async fn damaged_inbox_bases_are_learnt_again_not_told_as_news() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 120,
        ..Default::default()
    })
    .await
    .unwrap();
    let alice_key = &sb.keys[0].key;
    let env = Env::for_sandbox(&sb, alice_key);
    let alice_id = client(&sb, alice_key).me().await.unwrap().user_id;
    let bob = client(&sb, &sb.keys[1].key);

    // The first walk learns what there is.
    let first = json_items(&env.run(&["inbox", "--json"]).await);
    assert!(
        reasons(&first).iter().all(|r| r == "due" || r == "draft"),
        "{first:#?}"
    );

    // The store is damaged: some bases' snapshots are not JSON, others'
    // versions are not numbers (a row that does not decode at all).
    let mut found = Vec::new();
    stores(env.dir.path(), &mut found);
    assert_eq!(found.len(), 1, "one user, one store: {found:?}");
    {
        let db = rusqlite::Connection::open(&found[0]).unwrap();
        let n: i64 = db
            .query_row("SELECT count(*) FROM inbox_base", [], |r| r.get(0))
            .unwrap();
        assert!(n > 4, "the first walk kept bases: {n}");
        db.execute(
            "UPDATE inbox_base SET snap = '{not json' WHERE rowid % 2 = 0",
            [],
        )
        .unwrap();
        db.execute(
            "UPDATE inbox_base SET version = 'not a number' WHERE rowid % 2 = 1",
            [],
        )
        .unwrap();
    }

    // The next walk tells nothing new of the tasks it already followed.
    let after = json_items(&env.run(&["inbox", "--json"]).await);
    assert!(
        !reasons(&after)
            .iter()
            .any(|r| r == "assigned" || r == "changed"),
        "a damaged base is no news: {:?}",
        reasons(&after)
    );

    // And the inbox works on: Bob gives Alice one of his tasks.
    let his = bob
        .list_tasks(
            &TaskQuery {
                assigned_to: Some(client(&sb, &sb.keys[1].key).me().await.unwrap().user_id),
                ..Default::default()
            },
            50,
            None,
        )
        .await
        .unwrap();
    let given = his
        .items
        .iter()
        .filter_map(|i| i.task())
        .next()
        .expect("Bob has a task")
        .clone();
    bob.patch_task(
        &given.id,
        &TaskPatch {
            assigned_to: Field::Set(alice_id.clone()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let next = json_items(&env.run(&["inbox", "--json"]).await);
    let assigned: Vec<&Value> = next.iter().filter(|i| i["reason"] == "assigned").collect();
    assert_eq!(assigned.len(), 1, "{:?}", reasons(&next));
    assert_eq!(assigned[0]["task"]["id"], given.id.as_str());
}
