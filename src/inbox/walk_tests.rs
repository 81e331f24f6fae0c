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

/// The service as a walk reads it, in memory: one task, its comments'
/// read failing while `fail` is set (a 5xx after the client's tries).
struct Flaky {
    task: std::sync::Mutex<serde_json::Value>,
    fail: std::sync::atomic::AtomicBool,
}

impl Flaky {
    fn now(&self) -> crate::api::Task {
        serde_json::from_value(self.task.lock().unwrap().clone()).unwrap()
    }

    fn set(&self, k: &str, v: serde_json::Value) {
        self.task.lock().unwrap()[k] = v;
    }
}

impl super::reads::Reads for Flaky {
    async fn list_tasks(
        &self,
        _q: &crate::api::TaskQuery,
        _limit: u32,
        _cursor: Option<&str>,
    ) -> Result<crate::api::TaskPage, crate::api::ApiError> {
        Ok(crate::api::TaskPage {
            items: vec![crate::api::TaskItem::Task(Box::new(self.now()))],
            cursor: None,
        })
    }

    async fn get_task(&self, _id: &str) -> Result<crate::api::Task, crate::api::ApiError> {
        Ok(self.now())
    }

    async fn list_comments_counted(
        &self,
        _id: &str,
    ) -> Result<(Vec<crate::api::Comment>, Vec<String>), crate::api::ApiError> {
        if self.fail.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(crate::api::ApiError::Status {
                status: 503,
                message: "unavailable".into(),
            });
        }
        Ok((Vec::new(), Vec::new()))
    }

    async fn list_task_comments_counted(
        &self,
        id: &str,
    ) -> Result<(Vec<crate::api::Comment>, Vec<String>), crate::api::ApiError> {
        self.list_comments_counted(id).await
    }
}

/// Issue 43 (the simulator, the walk's reads failing): a walk that saw
/// the task assigned to the user but could not read its comments said
/// "assigned" and kept the task's old base (so that its comments are read
/// again); the next walk, the task changed again meanwhile (a new
/// version), compared it with that old base and said "assigned" a second
/// time. A failed comment read keeps what was known of the comments, not
/// of the task: the assignment is said once.
#[tokio::test]
async fn a_failed_comment_read_never_has_the_next_walk_say_an_assignment_again() {
    use super::tests::{me, BOB, ME, T1};
    let person = |id: &str, name: &str| serde_json::json!({"id": id, "name": name});
    let svc = Flaky {
        task: std::sync::Mutex::new(serde_json::json!({
            "id": T1, "display_id": "#12", "title": "Quarterly report",
            "status": "in_progress", "priority": "medium",
            "assigned_to": person(BOB, "Bob"),
            "creator": person(BOB, "Bob"),
            "updated_at": "2026-11-25T08:00:00Z",
            "involved_people": [],
        })),
        fail: false.into(),
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut db, _) = crate::store::Db::open(&dir.path().join("u.sqlite3")).unwrap();
    let plan = Plan::default();
    let now = super::tests::now();
    let assigned = |db: &crate::store::Db| {
        db.inbox_items(true)
            .unwrap()
            .into_iter()
            .filter(|i| i.kind == "assigned")
            .count()
    };
    // The first walk learns the task (Bob's) and its comments.
    cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    // Assigned to the user; the comments' read fails: said once.
    svc.set("assigned_to", person(ME, "Alice Adams"));
    svc.set("updated_at", "2026-11-25T09:00:00Z".into());
    svc.fail.store(true, std::sync::atomic::Ordering::Relaxed);
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert_eq!(r.comments_failed, 1, "{r:?}");
    assert_eq!(assigned(&db), 1);
    // Another change by someone else; the comments read again.
    svc.set("status", "completed".into());
    svc.set("updated_at", "2026-11-25T09:30:00Z".into());
    svc.fail.store(false, std::sync::atomic::Ordering::Relaxed);
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert_eq!(r.partial(), None, "{r:?}");
    assert_eq!(assigned(&db), 1, "the assignment said again");
}

/// The service as a walk reads it, in memory: tasks one a page (the
/// plan's page of 1), the listing failing from page `fail_at` on (a 5xx
/// after the client's tries), each task's comments.
struct Paged {
    tasks: std::sync::Mutex<Vec<serde_json::Value>>,
    comments: std::sync::Mutex<std::collections::HashMap<String, Vec<serde_json::Value>>>,
    fail_at: std::sync::Mutex<Option<usize>>,
}

impl Paged {
    fn task(&self, id: &str) -> Option<crate::api::Task> {
        let tasks = self.tasks.lock().unwrap();
        let t = tasks.iter().find(|t| t["id"] == id)?;
        Some(serde_json::from_value(t.clone()).unwrap())
    }

    fn set(&self, id: &str, k: &str, v: serde_json::Value) {
        let mut tasks = self.tasks.lock().unwrap();
        let t = tasks.iter_mut().find(|t| t["id"] == id).unwrap();
        t[k] = v;
    }
}

impl super::reads::Reads for Paged {
    async fn list_tasks(
        &self,
        _q: &crate::api::TaskQuery,
        _limit: u32,
        cursor: Option<&str>,
    ) -> Result<crate::api::TaskPage, crate::api::ApiError> {
        let at: usize = cursor.map_or(0, |c| c.parse().unwrap());
        if self.fail_at.lock().unwrap().is_some_and(|f| at >= f) {
            return Err(crate::api::ApiError::Status {
                status: 503,
                message: "unavailable".into(),
            });
        }
        let tasks = self.tasks.lock().unwrap();
        let items = tasks
            .get(at)
            .map(|t| {
                crate::api::TaskItem::Task(Box::new(serde_json::from_value(t.clone()).unwrap()))
            })
            .into_iter()
            .collect();
        Ok(crate::api::TaskPage {
            items,
            cursor: (at + 1 < tasks.len()).then(|| (at + 1).to_string()),
        })
    }

    async fn get_task(&self, id: &str) -> Result<crate::api::Task, crate::api::ApiError> {
        self.task(id).ok_or(crate::api::ApiError::NotFound {
            what: "task".into(),
            message: String::new(),
        })
    }

    async fn list_comments_counted(
        &self,
        id: &str,
    ) -> Result<(Vec<crate::api::Comment>, Vec<String>), crate::api::ApiError> {
        let cs = self
            .comments
            .lock()
            .unwrap()
            .get(id)
            .cloned()
            .unwrap_or_default();
        let cs = cs
            .into_iter()
            .map(|c| serde_json::from_value(c).unwrap())
            .collect();
        Ok((cs, Vec::new()))
    }

    async fn list_task_comments_counted(
        &self,
        id: &str,
    ) -> Result<(Vec<crate::api::Comment>, Vec<String>), crate::api::ApiError> {
        self.list_comments_counted(id).await
    }
}

/// The first walk of a store stopped early (a page of the listing failed:
/// a flaky connection at the first start), so it never learned the tasks
/// on the pages it did not read: a later walk took them for tasks that
/// had just come to the user and said "assigned to you", "shared with
/// you" and their comments — news of what was the user's all along. Tasks
/// without a base are learned silently until the store has had a whole
/// walk; a task a walk did read still says what changed since.
#[tokio::test]
async fn a_first_walk_that_stopped_early_leaves_no_false_news_for_the_tasks_it_did_not_read() {
    use super::tests::{me, BOB, ME};
    let person = |id: &str, name: &str| serde_json::json!({"id": id, "name": name});
    let id = |n: usize| format!("10000000-0000-4000-8000-{n:012}");
    let task = |n: usize, assignee: serde_json::Value, involved: serde_json::Value| {
        serde_json::json!({
            "id": id(n), "display_id": format!("#{n}"), "title": format!("Task {n}"),
            "status": "in_progress", "priority": "medium",
            "assigned_to": assignee,
            "creator": person(BOB, "Bob"),
            "updated_at": "2026-11-25T08:00:00Z",
            "involved_people": involved,
        })
    };
    let shared = serde_json::json!([{"id": ME, "name": "Alice Adams", "role": "shared", "access_level": "read"}]);
    let now = super::tests::now();
    let svc = Paged {
        tasks: std::sync::Mutex::new(vec![
            // Bob's, the user involved: read by the first walk.
            task(1, person(BOB, "Bob"), shared.clone()),
            // The user's all along, with a recent comment of Bob's.
            task(2, person(ME, "Alice Adams"), serde_json::json!([])),
            // Shared with the user all along.
            task(3, person(BOB, "Bob"), shared.clone()),
        ]),
        comments: std::sync::Mutex::new(
            [(
                id(2),
                vec![serde_json::json!({
                    "id": "c-2-1", "task_id": id(2), "content": "see the numbers",
                    "author": person(BOB, "Bob"),
                    "created_at": "2026-11-25T09:59:00Z", "mentioned_users": []
                })],
            )]
            .into(),
        ),
        fail_at: std::sync::Mutex::new(Some(1)),
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut db, _) = crate::store::Db::open(&dir.path().join("u.sqlite3")).unwrap();
    let plan = Plan {
        page: 1,
        ..Default::default()
    };
    let items = |db: &crate::store::Db, n: usize| -> Vec<String> {
        db.inbox_items(true)
            .unwrap()
            .into_iter()
            .filter(|i| i.task_id == id(n))
            .map(|i| i.kind)
            .collect()
    };

    // The first walk reads page 1 (#1) only.
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert!(r.first && r.page_failed && !r.complete, "{r:?}");
    assert_eq!(db.inbox_bases().unwrap().len(), 1);
    assert!(db.inbox_started() && db.inbox_learning());
    // Meanwhile #1, which the first walk read, is assigned to the user:
    // news. The second walk stops after #2.
    svc.set(&id(1), "assigned_to", person(ME, "Alice Adams"));
    svc.set(&id(1), "updated_at", "2026-11-25T09:00:00Z".into());
    *svc.fail_at.lock().unwrap() = Some(2);
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert!(!r.first && r.page_failed, "{r:?}");
    assert_eq!(
        items(&db, 1),
        ["assigned"],
        "a change on a task read before"
    );
    assert_eq!(
        items(&db, 2),
        Vec::<String>::new(),
        "#2 was the user's all along"
    );
    // The third walk reads every page: #3 learned, nothing said of it.
    *svc.fail_at.lock().unwrap() = None;
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert!(r.complete && r.partial().is_none(), "{r:?}");
    assert_eq!(items(&db, 2), Vec::<String>::new());
    assert_eq!(
        items(&db, 3),
        Vec::<String>::new(),
        "#3 was shared all along"
    );
    assert_eq!(db.inbox_bases().unwrap().len(), 3);
    assert!(!db.inbox_learning(), "a whole walk ends the learning");
    // After a whole walk, a task that comes to the user is news again.
    svc.tasks
        .lock()
        .unwrap()
        .push(task(4, person(ME, "Alice Adams"), serde_json::json!([])));
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert!(r.complete, "{r:?}");
    assert_eq!(items(&db, 4), ["assigned"]);
    assert_eq!(items(&db, 1), ["assigned"]);
    // A later walk that stops early learns nothing silently: a task it
    // reads that came to the user is news.
    svc.tasks
        .lock()
        .unwrap()
        .insert(0, task(5, person(ME, "Alice Adams"), serde_json::json!([])));
    *svc.fail_at.lock().unwrap() = Some(1);
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert!(r.page_failed, "{r:?}");
    assert_eq!(items(&db, 5), ["assigned"]);
    assert!(!db.inbox_learning());
}

/// A first walk stopped by the page cap (no page failed) is as whole as
/// this inbox's walks will ever be: it leaves the inbox not learning, or
/// an inbox with more tasks than the cap holds would learn for ever and
/// never say that a task came to the user.
#[tokio::test]
async fn a_first_walk_stopped_by_the_page_cap_leaves_the_inbox_not_learning() {
    use super::tests::{me, BOB, ME};
    let person = |id: &str, name: &str| serde_json::json!({"id": id, "name": name});
    let id = |n: usize| format!("10000000-0000-4000-8000-{n:012}");
    let task = |n: usize, assignee: serde_json::Value| {
        serde_json::json!({
            "id": id(n), "display_id": format!("#{n}"), "title": format!("Task {n}"),
            "status": "in_progress", "priority": "medium",
            "assigned_to": assignee, "creator": person(BOB, "Bob"),
            "updated_at": "2026-11-25T08:00:00Z", "involved_people": [],
        })
    };
    let svc = Paged {
        tasks: std::sync::Mutex::new(
            (1..=3)
                .map(|n| task(n, person(ME, "Alice Adams")))
                .collect(),
        ),
        comments: std::sync::Mutex::new(Default::default()),
        fail_at: std::sync::Mutex::new(None),
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut db, _) = crate::store::Db::open(&dir.path().join("u.sqlite3")).unwrap();
    let plan = Plan {
        page: 1,
        max_pages: 2,
        ..Default::default()
    };
    let now = super::tests::now();
    let r = cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    assert!(r.first && !r.complete && !r.page_failed, "{r:?}");
    assert!(db.inbox_started() && !db.inbox_learning());
    // A task that comes to the user, first in the listing: news.
    svc.tasks
        .lock()
        .unwrap()
        .insert(0, task(4, person(ME, "Alice Adams")));
    cycle(&svc, &mut db, &me(), &plan, now).await.unwrap();
    let said: Vec<String> = db
        .inbox_items(true)
        .unwrap()
        .into_iter()
        .filter(|i| i.task_id == id(4))
        .map(|i| i.kind)
        .collect();
    assert_eq!(said, ["assigned"]);
}
