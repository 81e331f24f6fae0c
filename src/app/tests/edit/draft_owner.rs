//! A draft belongs to the user who typed it (issue 42, point 1), at the
//! reducer: offered, sent and deleted only while the key acts as that
//! user; under another it waits and is said as waiting; a composer open
//! across the switch is closed with its text kept as its typist's.

use super::*;

fn person(id: &str, name: &str) -> Identity {
    Identity {
        user_id: id.into(),
        user_name: name.into(),
        ..Default::default()
    }
}

/// `GET /me` answers: the key acts as `who` (a key reissued to them).
fn key_acts_as(s: &mut State, who: Identity) {
    let fx = vec![s.request(ApiRequest::Me)];
    answer(s, &fx, Ok(Reply::Me(who)));
}

/// A state whose key acts as Alice, drafts kept per user in `service`.
fn alices(service: &std::path::Path) -> State {
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::per_user(service.to_path_buf());
    key_acts_as(&mut s, person("u-alice", "Alice Martin"));
    s
}

fn draft_of(service: &std::path::Path, user: &str) -> Option<String> {
    std::fs::read_to_string(
        service
            .join(format!("user-{user}"))
            .join(format!("{}.comment.txt", tid(1))),
    )
    .ok()
}

fn composer(s: &State) -> &Compose {
    match &s.overlay {
        Overlay::Compose(c) => c,
        _ => panic!("the composer is not open"),
    }
}

fn said(s: &State, words: &str) -> bool {
    s.messages.iter().any(|m| m.text.contains(words))
}

const WAITS: &str = "1 draft of Alice Martin waits: this key now acts as Bob Okafor";

#[test]
fn a_draft_typed_as_alice_is_not_offered_sent_or_deleted_as_bob() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    s.on_key(key('c'));
    type_str(&mut s, "alice's words");
    s.on_key(code(KeyCode::Esc));
    assert_eq!(
        draft_of(&service, "u-alice").as_deref(),
        Some("alice's words")
    );

    // The key is reissued to Bob: her draft waits, said in words, in the
    // header too.
    key_acts_as(&mut s, person("u-bob", "Bob Okafor"));
    assert!(said(&s, WAITS), "{:?}", s.messages);
    assert_eq!(s.drafts_away_words().as_deref(), Some(WAITS));

    // Bob's composer does not offer her text; what he sends is his, and
    // its success deletes nothing of hers.
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "");
    assert!(!composer(&s).restored);
    type_str(&mut s, "bob's words");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::AddComment { content, .. }] => assert_eq!(content, "bob's words"),
        other => panic!("{other:?}"),
    }
    let c = Comment {
        id: "cm1".into(),
        content: "bob's words".into(),
        ..Default::default()
    };
    answer(&mut s, &fx, Ok(Reply::Comment(c)));
    assert!(matches!(s.overlay, Overlay::None));
    assert_eq!(
        draft_of(&service, "u-alice").as_deref(),
        Some("alice's words")
    );

    // The key names Alice again: her draft is offered, nothing said waits.
    key_acts_as(&mut s, person("u-alice", "Alice Martin"));
    assert_eq!(s.drafts_away_words(), None);
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "alice's words");
}

#[test]
fn a_composer_open_across_the_switch_is_closed_and_its_text_kept_as_the_typists() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    s.on_key(key('c'));
    type_str(&mut s, "typed as alice");
    key_acts_as(&mut s, person("u-bob", "Bob Okafor"));
    // Nothing of hers can be sent with Bob's key: the composer is gone.
    assert!(matches!(s.overlay, Overlay::None));
    assert_eq!(
        draft_of(&service, "u-alice").as_deref(),
        Some("typed as alice")
    );
    assert!(said(&s, WAITS), "{:?}", s.messages);
    assert!(said(&s, "the composer closed"), "{:?}", s.messages);
    assert_eq!(draft_of(&service, "u-bob"), None);
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "");
}

/// The sharing editor opened while the key acted as Alice closes when it
/// acts as Bob: its changes would go out as him (simulator seed 216: an
/// editor opened over the last user's store sat over the detail the
/// switch of stores dropped). A change made in it is never sent.
#[test]
fn a_sharing_editor_open_across_the_switch_is_closed_and_sends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    sharing_editor_open(
        &mut s,
        json!([{"id": "u-alice", "name": "Alice Martin", "email": "alice@acme.test", "access_level": "write"}]),
    );
    s.on_key(key('a'));
    type_str(&mut s, "carol write");
    key_acts_as(&mut s, person("u-bob", "Bob Okafor"));
    assert!(matches!(s.overlay, Overlay::None), "the editor stays open");
    assert!(
        said(
            &s,
            "the sharing editor closed, its changes not sent: this key now acts as Bob Okafor"
        ),
        "{:?}",
        s.messages
    );
    let fx = s.on_key(ctrl('s'));
    assert!(
        !reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::PutSharing { .. })),
        "{:?}",
        reqs(&fx)
    );
}

/// The store switch itself (`/me` names another user than the store
/// open, as after a key reissued while taskdeck was closed): the sharing
/// editor or a composer opened over the last user's screen closes — the
/// detail it acts on goes with that user's rows (simulator seeds 216,
/// 131, 137: the editor stayed on #9 while the detail, its row gone,
/// followed the cursor to another task), and what it holds would go
/// out as the new user. The composer's text is kept as the last user's.
#[test]
fn the_store_switch_closes_a_sharing_editor_or_composer_opened_over_the_last_users_screen() {
    let mut s = loaded(1);
    sharing_editor_open(
        &mut s,
        json!([{"id": "u-eve", "name": "Eve", "email": "eve@acme.test", "access_level": "write"}]),
    );
    s.switch_store(Some("u-eve"), "u-me");
    assert!(matches!(s.overlay, Overlay::None), "the editor stays open");
    assert!(
        said(&s, "the sharing editor closed, its changes not sent"),
        "{:?}",
        s.messages
    );

    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::per_user(service.clone());
    s.on_key(key('c'));
    type_str(&mut s, "typed over eve's screen");
    assert_eq!(composer(&s).text(), "typed over eve's screen");
    // Opened with no user named yet (a start, `/me` not answered).
    if let Overlay::Compose(c) = &mut s.overlay {
        c.owner = None;
    }
    s.switch_store(Some("u-eve"), "u-me");
    assert!(
        matches!(s.overlay, Overlay::None),
        "the composer stays open"
    );
    assert!(said(&s, "the composer closed"), "{:?}", s.messages);
    assert_eq!(
        draft_of(&service, "u-eve").as_deref(),
        Some("typed over eve's screen")
    );
}

/// The search box open across a store switch: its `esc` would have put
/// back the last user's rows, the cursor on one of them while the detail
/// showed the new user's task (simulator seed 12425129857736577809,
/// "current task"). It closes with the switch, the search as before `/`.
#[test]
fn the_store_switch_closes_the_search_box_whose_list_was_the_last_users() {
    let mut s = loaded(3);
    s.on_key(key('/'));
    type_str(&mut s, "number");
    assert!(matches!(s.overlay, Overlay::Search(_)));
    s.switch_store(Some("u-eve"), "u-me");
    assert!(
        matches!(s.overlay, Overlay::None),
        "the search box stays open"
    );
    assert_eq!(s.search, "", "the search typed over eve's list is not kept");
    assert!(s.list.narrowed.is_none());
    assert!(said(&s, "the search closed"), "{:?}", s.messages);
    // `esc` now puts nothing back.
    let ids = |s: &State| -> Vec<String> {
        s.list
            .items
            .iter()
            .filter_map(|i| i.id().map(str::to_string))
            .collect()
    };
    let after = ids(&s);
    s.on_key(code(KeyCode::Esc));
    assert_eq!(ids(&s), after);
}

#[test]
fn a_composer_of_another_typist_never_sends() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    s.on_key(key('c'));
    type_str(&mut s, "typed as alice");
    // Whatever let it stay open, ctrl-s under Bob sends nothing.
    s.me = Some(person("u-bob", "Bob Okafor"));
    let fx = s.on_key(ctrl('s'));
    assert!(reqs(&fx).is_empty(), "{fx:?}");
    assert!(
        said(&s, crate::app::local::outbox::drafts::NOT_YOURS),
        "{:?}",
        s.messages
    );
}

#[test]
fn a_send_answered_after_the_switch_changes_the_typists_draft_only() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    s.on_key(key('c'));
    type_str(&mut s, "sent as alice");
    let fx = s.on_key(ctrl('s'));
    assert_eq!(reqs(&fx).len(), 1);
    key_acts_as(&mut s, person("u-bob", "Bob Okafor"));
    // Bob keeps a draft of the same task and kind.
    s.on_key(key('c'));
    type_str(&mut s, "bob's own");
    s.on_key(code(KeyCode::Esc));
    assert_eq!(draft_of(&service, "u-bob").as_deref(), Some("bob's own"));
    let c = Comment {
        id: "cm1".into(),
        content: "sent as alice".into(),
        ..Default::default()
    };
    answer(&mut s, &fx, Ok(Reply::Comment(c)));
    assert_eq!(
        draft_of(&service, "u-alice"),
        None,
        "hers went: it was sent"
    );
    assert_eq!(draft_of(&service, "u-bob").as_deref(), Some("bob's own"));
}

#[test]
fn at_a_start_under_bob_alices_drafts_are_said_to_wait() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    s.on_key(key('c'));
    type_str(&mut s, "alice's words");
    s.on_key(code(KeyCode::Esc));
    // A new run whose key acts as Bob.
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::per_user(service.clone());
    key_acts_as(&mut s, person("u-bob", "Bob Okafor"));
    let words = "1 draft of Alice Martin waits: this key acts as Bob Okafor";
    assert!(said(&s, words), "{:?}", s.messages);
    assert_eq!(s.drafts_away_words().as_deref(), Some(words));
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "");
}

#[test]
fn back_after_the_service_was_away_who_the_key_acts_as_is_asked_first() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    s.on_key(key('c'));
    type_str(&mut s, "alice's words");
    refresh_answered(&mut s, Err(crate::app::tests::local::store::unreachable()));
    assert!(s.offline.is_some());
    // Back by a read answered (not the probe): `GET /me` is asked at once.
    let back = s.refresh();
    let fx = answer_where(
        &mut s,
        &back,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        whole_page([]),
    );
    assert!(
        reqs(&fx).iter().any(|r| matches!(r, ApiRequest::Me)),
        "{:?}",
        reqs(&fx)
    );
    // It answers Bob: the composer closes, her text kept as hers.
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Me),
        Ok(Reply::Me(person("u-bob", "Bob Okafor"))),
    );
    assert!(matches!(s.overlay, Overlay::None));
    assert_eq!(
        draft_of(&service, "u-alice").as_deref(),
        Some("alice's words")
    );
    assert!(said(&s, WAITS), "{:?}", s.messages);
}

/// A reconnect, then ctrl-s before `GET /me` answers (issue 42 §1, the
/// race): the send waits for the identity — nothing is posted, the text
/// stays in the composer and its draft, and it is said; once `/me` names
/// Alice again, ctrl-s sends it.
#[test]
fn ctrl_s_after_a_reconnect_waits_for_who_the_key_acts_as() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    let mut s = alices(&service);
    refresh_answered(&mut s, Err(crate::app::tests::local::store::unreachable()));
    assert!(s.offline.is_some());
    let back = s.refresh();
    let me = answer_where(
        &mut s,
        &back,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        whole_page([]),
    );
    assert!(reqs(&me).iter().any(|r| matches!(r, ApiRequest::Me)));
    // `/me` not answered yet: the composer is opened and ctrl-s pressed.
    s.on_key(key('c'));
    type_str(&mut s, "alice's words");
    let sent = s.on_key(ctrl('s'));
    assert!(
        !reqs(&sent)
            .iter()
            .any(|r| matches!(r, ApiRequest::AddComment { .. })),
        "posted before the key's user was known: {:?}",
        reqs(&sent)
    );
    assert_eq!(composer(&s).text(), "alice's words");
    assert!(
        said(&s, crate::app::local::outbox::drafts::WHO_FIRST),
        "{:?}",
        s.messages
    );
    // `/me` names Alice again: ctrl-s sends it now.
    answer_where(
        &mut s,
        &me,
        |r| matches!(r, ApiRequest::Me),
        Ok(Reply::Me(person("u-alice", "Alice Martin"))),
    );
    let sent = s.on_key(ctrl('s'));
    assert!(
        reqs(&sent)
            .iter()
            .any(|r| matches!(r, ApiRequest::AddComment { .. })),
        "{:?}",
        reqs(&sent)
    );
}

/// Every popup says whether it holds the last user's data
/// (`Overlay::last_users`): across a store switch, one that would send
/// what was chosen on their screen (a bulk edit's confirmation) or shows
/// their lists (`:recent`, the inbox) closes, said; one that holds
/// nothing of theirs (help, the palette) stays as it was.
#[test]
fn the_store_switch_closes_the_popups_holding_the_last_users_data_and_only_those() {
    // A bulk edit confirmed on eve's rows would go out as me.
    let mut s = loaded(3);
    crate::app::tests::bulk::mark_rows(&mut s, 2);
    let fx = palette(&mut s, "status completed");
    assert!(reqs(&fx).is_empty());
    assert!(matches!(s.overlay, Overlay::Confirm { .. }));
    s.switch_store(Some("u-eve"), "u-me");
    assert!(matches!(s.overlay, Overlay::None), "the confirmation stays");
    assert!(
        said(&s, "the confirmation closed, nothing sent"),
        "{:?}",
        s.messages
    );
    let fx = s.on_key(key('y'));
    assert!(
        !reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::Patch { .. })),
        "{fx:?}"
    );
    // The inbox and `:recent` list eve's tasks.
    let mut s = loaded(3);
    s.on_key(key('i'));
    assert!(matches!(s.overlay, Overlay::Inbox(_)));
    s.switch_store(Some("u-eve"), "u-me");
    assert!(matches!(s.overlay, Overlay::None), "the inbox stays");
    assert!(said(&s, "the inbox closed"), "{:?}", s.messages);
    let mut s = loaded(3);
    palette(&mut s, "recent");
    assert!(matches!(s.overlay, Overlay::Chooser(_)));
    s.switch_store(Some("u-eve"), "u-me");
    assert!(matches!(s.overlay, Overlay::None), ":recent stays");
    assert!(said(&s, "the list closed"), "{:?}", s.messages);
    // Help and a command being typed hold nothing of eve's.
    let mut s = loaded(3);
    s.on_key(key('?'));
    assert!(matches!(s.overlay, Overlay::Help { .. }));
    s.switch_store(Some("u-eve"), "u-me");
    assert!(matches!(s.overlay, Overlay::Help { .. }));
    let mut s = loaded(3);
    s.on_key(key(':'));
    type_str(&mut s, "prio");
    s.switch_store(Some("u-eve"), "u-me");
    assert!(
        matches!(s.overlay, Overlay::Palette(_)),
        "the palette closed"
    );
}

/// The search box closed by the store switch puts the list back as at
/// `/`, as `esc` does, and the detail keeps its place: closed with the
/// narrowed rows left as the list, the cursor sat on the one row that
/// matched while the detail stayed on the task current at `/`
/// (simulator seed 9903231299603462073, "current task").
#[test]
fn the_search_box_closed_by_the_store_switch_puts_the_list_back_under_the_detail() {
    let mut s = loaded(3);
    s.on_key(key('j'));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
    s.on_key(key('/'));
    type_str(&mut s, "#3");
    assert_eq!(s.list.items.len(), 1, "narrowed to #3");
    s.switch_store(Some("u-eve"), "u-me");
    assert!(matches!(s.overlay, Overlay::None));
    assert_eq!(s.list.items.len(), 3, "the list as at `/`");
    assert!(s.list.narrowed.is_none());
    assert_eq!(s.list.selected_id(), Some(tid(2).as_str()));
    assert!(s.cursor_on_current());
}
