//! What is known per task in memory: a row of the list is not copied
//! there (only its version is), what was answered in full is; a row that
//! leaves the list while it is the newest copy known is kept, so a task
//! seen in an earlier view still opens at once (without a store).

use super::*;
use crate::app::local::known::Newest;

fn page(s: &mut State, fx: &[Effect], items: impl IntoIterator<Item = Task>) {
    answer_where(
        s,
        fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Ok(Reply::Page(TaskPage {
            items: items
                .into_iter()
                .map(|t| TaskItem::Task(Box::new(t)))
                .collect(),
            cursor: None,
        })),
    );
}

fn changed(n: i64, title: &str, at: &str) -> Task {
    let mut t = task(n);
    t.title = title.into();
    t.updated_at = Some(at.into());
    t
}

#[test]
fn a_row_of_the_list_is_known_by_its_version_not_copied() {
    let s = loaded(3);
    let k = &s.local.known[&tid(2)];
    assert!(matches!(&k.task, Newest::Row(Some(v)) if v == "2026-11-01T10:00:00Z"));
    assert!(k.copy().is_none(), "the list holds the row");
    let row = s.known_copy(&tid(2)).expect("the row, from the list");
    assert_eq!(row.title.raw(), "Task number 2");
}

#[test]
fn tabs_fetched_for_a_row_are_fresh_until_a_newer_row_comes() {
    let mut s = loaded(3);
    let gen = s.local.gen;
    s.on_api(ApiResult {
        ticket: 9000,
        req: ApiRequest::Comments { id: tid(2) },
        result: Ok(Reply::Comments(vec![])),
    });
    assert!(s.local.known[&tid(2)].fresh("comments", gen));
    // A refresh lists a newer version of task 2.
    let fx = s.refresh();
    page(
        &mut s,
        &fx,
        [
            task(1),
            changed(2, "Renamed", "2026-11-02T09:00:00Z"),
            task(3),
        ],
    );
    let k = &s.local.known[&tid(2)];
    assert_eq!(k.version(), Some("2026-11-02T09:00:00Z"));
    assert!(!k.fresh("comments", gen), "asked again for the new version");
    assert_eq!(s.known_copy(&tid(2)).unwrap().title.raw(), "Renamed");
}

#[test]
fn tabs_stay_fresh_when_the_same_version_comes_written_otherwise() {
    let mut s = loaded(3);
    let gen = s.local.gen;
    s.on_api(ApiResult {
        ticket: 9000,
        req: ApiRequest::Comments { id: tid(2) },
        result: Ok(Reply::Comments(vec![])),
    });
    // The full task comes at the same instant, written with a fraction
    // and an offset: not a new version, nothing to ask again.
    s.on_api(ApiResult {
        ticket: 9001,
        req: ApiRequest::GetTask { id: tid(2) },
        result: Ok(Reply::Task(Box::new(changed(
            2,
            "Task number 2",
            "2026-11-01T10:00:00.000+00:00",
        )))),
    });
    let k = &s.local.known[&tid(2)];
    assert_eq!(k.version(), Some("2026-11-01T10:00:00.000+00:00"));
    assert!(k.fresh("comments", gen));
}

#[test]
fn a_full_answer_is_kept_and_a_newer_row_replaces_it() {
    let mut s = loaded(3);
    s.on_api(ApiResult {
        ticket: 9000,
        req: ApiRequest::GetTask { id: tid(3) },
        result: Ok(Reply::Task(Box::new(task(3)))),
    });
    let k = &s.local.known[&tid(3)];
    assert_eq!(k.copy().unwrap().title.raw(), "Task number 3");
    // A row of the same version does not replace the full answer.
    let fx = s.refresh();
    page(&mut s, &fx, [task(1), task(2), task(3)]);
    assert!(s.local.known[&tid(3)].copy().is_some());
    // A newer row does: the list holds it, the older copy goes.
    let fx = s.refresh();
    page(
        &mut s,
        &fx,
        [
            task(1),
            task(2),
            changed(3, "Newer", "2026-11-03T09:00:00Z"),
        ],
    );
    let k = &s.local.known[&tid(3)];
    assert!(k.copy().is_none());
    assert_eq!(s.known_copy(&tid(3)).unwrap().title.raw(), "Newer");
}

/// What a full read of a task not current brings is what the task shows
/// when its row becomes current (here at the row's instant written with a
/// fraction and an offset, which must not make it look older than the row).
#[test]
fn a_full_answer_read_before_its_row_is_current_is_what_it_shows() {
    let mut s = loaded(3);
    // Task 3 read in full (read-ahead) at the row's instant, written with a
    // fraction and an offset: the same version, richer than the row.
    s.on_api(ApiResult {
        ticket: 9000,
        req: ApiRequest::GetTask { id: tid(3) },
        result: Ok(Reply::Task(Box::new(changed(
            3,
            "Full answer of 3",
            "2026-11-01T10:00:00.000+00:00",
        )))),
    });
    s.on_key(key('j'));
    s.on_key(key('j'));
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, tid(3));
    assert_eq!(d.task.as_ref().unwrap().title.raw(), "Full answer of 3");
}

#[test]
fn a_task_seen_only_in_an_earlier_view_opens_at_once_by_number_and_by_id() {
    let mut s = loaded(3);
    // Another walk (a new view): rows 1–3 leave the list.
    let fx = s.reload_list(false);
    page(&mut s, &fx, [task(10), task(11)]);
    assert!(s.list.position(&tid(2)).is_none());
    let k = &s.local.known[&tid(2)];
    assert_eq!(
        k.copy().map(|t| t.title.raw()),
        Some("Task number 2"),
        "moved here when it left the list"
    );
    // By number: no search, no walk.
    let fx = palette(&mut s, "open #2");
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, tid(2));
    assert_eq!(d.task.as_ref().unwrap().title.raw(), "Task number 2");
    assert!(
        !reqs(&fx).iter().any(|r| matches!(
            r,
            ApiRequest::FindByNumber { .. } | ApiRequest::ListPage { .. }
        )),
        "{fx:?}"
    );
    // By id: shown at once, while it is read again.
    palette(&mut s, &format!("open {}", tid(3)));
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task.as_ref().unwrap().title.raw(), "Task number 3");
}

#[test]
fn a_deleted_row_leaves_the_list_and_its_copy_stays_known() {
    let mut s = loaded(3);
    s.on_api(ApiResult {
        ticket: 9000,
        req: ApiRequest::Delete { id: tid(2) },
        result: Ok(Reply::Deleted),
    });
    assert!(s.list.position(&tid(2)).is_none());
    assert_eq!(
        s.local.known[&tid(2)].copy().map(|t| t.title.raw()),
        Some("Task number 2")
    );
}

#[test]
fn the_rows_of_a_walk_left_behind_are_kept_as_copies() {
    let mut s = loaded(3);
    let old = s.reload_list(false);
    let fx = s.reload_list(false);
    // The first walk's page comes after the second walk began.
    page(&mut s, &old, [task(20)]);
    assert!(s.list.position(&tid(20)).is_none());
    assert_eq!(
        s.local.known[&tid(20)].copy().map(|t| t.title.raw()),
        Some("Task number 20")
    );
    page(&mut s, &fx, [task(21)]);
    assert!(matches!(s.local.known[&tid(21)].task, Newest::Row(_)));
}
