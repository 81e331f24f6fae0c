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

/// Issue 40 §4: a message naming a key names the one that runs the action
/// where the user is (`Keymap::hint_key` over `key_contexts`), so a
/// rebinding in the config is what it says. Each key is rebound here, and
/// a decoy binding sits where it does not apply (the detail's keys, seen
/// from the list; a global key the task's keys shadow): before, the
/// messages took `key_for`, the first key bound in any context, and named
/// the decoys.
#[test]
fn messages_name_the_keys_rebound_in_the_config() {
    use std::collections::BTreeMap;
    let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut bind = |ctx: &str, k: &str, a: &str| {
        o.entry(ctx.into()).or_default().insert(k.into(), a.into());
    };
    bind("task", "z", "none");
    bind("task", "J", "undo");
    bind("detail", "H", "undo");
    bind("task", "Z", "none");
    bind("task", "L", "redo");
    bind("detail", "&", "redo");
    bind("task", "U", "none");
    bind("task", "T", "clear_marks");
    bind("list", "esc", "none");
    bind("detail", "!", "clear_marks");
    bind("list", "v", "none");
    bind("list", "M", "mark_range");
    bind("global", "~", "mark_range");
    bind("task", "~", "set_status");
    let (km, w) = crate::app::keymap::Keymap::load(&o);
    assert!(w.is_empty(), "{w:?}");
    let said = |s: &State| s.status.as_ref().map(|m| m.1.clone()).unwrap_or_default();

    // Marking from no mark: the key that marks a range.
    let mut s = loaded(3);
    s.keymap = km.clone();
    s.on_key(key('M'));
    assert!(said(&s).contains("then M marks every row"), "{}", said(&s));
    // A one-task command with marks: the key that clears them.
    palette(&mut s, "title Renamed");
    assert!(said(&s).contains("T clears the marks"), "{}", said(&s));
    // A bulk edit's confirmation: the key that undoes it.
    palette(&mut s, "priority low");
    match &s.overlay {
        Overlay::Confirm { lines, .. } => assert!(
            lines.iter().any(|l| l.contains("J undoes it all")),
            "{lines:?}"
        ),
        _ => panic!("a confirmation"),
    }

    // Archiving: the key that restores.
    let mut s = loaded(2);
    s.keymap = km.clone();
    let fx = s.on_key(key('x'));
    let mut archived = task(1);
    archived.archived = true;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(archived))));
    assert!(said(&s).contains("J restores it"), "{}", said(&s));
    // `:history`: the keys that undo and redo.
    palette(&mut s, "history");
    match &s.overlay {
        Overlay::Text { lines, .. } => assert!(
            lines[0].starts_with("J undoes the operation") && lines[0].contains("L redoes"),
            "{lines:?}"
        ),
        _ => panic!("the history"),
    }
}
