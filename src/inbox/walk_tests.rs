//! What a walk holds while it walks (issue 42 §2): a page's snapshots at
//! most (the rest wait in the store's scratch, see `store/walk.rs`), and
//! the stored bases one at a time, never all at once.

use super::cycle::{cycle, Plan};
use super::sandboxed::start;
use super::snapshot::{held_most, Snapshot};
use crate::store::WHOLE_READS;
use jiff::Timestamp;

/// The counters are the thread's: the test runs on one (tokio's
/// current-thread runtime, the sandbox beside it; the store's work runs
/// in place there).
#[tokio::test]
async fn a_walk_holds_a_pages_snapshots_at_most_and_reads_each_stored_base_alone() {
    let mut w = start(200, false).await;
    let plan = Plan {
        page: 10,
        ..Default::default()
    };
    held_most();
    WHOLE_READS.with(|n| n.set(0));

    // The first walk: many pages, a page's snapshots held at most.
    let first = cycle(&w.alice, &mut w.db, &w.me, &plan, Timestamp::now())
        .await
        .unwrap();
    assert!(first.first && first.complete, "{first:?}");
    assert!(first.tasks > 4 * plan.page as usize, "{first:?}");
    assert!(held_most() <= plan.page as usize, "snapshots held at once");
    assert_eq!(w.db.inbox_bases().unwrap().len(), first.tasks);
    WHOLE_READS.with(|n| n.set(0));

    // One task's base is older (another title, another version): the next
    // walk says the change, comparing each stored base as it reads it.
    let b = w.db.inbox_bases().unwrap().into_values().next().unwrap();
    WHOLE_READS.with(|n| n.set(0));
    let mut s: Snapshot = serde_json::from_str(&b.snap).unwrap();
    let title = std::mem::replace(&mut s.title, "An older title".into());
    s.updated_at = Some("2020-01-01T00:00:00Z".into());
    rusqlite::Connection::open(&w.path)
        .unwrap()
        .execute(
            "UPDATE inbox_base SET snap=?2, version=1 WHERE task_id=?1",
            rusqlite::params![b.task_id, serde_json::to_string(&s).unwrap()],
        )
        .unwrap();
    let second = cycle(&w.alice, &mut w.db, &w.me, &plan, Timestamp::now())
        .await
        .unwrap();
    assert!(!second.first && second.partial().is_none(), "{second:?}");
    assert_eq!(second.tasks, first.tasks);
    let changed: Vec<_> =
        w.db.inbox_items(true)
            .unwrap()
            .into_iter()
            .filter(|i| i.task_id == b.task_id && i.kind == "changed")
            .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].changes.contains("An older title"), "{changed:?}");
    assert!(changed[0].changes.contains(&title), "{changed:?}");
    assert!(held_most() <= plan.page as usize, "snapshots held at once");
    assert_eq!(
        WHOLE_READS.with(|n| n.get()),
        0,
        "a walk read every stored base at once"
    );
}
