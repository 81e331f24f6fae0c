//! The local layer: what is known per task, the store's commands, offline,
//! the outbox, what changed since the user last looked, recent tasks.

use super::*;
use crate::store::worker::{StoreAnswer, StoreCmd};
use crate::store::{Boot, Seen, StoredDetail, StoredTab};

pub(crate) fn unreachable() -> ApiError {
    ApiError::Unreachable {
        message: "connection refused".into(),
    }
}

/// The probe answers: back online, as `u-me`; the effects that follow.
pub(crate) fn back_online(s: &mut State) -> Vec<Effect> {
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    answer(
        s,
        &probe,
        Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            ..Default::default()
        })),
    )
}

/// A read of task `n`.
pub(crate) fn is_get(r: &ApiRequest, n: i64) -> bool {
    matches!(r, ApiRequest::GetTask { id } if *id == tid(n))
}

/// The service cannot be reached: a refresh's list read answered so.
pub(crate) fn go_offline(s: &mut State) {
    let fx = s.refresh();
    answer_where(
        s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Err(unreachable()),
    );
    assert!(s.offline.is_some());
}

/// The product's store on a file, served as the store's thread serves
/// it (`Server`): for the tests that need what a store keeps across a
/// restart (the outbox), never a copy of its rules written by hand.
pub(crate) struct OnDisk {
    _dir: tempfile::TempDir,
    pub path: std::path::PathBuf,
    pub db: crate::store::Db,
    pub server: crate::store::worker::Server,
}

impl OnDisk {
    /// A new store of the user `u-me`, as a start opens it.
    pub(crate) fn open() -> OnDisk {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u-me.sqlite3");
        let (db, _, _) = crate::store::Db::open_for(&path, "u-me").unwrap();
        OnDisk {
            _dir: dir,
            path,
            db,
            server: crate::store::worker::Server::new(crate::store::DEFAULT_MAX_TASKS, None),
        }
    }

    /// The store's thread: what `s` queued is served and the answers
    /// given back, until nothing is left.
    pub(crate) fn serve(&mut self, s: &mut State) {
        loop {
            let cmds = std::mem::take(&mut s.local.out);
            if cmds.is_empty() {
                return;
            }
            let answers = std::cell::RefCell::new(Vec::new());
            for c in cmds {
                self.server
                    .serve(&mut self.db, c, &|a| answers.borrow_mut().push(a));
            }
            for a in answers.into_inner() {
                s.on_store(a);
            }
        }
    }

    /// The store's idle tick (a minute in the thread): cancels not kept
    /// are tried again.
    pub(crate) fn tick(&mut self, s: &mut State) {
        let answers = std::cell::RefCell::new(Vec::new());
        self.server
            .retry_cancels(&self.db, &|a| answers.borrow_mut().push(a));
        for a in answers.into_inner() {
            s.on_store(a);
        }
    }

    /// The next start: the store opened again; its outbox, whoever holds
    /// each row.
    pub(crate) fn reopen(&mut self) -> Vec<crate::store::OutboxRow> {
        drop(std::mem::replace(
            &mut self.db,
            crate::store::Db::in_memory().unwrap(),
        ));
        let (db, _, _) = crate::store::Db::open_for(&self.path, "u-me").unwrap();
        self.db = db;
        self.server = crate::store::worker::Server::new(crate::store::DEFAULT_MAX_TASKS, None);
        self.db.outbox().unwrap()
    }
}

pub(crate) fn with_store(mut s: State) -> State {
    s.local.on = true;
    s.local.out.clear();
    s
}

/// A state whose store held `n` rows of the All view and task 2 as current.
fn booted(n: i64) -> State {
    booted_beside(n, 0)
}

/// As [`booted`], with `elsewhere` queued edits of another taskdeck.
fn booted_beside(n: i64, elsewhere: usize) -> State {
    let mut s = crate::app::new_state("svc.test".into(), &Settings::default(), false);
    s.local.on = true;
    let rows = (1..=n)
        .map(|i| crate::app::local::cache::stored(&task(i), false))
        .collect();
    let comments = serde_json::to_string(&vec![Comment {
        id: "c-old".into(),
        content: "stored comment".into(),
        ..Default::default()
    }])
    .unwrap();
    s.apply_boot(Boot {
        view: Some(json!({"view": "All", "filters": {}, "search": ""}).to_string()),
        rows,
        rows_saved_at: 100,
        current: Some(StoredDetail {
            task: Some(crate::app::local::cache::stored(&task(2), true)),
            fetched_at: 100,
            tabs: vec![StoredTab {
                tab: "comments".into(),
                json: comments,
                fetched_at: 100,
            }],
        }),
        directory: vec![crate::store::DirEntry {
            team: false,
            id: "u-carol".into(),
            name: "Carol Nguyen".into(),
            email: "carol@acme.test".into(),
            tasks: vec!["#9".into()],
        }],
        seen: [(
            tid(2),
            Seen {
                updated_at: Some("2026-11-01T10:00:00Z".into()),
                comment_ids: Some(vec!["c-old".into()]),
                message_ids: None,
                at: 1,
            },
        )]
        .into_iter()
        .collect(),
        recent: vec![],
        outbox: vec![],
        outbox_elsewhere: elsewhere,
    });
    s
}

/// Found by hand with two instances on one store: the second's `:outbox`
/// said "the outbox is empty: nothing waits to be sent" while the first
/// held queued edits — said once at start, then overwritten at once by
/// the OFFLINE warning. `:outbox` says them above its rows.
#[test]
fn the_outbox_says_the_queued_edits_of_another_taskdeck_in_the_store() {
    let mut s = booted_beside(3, 2);
    s.on_key(key(':'));
    type_str(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    match &s.overlay {
        Overlay::Chooser(c) => {
            assert!(c.rows.is_empty());
            let note = c.note.as_deref().unwrap_or_default();
            assert!(
                note.contains("2 queued edits in the store belong to another taskdeck running now"),
                "{note}"
            );
        }
        _ => panic!("the outbox"),
    }
    // None elsewhere: no note.
    let mut s = booted(3);
    s.on_key(key(':'));
    type_str(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    match &s.overlay {
        Overlay::Chooser(c) => assert_eq!(c.note, None),
        _ => panic!("the outbox"),
    }
}

#[test]
fn the_first_frame_shows_stored_rows_and_the_current_task_then_the_service_replaces_them() {
    let mut s = booted(5);
    assert_eq!(s.list.items.len(), 5);
    assert_eq!(s.list.cached_at, Some(100));
    // The stored rows are not said to be the whole list: the service may
    // hold more than the last run stored.
    let title = crate::ui::list_title(&s);
    assert!(title.ends_with("| 5 (as stored)"), "{title}");
    assert_eq!(
        s.list.selected, 1,
        "the cursor is on the stored current task"
    );
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, tid(2));
    assert!(d.cached_at.is_some());
    assert!(matches!(&d.comments, Load::Loaded(v) if v.len() == 1));
    // The names the store knew complete at once.
    assert!(matches!(
        s.directory.resolve_person("carol"),
        crate::app::state::directory::Resolved::One(id, _) if id == "u-carol"
    ));
    let fx = s.start();
    let r = reqs(&fx);
    assert!(r.contains(&ApiRequest::GetTask { id: tid(2) }), "{r:?}");
    // The stored rows stay while the first page is on its way.
    assert_eq!(s.list.items.len(), 5);
    let page = r
        .iter()
        .find(|r| matches!(r, ApiRequest::ListPage { .. }))
        .unwrap()
        .clone();
    let ticket = fx
        .iter()
        .find_map(|e| match e {
            Effect::Api { ticket, req } if **req == page => Some(*ticket),
            _ => None,
        })
        .unwrap();
    let mut t4 = task(4);
    t4.title = "Renamed on the service".into();
    s.on_api(ApiResult {
        ticket,
        req: page,
        result: whole_page([4, 2, 7]),
    });
    assert_eq!(
        s.list.cached_at, None,
        "the service's rows replaced the stored ones"
    );
    assert_eq!(s.list.items.len(), 3);
    assert_eq!(
        s.list.selected_id(),
        Some(tid(2).as_str()),
        "same task under the cursor"
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
}

#[test]
fn answers_are_kept_for_the_store_and_the_view_is_stored_with_its_rows() {
    let mut s = with_store(loaded(3));
    let fx = open_tab(&mut s, Tab::Comments);
    s.local.out.clear();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![Comment {
            id: "c1".into(),
            content: "hello".into(),
            ..Default::default()
        }])),
    );
    assert!(s.local.out.iter().any(|c| matches!(
        c,
        StoreCmd::PutTab { task_id, tab: "comments", json } if *task_id == tid(1) && json.contains("hello")
    )));
    // What the user saw of it is recorded.
    assert!(s.local.out.iter().any(|c| matches!(
        c,
        StoreCmd::Seen(id, seen) if *id == tid(1) && seen.comment_ids.as_deref() == Some(&["c1".to_string()][..])
    )));
    // A refresh stores the rows under the view's key.
    s.local.out.clear();
    refresh_answered(&mut s, whole_page(1..=3));
    assert!(s
        .local
        .out
        .iter()
        .any(|c| matches!(c, StoreCmd::PutTasks(v) if v.len() == 3)));
    assert!(s.local.out.iter().any(|c| matches!(
        c,
        StoreCmd::PutView { ids, .. } if ids.len() == 3
    )));
}

#[test]
fn nothing_is_queued_for_the_store_when_there_is_none() {
    let mut s = loaded(3);
    assert!(!s.local.on);
    let fx = open_tab(&mut s, Tab::Comments);
    answer(&mut s, &fx, Ok(Reply::Comments(vec![])));
    assert!(s.local.out.is_empty(), "cache = false writes nothing");
}

#[test]
fn an_unreachable_service_puts_taskdeck_offline_and_reading_goes_on() {
    let mut s = booted(3);
    let fx = s.start();
    // Every request fails to connect.
    for (ticket, req) in fx.iter().filter_map(|e| match e {
        Effect::Api { ticket, req } => Some((*ticket, (**req).clone())),
        _ => None,
    }) {
        s.on_api(ApiResult {
            ticket,
            req,
            result: Err(unreachable()),
        });
    }
    assert!(s.offline.is_some(), "OFFLINE");
    assert_eq!(s.list.items.len(), 3, "the stored rows stay");
    assert!(s.list.error.is_none(), "no screen fills with errors");
    assert!(s.detail.as_ref().unwrap().error.is_none());
    assert!(matches!(
        s.detail.as_ref().unwrap().comments,
        Load::Loaded(_)
    ));
    // Moving shows the next stored row at once; its tabs are asked of the
    // store, not of the service.
    s.local.out.clear();
    let fx = s.on_key(key('j'));
    assert!(reqs(&fx)
        .iter()
        .all(|r| !matches!(r, ApiRequest::Comments { .. })));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(3));
    assert!(s.local.out.contains(&StoreCmd::LoadTask(tid(3))));
    // The store answers with what it has.
    s.on_store(StoreAnswer::Task(
        tid(3),
        Box::new(StoredDetail {
            task: Some(crate::app::local::cache::stored(&task(3), true)),
            fetched_at: 5,
            tabs: vec![StoredTab {
                tab: "sharing".into(),
                json: json!({"visibility": "private", "users": [], "teams": []}).to_string(),
                fetched_at: 5,
            }],
        }),
    ));
    assert!(matches!(
        s.detail.as_ref().unwrap().sharing,
        Load::Loaded(_)
    ));
}

#[test]
fn offline_it_probes_with_backoff_and_recovers_by_itself() {
    let mut s = loaded(2);
    refresh_answered(&mut s, Err(unreachable()));
    assert!(s.offline.is_some());
    let t0 = std::time::Instant::now();
    // No probe before it is due, then one (and not two at once).
    assert!(s.offline_tick(t0).is_empty());
    let later = t0 + std::time::Duration::from_secs(2);
    let probe = s.offline_tick(later);
    assert_eq!(reqs(&probe), vec![ApiRequest::Me]);
    assert!(s
        .offline_tick(later + std::time::Duration::from_secs(60))
        .is_empty());
    // The probe fails: the next one waits longer.
    answer(&mut s, &probe, Err(unreachable()));
    let backoff = s.offline.as_ref().unwrap().backoff;
    assert!(backoff >= std::time::Duration::from_secs(2), "{backoff:?}");
    // It answers: online again, and the list is refreshed.
    let probe = s.offline_tick(later + std::time::Duration::from_secs(60));
    let fx = answer(
        &mut s,
        &probe,
        Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            ..Default::default()
        })),
    );
    assert!(s.offline.is_none());
    assert!(reqs(&fx)
        .iter()
        .any(|r| matches!(r, ApiRequest::ListPage { .. })));
}

#[test]
fn a_task_changed_since_it_was_last_opened_is_marked_until_opened() {
    let mut s = booted(3);
    let fx = s.start();
    let mut t3 = task(3);
    t3.updated_at = Some("2026-11-09T10:00:00Z".into());
    // Task 3 was seen before at the old version.
    s.local.seen.insert(
        tid(3),
        Seen {
            updated_at: Some("2026-11-01T10:00:00Z".into()),
            ..Default::default()
        },
    );
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Ok(Reply::Page(TaskPage {
            items: vec![
                TaskItem::Task(Box::new(task(1))),
                TaskItem::Task(Box::new(task(2))),
                TaskItem::Task(Box::new(t3.clone())),
            ],
            cursor: None,
        })),
    );
    assert!(s.changed_since_seen(&t3));
    assert!(!s.changed_since_seen(&task(1)), "never opened: not marked");
    let changed = crate::app::local::seen::changed_rows(&s);
    assert_eq!(changed.len(), 1);
    // :changed, Enter opens it; then it is seen.
    palette(&mut s, "changed");
    s.on_key(code(KeyCode::Enter));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(3));
    assert!(!s.changed_since_seen(&t3));
    assert!(crate::app::local::seen::changed_rows(&s).is_empty());
}

#[test]
fn the_same_version_written_otherwise_or_an_older_copy_is_not_changed() {
    let mut s = booted(3);
    s.local.seen.insert(
        tid(3),
        Seen {
            updated_at: Some("2026-11-09T10:00:00Z".into()),
            ..Default::default()
        },
    );
    let with = |at: &str| {
        let mut t = task(3);
        t.updated_at = Some(at.into());
        t
    };
    assert!(!s.changed_since_seen(&with("2026-11-09T10:00:00.000+00:00")));
    assert!(!s.changed_since_seen(&with("2026-11-09T05:00:00-05:00")));
    assert!(
        !s.changed_since_seen(&with("2026-11-08T10:00:00Z")),
        "older"
    );
    assert!(s.changed_since_seen(&with("2026-11-09T10:00:00.5Z")));
    assert!(s.changed_since_seen(&with("soon")), "unreadable: by text");
}

#[test]
fn new_comments_since_the_last_look_are_marked() {
    let mut s = booted(3);
    let fx = s.start();
    let fx2 = s.on_key(key(']'));
    let all: Vec<Effect> = fx.into_iter().chain(fx2).collect();
    answer_where(
        &mut s,
        &all,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![
            Comment {
                id: "c-old".into(),
                ..Default::default()
            },
            Comment {
                id: "c-new".into(),
                ..Default::default()
            },
        ])),
    );
    assert!(!s.is_new_comment("c-old"));
    assert!(s.is_new_comment("c-new"));
}

#[test]
fn recent_lists_what_was_opened_and_done_and_opens_it() {
    let mut s = with_store(loaded(3));
    s.on_key(key('j'));
    assert!(
        s.local.recent.is_empty(),
        "the cursor passing opens nothing"
    );
    let fx = palette(&mut s, "archive");
    let mut archived = task(2);
    archived.archived = true;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(archived))));
    assert_eq!(s.local.recent[0].task_id, tid(2));
    assert_eq!(s.local.recent[0].action, "archived");
    assert!(s
        .local
        .out
        .iter()
        .any(|c| matches!(c, StoreCmd::Recent(r) if r.action == "archived")));
    // Opening it again keeps what was done.
    s.on_key(key('k'));
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter));
    s.on_key(code(KeyCode::Esc));
    assert_eq!(s.local.recent[0].action, "archived");
    // #1 opened (enter); :recent, Enter: the archived task opens by id.
    s.on_key(key('k'));
    s.on_key(code(KeyCode::Enter));
    s.on_key(code(KeyCode::Esc));
    palette(&mut s, "recent");
    match &s.overlay {
        Overlay::Chooser(c) => {
            assert_eq!(c.rows[0].0, tid(1), "newest first");
            assert!(c.rows[1].1.contains("archived"), "{:?}", c.rows);
        }
        _ => panic!(),
    }
    // (A picker is typed into: the arrow moves, a letter narrows.)
    s.on_key(code(KeyCode::Down));
    s.on_key(code(KeyCode::Enter));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
}

#[test]
fn typing_a_search_shows_stored_matches_until_the_service_answers() {
    let mut s = with_store(loaded(3));
    s.on_key(key('/'));
    type_str(&mut s, "inv");
    let gen = s.local.search_gen;
    assert!(s
        .local
        .out
        .iter()
        .any(|c| matches!(c, StoreCmd::Search { query, .. } if query == "inv")));
    let mut hit = task(9);
    hit.title = "Invoice".into();
    s.on_store(StoreAnswer::Search {
        gen,
        rows: vec![crate::app::tests::local::store::found(&hit)],
    });
    assert!(s.list.local_search);
    assert_eq!(s.list.items.len(), 1);
    // The debounced walk keeps them until its first page arrives.
    let (fx, _) = s.on_tick(std::time::Instant::now() + std::time::Duration::from_secs(2));
    assert_eq!(s.list.items.len(), 1);
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        whole_page([1, 2]),
    );
    assert!(!s.list.local_search);
    assert_eq!(s.list.items.len(), 2);
}

#[test]
fn profile_switch_needs_a_configured_profile_and_is_refused_in_the_demo() {
    let mut s = loaded(1);
    palette(&mut s, "profile nosuch");
    assert!(s.switch_to.is_none());
    assert!(!s.quit);
    assert!(s.status.as_ref().unwrap().1.contains("nosuch"));
    let mut d = crate::app::new_state("svc.test".into(), &Settings::default(), true);
    palette(&mut d, "profile work");
    assert!(d.status.as_ref().unwrap().1.contains("demo"));
}

/// Issue 46 §1: the top level's connection is a profile by name
/// (`default`, or what `default_profile` says): at the top level,
/// `:profile default` is the one in use; from another profile, the switch
/// goes back to it by that name.
#[test]
fn the_top_level_is_the_profile_its_name_says() {
    let mut s = loaded(1);
    assert_eq!(s.default_profile, "default");
    palette(&mut s, "profile default");
    assert!(s.switch_to.is_none() && !s.quit);
    let said = &s.status.as_ref().unwrap().1;
    assert!(said.contains("\"default\" is the one in use"), "{said}");
    // From Bob's profile, back to the top level by its name.
    s.profile = Some("bob".into());
    assert_eq!(s.switch_to_known("default"), Ok(vec![]));
    assert_eq!(s.switch_to.as_deref(), Some("default"));
    assert!(s.quit);
    // Renamed in the config: that name is the top level's.
    let settings = Settings {
        default_profile: "work".into(),
        ..Settings::default()
    };
    let mut w = crate::app::new_state("svc.test".into(), &settings, false);
    assert_eq!(w.default_profile, "work");
    palette(&mut w, "profile work");
    assert!(w.switch_to.is_none());
    let said = &w.status.as_ref().unwrap().1;
    assert!(said.contains("\"work\" is the one in use"), "{said}");
}

/// A stored match found by its title (what the store's search answers).
pub(crate) fn found(t: &Task) -> crate::store::Found {
    crate::store::Found {
        task: crate::app::local::cache::stored(t, false),
        hits: vec![],
    }
}

#[test]
fn a_stored_match_found_through_a_comment_says_so_on_its_row() {
    let mut s = with_store(loaded(3));
    s.on_key(key('/'));
    type_str(&mut s, "zebra");
    let gen = s.local.search_gen;
    let mut by_comment = found(&task(9));
    by_comment.hits = vec![crate::store::Hit {
        place: crate::store::Place::Comment("Bob".into()),
        snippet: "…the zebra memo…".into(),
    }];
    let mut by_title = found(&task(8));
    by_title.hits = vec![crate::store::Hit {
        place: crate::store::Place::Title,
        snippet: "Zebra".into(),
    }];
    s.on_store(StoreAnswer::Search {
        gen,
        rows: vec![by_comment, by_title],
    });
    assert_eq!(
        s.list.found.get(tid(9).as_str()).map(String::as_str),
        Some("comment by Bob: \"…the zebra memo…\"")
    );
    assert!(
        !s.list.found.contains_key(tid(8).as_str()),
        "the row shows its title already"
    );
    assert_eq!(s.list.found_for, "zebra");
}
