//! Mentions on archived tasks, walk after walk against the sandbox (issue
//! 46 §3; see `archived.rs`).

use super::cycle::{cycle, CycleReport, Plan};
use super::derive::Me;
use super::sandboxed::{odd_bases, start};
use crate::api::{Client, TaskPatch};
use crate::store::{Db, InboxItem};
use jiff::Timestamp;

fn mentions(db: &Db, task: &str) -> Vec<InboxItem> {
    db.inbox_items(true)
        .unwrap()
        .into_iter()
        .filter(|i| i.task_id == task && i.kind == "mentioned")
        .collect()
}

async fn walk(client: &Client, db: &mut Db, me: &Me) -> CycleReport {
    let r = cycle(client, db, me, &Plan::default(), Timestamp::now())
        .await
        .unwrap();
    assert_eq!(r.partial(), None, "{r:?}");
    r
}

async fn archive(client: &Client, id: &str, archived: bool) {
    let patch = TaskPatch {
        archived: Some(archived),
        ..Default::default()
    };
    client.patch_task(id, &patch).await.unwrap();
}

/// A task of Alice's archived, then Bob's comment naming her (a comment
/// that does not move the task's `updated_at`): a `mention` item within
/// three walks, said once. The task restored leaves the archived set (the
/// walk follows it again); archived again, then deleted (its comments
/// answered 404): no error, the walk whole, out of the rotation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mention_on_an_archived_task_reaches_the_inbox_within_three_walks() {
    let mut w = start(20, false).await;
    let bob = w.sb.client(1);
    let id = w.sb.task_json("#1").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(walk(&w.alice, &mut w.db, &w.me).await.first);
    archive(&w.alice, &id, true).await;
    walk(&w.alice, &mut w.db, &w.me).await;
    assert_eq!(w.db.inbox_archived_ids().unwrap(), [id.as_str()]);

    let before = w.sb.task_json(&id).unwrap()["updated_at"].clone();
    bob.add_comment(&id, "@alice@acme.test can you check the archive?", &[])
        .await
        .unwrap();
    assert_eq!(
        w.sb.task_json(&id).unwrap()["updated_at"],
        before,
        "the comment moved the task's updated_at: the test would prove nothing"
    );
    let mut walks = 0;
    while mentions(&w.db, &id).is_empty() {
        walks += 1;
        assert!(walks <= 3, "no mention after three walks");
        walk(&w.alice, &mut w.db, &w.me).await;
    }
    let found = mentions(&w.db, &id);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].words.contains("mentioned you"), "{found:?}");
    // Read again: known, not said twice.
    for _ in 0..3 {
        walk(&w.alice, &mut w.db, &w.me).await;
    }
    assert_eq!(mentions(&w.db, &id).len(), 1);

    // Restored: seen among Alice's tasks again, out of the archived set.
    archive(&w.alice, &id, false).await;
    walk(&w.alice, &mut w.db, &w.me).await;
    assert!(w.db.inbox_archived_ids().unwrap().is_empty());
    // Archived again, then deleted: its comments answer 404.
    archive(&w.alice, &id, true).await;
    walk(&w.alice, &mut w.db, &w.me).await;
    assert_eq!(w.db.inbox_archived_ids().unwrap(), [id.as_str()]);
    bob.delete_task(&id).await.unwrap();
    let gone = walk(&w.alice, &mut w.db, &w.me).await;
    assert!(gone.comment_reads >= 1, "{gone:?}");
    assert!(w.db.inbox_archived_ids().unwrap().is_empty());
}

/// Issue 40 (§10 of issue 42 on archived tasks): an archived task's
/// comments are read the one way the walk reads its own. The sandbox's
/// comment that the JSON reader refuses even with lone surrogates replaced
/// (`"content": 42`, on a readable task of Alice's), met by an archived
/// read that had not known it: the walk is partial, "1 comment could not
/// be read" (`taskdeck inbox` exits 3), not a mention dropped in silence;
/// known afterwards, later walks are whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_comment_on_an_archived_task_is_said_once_as_the_walks_are() {
    let mut w = start(10, true).await;
    walk(&w.alice, &mut w.db, &w.me).await;
    // The task whose comment cannot be read: its base knows the print.
    let odd = odd_bases(&w.db);
    assert_eq!(odd.len(), 1, "the malformed comment's task: {odd:?}");
    let id = odd[0].clone();
    archive(&w.alice, &id, true).await;
    // Seen archived: kept with the comments its base knew, the print too,
    // so its read in the same walk says nothing.
    walk(&w.alice, &mut w.db, &w.me).await;
    assert_eq!(w.db.inbox_archived_ids().unwrap(), [id.as_str()]);
    // Its comments never read: the unreadable one is met for the first time.
    rusqlite::Connection::open(&w.path)
        .unwrap()
        .execute(
            "UPDATE inbox_archived SET comment_ids=NULL WHERE task_id=?1",
            [&id],
        )
        .unwrap();
    let mut said = None;
    for _ in 0..3 {
        let r = cycle(
            &w.alice,
            &mut w.db,
            &w.me,
            &Plan::default(),
            Timestamp::now(),
        )
        .await
        .unwrap();
        if let Some(why) = r.partial() {
            assert_eq!(r.comments_unreadable, 1, "{r:?}");
            said = Some(why);
            break;
        }
    }
    let why = said.expect("the unreadable comment of an archived task was never said");
    assert!(why.contains("1 comment could not be read"), "{why}");
    // Known by its print: read again, the walks are whole.
    for _ in 0..3 {
        let r = walk(&w.alice, &mut w.db, &w.me).await;
        assert!(r.comment_reads >= 1, "{r:?}");
    }
    assert_eq!(w.db.inbox_archived_ids().unwrap(), [id.as_str()]);
}
