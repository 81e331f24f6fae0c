//! Keymap, help and the message log.

use super::*;

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
    let mut s = crate::app::new_state("h".into(), &settings, false);
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
    let s = crate::app::new_state("h".into(), &settings, false);
    let all = crate::ui::help_lines(&s, "");
    assert!(all
        .iter()
        .any(|l| l.contains("ctrl-n") && l.contains("move down")));
    for a in crate::app::keymap::Action::ALL {
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
fn popup_keys_are_remappable_and_listed_in_help() {
    let mut settings = Settings::default();
    let keys = &mut settings.keys;
    keys.entry("confirm".into())
        .or_default()
        .insert("o".into(), "yes".into());
    keys.entry("confirm".into())
        .or_default()
        .insert("y".into(), "none".into());
    keys.entry("palette".into())
        .or_default()
        .insert("ctrl-j".into(), "down".into());
    let mut s = crate::app::new_state("h".into(), &settings, false);
    let fx = s.start();
    let me = ApiResult {
        ticket: ticket_of(&fx),
        req: ApiRequest::Me,
        result: Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            ..Default::default()
        })),
    };
    s.on_api(me);
    let mut t = task(1);
    t.draft = true;
    s.list.items.push(TaskItem::Task(Box::new(t)));
    s.follow_cursor();
    // Reject a draft asks first; `y` no longer answers, `o` does.
    s.on_key(key('D'));
    assert!(matches!(s.overlay, Overlay::Confirm { .. }));
    assert!(reqs(&s.on_key(key('y'))).is_empty());
    assert!(
        matches!(s.overlay, Overlay::Confirm { .. }),
        "y is unbound here"
    );
    let fx = s.on_key(key('o'));
    assert_eq!(reqs(&fx), vec![ApiRequest::Delete { id: tid(1) }]);
    // In the palette, ctrl-j moves the highlight like Down.
    s.on_key(key(':'));
    type_str(&mut s, "status in");
    s.on_key(ctrl('j'));
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.selected, 1),
        _ => panic!("palette expected"),
    }
    // Help lists the popup contexts with the effective keys.
    let help = crate::ui::help_lines(&s, "");
    assert!(help.iter().any(|l| l == "In confirmations"), "{help:?}");
    assert!(help
        .iter()
        .any(|l| l.contains(" o ") && l.contains("yes: do it")));
    assert!(help
        .iter()
        .any(|l| l.contains("ctrl-j") && l.contains("move down")));
}

#[test]
fn ctrl_z_suspends_everywhere_and_is_in_the_help() {
    let mut s = loaded(3);
    assert_eq!(s.on_key(ctrl('z')), vec![Effect::Suspend]);
    // With a popup open too (the palette):
    // it stays open for when taskdeck is continued.
    s.on_key(key(':'));
    assert!(matches!(s.overlay, Overlay::Palette(_)));
    assert_eq!(s.on_key(ctrl('z')), vec![Effect::Suspend]);
    assert!(matches!(s.overlay, Overlay::Palette(_)));
    let help = crate::ui::help_lines(&s, "suspend");
    assert!(
        help.iter()
            .any(|l| l.contains("ctrl-z") && l.contains("suspend")),
        "{help:?}"
    );
}
