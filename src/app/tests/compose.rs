//! The composer: drafts, sends, failures.

use super::*;

#[test]
fn a_failed_comment_keeps_the_text_and_says_outcome_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = loaded(1);
    s.drafts = crate::app::drafts::Drafts::new(Some(dir.path().to_path_buf()));
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
    s.drafts = crate::app::drafts::Drafts::new(Some(dir.path().to_path_buf()));
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
    s.drafts = crate::app::drafts::Drafts::new(Some(dir.path().to_path_buf()));
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
