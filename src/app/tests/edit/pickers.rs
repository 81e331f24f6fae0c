//! The pickers that spare typing an id (#26 §1): `:drafts` (`W`), `:link
//! task` and `:attach` (`F`): exact requests, and what the popup says
//! while it waits.

use super::*;
use crate::app::popups::chooser::ChooserKind;
use crate::store::worker::{StoreAnswer, StoreCmd};
use crate::store::{Scan, StoredTask};

fn chooser(s: &State) -> &crate::app::popups::chooser::Chooser {
    match &s.overlay {
        Overlay::Chooser(c) => c,
        _ => panic!("a chooser is open"),
    }
}

fn draft(n: i64) -> Task {
    let mut t = task(n);
    t.draft = true;
    t
}

fn with_files(n: i64, key: &str, files: Value) -> Task {
    let mut v = task_json(n);
    v[key] = files;
    serde_json::from_value(v).unwrap()
}

fn stored(t: &Task) -> StoredTask {
    StoredTask {
        id: t.id.as_str().to_string(),
        number: t.task_number,
        title: t.title.raw().to_string(),
        updated_at: t.updated_at.as_deref().map(str::to_string),
        json: serde_json::to_string(t).unwrap(),
        full: true,
    }
}

#[test]
fn a_draft_is_accepted_from_the_drafts_list_in_two_keys() {
    let mut s = loaded_with_tasks(&Settings::default(), vec![task(1), draft(2), draft(3)]);
    // `W` opens the list, ctrl-a accepts the highlighted draft: no id
    // typed (a letter narrows the list, as in every picker).
    assert!(s.on_key(key('W')).is_empty());
    assert_eq!(chooser(&s).kind, ChooserKind::Drafts);
    assert_eq!(chooser(&s).rows.len(), 2, "the two drafts, not task 1");
    let fx = s.on_key(ctrl('a'));
    assert_eq!(only_patch(&fx), (tid(2), json!({"draft": false})));
    // The list stays open on the next draft.
    assert_eq!(chooser(&s).rows.len(), 1);
    assert_eq!(chooser(&s).rows[0].0, tid(3));
    // The palette word does the same.
    s.overlay = Overlay::None;
    palette(&mut s, "drafts");
    assert_eq!(chooser(&s).kind, ChooserKind::Drafts);
}

#[test]
fn a_draft_is_rejected_from_the_drafts_list_only_after_yes() {
    let mut s = loaded_with_tasks(&Settings::default(), vec![draft(1), draft(2)]);
    s.on_key(key('W'));
    let fx = s.on_key(ctrl('d'));
    assert!(reqs(&fx).is_empty(), "nothing sent before confirming");
    assert!(matches!(s.overlay, Overlay::Confirm { .. }));
    // `n` goes back to the list, nothing rejected.
    assert!(reqs(&s.on_key(key('n'))).is_empty());
    assert_eq!(chooser(&s).rows.len(), 2);
    s.on_key(ctrl('d'));
    let fx = s.on_key(key('y'));
    assert_eq!(reqs(&fx), vec![ApiRequest::Delete { id: tid(1) }]);
    // Back to the list, the rejected draft gone from it.
    assert_eq!(chooser(&s).rows.len(), 1);
    assert_eq!(chooser(&s).rows[0].0, tid(2));
    s.local.on = true;
    answer(&mut s, &fx, Ok(Reply::Deleted));
    // Gone from memory and from the store: never offered again.
    assert!(s.local.out.contains(&StoreCmd::ForgetTask(tid(1))));
    s.overlay = Overlay::None;
    s.local.on = false;
    s.on_key(key('W'));
    assert_eq!(chooser(&s).rows.len(), 1);
}

#[test]
fn the_drafts_list_says_it_reads_the_store_then_adds_stored_drafts() {
    let mut s = loaded(1);
    s.local.on = true;
    s.on_key(key('W'));
    assert!(s.local.out.contains(&StoreCmd::Scan(Scan::Drafts)));
    assert_eq!(chooser(&s).note.as_deref(), Some("reading the store…"));
    assert!(chooser(&s).rows.is_empty());
    assert!(
        chooser(&s).waiting(),
        "\"none\" is not said while the store reads"
    );
    // A stored draft joins; a stored copy of a task held here (task 1, not
    // a draft now) does not, and a stored non-draft does not.
    let old1 = draft(1);
    let mut v = task_json(7);
    v["draft"] = json!(true);
    v["title"] = json!("Intake\u{1b}[2J\u{7}");
    let hostile: Task = serde_json::from_value(v).unwrap();
    s.on_store(StoreAnswer::Scanned(
        Scan::Drafts,
        Ok(vec![stored(&old1), stored(&hostile), stored(&task(8))]),
    ));
    let c = chooser(&s);
    assert_eq!(c.note, None);
    assert_eq!(c.rows.len(), 1);
    assert_eq!(c.rows[0].0, tid(7));
    assert!(
        !c.rows[0].1.chars().any(char::is_control),
        "service text is cleaned: {:?}",
        c.rows[0].1
    );
    // A store that cannot be read says so.
    s.overlay = Overlay::None;
    s.on_key(key('W'));
    s.on_store(StoreAnswer::Scanned(
        Scan::Drafts,
        Err("disk I/O error".into()),
    ));
    let note = chooser(&s).note.clone().unwrap();
    assert!(!chooser(&s).waiting());
    assert!(
        note.contains("could not be read") && note.contains("disk I/O error"),
        "{note}"
    );
    // No store: said at once, and the list is not left waiting.
    s.overlay = Overlay::None;
    s.local.on = false;
    s.on_key(key('W'));
    assert!(chooser(&s)
        .note
        .as_deref()
        .unwrap()
        .contains("no local store"));
}

#[test]
fn link_task_without_an_id_picks_the_task_by_number() {
    let mut s = loaded(3);
    // Task 1 is current; `3` names task #3 among those seen.
    let fx = palette(&mut s, "link task 3");
    // #3 is among the tasks seen: nothing to look up (#32 §1: the
    // service is asked only for a number not among the rows).
    assert!(reqs(&fx).is_empty(), "{fx:?}");
    let c = chooser(&s);
    assert_eq!(c.kind, ChooserKind::LinkTask);
    assert_eq!(c.note, None);
    assert_eq!(
        c.rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        vec![tid(3)]
    );
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::AddLinks {
            id: tid(1),
            links: vec![(LinkType::Task, tid(3))]
        }]
    );
}

#[test]
fn link_task_alone_lists_the_tasks_seen_then_the_services() {
    let mut s = loaded(3);
    let fx = palette(&mut s, "link task");
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::PickTasks {
            query: TaskQuery::default(),
            number: None
        }]
    );
    let c = chooser(&s);
    // Not the current task itself.
    assert_eq!(c.rows.len(), 2);
    assert_eq!(c.note.as_deref(), Some("searching the service…"));
    answer(&mut s, &fx, whole_page([2, 9, 1]));
    let c = chooser(&s);
    assert_eq!(c.note, None);
    assert_eq!(
        c.rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        vec![tid(2), tid(3), tid(9)],
        "the service's rows follow, each once"
    );
    // (`j` is a letter in a picker one types into: the arrows move.)
    s.on_key(code(KeyCode::Down));
    s.on_key(code(KeyCode::Down));
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::AddLinks {
            id: tid(1),
            links: vec![(LinkType::Task, tid(9))]
        }]
    );
    // Words search the titles; a failed search says so.
    let fx = palette(&mut s, "link task number 2");
    assert_eq!(chooser(&s).rows.len(), 1);
    answer(
        &mut s,
        &fx,
        Err(ApiError::Network {
            message: "down".into(),
        }),
    );
    assert!(chooser(&s)
        .note
        .as_deref()
        .unwrap()
        .contains("search failed"));
    s.on_key(code(KeyCode::Esc));
    assert!(matches!(s.overlay, Overlay::None), "esc closes the picker");
    // A task opened in an earlier session (the store's recent tasks) is
    // offered by number too: `#40` is not in the list, the picker looks.
    s.local.recent.push(crate::store::Recent {
        task_id: tid(40),
        label: "#40".into(),
        title: "Old \u{1b}[2J matter".into(),
        action: "opened".into(),
        at: 0,
    });
    palette(&mut s, "link task #40");
    let c = chooser(&s);
    assert_eq!(c.rows.len(), 1);
    assert_eq!(c.rows[0].0, tid(40));
    assert!(
        !c.rows[0].1.chars().any(char::is_control),
        "{:?}",
        c.rows[0].1
    );
    // Never seen anywhere: the service looks for it, and the task it
    // finds joins the picker.
    s.on_key(code(KeyCode::Esc));
    let fx = palette(&mut s, "link task #77");
    assert!(chooser(&s).rows.is_empty());
    answer(
        &mut s,
        &fx,
        Ok(Reply::Found(Some(Box::new(task(77))), vec![])),
    );
    assert_eq!(chooser(&s).rows[0].0, tid(77));
    s.on_key(code(KeyCode::Esc));
    // An id typed still links at once.
    let fx = palette(&mut s, &format!("link task {}", tid(2)));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::AddLinks {
            id: tid(1),
            links: vec![(LinkType::Task, tid(2))]
        }]
    );
    assert!(matches!(s.overlay, Overlay::None), "no picker for an id");
}

fn rows(s: &State) -> Vec<String> {
    chooser(s).rows.iter().map(|r| r.0.clone()).collect()
}

fn type_in(s: &mut State, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| s.on_key(key(c))).collect()
}

/// #32 §1: the picker narrows at each key (number prefix, title words),
/// a number not among its rows is looked up (at once on Enter before the
/// typing pause ends: this test changed with the pause, when each key
/// asked), and Enter links the
/// highlighted task — never the first row while the typed one is looked
/// for, never anything when the typed number does not exist.
#[test]
fn link_picker_narrows_as_typed_and_links_only_the_highlighted_task() {
    let tasks = [1, 2, 11, 12, 103, 115].map(task).to_vec();
    let mut s = loaded_with_tasks(&Settings::default(), tasks);
    let fx = palette(&mut s, "link task");
    answer(&mut s, &fx, whole_page([]));
    assert_eq!(rows(&s).len(), 5, "every task seen but the current one");
    // `#1` keeps the numbers that begin with 1; `#11` those with 11.
    type_in(&mut s, "#1");
    assert_eq!(rows(&s), vec![tid(11), tid(12), tid(103), tid(115)]);
    let fx = type_in(&mut s, "1");
    assert_eq!(rows(&s), vec![tid(11), tid(115)], "#11 first: it is exact");
    assert!(reqs(&fx).is_empty(), "#11 is a row: nothing asked");
    // Typed text is shown.
    assert_eq!(chooser(&s).typed.input.text, "#11");
    // `#1157`: no row. Typing has not rested (no tick came): nothing is
    // asked yet, nor said to be (`link_pause.rs` has the pause itself).
    let fx = type_in(&mut s, "57");
    assert!(rows(&s).is_empty());
    assert!(reqs(&fx).is_empty(), "{fx:?}");
    assert_eq!(chooser(&s).note, None);
    // Enter means #1157, which is not there: the service is asked at once,
    // and Enter links nothing meanwhile.
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::PickTasks {
            query: TaskQuery::default(),
            number: Some(1157)
        }]
    );
    assert_eq!(chooser(&s).note.as_deref(), Some("looking up #1157…"));
    assert!(s.on_key(code(KeyCode::Enter)).is_empty());
    let last = fx.last().cloned().into_iter().collect::<Vec<_>>();
    answer(
        &mut s,
        &last,
        Ok(Reply::Found(Some(Box::new(task(1157))), vec![])),
    );
    assert_eq!(rows(&s), vec![tid(1157)]);
    assert_eq!(chooser(&s).note, None);
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::AddLinks {
            id: tid(1),
            links: vec![(LinkType::Task, tid(1157))]
        }]
    );
    // Title words narrow too; the arrows move the highlight Enter takes.
    palette(&mut s, "link task");
    type_in(&mut s, "number 1");
    // (#1157, linked just now, is a task seen.)
    assert_eq!(rows(&s), [11, 12, 103, 115, 1157].map(tid).to_vec());
    s.on_key(code(KeyCode::Down));
    assert_eq!(chooser(&s).selected, 1);
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::AddLinks {
            id: tid(1),
            links: vec![(LinkType::Task, tid(12))]
        }]
    );
    // A number the service does not have (or does not show): said, and
    // Enter links nothing.
    let fx = palette(&mut s, "link task #999");
    answer(&mut s, &fx, Ok(Reply::Found(None, vec![])));
    assert!(rows(&s).is_empty());
    assert_eq!(
        chooser(&s).note.as_deref(),
        Some("no task #999 on the service: it does not exist, or you cannot see it")
    );
    assert!(s.on_key(code(KeyCode::Enter)).is_empty());
    assert!(matches!(s.overlay, Overlay::Chooser(_)));
}

#[test]
fn attach_without_an_id_offers_the_files_seen_on_tasks() {
    let other = with_files(
        2,
        "input_files",
        json!([
            {"id": "44444444-4444-4444-8444-444444444444", "name": "budget\u{1b}[31m.xlsx", "size": 2048},
            // Task 1 has this one already: not offered.
            {"id": "33333333-3333-4333-8333-333333333333", "name": "in.pdf"}
        ]),
    );
    let mut s = loaded_with_tasks(&Settings::default(), vec![task(1), other]);
    s.local.on = true;
    assert!(s.on_key(key('F')).is_empty());
    assert!(s.local.out.contains(&StoreCmd::Scan(Scan::WithFiles)));
    let c = chooser(&s);
    assert_eq!(c.kind, ChooserKind::Attach);
    assert_eq!(c.rows.len(), 1);
    let line = &c.rows[0].1;
    assert!(
        line.contains("budget") && line.contains("2\u{a0}KB") && line.contains("#2"),
        "{line}"
    );
    assert!(!line.chars().any(char::is_control), "{line:?}");
    // A stored task's file joins when the store answers.
    let kept = with_files(
        8,
        "output_files",
        json!([{"id": "55555555-5555-4555-8555-555555555555", "name": "minutes.docx"}]),
    );
    s.on_store(StoreAnswer::Scanned(
        Scan::WithFiles,
        Ok(vec![stored(&kept)]),
    ));
    assert_eq!(chooser(&s).rows.len(), 2);
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::Attach {
            id: tid(1),
            file_ids: vec!["44444444-4444-4444-8444-444444444444".into()]
        }]
    );
    // An id typed still attaches at once.
    assert!(matches!(s.overlay, Overlay::None));
    let fx = palette(&mut s, "attach 55555555-5555-4555-8555-555555555555");
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::Attach {
            id: tid(1),
            file_ids: vec!["55555555-5555-4555-8555-555555555555".into()]
        }]
    );
}

/// Issue 34 §5: the service lists no drafts, but a visible task may link
/// to one. `W` reads the linked tasks never read (as read-ahead reads: no
/// slot of the user's), a draft among them joins the list, and `a`
/// accepts it — with no id typed and nothing the sandbox alone offers.
#[test]
fn a_draft_linked_from_a_visible_task_is_listed_and_accepted() {
    let mut v = task_json(1);
    v["linked_items"] = json!([
        {"type": "task", "id": tid(9), "display_name": "#9 Intake", "role": "reference"},
        {"type": "task", "id": tid(8), "display_name": "#8 Other", "role": "reference"},
        {"type": "chat", "id": "22222222-2222-4222-8222-222222222222", "display_name": "Chat C"}
    ]);
    let t1: Task = serde_json::from_value(v).unwrap();
    let mut s = loaded_with_tasks(&Settings::default(), vec![t1, task(2)]);
    let fx = s.on_key(key('W'));
    assert_eq!(chooser(&s).kind, ChooserKind::Drafts);
    assert!(chooser(&s).rows.is_empty());
    assert_eq!(
        reqs(&fx),
        vec![
            ApiRequest::Prefetch(Box::new(ApiRequest::GetTask { id: tid(9) })),
            ApiRequest::Prefetch(Box::new(ApiRequest::GetTask { id: tid(8) })),
        ],
        "the linked tasks are read, not the chat"
    );
    // Until they answer, the list says it waits for them ("none" is not
    // said yet).
    assert!(chooser(&s).waiting());
    // With the store in use, the note names both waits.
    s.overlay = Overlay::None;
    s.local.on = true;
    s.on_key(key('W'));
    assert_eq!(
        chooser(&s).shown_note().as_deref(),
        Some("reading the store and 2 linked tasks…")
    );
    s.overlay = Overlay::None;
    s.local.on = false;
    let fx = s.on_key(key('W'));
    // #8 is no draft: not listed. #9 is: listed as it answers.
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Prefetch(i) if **i == ApiRequest::GetTask { id: tid(8) }),
        Ok(Reply::Task(Box::new(task(8)))),
    );
    assert!(chooser(&s).rows.is_empty());
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Prefetch(i) if **i == ApiRequest::GetTask { id: tid(9) }),
        Ok(Reply::Task(Box::new(draft(9)))),
    );
    assert_eq!(chooser(&s).rows.len(), 1);
    assert_eq!(chooser(&s).rows[0].0, tid(9));
    assert!(!chooser(&s).waiting(), "both linked tasks answered");
    let fx = s.on_key(ctrl('a'));
    assert_eq!(only_patch(&fx), (tid(9), json!({"draft": false})));
    // Opened again, nothing is read twice: #9 and #8 are known now.
    s.overlay = Overlay::None;
    assert!(reqs(&s.on_key(key('W'))).is_empty());
}

/// Issue 43: the drafts kept in memory (`Local::known`, a hash map) are
/// listed newest fetched first, then by id — never in the map's order,
/// which differs from one state to the next (the simulator's seed 777001
/// drew two different frames at its step 11,685, a `W`, in two runs).
#[test]
fn drafts_kept_in_memory_are_listed_in_one_order() {
    use crate::app::local::known::{Known, Newest};
    let mut s = loaded_with_tasks(&Settings::default(), vec![task(1)]);
    for n in 2..=30 {
        let k = Known {
            task: Newest::Here(Box::new(draft(n))),
            // Two fetched at each second: the id settles the rest.
            at: 1_000 + n / 2,
            ..Known::default()
        };
        s.local.known.insert(tid(n), Box::new(k));
    }
    s.on_key(key('W'));
    let rows: Vec<String> = chooser(&s).rows.iter().map(|r| r.0.clone()).collect();
    let mut want: Vec<(i64, String)> = (2..=30).map(|n| (1_000 + n / 2, tid(n))).collect();
    want.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let want: Vec<String> = want.into_iter().map(|(_, id)| id).collect();
    assert_eq!(rows, want);
}
