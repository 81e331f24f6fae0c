//! People and teams by name, e-mail or id: the exact query or body sent.

use super::*;

/// Two people called Sam Taylor, seen on tasks of the loaded list.
fn with_sams(s: &mut State) {
    s.directory
        .learn_person("u-sam1", "Sam Taylor", "sam.t@acme.test", Some("#1"));
    s.directory
        .learn_person("u-sam2", "Sam Taylor", "sam.taylor@acme.test", Some("#2"));
}

pub(super) fn list_query(fx: &[Effect]) -> TaskQuery {
    match reqs(fx)
        .into_iter()
        .find(|r| matches!(r, ApiRequest::ListPage { .. }))
    {
        Some(ApiRequest::ListPage { query, .. }) => query,
        r => panic!("a list request expected: {r:?}"),
    }
}

#[test]
fn assign_by_email_name_or_completion_label_sends_the_id() {
    let mut s = loaded(1);
    for who in ["bob@acme.test", "Bob", "Bob <bob@acme.test>", "u-bob"] {
        let (id, body) = only_patch(&palette(&mut s, &format!("assign {who}")));
        assert_eq!(id, tid(1));
        assert_eq!(body, json!({"assigned_to": "u-bob"}), "{who}");
    }
}

#[test]
fn several_matches_open_a_picker_and_none_sends_nothing() {
    let mut s = loaded(1);
    with_sams(&mut s);
    // Typed as a name (the palette would offer both as completions).
    let fx = s.command("assign Sam Taylor");
    assert!(reqs(&fx).is_empty(), "nothing sent before a choice");
    match &s.overlay {
        Overlay::Picker(p) => assert_eq!(p.candidates.len(), 2),
        _ => panic!("picker expected"),
    }
    // The arrows move (letters narrow: the one picker, #40 §5).
    s.on_key(code(KeyCode::Down));
    let (id, body) = only_patch(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(id, tid(1));
    assert_eq!(body, json!({"assigned_to": "u-sam2"}));

    let fx = s.command("assign nobody-known");
    assert!(reqs(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("no known person"));
}

#[test]
fn filters_send_ids_never_names() {
    let mut s = loaded(1);
    let q = list_query(&palette(&mut s, "filter assigned=bob@acme.test"));
    assert_eq!(q.assigned_to.as_deref(), Some("u-bob"));
    let q = list_query(&palette(&mut s, "filter involving=Bob team=Ops"));
    assert_eq!(q.involving.as_deref(), Some("u-bob"));
    assert_eq!(q.team_id.as_deref(), Some("team-1"));
    // The title names them as the user would.
    let title = crate::ui::list_title(&s);
    assert!(
        title.contains("involving=bob@acme.test team=Ops"),
        "{title}"
    );
    // Unknown: an error, and no request.
    let fx = s.command("filter assigned=ghost@nowhere.test");
    assert!(reqs(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("nothing sent"));
    // Ambiguous: a picker, then the request with the chosen id.
    with_sams(&mut s);
    let fx = s.command("filter assigned=Sam status=completed");
    assert!(reqs(&fx).is_empty());
    assert!(matches!(s.overlay, Overlay::Picker(_)));
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.assigned_to.as_deref(), Some("u-sam1"));
    assert_eq!(q.status, vec!["completed"]);
}

#[test]
fn the_filter_form_takes_names_and_shows_emails() {
    let mut s = loaded(1);
    s.on_key(key('f'));
    for _ in 0..5 {
        s.on_key(code(KeyCode::Down));
    }
    type_str(&mut s, "bob@acme.test");
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.assigned_to.as_deref(), Some("u-bob"));
    s.on_key(key('f'));
    match &s.overlay {
        Overlay::Filter(f) => assert_eq!(f.text[0].text, "bob@acme.test"),
        _ => panic!("form expected"),
    }
}

#[test]
fn the_directory_learns_from_comments_sharing_and_messages() {
    let mut s = loaded(1);
    let fx = open_tab(&mut s, Tab::Comments);
    let c: Comment = serde_json::from_value(json!({
        "id": "c1", "task_id": tid(1), "content": "hi @Dana",
        "author": {"id": "u-carol", "name": "Carol", "email": "carol@acme.test"},
        "mentioned_users": [{"id": "u-dana", "name": "Dana", "email": "dana@acme.test"}]
    }))
    .unwrap();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![c])),
    );
    assert!(s.directory.people["u-carol"].tasks.contains("#1"));
    let (_, body) = only_patch(&palette(&mut s, "assign dana@acme.test"));
    assert_eq!(body, json!({"assigned_to": "u-dana"}));
}

#[test]
fn the_sharing_editor_sends_a_known_name_or_email_as_its_id() {
    let mut s = loaded(1);
    s.directory
        .learn_person("u-carol", "Carol Nguyen", "carol@acme.test", None);
    s.directory.learn_team("t-lit", "Litigation", None);
    sharing_editor_open(
        &mut s,
        json!([{"id": "u-me", "name": "Me Myself", "email": "me@acme.test", "role": "assignee", "access_level": "write"}]),
    );
    s.on_key(key('a'));
    type_str(&mut s, "carol@acme.test write");
    s.on_key(code(KeyCode::Enter));
    s.on_key(key('t'));
    // As completed (`Name (id…)`): its id. A bare name goes as typed
    // (#32 §3: no local guess between same-named teams).
    type_str(&mut s, "Litigation (t-lit…)");
    s.on_key(code(KeyCode::Enter));
    s.on_key(key('t'));
    type_str(&mut s, "Corporate");
    s.on_key(code(KeyCode::Enter));
    s.on_key(code(KeyCode::Enter)); // review
    let lines = match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.join("\n"),
        _ => panic!("preview expected"),
    };
    assert!(lines.contains("Carol Nguyen <carol@acme.test>"), "{lines}");
    let fx = s.on_key(key('y'));
    let update = match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { update, .. }] => update.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        json!({"visibility": "private",
               "users": [{"user_id": "u-me", "access_level": "write"}, {"user_id": "u-carol", "access_level": "write"}],
               "teams": [{"team_id": "t-lit", "access_level": "read"}, {"team_id": "Corporate", "access_level": "read"}]})
    );
}

/// The review's PUT, answered.
pub(super) fn review_and_send(s: &mut State) -> (Vec<Effect>, SharingUpdate) {
    assert!(reqs(&s.on_key(code(KeyCode::Enter))).is_empty(), "review");
    let fx = s.on_key(key('y'));
    let update = match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { update, .. }] => update.clone(),
        other => panic!("{other:?} ({:?})", s.status),
    };
    (fx, update)
}

/// #32 §2: a task shared with one Dana Smith; the other is added by
/// typing `Dana Smith`. The service's 400 lists both (in a shape whose
/// labels name their ids): it is about the entry typed — the picker says
/// the typed text, offers the Dana not yet listed, the shared Dana stays
/// exactly as she is, and the next save sends the chosen id.
#[test]
fn a_same_name_refusal_is_resolved_on_the_entry_typed_and_nothing_else() {
    let mut s = loaded(1);
    sharing_editor_open(
        &mut s,
        json!([
            {"id": "u-me", "name": "Me Myself", "email": "me@acme.test", "role": "assignee", "access_level": "write"},
            {"id": "u-dana1", "name": "Dana Smith", "email": "dana.smith@acme.test", "access_level": "read"}
        ]),
    );
    s.on_key(key('a'));
    type_str(&mut s, "Dana Smith write");
    s.on_key(code(KeyCode::Enter));
    let (fx, update) = review_and_send(&mut s);
    assert_eq!(
        serde_json::to_value(&update).unwrap()["users"],
        json!([{"user_id": "u-me", "access_level": "write"},
               {"user_id": "u-dana1", "access_level": "read"},
               {"user_id": "Dana Smith", "access_level": "write"}])
    );
    let body = json!({"error": "users[2].user_id: \"Dana Smith\" matches 2 people", "candidates": [
        {"user_id": "u-dana1", "full_name": "Dana Smith", "mail": "dana.smith@acme.test"},
        {"user_id": "u-dana2", "full_name": "Dana Smith", "mail": "dsmith@acme.test"}]});
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "ambiguous".into(),
            body,
        }),
    );
    match &s.overlay {
        Overlay::Picker(p) => {
            assert_eq!(p.reference, "Dana Smith", "the text typed");
            assert_eq!(p.candidates.len(), 1, "{:?}", p.candidates);
            assert_eq!(p.candidates[0].0, "u-dana2", "the Dana not yet listed");
        }
        _ => panic!("a picker ({:?})", s.status),
    }
    s.on_key(code(KeyCode::Enter));
    let lines = match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.join("\n"),
        _ => panic!("the review"),
    };
    assert!(!lines.contains("loses access"), "{lines}");
    let fx = s.on_key(key('y'));
    match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { update, .. }] => assert_eq!(
            serde_json::to_value(update).unwrap()["users"],
            json!([{"user_id": "u-me", "access_level": "write"},
                   {"user_id": "u-dana1", "access_level": "read"},
                   {"user_id": "u-dana2", "access_level": "write"}])
        ),
        other => panic!("{other:?}"),
    }
}

/// #32 §3: two teams named Litigation known: the editor asks which before
/// the review (the review never says `gains` for a request the service
/// would refuse); one known: the name goes as typed, the service decides.
/// `:share team NAME LEVEL` likewise.
#[test]
fn a_team_name_goes_as_typed_and_a_known_ambiguity_is_asked_before_the_review() {
    let mut s = loaded(1);
    s.directory.learn_team("t-lit1", "Litigation", None);
    s.directory.learn_team("t-lit2", "Litigation", None);
    s.directory.learn_team("t-para1", "Paralegals", None);
    sharing_editor_open(
        &mut s,
        json!([{"id": "u-me", "name": "Me", "email": "me@acme.test", "access_level": "write"}]),
    );
    s.on_key(key('t'));
    type_str(&mut s, "Litigation write");
    s.on_key(code(KeyCode::Enter));
    s.on_key(key('t'));
    type_str(&mut s, "Paralegals");
    s.on_key(code(KeyCode::Enter));
    s.on_key(code(KeyCode::Enter));
    match &s.overlay {
        Overlay::Picker(p) => {
            assert_eq!(p.reference, "Litigation");
            assert_eq!(p.candidates.len(), 2);
        }
        _ => panic!("asked before the review ({:?})", s.status),
    }
    s.on_key(code(KeyCode::Down));
    s.on_key(code(KeyCode::Enter));
    let lines = match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.join("\n"),
        o => panic!(
            "the review: picker {} sharing {} {:?}",
            matches!(o, Overlay::Picker(_)),
            matches!(o, Overlay::Sharing(_)),
            s.status
        ),
    };
    assert!(
        lines.contains("+ team Litigation (t-lit2…) gains write access"),
        "{lines}"
    );
    assert!(lines.contains("+ team named \"Paralegals\""), "{lines}");
    let fx = s.on_key(key('y'));
    match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { update, .. }] => assert_eq!(
            serde_json::to_value(update).unwrap()["teams"],
            json!([{"team_id": "t-lit2", "access_level": "write"},
                   {"team_id": "Paralegals", "access_level": "read"}])
        ),
        other => panic!("{other:?}"),
    }
    // `:share team Paralegals write`: one seen, yet the name goes as typed.
    s.overlay = Overlay::None;
    let fx = palette(&mut s, "share team Paralegals write");
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::SharingForEdit { .. }),
        Ok(Reply::Sharing(
            serde_json::from_value(json!({"visibility": "private", "users": [], "teams": []}))
                .unwrap(),
        )),
    );
    match &reqs(&fx)[..] {
        [ApiRequest::PutSharing { update, .. }] => assert_eq!(
            serde_json::to_value(update).unwrap()["teams"],
            json!([{"team_id": "Paralegals", "access_level": "write"}])
        ),
        other => panic!("{other:?}"),
    }
    // The service knows two: its 400 asks which, and the command runs
    // again with the id chosen.
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "ambiguous".into(),
            body: json!({"candidates": [{"id": "t-para1", "name": "Paralegals"}, {"id": "t-para2", "name": "Paralegals"}]}),
        }),
    );
    match &s.overlay {
        Overlay::Picker(p) => assert_eq!(
            (p.reference.as_str(), p.candidates.len()),
            ("Paralegals", 2)
        ),
        _ => panic!("a picker ({:?})", s.status),
    }
    // `:share team Litigation`: two seen, asked before anything is sent.
    s.overlay = Overlay::None;
    let fx = palette(&mut s, "share team Litigation");
    assert!(reqs(&fx).is_empty());
    assert!(matches!(s.overlay, Overlay::Picker(_)));
}
