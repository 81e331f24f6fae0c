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
