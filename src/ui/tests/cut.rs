//! The one cut on screen (issue 40 §3): an inbox reason at 80 columns
//! stops at a word's end with `…` and keeps the change whole, the header
//! keeps its counts before the names, a search row cuts the title and not
//! the words it matched; CJK titles are cut by their width.

use super::inbox::inbox_scene;
use super::*;
use crate::inbox::{InboxRow, InboxUpdate, Kind};

#[test]
fn at_80_columns_an_inbox_reason_ends_at_a_word_with_the_mark_and_keeps_the_change() {
    let mut s = inbox_scene();
    let ids: Vec<String> = s
        .list
        .items
        .iter()
        .map(|i| i.id().unwrap().to_string())
        .collect();
    let now = jiff::Timestamp::now().as_second();
    s.on_inbox(InboxUpdate {
        rows: vec![InboxRow {
            task_id: ids[0].clone(),
            label: "#101".into(),
            title: "契約書の確認 — the Contoso NDA renewal and its every clause read twice over".into(),
            at: now - 60,
            reasons: vec![
                (
                    Kind::Mention,
                    "Bob Okafor mentioned you: “@Alice the counterparty has sent a revised draft of the agreement”".into(),
                ),
                (Kind::Fields, "priority medium → high".into()),
            ],
            target: None,
            snoozed_until: None,
            read: false,
        }],
        unread: [ids[0].clone()].into_iter().collect(),
        ..Default::default()
    });
    s.on_key(key('i'));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let lines: Vec<&str> = t.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("mentioned you"))
        .unwrap_or_else(|| panic!("{t}"));
    let (head, why) = (lines[at - 1], lines[at]);
    // The change keeps its arrow and its value; the quote gives way, at a
    // word's end, saying so.
    assert!(why.contains("· priority medium → high"), "{why}");
    let quote = why.split(" · ").next().unwrap();
    assert!(quote.ends_with('…'), "{why}");
    let kept = quote
        .trim_end_matches('…')
        .trim_start_matches(['┃', '│', ' ']);
    let full = "Bob Okafor mentioned you: “@Alice the counterparty has sent a revised draft of the agreement”";
    let next = full[kept.len()..].chars().next();
    assert!(
        full.starts_with(kept) && next == Some(' '),
        "cut at a word's end: {kept:?}"
    );
    // The title is cut by its width (two columns a CJK character), and
    // says so: before, it was cut by characters and the frame clipped it.
    assert!(head.contains("#101") && head.contains('…'), "{head}");
}

#[test]
fn the_header_keeps_its_counts_whole_before_the_names() {
    let mut s = scene();
    s.host = "tasks.a-very-long-host-name-of-the-organisation.example.com".into();
    s.profile = Some("the-litigation-team-profile".into());
    s.on_key(key(' '));
    s.on_key(key(' '));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let header = t.lines().next().unwrap();
    assert!(header.trim_end().ends_with("[2 marked]"), "{header}");
    assert!(
        header.contains('…'),
        "the names say they were cut: {header}"
    );
    assert!(crate::cut::width(header) <= 80, "{header}");
}

/// Before, the title was cut to a third of the column whatever the room,
/// then the row again: both cut. Now the title gives way first (down to
/// 12 columns), so the words it matched stay whole; where it has room,
/// nothing is cut.
#[test]
fn a_search_row_cuts_the_title_and_keeps_the_words_it_matched() {
    let mut s = scene();
    let id = s.list.items[0].id().unwrap().to_string();
    if let Some(TaskItem::Task(t)) = s.list.items.get_mut(0) {
        t.title =
            "Renew the Contoso NDA and read every clause of the master agreement twice".into();
    }
    s.search = "zebra".into();
    s.list.found_for = "zebra".into();
    s.list.found.insert(id, "comment: “zebra memo”".into());
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let row = t
        .lines()
        .find(|l| l.contains("Renew"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(row.contains("… · comment: “zebra memo”"), "{row}");
    // Room for both: nothing is cut (before, the title was cut to a third
    // of the column whatever the room).
    if let Some(TaskItem::Task(t)) = s.list.items.get_mut(0) {
        t.title = "Renew the Contoso NDA".into();
    }
    let t = text(&render(&mut s, 240, 40, &Theme::dark()));
    let row = t
        .lines()
        .find(|l| l.contains("zebra memo"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(
        row.contains("Renew the Contoso NDA  [a,b] · comment: “zebra memo”"),
        "{row}"
    );
}

/// Edits and drafts of Alice's wait while the key acts as the user named
/// in the header: both notices in full pushed the name out at 80 and 120
/// columns (the header said "taskdeck   1 edit made as Alice Martin
/// waits: this key acts as Bob Okafor  3 drafts …" and no one's name).
/// The name of who you are stays; the notices give way and say they were
/// cut; the counts stay whole.
#[test]
fn the_header_names_who_you_are_while_another_users_edits_and_drafts_wait() {
    use crate::app::local::outbox::{Away, Waiting};
    let mut s = scene();
    s.profile = Some("bob".into());
    let away = |what, count| Away {
        what,
        count,
        user_id: "u-alice".into(),
        made_as: "Alice Martin".into(),
        now_as: "Me Myself".into(),
        changed: false,
    };
    s.owner.away = Some(away(Waiting::Edits, 1));
    s.owner.drafts_away = Some(away(Waiting::Drafts, 3));
    s.on_key(key(' '));
    for (w, whole) in [(80u16, false), (120, true), (200, true)] {
        let t = text(&render(&mut s, w, 24, &Theme::dark()));
        let header = t.lines().next().unwrap();
        assert!(header.contains("Me Myself"), "{w} columns: {header}");
        assert!(
            header.contains("1 edit made as Alice Martin waits"),
            "{w} columns: {header}"
        );
        assert_eq!(
            header.contains("3 drafts of Alice Martin wait"),
            whole,
            "{w} columns: {header}"
        );
        assert!(header.trim_end().ends_with("[1 marked]"), "{header}");
        assert!(crate::cut::width(header) <= usize::from(w), "{header}");
    }
}

/// The palette at 80 columns: a command's help longer than the popup
/// ended at its border mid-word ("— set the stat", "(a unique be") with
/// nothing saying more was there. Every suggestion that reaches the
/// border now ends in the cut mark.
#[test]
fn at_80_columns_a_palette_suggestion_cut_at_the_border_says_so() {
    let mut s = scene();
    s.on_key(key(':'));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let rows: Vec<&str> = t.lines().filter(|l| l.starts_with("│  ")).collect();
    assert!(
        rows.iter().any(|l| l.contains("status not_started")),
        "the palette lists the commands: {t}"
    );
    let full: Vec<&&str> = rows
        .iter()
        .filter(|l| !l.trim_end_matches('│').ends_with(' '))
        .collect();
    assert!(!full.is_empty(), "some suggestions fill the line: {t}");
    for l in full {
        assert!(
            l.trim_end_matches('│').ends_with('…'),
            "cut without a mark: {l}"
        );
    }
}

/// A column holds its longest known value, and a value the service
/// added (the spec says to tolerate any) is cut with `…` and a blank
/// column before the next one (`critic…blocked` ran into the status).
#[test]
fn the_list_columns_hold_every_known_value_and_cut_an_unknown_one_apart() {
    use crate::api::{Priority, Status};
    let mut s = scene();
    for (w, h) in [(80, 24), (160, 45)] {
        let t = text(&render(&mut s, w, h, &Theme::dark()));
        let row = t.lines().find(|l| l.contains("#103")).unwrap();
        // The scene's #103: priority `critical`, status `blocked`.
        assert!(row.contains("criti… blocked "), "{t}");
        assert!(!row.contains("…blocked"), "{t}");
    }
    // Every priority and status the spec names is shown whole.
    let known: Vec<(Priority, Status)> = Priority::KNOWN
        .iter()
        .cloned()
        .zip(Status::KNOWN.iter().cycle().cloned())
        .chain(
            Status::KNOWN
                .iter()
                .cloned()
                .map(|st| (Priority::Medium, st)),
        )
        .collect();
    for (p, st) in known {
        if let Some(TaskItem::Task(t)) = s.list.items.get_mut(2) {
            t.priority = p.clone();
            t.status = st.clone();
        }
        let t = text(&render(&mut s, 80, 24, &Theme::dark()));
        let row = t.lines().find(|l| l.contains("#103")).unwrap();
        let want = format!("#103 {} {} ", p.label(), st.label());
        let squeezed = row.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(squeezed.contains(&want), "{p:?} {st:?} whole:\n{t}");
    }
}

/// Every command that takes an argument, run without one, asks for it in
/// the status line: whole at 80 columns, in either mode (issue 40: the
/// questions of `:due`, `:filter`, `:tags`… were cut with `…`). The
/// commands are read from their one table, `command::COMMANDS`; the one
/// rule is a wording that fits (`:macro`'s and `:run`'s were shortened
/// so), never a second line.
#[test]
fn at_80_columns_every_commands_question_is_whole_in_either_mode() {
    use crate::app::state::command::COMMANDS;
    let mut asked = 0;
    let mut cut = Vec::new();
    for spec in COMMANDS.iter().filter(|c| (c.parse)("").is_err()) {
        for theme in [Theme::dark(), super::access::accessible()] {
            let mut s = scene();
            s.on_key(key(':'));
            for c in format!("{} ", spec.name).chars() {
                s.on_key(key(c));
            }
            s.on_key(code(KeyCode::Enter));
            let said = match &s.status {
                Some((Level::Info, said, _)) => said.clone(),
                other => panic!(":{}: no question but {other:?}", spec.name),
            };
            assert!(said.starts_with(&format!(":{}: ", spec.name)), "{said}");
            let t = text(&render(&mut s, 80, 24, &theme));
            assert!(
                !said.contains("\"\""),
                "an empty value is no question: {said}"
            );
            let head = format!(":{}: ", spec.name);
            let row = t.lines().find(|l| l.contains(&head));
            if row.map(str::trim) != Some(said.as_str()) {
                cut.push(format!("{said}\n  shown: {row:?}"));
            }
            asked += 1;
        }
    }
    assert!(
        cut.is_empty(),
        "not whole at 80 columns:\n{}",
        cut.join("\n")
    );
    assert!(asked >= 40, "only {asked} questions asked");
}

/// `:macro` or `:run` without its name asks for it in the status line,
/// whole at 80 columns (seen in the demo cut: `↓ or Tab picks a …`).
#[test]
fn at_80_columns_a_commands_question_for_its_name_is_whole() {
    for (cmd, said) in [
        (
            "macro",
            ":macro: give a macro's name ([[macros]] in the config) (↓/Tab picks one)",
        ),
        (
            "run",
            ":run: give a command's name ([[commands]] in the config) (↓/Tab picks one)",
        ),
    ] {
        let mut s = scene();
        s.on_key(key(':'));
        for c in format!("{cmd} ").chars() {
            s.on_key(key(c));
        }
        s.on_key(code(KeyCode::Enter));
        let t = text(&render(&mut s, 80, 24, &Theme::dark()));
        assert!(t.contains(said), "{cmd}: {t}");
    }
}

/// A title cut at a space ends at its word with the mark (seen in the
/// demo: two spaces before `…`): the list's title column, whichever
/// column the cut falls in.
#[test]
fn a_title_cut_at_a_space_has_the_mark_after_its_word() {
    let mut cut_seen = false;
    for n in 1..70 {
        let mut s = scene();
        if let Some(crate::api::TaskItem::Task(t)) = s.list.items.first_mut() {
            t.title = format!("{}  {}", "a".repeat(n), "b".repeat(80)).into();
        }
        let t = text(&render(&mut s, 80, 24, &Theme::dark()));
        cut_seen |= t.contains("a…");
        assert!(
            !t.contains("a …") && !t.contains("a  …"),
            "a space before the mark at {n}: {t}"
        );
    }
    assert!(cut_seen, "some title was cut after its a's");
}
