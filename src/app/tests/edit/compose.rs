//! The composer: drafts, sends, failures.

use super::*;

#[test]
fn a_failed_comment_keeps_the_text_and_says_outcome_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.path().to_path_buf()));
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
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.path().to_path_buf()));
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
fn the_draft_is_deleted_on_success_even_if_the_composer_was_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.path().to_path_buf()));
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
    // From the list the comment is the current task's: task 1's.
    s.focus = Focus::List;
    s.on_key(key('u'));
    type_str(&mut s, "reply");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::ReplyComment { id, comment_id, .. }] => {
            assert_eq!(id, &tid(1), "the comment's task, the one shown");
            assert_eq!(comment_id, "c-1");
        }
        other => panic!("{other:?}"),
    }
    // The cursor moves: task 2 is current and shown; task 1's comment is
    // no longer on screen, so `u` cannot reply to it.
    s.on_key(code(KeyCode::Esc)); // the composer closes; the send goes on
    assert_eq!(s.focus, Focus::List);
    s.on_key(key('j'));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
    let fx = s.on_key(key('u'));
    assert!(
        !matches!(s.overlay, Overlay::Compose(_)),
        "no composer for a comment that is not shown"
    );
    assert!(reqs(&fx)
        .iter()
        .all(|r| !matches!(r, ApiRequest::ReplyComment { .. })));
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
fn shift_tab_leaves_the_file_ids_line_and_pasted_text_is_normalised() {
    let mut s = loaded(1);
    s.on_key(key('c'));
    s.on_key(code(KeyCode::Tab));
    assert!(matches!(&s.overlay, Overlay::Compose(c) if c.files_focus));
    s.on_key(code(KeyCode::BackTab));
    assert!(matches!(&s.overlay, Overlay::Compose(c) if !c.files_focus));
    // Terminals paste newlines as CR; ESC and bidi overrides show as
    // stand-ins and are sent as shown, never invisibly.
    s.on_paste("one\r\ntwo\rthree \u{1b}[2J \u{202e}x");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::AddComment { content, .. }] => {
            assert!(content.starts_with("one\ntwo\nthree "), "{content:?}");
            assert!(
                !content.contains('\r')
                    && !content.contains('\u{1b}')
                    && !content.contains('\u{202e}'),
                "{content:?}"
            );
        }
        r => panic!("{r:?}"),
    }
}

fn with_drafts(s: &mut State, dir: &std::path::Path) {
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.to_path_buf()));
}

fn status(s: &State) -> String {
    s.status.as_ref().map(|x| x.1.clone()).unwrap_or_default()
}

fn composer(s: &State) -> &Compose {
    match &s.overlay {
        Overlay::Compose(c) => c,
        _ => panic!("the composer is not open"),
    }
}

fn read(p: std::path::PathBuf) -> Option<String> {
    std::fs::read_to_string(p).ok()
}

fn sent_file(dir: &std::path::Path, kind: &str) -> std::path::PathBuf {
    dir.join(format!("{}.{kind}.sent.json", tid(1)))
}

fn comment(id: &str) -> Result<Reply, ApiError> {
    Ok(Reply::Comment(Comment {
        id: id.into(),
        ..Default::default()
    }))
}

#[test]
fn a_finished_send_removes_only_the_text_it_sent() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    let draft = dir.path().join(format!("{}.comment.txt", tid(1)));
    s.on_key(key('c'));
    type_str(&mut s, "first part");
    let fx = s.on_key(ctrl('s'));
    assert_eq!(reqs(&fx).len(), 1);
    // The record of exactly what was sent is on disk before the request.
    let rec = read(sent_file(dir.path(), "comment")).unwrap();
    assert!(rec.contains("\"text\":\"first part\""), "{rec}");
    assert!(rec.contains("in_flight"), "{rec}");
    // Closed while the service is slow, then reopened: it says a send is
    // in flight, never "nothing was sent".
    s.on_key(code(KeyCode::Esc));
    s.on_key(key('c'));
    assert!(
        status(&s).contains("a send of this text is in flight"),
        "{}",
        status(&s)
    );
    assert!(!status(&s).contains("nothing was sent"));
    assert_eq!(
        composer(&s).banner.as_deref(),
        Some(crate::app::popups::compose::SEND_IN_FLIGHT)
    );
    type_str(&mut s, " second part");
    s.autosave_draft(std::time::Instant::now(), true);
    assert_eq!(read(draft.clone()).unwrap(), "first part second part");
    // The POST answers: only the sent text leaves the draft.
    answer(&mut s, &fx, comment("cm1"));
    assert_eq!(read(draft.clone()).unwrap(), "second part");
    assert_eq!(composer(&s).text(), "second part");
    assert_eq!(composer(&s).state, SendState::Editing);
    assert!(
        status(&s).contains("kept as a draft (not sent)"),
        "{}",
        status(&s)
    );
    assert!(read(sent_file(dir.path(), "comment")).is_none());
    // What is left is sent on its own.
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::AddComment { content, .. }] => assert_eq!(content, "second part"),
        r => panic!("{r:?}"),
    }
    answer(&mut s, &fx, comment("cm2"));
    assert!(matches!(s.overlay, Overlay::None));
    assert!(read(draft).is_none());
}

#[test]
fn a_text_edited_while_it_was_sent_is_kept_whole_when_the_composer_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    let draft = dir.path().join(format!("{}.comment.txt", tid(1)));
    s.on_key(key('c'));
    type_str(&mut s, "hello");
    let fx = s.on_key(ctrl('s'));
    s.on_key(code(KeyCode::Esc));
    s.on_key(key('c'));
    // Edited, not appended to: the whole text stays.
    s.on_key(code(KeyCode::Backspace));
    type_str(&mut s, "p!");
    s.on_key(code(KeyCode::Esc));
    assert_eq!(read(draft.clone()).unwrap(), "hellp!");
    answer(&mut s, &fx, comment("cm1"));
    assert_eq!(read(draft).unwrap(), "hellp!");
    assert!(status(&s).contains("edited since"), "{}", status(&s));
}

#[test]
fn a_second_send_of_a_text_in_flight_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    type_str(&mut s, "only once");
    let fx = s.on_key(ctrl('s'));
    s.on_key(code(KeyCode::Esc));
    s.on_key(key('c'));
    let again = s.on_key(ctrl('s'));
    assert!(reqs(&again).is_empty(), "one POST only: {:?}", reqs(&again));
    assert!(status(&s).starts_with("not sent:"), "{}", status(&s));
    assert!(status(&s).contains("in flight"), "{}", status(&s));
    // Text added meanwhile is not sent either until the answer.
    type_str(&mut s, " and more");
    assert!(reqs(&s.on_key(ctrl('s'))).is_empty());
    answer(&mut s, &fx, comment("cm1"));
    assert_eq!(composer(&s).text(), "and more");
}

#[test]
fn keys_typed_while_sending_are_refused_visibly() {
    let mut s = loaded(1);
    s.on_key(key('c'));
    type_str(&mut s, "text");
    s.on_key(ctrl('s'));
    type_str(&mut s, "x");
    assert_eq!(composer(&s).text(), "text");
    assert!(status(&s).contains("keys are ignored until the service answers"));
    assert_eq!(
        composer(&s).banner.as_deref(),
        Some(crate::app::popups::compose::SENDING_KEYS_IGNORED)
    );
    s.on_paste("pasted");
    assert_eq!(composer(&s).text(), "text");
}

#[test]
fn an_unknown_outcome_is_said_on_the_next_open_and_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    type_str(&mut s, "maybe posted");
    let fx = s.on_key(ctrl('s'));
    answer(
        &mut s,
        &fx,
        Err(ApiError::Timeout {
            what: "waiting".into(),
        }),
    );
    let rec = read(sent_file(dir.path(), "comment")).unwrap();
    assert!(rec.contains("\"state\":\"unknown\""), "{rec}");
    assert!(composer(&s)
        .banner
        .as_deref()
        .unwrap()
        .contains("may have reached the service"));
    s.on_key(code(KeyCode::Esc));
    s.on_key(key('c'));
    assert!(
        status(&s).contains("may have reached the service: check before sending again"),
        "{}",
        status(&s)
    );
    assert!(!status(&s).contains("nothing was sent"));

    // Quit while a send is in flight: the next run says the same.
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.drafts.delete(&tid(1), "comment");
    s.drafts.clear_sent(&tid(1), "comment");
    s.on_key(key('c'));
    type_str(&mut s, "sent at quit");
    let fx = s.on_key(ctrl('s'));
    assert_eq!(reqs(&fx).len(), 1);
    let kept = s.save_drafts_now();
    let lines = crate::app::quit_lines(&s, &Default::default(), kept.as_deref());
    let all = lines.join("\n");
    assert!(
        all.contains(
            "internal comment on #1 was still being sent when you quit — its outcome is unknown"
        ),
        "{all}"
    );
    assert!(!all.contains("unsent"), "{all}");
    let path = kept
        .expect("the composer's text kept")
        .display()
        .to_string();
    assert_eq!(
        all.matches(&path).count(),
        1,
        "the draft is named once: {all}"
    );
    drop(s);
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "sent at quit");
    assert!(
        status(&s).contains("may have reached the service"),
        "{}",
        status(&s)
    );
    assert!(!status(&s).contains("nothing was sent"));
}

#[test]
fn a_refused_send_clears_the_record_and_the_draft_reads_unsent() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    type_str(&mut s, "refused");
    let fx = s.on_key(ctrl('s'));
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "no".into(),
            body: serde_json::Value::Null,
        }),
    );
    assert!(read(sent_file(dir.path(), "comment")).is_none());
    s.on_key(code(KeyCode::Esc));
    s.on_key(key('c'));
    assert!(status(&s).contains("nothing was sent"), "{}", status(&s));
}

#[test]
fn quitting_names_the_changes_still_in_flight() {
    let mut s = loaded(1);
    s.on_key(code(KeyCode::Enter));
    let mut writes = crate::app::WritesInFlight::default();
    let fx = palette(&mut s, "status completed");
    let read_fx = s.refresh();
    for e in fx.iter().chain(read_fx.iter()) {
        if let Effect::Api { ticket, req } = e {
            writes.started(*ticket, req, &s);
        }
    }
    let lines = crate::app::quit_lines(&s, &writes, None);
    assert_eq!(
        lines,
        vec![
            "taskdeck: 1 change was still in flight when you quit: #1 status → completed — its outcome is unknown; check it"
                .to_string()
        ]
    );
    // Answered: nothing is said.
    writes.answered(ticket_of(&fx));
    assert!(crate::app::quit_lines(&s, &writes, None).is_empty());
}

#[test]
fn drafts_belong_to_the_user_and_wait_for_the_identity() {
    let dir = tempfile::tempdir().unwrap();
    let service = dir.path().join("svc");
    // Before the service said who the user is: no composer, nothing kept.
    let mut s = crate::app::new_state("svc.test".into(), &Default::default(), false);
    s.drafts = crate::app::state::drafts::Drafts::per_user(service.clone());
    s.detail = Some(Detail::new(tid(1), Some(task(1))));
    s.on_key(key('c'));
    assert!(!matches!(s.overlay, Overlay::Compose(_)));
    assert!(
        status(&s).contains("who you are is not known yet"),
        "{}",
        status(&s)
    );

    let mut alice = loaded(1);
    alice.drafts = crate::app::state::drafts::Drafts::per_user(service.clone());
    alice.on_key(key('c'));
    type_str(&mut alice, "alice's words");
    alice.on_key(code(KeyCode::Esc));
    let file = service
        .join("user-u-me")
        .join(format!("{}.comment.txt", tid(1)));
    assert_eq!(read(file).unwrap(), "alice's words");

    // Another user of the same service is not offered it.
    let mut bob = loaded(1);
    bob.me.as_mut().unwrap().user_id = "u-bob".into();
    bob.drafts = crate::app::state::drafts::Drafts::per_user(service.clone());
    bob.on_key(key('c'));
    assert_eq!(composer(&bob).text(), "");
    assert!(!composer(&bob).restored);
}

#[test]
fn the_editor_is_started_on_a_saved_draft_and_its_line_ends_are_normalised() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    type_str(&mut s, "before the editor");
    let fx = s.on_key(ctrl('e'));
    assert!(matches!(&fx[..], [Effect::Editor { .. }]));
    assert_eq!(
        s.drafts.load(&tid(1), "comment").as_deref(),
        Some("before the editor"),
        "saved before the editor starts"
    );
    s.editor_done(
        EditorTarget::Compose,
        Ok("one\r\ntwo\r\n\tthree \u{1b}x\n".into()),
    );
    assert_eq!(composer(&s).text(), "one\ntwo\n\tthree \u{1b}x");
    // From the editor straight to the description: LF line ends too.
    s.on_key(code(KeyCode::Esc));
    let fx = s.editor_done(
        EditorTarget::Description { task_id: tid(1) },
        Ok("new\r\ntext\r\n".into()),
    );
    let (_, patch) = only_patch(&fx);
    assert_eq!(patch["description"], "new\ntext");
}

#[test]
fn an_editor_file_left_behind_is_offered_on_the_next_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.drafts.save(&tid(1), "comment", "draft").unwrap();
    let editor_file = s.drafts.editor_path(&tid(1), "comment").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&editor_file, "draft\r\nand what the editor had\n").unwrap();
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "draft\nand what the editor had");
    assert!(status(&s).contains("$EDITOR session that did not finish"));
    assert!(!editor_file.exists(), "adopted into the draft");
    assert_eq!(
        s.drafts.load(&tid(1), "comment").as_deref(),
        Some("draft\nand what the editor had")
    );
}

#[test]
fn at_completes_people_from_the_directory_and_a_reply_quotes_the_comment() {
    let mut s = loaded(1);
    s.on_key(key('c'));
    type_str(&mut s, "thanks @bo");
    match &s.overlay {
        Overlay::Compose(c) => assert!(
            c.mention
                .as_deref()
                .unwrap_or("")
                .contains("Bob <bob@acme.test>"),
            "{:?}",
            c.mention
        ),
        _ => panic!("composer expected"),
    }
    s.on_key(code(KeyCode::Tab));
    type_str(&mut s, "see above");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::AddComment { content, .. }] => {
            assert_eq!(content, "thanks @Bob see above")
        }
        r => panic!("{r:?}"),
    }
    // Without an @word, Tab still moves to the file ids.
    let mut s = loaded(1);
    s.on_key(key('c'));
    type_str(&mut s, "plain");
    s.on_key(code(KeyCode::Tab));
    assert!(matches!(&s.overlay, Overlay::Compose(c) if c.files_focus));

    // A reply to a comment starts with the comment quoted.
    let mut s = loaded(1);
    let fx = open_tab(&mut s, Tab::Comments);
    let c = Comment {
        id: "c-1".into(),
        task_id: tid(1),
        content: "Line one\nLine two".into(),
        ..Default::default()
    };
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(vec![c])),
    );
    s.on_key(key('u'));
    type_str(&mut s, "Agreed");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::ReplyComment { content, .. }] => {
            assert_eq!(content, "> Line one\n> Line two\n\nAgreed")
        }
        r => panic!("{r:?}"),
    }
}

/// The composer's keys are named once (issue 40): every key of
/// `COMPOSER_KEYS` is read by the handler as what the table says, and the
/// composer's line, the hint line and the help screen name each of them.
#[test]
fn the_composer_keys_are_named_once_and_do_what_they_say() {
    use crate::app::popups::compose::{ComposerKey, COMPOSER_KEYS};
    use crate::domain::keymap::Key;
    // Each label as a terminal sends it.
    let event = |k: &str| match k {
        "ctrl-s" => ctrl('s'),
        "ctrl-e" => ctrl('e'),
        "ctrl-c" => ctrl('c'),
        "esc" => code(KeyCode::Esc),
        "tab" => code(KeyCode::Tab),
        "shift-tab" => KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
        other => panic!("a composer key this test does not know: {other}"),
    };
    for (what, keys, words) in COMPOSER_KEYS {
        for k in *keys {
            Key::parse(k).unwrap_or_else(|e| panic!("{k}: {e}"));
            assert_eq!(ComposerKey::of(&event(k)), Some(*what), "{k}");
        }
        let line = crate::app::popups::compose::composer_keys_line("  ");
        assert!(line.contains(&format!("{} {words}", keys[0])), "{line}");
    }
    // What they do, in the handler: ctrl-s sends, esc closes.
    let mut s = loaded(1);
    let dir = tempfile::tempdir().unwrap();
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.path().to_path_buf()));
    s.on_key(key('c'));
    assert!(matches!(s.overlay, Overlay::Compose(_)));
    // The hint line and the help screen name the same keys.
    let hint = crate::ui::hints::popup_hint(&s).unwrap();
    assert!(
        hint.contains("ctrl-s send") && hint.contains("esc close"),
        "{hint}"
    );
    let help = crate::ui::help_lines(&s, "");
    assert!(
        help.iter()
            .any(|l| l.contains("In the composer: ctrl-s send · ctrl-e $EDITOR")),
        "{help:?}"
    );
    type_str(&mut s, "hello");
    s.on_key(code(KeyCode::Esc));
    assert!(!matches!(s.overlay, Overlay::Compose(_)), "esc closes");
    s.on_key(key('c'));
    let fx = s.on_key(ctrl('s'));
    assert!(
        reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::AddComment { .. })),
        "{fx:?}"
    );
    // A key not in the table types.
    assert_eq!(ComposerKey::of(&key('s')), None);
}

/// Quit's words: a comment whose send waited for an earlier change of
/// the task when taskdeck ended (the worker stopped it, never sent) is
/// "not sent", never "outcome unknown", and leaves no record of a send:
/// the next start offers its text as an unsent draft.
#[test]
fn a_comment_never_sent_at_quit_is_said_not_sent_and_leaves_no_sent_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    type_str(&mut s, "waited behind a change");
    let fx = s.on_key(ctrl('s'));
    let mut writes = crate::app::WritesInFlight::default();
    for e in &fx {
        if let Effect::Api { ticket, req } = e {
            writes.started(*ticket, req, &s);
        }
    }
    assert!(read(sent_file(dir.path(), "comment")).is_some());
    let kept = s.save_drafts_now();
    writes.never_sent(&[ticket_of(&fx)]);
    s.keep_writes_in_flight(&writes);
    let all = crate::app::quit_lines(&s, &writes, kept.as_deref()).join("\n");
    assert!(
        all.contains("internal comment on #1 was not sent: it waited for an earlier change of the task when you quit"),
        "{all}"
    );
    assert!(!all.contains("unknown"), "{all}");
    assert!(
        read(sent_file(dir.path(), "comment")).is_none(),
        "no send to doubt"
    );
    drop(s);
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    assert_eq!(composer(&s).text(), "waited behind a change");
    assert!(
        !status(&s).contains("may have reached the service"),
        "{}",
        status(&s)
    );
}

/// ctrl-s on an empty composer is told "nothing to send". Background
/// answers that come before that line is drawn — a task the key can no
/// longer read, a list check that fails and then one that succeeds —
/// neither cover it nor clear it: the status line still says what the key
/// did (e2e_identity once saw, under load, the composer open after ctrl-s
/// and the status line empty).
#[test]
fn a_background_answer_never_covers_or_clears_what_a_key_was_told() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(3);
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.path().to_path_buf()));
    s.on_key(key('c'));
    assert!(matches!(s.overlay, Overlay::Compose(_)));
    assert!(reqs(&s.on_key(ctrl('s'))).is_empty(), "nothing sent");
    let told = s.status.clone().unwrap();
    assert_eq!((told.0, told.1.as_str()), (Level::Warn, "nothing to send"));
    // A task read ahead turns out gone.
    let fx = vec![s.request(ApiRequest::GetTask { id: tid(3) })];
    answer(
        &mut s,
        &fx,
        Err(ApiError::NotFound {
            what: "task".into(),
            message: "no such task".into(),
        }),
    );
    assert_eq!(
        s.status,
        Some(told.clone()),
        "a gone task does not cover it"
    );
    // A check of the list fails, then the next one succeeds.
    refresh_answered(&mut s, busy());
    refresh_answered(&mut s, whole_page(1..=3));
    assert_eq!(s.status, Some(told), "the key's answer stays on the line");
    assert!(matches!(s.overlay, Overlay::Compose(_)));
    for said in ["gone", "busy"] {
        assert!(
            s.messages.iter().any(|m| m.text.contains(said)),
            "the background's words are in the messages: {said}"
        );
    }
    // What the user does next speaks again.
    s.on_key(code(KeyCode::Esc));
    palette(&mut s, "nonsense");
    assert_ne!(
        s.status.as_ref().map(|t| t.1.as_str()),
        Some("nothing to send")
    );
}

/// The composer open on #1 while no draft can be saved: the drafts'
/// folder is under a file (a full disk alike). The temp folder lives as
/// long as the first value.
fn composing_where_no_draft_can_be_saved() -> (tempfile::TempDir, State) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let mut s = loaded(1);
    with_drafts(&mut s, &file.join("drafts"));
    s.on_key(key('c'));
    (dir, s)
}

/// At a quit, the composer's text that cannot be written as a draft (here
/// its folder is a file) is handed back as NOT KEPT with the error and the
/// text, never dropped; stderr gets the text up to 64 KiB, cut at a
/// character, the rest counted.
#[test]
fn a_composer_text_that_cannot_be_kept_at_a_quit_is_handed_back_not_kept() {
    let (dir, mut s) = composing_where_no_draft_can_be_saved();
    type_str(&mut s, "on a full disk");
    let at = s.keep_composer_at_quit();
    assert!(at.kept.is_none());
    let lost = at.lost.expect("not kept, said");
    assert_eq!(lost.text, "on a full disk");
    let lines = lost.lines();
    assert!(
        lines[0].contains("your internal comment on #1 could NOT be kept as a draft ("),
        "{lines:?}"
    );
    assert!(lines[0].contains("NOT KEPT"), "{lines:?}");
    assert_eq!(lines[1], "on a full disk");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(s.save_drafts_now().is_none());

    // A long text: 64 KiB of it, cut between characters, the rest counted.
    let long = crate::app::edit::sends::NotKept {
        what: "internal comment on #1".into(),
        error: "No space left on device".into(),
        text: format!("a{}", "é".repeat(40_000)),
        spilled: Some(Ok("/run/user/1/taskdeck/1-x.txt".into())),
    };
    let lines = long.lines();
    assert!(
        lines[0].contains("NOT KEPT; written instead to /run/user/1/taskdeck/1-x.txt;"),
        "the file it went to: {lines:?}"
    );
    assert_eq!(lines[1].len(), 64 * 1024 - 1, "cut before a split é");
    assert_eq!(
        lines[2],
        format!(
            "taskdeck: (the last {} bytes of the text are not shown)",
            long.text.len() - (64 * 1024 - 1)
        )
    );

    // Written where it can be: kept, nothing lost.
    let mut s = loaded(1);
    with_drafts(&mut s, dir.path());
    s.on_key(key('c'));
    type_str(&mut s, "kept");
    let at = s.keep_composer_at_quit();
    assert!(at.lost.is_none());
    assert_eq!(std::fs::read_to_string(at.kept.unwrap()).unwrap(), "kept");
}

/// While the draft cannot be saved (its folder is a file: a full disk
/// alike), `esc` keeps the composer open: its hint says what `esc` does
/// then, not `close (draft kept)`; once a save succeeds it says close again.
#[test]
fn the_composer_hint_says_what_esc_does_while_the_draft_cannot_be_saved() {
    use crate::app::popups::compose::CLOSE_UNSAVED;
    let (dir, mut s) = composing_where_no_draft_can_be_saved();
    let hint = |s: &State| crate::ui::hint_text(s, 400);
    assert!(hint(&s).contains("esc close (draft kept)"), "{}", hint(&s));
    type_str(&mut s, "on a full disk");
    assert!(s.autosave_draft(crate::clock::instant(), true), "said");
    let h = hint(&s);
    assert!(h.contains(&format!("esc {CLOSE_UNSAVED}")), "{h}");
    assert!(!h.contains("draft kept"), "{h}");
    // The composer's own key line (its bottom row) says the same.
    let own = crate::app::popups::compose::composer_hint(composer(&s), "  ");
    assert!(own.contains(&format!("esc {CLOSE_UNSAVED}")), "{own}");
    // What the hint says is what esc does: the composer stays open.
    s.on_key(code(KeyCode::Esc));
    assert!(matches!(s.overlay, Overlay::Compose(_)));
    assert!(hint(&s).contains(CLOSE_UNSAVED), "{}", hint(&s));
    // Space again: the next save succeeds, and esc closes with the draft.
    with_drafts(&mut s, dir.path());
    type_str(&mut s, "!");
    assert!(!s.autosave_draft(crate::clock::instant(), true));
    assert!(hint(&s).contains("esc close (draft kept)"), "{}", hint(&s));
    s.on_key(code(KeyCode::Esc));
    assert!(matches!(s.overlay, Overlay::None));
}
