//! Field edits: the exact PATCH each key and command sends.

use super::*;

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
        json!({DUE: null})
    );
    let body = only_patch(&palette(&mut s, "due 2026-12-01")).1;
    assert_eq!(body, json!({DUE: "2026-12-01T23:59:59Z"}));
    // A bad date sends nothing and says why.
    assert!(reqs(&palette(&mut s, "due someday")).is_empty());
    assert_eq!(s.status.as_ref().unwrap().0, Level::Error);
}

#[test]
fn due_takes_the_same_forms_as_snooze() {
    // `:due fri 17:00` and `next friday 17:00` were refused while
    // `:snooze` took them: one grammar now serves both.
    let mut s = loaded(1);
    let now = jiff::Timestamp::now();
    for (typed, as_snooze) in [
        ("fri 17:00", "fri 17:00"),
        ("next friday 17:00", "fri 17:00"),
        ("tomorrow 16:00", "tomorrow 16:00"),
        ("mon 5pm", "mon 17:00"),
    ] {
        let (_, body) = only_patch(&palette(&mut s, &format!("due {typed}")));
        let sent = body[DUE].as_str().unwrap().to_string();
        let snooze = crate::domain::later::parse_later(as_snooze, now).unwrap();
        assert_eq!(sent, crate::api::to_utc_seconds(snooze), "{typed}");
    }
    // A day alone stays the end of that local day.
    let (_, body) = only_patch(&palette(&mut s, "due fri"));
    assert!(body[DUE].as_str().unwrap().ends_with("T23:59:59Z"));
}

#[test]
fn a_due_date_typed_wrong_sends_nothing_and_says_why() {
    let mut s = loaded(1);
    for bad in [
        "26-12-01",
        "+2026-12-01",
        "2026-02-30",
        "2026-13-01",
        "today 25:00",
        "fri 25:00",
        "next",
        "next 17:00",
        "fri fri",
        "fri 17:00 extra",
        "-1d",
        "+99999d",
    ] {
        s.status = None;
        assert!(
            reqs(&palette(&mut s, &format!("due {bad}"))).is_empty(),
            "{bad}"
        );
        let (level, text, _) = s.status.clone().expect(bad);
        assert_eq!(level, Level::Error, "{bad}: {text}");
    }
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
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(archived.clone()))));
    assert!(s.status.as_ref().unwrap().1.contains("z restores"));
    // z reads the task back first (did it change on the service since?),
    // then sends exactly one request: the restore.
    let fx = crate::app::tests::undo::undo_key_unchanged(&mut s, 'z', &[archived]);
    let r = reqs(&fx);
    assert_eq!(r.len(), 1);
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(1)))));
    assert!(
        s.status.as_ref().unwrap().1.contains("undone: #1 restored"),
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
    let t = s.next_ticket;
    s.replace_task(draft, t);
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
fn unknown_commands_and_bad_values_say_so() {
    let mut s = loaded(1);
    assert!(reqs(&palette(&mut s, "frobnicate")).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("unknown command"));
    assert!(reqs(&palette(&mut s, "status blocked")).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("unknown status"));
}

#[test]
fn a_bare_tags_command_does_not_wipe_the_tags() {
    let mut s = loaded(1);
    assert!(reqs(&palette(&mut s, "tags")).is_empty());
    // Enter completed the command word instead of running it.
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.input.text, "tags "),
        _ => panic!("the palette stays open"),
    }
    s.on_key(code(KeyCode::Esc));
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

#[test]
fn a_patch_with_an_unknown_outcome_is_read_back_never_resent() {
    let mut s = loaded(1);
    let fx = palette(&mut s, "priority low");
    let fx = answer(
        &mut s,
        &fx,
        Err(ApiError::Network {
            message: "connection lost".into(),
        }),
    );
    let fx = confirm_me(&mut s, &fx);
    assert_eq!(reqs(&fx), vec![ApiRequest::GetTask { id: tid(1) }]);
    assert!(s.status.as_ref().unwrap().1.contains("outcome unknown"));
    // A refusal is certain: nothing more is asked.
    let fx = palette(&mut s, "priority low");
    let fx = answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "no".into(),
            body: serde_json::Value::Null,
        }),
    );
    assert!(reqs(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("failed"));
}

#[test]
fn the_result_of_a_due_edit_reads_in_local_time() {
    let ny = crate::app::dates::resolve_zone("America/New_York").unwrap();
    crate::app::dates::with_zone(ny, || {
        let mut s = loaded(1);
        let fx = palette(&mut s, "due 2026-12-01T09:00");
        assert_eq!(only_patch(&fx).1, json!({DUE: "2026-12-01T14:00:00Z"}));
        let mut t = task(1);
        t.complete_by = Some("2026-12-01T14:00:00Z".into());
        answer(&mut s, &fx, Ok(Reply::Task(Box::new(t))));
        let (_, text, _) = s.status.clone().unwrap();
        assert!(text.contains("due → 2026-12-01 09:00 EST"), "{text}");
        assert!(!text.contains("14:00:00Z"), "{text}");
    });
}

#[test]
fn a_background_error_never_covers_the_notice_of_a_failed_edit() {
    let mut s = loaded(1);
    let fx = palette(&mut s, "priority low");
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "priority is locked".into(),
            body: Value::Null,
        }),
    );
    let notice = s.status.clone().unwrap().1;
    assert!(notice.contains("priority is locked"), "{notice}");
    // A refresh fails meanwhile.
    refresh_answered(&mut s, busy());
    assert_eq!(s.status.clone().unwrap().1, notice, "the notice stays");
    assert!(
        s.messages.iter().any(|m| m.text.contains("busy")),
        "the background error is in the messages"
    );
    // The next thing the user does speaks again.
    palette(&mut s, "nonsense");
    assert_ne!(s.status.clone().unwrap().1, notice);
}

/// Task 1 as a listing's row holds it when its title, description and tags
/// were cut (issue 42 §2), and the same task whole, as GET /tasks/{id} gives.
fn cut_and_whole() -> (State, Task) {
    let title = format!("Long {}", "t".repeat(600_000));
    let description = "d".repeat(600_000);
    let tags: Vec<String> = (0..300).map(|i| format!("tag{i}")).collect();
    let mut whole = task_json(1);
    whole["title"] = json!(title);
    whole["description"] = json!(description);
    whole["tags"] = json!(tags);
    let mut row = task_json(1);
    row["title"] = json!(title[..4096]);
    row["description"] = json!(description[..4096]);
    row["tags"] = json!(tags[..256]);
    row["taskdeck_cut"] = json!([
        {"field": "title", "received": title.len(), "kept": 4096},
        {"field": "description", "received": description.len(), "kept": 4096},
        {"field": "tags", "received": 300, "kept": 256},
    ]);
    let s = loaded_with_tasks(
        &Settings::default(),
        vec![serde_json::from_value(row).unwrap()],
    );
    (s, serde_json::from_value(whole).unwrap())
}

fn whole_read(fx: &[Effect]) -> bool {
    reqs(fx) == vec![ApiRequest::GetTask { id: tid(1) }]
}

fn answer_read(s: &mut State, fx: &[Effect], whole: Task) -> Vec<Effect> {
    answer_where(
        s,
        fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(whole))),
    )
}

fn palette_text(s: &State) -> String {
    match &s.overlay {
        Overlay::Palette(p) => p.input.text.clone(),
        _ => panic!("the palette expected"),
    }
}

#[test]
fn a_cut_description_is_edited_only_once_the_whole_task_is_read() {
    let (mut s, whole) = cut_and_whole();
    let fx = s.on_key(key('E'));
    // No editor holding the cut text (whose save would cut the real one):
    // the whole task is asked for, and said.
    assert!(whole_read(&fx), "{fx:?}");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Editor { .. })));
    let said = &s.status.as_ref().unwrap().1;
    assert_eq!(
        said,
        "the description was cut in the list — reading the whole task first"
    );
    let fx = answer_read(&mut s, &fx, whole.clone());
    assert_eq!(
        fx,
        vec![Effect::Editor {
            target: EditorTarget::Description { task_id: tid(1) },
            initial: "d".repeat(600_000),
        }]
    );
    // `:description` in the TUI's composer waits the same way.
    let (mut s, whole) = cut_and_whole();
    let fx = palette(&mut s, "description");
    assert!(whole_read(&fx) && !matches!(s.overlay, Overlay::Compose(_)));
    answer_read(&mut s, &fx, whole);
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text().len(), 600_000),
        _ => panic!("composer expected"),
    }
}

#[test]
fn a_cut_title_is_never_sent_back() {
    // `e`: the palette opens on the whole title, never on the cut one.
    let (mut s, whole) = cut_and_whole();
    let fx = s.on_key(key('e'));
    assert!(whole_read(&fx), "{fx:?}");
    assert!(!matches!(s.overlay, Overlay::Palette(_)));
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .starts_with("the title was cut in the list"));
    answer_read(&mut s, &fx, whole);
    assert_eq!(
        palette_text(&s),
        format!("title Long {}", "t".repeat(600_000))
    );
    // `:title` typed from the cut title: nothing sent; the text typed comes
    // back in the palette once the whole title is read.
    let (mut s, whole) = cut_and_whole();
    let typed = format!("title Long {} and more", "t".repeat(4091));
    let fx = palette(&mut s, &typed);
    assert!(whole_read(&fx), "no PATCH carrying the cut title: {fx:?}");
    let fx = answer_read(&mut s, &fx, whole);
    assert!(reqs(&fx).is_empty());
    assert_eq!(palette_text(&s), typed);
    // A new title of the user's own is sent as typed.
    let (mut s, _) = cut_and_whole();
    let (_, body) = only_patch(&palette(&mut s, "title Short"));
    assert_eq!(body, json!({"title": "Short"}));
}

#[test]
fn cut_tags_are_edited_against_the_whole_list() {
    let (mut s, whole) = cut_and_whole();
    let fx = palette(&mut s, "tags +new");
    assert!(whole_read(&fx), "no PATCH of the 256 kept tags: {fx:?}");
    assert_eq!(
        s.status.as_ref().unwrap().1,
        "the tags were cut in the list — reading the whole task first"
    );
    let fx = answer_read(&mut s, &fx, whole);
    let (_, body) = only_patch(&fx);
    let sent = body["tags"].as_array().unwrap();
    assert_eq!(sent.len(), 301);
    assert_eq!(sent[299], json!("tag299"));
    assert_eq!(sent[300], json!("new"));
}

#[test]
fn a_cut_field_whose_whole_task_cannot_be_read_sends_nothing_and_keeps_the_text() {
    let (mut s, _) = cut_and_whole();
    let fx = palette(&mut s, "tags +new -tag3");
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Err(ApiError::BadRequest {
            message: "no".into(),
            body: Value::Null,
        }),
    );
    assert!(reqs(&fx).is_empty(), "{fx:?}");
    assert_eq!(palette_text(&s), "tags +new -tag3");
    assert!(s.status.as_ref().unwrap().1.contains("nothing sent"));
}

#[test]
fn a_draft_rejected_under_a_composer_opened_on_it_keeps_the_detail_under_the_composer() {
    // Simulator seed 196387919095221932: `D`, `y`, then `:comment` before
    // the answer; the answer took the row away and the detail moved to
    // the neighbour while the composer stayed on the rejected draft.
    // Task #2 of three, a draft, rejected (`D`, `y`): the state and the
    // DELETE in flight.
    let rejecting = || {
        let mut s = loaded(3);
        s.on_key(key('j'));
        let mut draft = task(2);
        draft.draft = true;
        let t = s.next_ticket;
        s.replace_task(draft, t);
        s.on_key(key('D'));
        let fx = s.on_key(key('y'));
        assert_eq!(reqs(&fx), vec![ApiRequest::Delete { id: tid(2) }]);
        (s, fx)
    };
    let (mut s, fx) = rejecting();
    palette(&mut s, "comment");
    assert_eq!(s.overlay.bound_task(), Some(tid(2).as_str()));
    answer(&mut s, &fx, Ok(Reply::Deleted));
    assert!(s.list.position(&tid(2)).is_none(), "the row is gone");
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
    assert_eq!(s.overlay.bound_task(), Some(tid(2).as_str()));
    assert!(
        s.status
            .as_ref()
            .unwrap()
            .1
            .contains("cannot be sent there"),
        "{:?}",
        s.status
    );
    // Once the composer is closed (its text kept as a draft), the detail
    // leaves the deleted draft for the row under the cursor.
    s.on_paste("half a thought");
    s.on_key(code(KeyCode::Esc));
    assert!(
        matches!(s.overlay, Overlay::None),
        "{:?}",
        s.overlay.bound_task()
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(3));
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    // Without a popup on it, the detail follows the cursor to the row
    // that took its place.
    let (mut s, fx) = rejecting();
    answer(&mut s, &fx, Ok(Reply::Deleted));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(3));
}
