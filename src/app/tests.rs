//! Reducer tests: feed keys, commands and answers; assert the exact
//! requests emitted and the resulting state.

use super::state::*;
use crate::api::*;
use crate::config::Settings;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{json, Value};

pub fn task_json(n: i64) -> Value {
    json!({
        "id": format!("00000000-0000-4000-8000-{n:012}"),
        "display_id": format!("#{n}"),
        "task_number": n,
        "title": format!("Task number {n}"),
        "description": "Do the thing",
        "additional_context": null,
        "status": "in_progress",
        "priority": "high",
        "team": {"id": "team-1", "name": "Ops"},
        "creator": {"id": "u-bob", "name": "Bob", "email": "bob@acme.test"},
        "assigned_to": {"id": "u-me", "name": "Me Myself", "email": "me@acme.test"},
        "assigned_agent": null, "assigned_team": null, "matter": null,
        "complete_by": null,
        "tags": ["a", "b"],
        "visibility": "customer",
        "archived": false, "draft": false,
        "involved_people": [],
        "shared_teams": [],
        "linked_items": [
            {"type": "review", "id": "11111111-1111-4111-8111-111111111111", "display_name": "Review R", "role": "reference", "context": {"check_ids": ["c1"]}, "is_output": false},
            {"type": "chat", "id": "22222222-2222-4222-8222-222222222222", "display_name": "Chat C", "role": "reference", "context": null, "is_output": false}
        ],
        "input_files": [{"id": "33333333-3333-4333-8333-333333333333", "name": "in.pdf"}],
        "output_files": [],
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-01T10:00:00Z"
    })
}

pub fn task(n: i64) -> Task {
    serde_json::from_value(task_json(n)).unwrap()
}

fn tid(n: i64) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

pub fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

pub fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

pub fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

pub fn reqs(fx: &[Effect]) -> Vec<ApiRequest> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api { req, .. } => Some((**req).clone()),
            _ => None,
        })
        .collect()
}

fn ticket_of(fx: &[Effect]) -> u64 {
    fx.iter()
        .find_map(|e| match e {
            Effect::Api { ticket, .. } => Some(*ticket),
            _ => None,
        })
        .expect("a request")
}

/// A state with identity known and `n` tasks loaded (end of list reached).
pub fn loaded(n: i64) -> State {
    let mut s = super::new_state("svc.test".into(), &Settings::default(), false);
    let fx = s.start();
    let t_me = ticket_of(&fx);
    s.on_api(ApiResult {
        ticket: t_me,
        req: ApiRequest::Me,
        result: Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            customer_id: "c1".into(),
            user_name: "Me Myself".into(),
            user_email: "me@acme.test".into(),
            customer_name: "Acme".into(),
            extra: Default::default(),
        })),
    });
    let page_req = reqs(&fx)[1].clone();
    s.on_api(ApiResult {
        ticket: t_me + 1,
        req: page_req,
        result: Ok(Reply::Page(TaskPage {
            items: (1..=n).map(|i| TaskItem::Task(Box::new(task(i)))).collect(),
            cursor: None,
        })),
    });
    s
}

fn type_str(s: &mut State, text: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for c in text.chars() {
        fx.extend(s.on_key(key(c)));
    }
    fx
}

/// Run a palette command as a user would: `:` + text + Enter.
fn palette(s: &mut State, text: &str) -> Vec<Effect> {
    let mut fx = s.on_key(key(':'));
    fx.extend(type_str(s, text));
    fx.extend(s.on_key(code(KeyCode::Enter)));
    fx
}

fn answer(s: &mut State, fx: &[Effect], result: Result<Reply, ApiError>) -> Vec<Effect> {
    answer_where(s, fx, |_| true, result)
}

/// Answer the request in `fx` that `which` picks.
fn answer_where(
    s: &mut State,
    fx: &[Effect],
    which: impl Fn(&ApiRequest) -> bool,
    result: Result<Reply, ApiError>,
) -> Vec<Effect> {
    let (ticket, req) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Api { ticket, req } if which(req) => Some((*ticket, (**req).clone())),
            _ => None,
        })
        .expect("the request to answer");
    s.on_api(ApiResult {
        ticket,
        req,
        result,
    })
}

fn only_patch(fx: &[Effect]) -> (String, Value) {
    let r = reqs(fx);
    assert_eq!(r.len(), 1, "exactly one request: {r:?}");
    match &r[0] {
        ApiRequest::Patch { id, patch } => (id.clone(), patch.to_json()),
        other => panic!("expected a PATCH, got {other:?}"),
    }
}

#[test]
fn start_asks_identity_and_first_page_with_the_page_size() {
    let mut s = super::new_state("h".into(), &Settings::default(), false);
    let r = reqs(&s.start());
    assert_eq!(r[0], ApiRequest::Me);
    match &r[1] {
        ApiRequest::ListPage {
            limit,
            cursor,
            query,
            ..
        } => {
            assert_eq!(*limit, 50);
            assert_eq!(*cursor, None);
            assert!(query.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn scrolling_fetches_ahead_with_the_same_limit_and_cursor() {
    let mut s = super::new_state("h".into(), &Settings::default(), false);
    let fx = s.start();
    let page_req = reqs(&fx)[1].clone();
    let fx2 = s.on_api(ApiResult {
        ticket: 2,
        req: page_req,
        result: Ok(Reply::Page(TaskPage {
            items: (1..=50)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: Some("c2".into()),
        })),
    });
    // With 50 rows and a 20-row screen, nothing is fetched yet…
    assert!(reqs(&fx2).is_empty(), "{fx2:?}");
    assert!(!s.list.loading);
    // …until the selection nears the end.
    let mut fetched = Vec::new();
    for _ in 0..40 {
        fetched.extend(reqs(&s.on_key(key('j'))));
    }
    assert_eq!(fetched.len(), 1, "one page fetched ahead: {fetched:?}");
    match &fetched[0] {
        ApiRequest::ListPage { limit, cursor, .. } => {
            assert_eq!(*limit, 50);
            assert_eq!(cursor.as_deref(), Some("c2"));
        }
        other => panic!("{other:?}"),
    }
    // No duplicate fetch while that page is in flight.
    assert!(reqs(&s.on_key(key('j'))).is_empty());
}

#[test]
fn a_stale_page_is_dropped() {
    let mut s = loaded(3);
    let old_gen = s.list.gen;
    s.on_key(key('r'));
    let stale = ApiResult {
        ticket: 99,
        req: ApiRequest::ListPage {
            gen: old_gen,
            query: TaskQuery::default(),
            limit: 50,
            cursor: None,
        },
        result: Ok(Reply::Page(TaskPage {
            items: vec![TaskItem::Task(Box::new(task(77)))],
            cursor: None,
        })),
    };
    s.on_api(stale);
    assert!(s.list.position(&tid(77)).is_none());
}

#[test]
fn status_sends_exactly_one_field_and_the_answer_replaces_the_task() {
    let mut s = loaded(3);
    let fx = palette(&mut s, "status completed");
    let (id, body) = only_patch(&fx);
    assert_eq!(id, tid(1));
    assert_eq!(body, json!({"status": "completed"}));
    assert!(
        s.pending_for(&tid(1), "status").is_some(),
        "pending mark while in flight"
    );
    // The screen shows what the service answered, not what we assumed.
    let mut answered = task(1);
    answered.status = Status::WaitingOnExternal;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(answered))));
    assert_eq!(
        s.list.items[0].task().unwrap().status,
        Status::WaitingOnExternal
    );
    assert!(s.pending.is_empty());
}

#[test]
fn a_failed_edit_keeps_the_old_value_and_shows_the_error() {
    let mut s = loaded(1);
    let fx = palette(&mut s, "priority low");
    assert_eq!(only_patch(&fx).1, json!({"priority": "low"}));
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "nope\u{1b}[2J".into(),
            body: Value::Null,
        }),
    );
    assert_eq!(s.list.items[0].task().unwrap().priority, Priority::High);
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Error);
    assert!(text.contains("priority") && text.contains("nope"), "{text}");
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn due_none_sends_an_explicit_null_and_nothing_else() {
    let mut s = loaded(1);
    assert_eq!(
        only_patch(&palette(&mut s, "due none")).1,
        json!({"complete_by": null})
    );
    let body = only_patch(&palette(&mut s, "due 2026-12-01")).1;
    assert_eq!(body, json!({"complete_by": "2026-12-01T23:59:59Z"}));
    // A bad date sends nothing and says why.
    assert!(reqs(&palette(&mut s, "due someday")).is_empty());
    assert_eq!(s.status.as_ref().unwrap().0, Level::Error);
}

#[test]
fn every_patch_field_is_reachable_from_the_palette() {
    let cases: Vec<(&str, Value)> = vec![
        ("title New title", json!({"title": "New title"})),
        ("assign me", json!({"assigned_to": "u-me"})),
        ("assign bob@acme.test", json!({"assigned_to": "u-bob"})),
        ("unassign", json!({"assigned_to": null})),
        ("agent none", json!({"assigned_agent": null})),
        (
            "agent 44444444-4444-4444-8444-444444444444",
            json!({"assigned_agent": "44444444-4444-4444-8444-444444444444"}),
        ),
        ("team none", json!({"assigned_team_id": null})),
        ("matter none", json!({"matter_id": null})),
        ("description clear", json!({"description": null})),
        ("context clear", json!({"additional_context": null})),
        ("tags +c -a", json!({"tags": ["b", "c"]})),
        ("tags x,y", json!({"tags": ["x", "y"]})),
        ("priority urgent", json!({"priority": "urgent"})),
        ("archive", json!({"archived": true})),
        ("restore", json!({"archived": false})),
    ];
    for (cmd, want) in cases {
        let mut s = loaded(1);
        let (_, body) = only_patch(&palette(&mut s, cmd));
        assert_eq!(body, want, ":{cmd}");
    }
}

#[test]
fn keys_open_the_palette_prefilled() {
    let mut s = loaded(1);
    s.on_key(key('s'));
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.input.text, "status "),
        _ => panic!("palette expected"),
    }
    let fx = type_str(&mut s, "completed");
    assert!(fx.is_empty());
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(only_patch(&fx).1, json!({"status": "completed"}));
}

#[test]
fn archive_from_the_list_offers_undo() {
    let mut s = loaded(2);
    let fx = s.on_key(key('x'));
    assert_eq!(only_patch(&fx).1, json!({"archived": true}));
    let mut archived = task(1);
    archived.archived = true;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(archived))));
    assert!(s.status.as_ref().unwrap().1.contains("z restores"));
    let fx = s.on_key(key('z'));
    let r = reqs(&fx);
    assert_eq!(r.len(), 1);
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(1)))));
    assert!(
        s.status.as_ref().unwrap().1.contains("#1: restored"),
        "{:?}",
        s.status
    );
    match &r[0] {
        ApiRequest::Patch { id, patch } => {
            assert_eq!(id, &tid(1));
            assert_eq!(patch.to_json(), json!({"archived": false}));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn drafts_are_accepted_and_rejected_only_after_confirmation() {
    let mut s = loaded(1);
    let mut draft = task(1);
    draft.draft = true;
    s.replace_task(draft);
    assert_eq!(
        only_patch(&palette(&mut s, "accept")).1,
        json!({"draft": false})
    );
    let fx = s.on_key(key('D'));
    assert!(reqs(&fx).is_empty(), "nothing sent before confirming");
    assert!(matches!(s.overlay, Overlay::Confirm { .. }));
    let fx = s.on_key(key('y'));
    assert_eq!(reqs(&fx), vec![ApiRequest::Delete { id: tid(1) }]);
    answer(&mut s, &fx, Ok(Reply::Deleted));
    assert!(s.list.items.is_empty());
}

#[test]
fn description_goes_through_the_editor() {
    let mut s = loaded(1);
    let fx = s.on_key(key('E'));
    assert_eq!(
        fx,
        vec![Effect::Editor {
            target: EditorTarget::Description { task_id: tid(1) },
            initial: "Do the thing".into()
        }]
    );
    let fx = s.editor_done(
        EditorTarget::Description { task_id: tid(1) },
        Ok("New text\n".into()),
    );
    assert_eq!(only_patch(&fx).1, json!({"description": "New text"}));
    // A failing editor changes nothing.
    let fx = s.editor_done(
        EditorTarget::Description { task_id: tid(1) },
        Err("exit 1".into()),
    );
    assert!(fx.is_empty());
}

#[test]
fn description_can_be_edited_in_the_tui() {
    let mut s = loaded(1);
    palette(&mut s, "description");
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text(), "Do the thing"),
        _ => panic!("composer expected"),
    }
    s.on_key(code(KeyCode::End));
    type_str(&mut s, " now");
    let fx = s.on_key(ctrl('s'));
    assert_eq!(
        only_patch(&fx).1,
        json!({"description": "Do the thing now"})
    );
    let mut t = task(1);
    t.description = Some("Do the thing now".into());
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(t))));
    assert!(matches!(s.overlay, Overlay::None));
    assert_eq!(
        s.list.items[0]
            .task()
            .unwrap()
            .description
            .as_ref()
            .unwrap()
            .raw(),
        "Do the thing now"
    );
}

#[test]
fn search_is_debounced_and_a_newer_query_supersedes() {
    let mut s = loaded(3);
    s.on_key(key('/'));
    let fx = type_str(&mut s, "nda");
    assert!(reqs(&fx).is_empty(), "no request per keystroke");
    let gen_before = s.list.gen;
    let (fx, _) = s.on_tick(std::time::Instant::now() + std::time::Duration::from_secs(1));
    let r = reqs(&fx);
    assert_eq!(r.len(), 1);
    match &r[0] {
        ApiRequest::ListPage { query, gen, .. } => {
            assert_eq!(query.query.as_deref(), Some("nda"));
            assert_eq!(*gen, gen_before + 1);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        r[0].slot(),
        Some("list"),
        "same slot: the worker aborts the older request"
    );
}

#[test]
fn quick_views_and_filters_shape_the_query() {
    let mut s = loaded(1);
    let r = reqs(&s.on_key(key('2')));
    match &r[0] {
        ApiRequest::ListPage { query, .. } => {
            assert_eq!(query.assigned_to.as_deref(), Some("u-me"))
        }
        other => panic!("{other:?}"),
    }
    let r = reqs(&palette(
        &mut s,
        "filter status=in_progress,completed priority=high tags=a",
    ));
    match &r[0] {
        ApiRequest::ListPage { query, .. } => {
            assert_eq!(query.status, vec!["in_progress", "completed"]);
            assert_eq!(query.priority.as_deref(), Some("high"));
            assert_eq!(query.tags, vec!["a"]);
            assert_eq!(
                query.assigned_to.as_deref(),
                Some("u-me"),
                "view Mine still applies"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(reqs(&palette(&mut s, "filter status=bogus")).is_empty());
}

#[test]
fn selection_stays_on_the_same_task_across_a_refresh() {
    let mut s = loaded(5);
    s.on_key(key('j'));
    s.on_key(key('j'));
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    let fx = s.on_key(key('r'));
    // The service now returns the rows in another order, one changed.
    let mut changed = task(3);
    changed.updated_at = Some("2026-11-20T00:00:00Z".into());
    let items = vec![task(5), changed, task(1), task(2), task(4)]
        .into_iter()
        .map(|t| TaskItem::Task(Box::new(t)))
        .collect();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Ok(Reply::Page(TaskPage {
            items,
            cursor: None,
        })),
    );
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    assert_eq!(s.list.selected, 1);
    assert!(s.list.changed.contains(&tid(3)), "changed rows are marked");
    assert!(!s.list.changed.contains(&tid(5)));
}

fn open_tab(s: &mut State, tab: Tab) -> Vec<Effect> {
    let mut fx = s.on_key(code(KeyCode::Enter));
    while s.detail.as_ref().unwrap().tab != tab {
        fx.extend(s.on_key(key(']')));
    }
    fx
}

#[test]
fn a_role_change_sends_only_the_role() {
    let mut s = loaded(1);
    open_tab(&mut s, Tab::Links);
    let fx = palette(&mut s, "role subject");
    let r = reqs(&fx);
    match &r[..] {
        [ApiRequest::UpdateLink {
            id,
            kind,
            item,
            update,
        }] => {
            assert_eq!(id, &tid(1));
            assert_eq!(*kind, LinkType::Review);
            assert_eq!(item, "11111111-1111-4111-8111-111111111111");
            assert_eq!(update.to_json(), json!({"role": "subject"}));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn check_ids_only_for_review_links_and_none_clears() {
    let mut s = loaded(1);
    open_tab(&mut s, Tab::Links);
    let fx = palette(&mut s, "checks none");
    match &reqs(&fx)[..] {
        [ApiRequest::UpdateLink { update, .. }] => {
            assert_eq!(update.to_json(), json!({"context": null}))
        }
        other => panic!("{other:?}"),
    }
    let fx = palette(&mut s, "checks c1, c2");
    match &reqs(&fx)[..] {
        [ApiRequest::UpdateLink { update, .. }] => {
            assert_eq!(
                update.to_json(),
                json!({"context": {"check_ids": ["c1", "c2"]}})
            )
        }
        other => panic!("{other:?}"),
    }
    s.on_key(key('j')); // the chat link
    assert!(reqs(&palette(&mut s, "checks c1")).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("only review links"));
}

#[test]
fn links_are_validated_before_sending() {
    let mut s = loaded(1);
    assert!(reqs(&palette(&mut s, "link review not-a-uuid")).is_empty());
    let fx = palette(
        &mut s,
        "link task 55555555-5555-4555-8555-555555555555 chat 66666666-6666-4666-8666-666666666666",
    );
    match &reqs(&fx)[..] {
        [ApiRequest::AddLinks { links, .. }] => assert_eq!(links.len(), 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn removing_a_link_or_detaching_a_file_asks_first() {
    let mut s = loaded(1);
    open_tab(&mut s, Tab::Files);
    let fx = s.on_key(key('X'));
    assert!(reqs(&fx).is_empty());
    match &s.overlay {
        Overlay::Confirm { lines, .. } => assert!(lines.join(" ").contains("not deleted")),
        _ => panic!("confirmation expected"),
    }
    let fx = s.on_key(key('y'));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::Detach {
            id: tid(1),
            file_id: "33333333-3333-4333-8333-333333333333".into()
        }]
    );
}

#[test]
fn a_failed_comment_keeps_the_text_and_says_outcome_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    s.drafts = super::drafts::Drafts::new(Some(dir.path().to_path_buf()));
    s.on_key(key('c'));
    type_str(&mut s, "hello there");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::AddComment { content, .. }] => assert_eq!(content, "hello there"),
        other => panic!("{other:?}"),
    }
    // Saved before sending.
    assert_eq!(
        s.drafts.load(&tid(1), "comment").as_deref(),
        Some("hello there")
    );
    answer(
        &mut s,
        &fx,
        Err(ApiError::Timeout {
            what: "waiting".into(),
        }),
    );
    match &s.overlay {
        Overlay::Compose(c) => {
            assert_eq!(c.text(), "hello there");
            match &c.state {
                SendState::Failed {
                    outcome_unknown,
                    message,
                } => {
                    assert!(*outcome_unknown);
                    assert!(message.contains("outcome unknown"));
                }
                other => panic!("{other:?}"),
            }
        }
        _ => panic!("composer must stay open"),
    }
    assert!(s.drafts.load(&tid(1), "comment").is_some());
    // Resend, succeed: the draft goes away.
    let fx = s.on_key(ctrl('s'));
    let c = Comment {
        id: "cm1".into(),
        content: "hello there".into(),
        ..Default::default()
    };
    answer(&mut s, &fx, Ok(Reply::Comment(c)));
    assert!(matches!(s.overlay, Overlay::None));
    assert!(s.drafts.load(&tid(1), "comment").is_none());
}

#[test]
fn a_draft_is_offered_back_when_the_composer_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    s.drafts = super::drafts::Drafts::new(Some(dir.path().to_path_buf()));
    s.drafts
        .save(&tid(1), "requester", "half-written reply")
        .unwrap();
    let fx = s.on_key(key('R'));
    assert!(reqs(&fx).is_empty(), "nothing is ever sent automatically");
    match &s.overlay {
        Overlay::Compose(c) => {
            assert_eq!(c.text(), "half-written reply");
            assert!(c.restored);
        }
        _ => panic!("composer expected"),
    }
}

#[test]
fn requester_delivery_is_never_shown_as_sent_unless_it_was() {
    use super::results::delivery_text;
    assert_eq!(delivery_text(Some(&DeliveryStatus::Sent)), "Sent");
    assert!(delivery_text(Some(&DeliveryStatus::Draft)).starts_with("DRAFT"));
    assert!(delivery_text(Some(&DeliveryStatus::Other("queued".into()))).contains("NOT confirmed"));
    assert!(delivery_text(None).contains("NOT confirmed"));
}

#[test]
fn editing_others_comments_is_not_offered() {
    let mut s = loaded(1);
    let fx = open_tab(&mut s, Tab::Comments);
    let mine = Comment {
        id: "c-mine".into(),
        author: Person {
            id: "u-me".into(),
            ..Default::default()
        },
        created_at: Some("2026-11-01T10:00:00Z".into()),
        ..Default::default()
    };
    let theirs = Comment {
        id: "c-theirs".into(),
        author: Person {
            id: "u-bob".into(),
            ..Default::default()
        },
        parent_comment_id: Some("c-mine".into()),
        created_at: Some("2026-11-01T11:00:00Z".into()),
        ..Default::default()
    };
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![theirs, mine])),
    );
    let rows: Vec<(usize, String)> = s
        .comment_rows()
        .iter()
        .map(|(d, c)| (*d, c.id.as_str().to_string()))
        .collect();
    assert_eq!(
        rows,
        vec![(0, "c-mine".to_string()), (1, "c-theirs".to_string())],
        "reply under its parent"
    );
    s.on_key(key('j'));
    s.on_key(key('w'));
    assert!(!matches!(s.overlay, Overlay::Compose(_)));
    assert!(s.status.as_ref().unwrap().1.contains("only your own"));
    s.on_key(key('k'));
    s.on_key(key('w'));
    assert!(matches!(s.overlay, Overlay::Compose(_)));
}

#[test]
fn comments_without_a_listing_endpoint_show_the_session_ones() {
    let mut s = loaded(1);
    let fx = open_tab(&mut s, Tab::Comments);
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Err(ApiError::NotAvailable {
            endpoint: "listing comments",
        }),
    );
    assert!(s.detail.as_ref().unwrap().comments_local_only);
    s.local_comments.entry(tid(1)).or_default().push(Comment {
        id: "new".into(),
        ..Default::default()
    });
    assert_eq!(s.comment_rows().len(), 1);
}

#[test]
fn sharing_preview_warns_before_removing_yourself_and_the_picker_resolves() {
    let mut s = loaded(1);
    let fx = open_tab(&mut s, Tab::Sharing);
    let state: SharingState = serde_json::from_value(json!({
        "visibility": "private",
        "users": [
            {"id": "u-me", "name": "Me Myself", "email": "me@acme.test", "role": "assignee", "access_level": "write"},
            {"id": "u-bob", "name": "Bob", "email": "bob@acme.test", "role": "collaborator", "access_level": "read"}
        ],
        "teams": []
    }))
    .unwrap();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetSharing { .. }),
        Ok(Reply::Sharing(state)),
    );
    s.on_key(key('S'));
    assert!(matches!(s.overlay, Overlay::Sharing(_)));
    s.on_key(key('j')); // me
    s.on_key(key('d')); // remove me
    s.on_key(key('a'));
    type_str(&mut s, "Sam Taylor write");
    s.on_key(code(KeyCode::Enter));
    let fx = s.on_key(code(KeyCode::Enter)); // review
    assert!(
        reqs(&fx).is_empty(),
        "nothing sent before the preview is accepted"
    );
    let lines = match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.join("\n"),
        _ => panic!("preview expected"),
    };
    assert!(lines.contains("YOU WILL LOSE ACCESS"), "{lines}");
    assert!(
        lines.contains("Me Myself <me@acme.test> (you) loses access — note: the task's assignee"),
        "{lines}"
    );
    assert!(
        lines.contains("+ person Sam Taylor gains write access"),
        "{lines}"
    );
    let fx = s.on_key(key('y'));
    let (id, update) = match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { id, update }] => (id.clone(), update.clone()),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        json!({"visibility": "private", "users": [{"user_id": "u-bob", "access_level": "read"}, {"user_id": "Sam Taylor", "access_level": "write"}], "teams": []})
    );
    // The service finds two Sam Taylors.
    let body = json!({"error": "ambiguous", "status": 400, "candidates": [
        {"id": "u-sam1", "name": "Sam Taylor", "email": "sam.taylor@acme.test"},
        {"id": "u-sam2", "name": "Sam Taylor", "email": "samuel.taylor@acme.test"}]});
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "ambiguous".into(),
            body,
        }),
    );
    assert!(matches!(s.overlay, Overlay::Picker(_)));
    s.on_key(key('j'));
    let fx = s.on_key(code(KeyCode::Enter));
    match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { id: id2, update }] => {
            assert_eq!(id2, &id);
            assert_eq!(update.users[1].user_id, "u-sam2");
            assert_eq!(update.users[0].user_id, "u-bob");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn open_by_number_searches_when_not_loaded() {
    let mut s = loaded(2);
    let fx = palette(&mut s, "open #2");
    assert!(reqs(&fx).is_empty(), "#2 is loaded: opened at once");
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
    let fx = palette(&mut s, "open #1234");
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::FindByNumber {
            number: 1234,
            limit: 100
        }]
    );
}

#[test]
fn unknown_commands_and_bad_values_say_so() {
    let mut s = loaded(1);
    assert!(reqs(&palette(&mut s, "frobnicate")).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("unknown command"));
    assert!(reqs(&palette(&mut s, "status blocked")).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("unknown status"));
}

#[test]
fn remapped_keys_work_and_bad_entries_become_warnings() {
    let mut settings = Settings::default();
    settings
        .keys
        .entry("task".into())
        .or_default()
        .insert("ctrl-t".into(), "set_status".into());
    settings
        .keys
        .entry("task".into())
        .or_default()
        .insert("q".into(), "teleport".into());
    let mut s = super::new_state("h".into(), &settings, false);
    assert!(s
        .messages
        .iter()
        .any(|m| m.level == Level::Warn && m.text.contains("teleport")));
    s.list.items.push(TaskItem::Task(Box::new(task(1))));
    s.on_key(ctrl('t'));
    assert!(matches!(&s.overlay, Overlay::Palette(p) if p.input.text == "status "));
}

#[test]
fn help_is_generated_from_the_effective_keymap_and_filters() {
    let mut settings = Settings::default();
    settings
        .keys
        .entry("list".into())
        .or_default()
        .insert("ctrl-n".into(), "down".into());
    let s = super::new_state("h".into(), &settings, false);
    let all = crate::ui::help_lines(&s, "");
    assert!(all
        .iter()
        .any(|l| l.contains("ctrl-n") && l.contains("move down")));
    for a in super::keymap::Action::ALL {
        if s.keymap.key_for(*a).is_some() {
            assert!(
                all.iter().any(|l| l.contains(a.description())),
                "{a:?} missing from help"
            );
        }
    }
    let filtered = crate::ui::help_lines(&s, "archive");
    assert!(filtered.iter().any(|l| l.contains("archive or restore")));
    assert!(!filtered.iter().any(|l| l.contains("move down")));
}

#[test]
fn the_message_log_shows_messages_then_the_log_file() {
    let mut s = loaded(1);
    palette(&mut s, "frobnicate");
    let fx = s.on_key(ctrl('l'));
    assert_eq!(fx, vec![Effect::ShowLog]);
    s.show_log(Some((
        "/x/taskdeck.log".into(),
        vec!["old".into(), "new".into()],
    )));
    match &s.overlay {
        Overlay::Text { lines, .. } => {
            assert!(lines[0].contains("unknown command"));
            let at = lines
                .iter()
                .position(|l| l.contains("/x/taskdeck.log"))
                .unwrap();
            assert_eq!(lines[at + 1], "new");
        }
        _ => panic!("text overlay expected"),
    }
}

#[test]
fn a_refresh_finds_the_selected_task_on_a_later_page() {
    let mut s = loaded(0);
    let first = reqs(&s.reload_list(false)).remove(0);
    s.on_api(ApiResult {
        ticket: 700,
        req: first,
        result: Ok(Reply::Page(TaskPage {
            items: (1..=60)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: None,
        })),
    });
    s.list.selected = 55;
    let fx = s.refresh();
    let page1 = reqs(&fx).remove(0);
    // The service now puts task 56 on the second page.
    let fx = s.on_api(ApiResult {
        ticket: 701,
        req: page1,
        result: Ok(Reply::Page(TaskPage {
            items: (1..=50)
                .filter(|i| *i != 56)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: Some("p2".into()),
        })),
    });
    let page2 = reqs(&fx).remove(0);
    assert!(
        matches!(&page2, ApiRequest::ListPage { cursor: Some(c), .. } if c == "p2"),
        "refill continues"
    );
    s.on_api(ApiResult {
        ticket: 702,
        req: page2,
        result: Ok(Reply::Page(TaskPage {
            items: (51..=60)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: None,
        })),
    });
    assert_eq!(s.list.selected_id(), Some(tid(56).as_str()));
}

#[test]
fn a_superseded_request_is_no_longer_counted_in_flight() {
    let mut s = loaded(2);
    s.on_key(code(KeyCode::Enter));
    s.on_key(key(']')); // comments of task 1 requested
    s.on_key(key('[')); // back to overview
    s.focus = Focus::List;
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter)); // task 2 opens on Overview
    s.on_key(key(']')); // comments of task 2: supersedes task 1's
    let comments: Vec<_> = s
        .inflight
        .values()
        .filter(|(_, slot)| *slot == Some("comments"))
        .collect();
    assert_eq!(comments.len(), 1);
}

#[test]
fn opening_by_number_navigates_at_once_and_nothing_lands_on_the_old_row() {
    let mut s = loaded(2);
    let fx = palette(&mut s, "open #77");
    assert_eq!(s.focus, Focus::Detail);
    assert_eq!(s.detail.as_ref().unwrap().task_id, "#77");
    // While #77 is being looked for, `c` must not open a composer for the
    // task that happened to be selected in the list.
    s.on_key(key('c'));
    assert!(!matches!(s.overlay, Overlay::Compose(_)));
    assert!(s.status.as_ref().unwrap().1.contains("still loading"));
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(77)))));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(77));
    s.on_key(key('c'));
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.task_id, tid(77)),
        _ => panic!("composer for #77 expected"),
    }
}

#[test]
fn a_late_answer_for_a_task_the_user_left_is_ignored() {
    let mut s = loaded(2);
    let fx = palette(&mut s, "open #77");
    palette(&mut s, "open #2");
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(77)))));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
}

#[test]
fn the_draft_is_deleted_on_success_even_if_the_composer_was_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    s.drafts = super::drafts::Drafts::new(Some(dir.path().to_path_buf()));
    s.on_key(key('c'));
    type_str(&mut s, "sent while closed");
    let fx = s.on_key(ctrl('s'));
    s.on_key(code(KeyCode::Esc));
    assert!(s.drafts.load(&tid(1), "comment").is_some());
    let c = Comment {
        id: "cm9".into(),
        ..Default::default()
    };
    answer(&mut s, &fx, Ok(Reply::Comment(c)));
    assert!(s.drafts.load(&tid(1), "comment").is_none());
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .starts_with("#1: comment saved"));
}

#[test]
fn the_requester_tab_loads_the_thread_and_warns_before_a_mailbox_reply() {
    let mut s = loaded(1);
    let mut t = task(1);
    t.source_channel = Some("personal_mailbox".into());
    s.replace_task(t);
    let fx = open_tab(&mut s, Tab::Requester);
    let r = reqs(&fx);
    assert!(r.contains(&ApiRequest::Thread { id: tid(1) }), "{r:?}");
    s.on_key(key('R'));
    match &s.overlay {
        Overlay::Compose(c) => assert!(c.note.as_deref().unwrap_or("").contains("DRAFT")),
        _ => panic!("composer expected"),
    }
}

#[test]
fn bottom_follows_new_pages_to_the_end() {
    let mut s = super::new_state("h".into(), &Settings::default(), false);
    let fx = s.start();
    let first = reqs(&fx)[1].clone();
    let page = |from: i64, cursor: Option<&str>| {
        Ok(Reply::Page(TaskPage {
            items: (from..from + 50)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: cursor.map(str::to_string),
        }))
    };
    let fx = s.on_api(ApiResult {
        ticket: 2,
        req: first,
        result: page(1, Some("c2")),
    });
    assert!(reqs(&fx).is_empty());
    let fx = s.on_key(key('G'));
    let next = reqs(&fx).remove(0);
    let fx = s.on_api(ApiResult {
        ticket: 3,
        req: next,
        result: page(51, Some("c3")),
    });
    assert_eq!(
        s.list.selected, 99,
        "the selection followed to the new bottom"
    );
    let next = reqs(&fx).remove(0);
    s.on_api(ApiResult {
        ticket: 4,
        req: next,
        result: page(101, None),
    });
    assert_eq!(s.list.selected, 149);
    assert!(s.list.end_reached && !s.list.to_bottom);
}

#[test]
fn replying_to_a_comment_from_the_list_targets_the_comments_task() {
    let mut s = loaded(2);
    let fx = open_tab(&mut s, Tab::Comments);
    let c = Comment {
        id: "c-1".into(),
        task_id: tid(1),
        ..Default::default()
    };
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![c])),
    );
    s.focus = Focus::List;
    s.on_key(key('j')); // task 2 selected in the list
    s.on_key(key('u'));
    type_str(&mut s, "reply");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::ReplyComment { id, comment_id, .. }] => {
            assert_eq!(id, &tid(1), "the comment's task, not the list selection");
            assert_eq!(comment_id, "c-1");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn text_cannot_change_while_it_is_being_sent() {
    let mut s = loaded(1);
    s.on_key(key('c'));
    type_str(&mut s, "first");
    let fx = s.on_key(ctrl('s'));
    type_str(&mut s, " more");
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text(), "first"),
        _ => panic!(),
    }
    let c = Comment {
        id: "x".into(),
        ..Default::default()
    };
    answer(&mut s, &fx, Ok(Reply::Comment(c)));
    assert!(matches!(s.overlay, Overlay::None));
}

#[test]
fn sharing_from_the_list_is_the_selected_tasks() {
    let mut s = loaded(2);
    s.on_key(code(KeyCode::Enter)); // task 1 open
    s.focus = Focus::List;
    s.on_key(key('j')); // task 2 selected
    let fx = s.on_key(key('S'));
    assert!(
        reqs(&fx).contains(&ApiRequest::GetSharing { id: tid(2) }),
        "{:?}",
        reqs(&fx)
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
}

#[test]
fn comments_in_a_broken_parent_chain_are_still_shown() {
    let mut s = loaded(1);
    let fx = open_tab(&mut s, Tab::Comments);
    let a = Comment {
        id: "a".into(),
        parent_comment_id: Some("b".into()),
        ..Default::default()
    };
    let b = Comment {
        id: "b".into(),
        parent_comment_id: Some("a".into()),
        ..Default::default()
    };
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![a, b])),
    );
    assert_eq!(s.comment_rows().len(), 2);
}

#[test]
fn a_bare_tags_command_does_not_wipe_the_tags() {
    let mut s = loaded(1);
    assert!(reqs(&palette(&mut s, "tags")).is_empty());
    assert_eq!(
        only_patch(&palette(&mut s, "tags none")).1,
        json!({"tags": []})
    );
}

#[test]
fn ctrl_u_in_a_prefilled_palette_keeps_the_command() {
    let mut s = loaded(1);
    s.on_key(key('e'));
    s.on_key(ctrl('u'));
    type_str(&mut s, "New name");
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(only_patch(&fx).1, json!({"title": "New name"}));
    // A second ctrl-u, at the start of the argument, clears the whole line.
    s.on_key(key('e'));
    s.on_key(ctrl('u'));
    s.on_key(ctrl('u'));
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.input.text, ""),
        _ => panic!(),
    }
}
