//! Saved views: keys, names, the switcher's counts, `:view save`.

use super::*;
use crate::app::dates;
use jiff::Timestamp;

pub(crate) fn config(src: &str) -> Settings {
    let c = crate::config::from_str(src, None);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    c.settings
}

const DUE_TODAY: &str = r#"
[[views]]
name = "Due today"
filter = "assigned=me to=today"
key = "7"
"#;

/// The query of the one list walk in `fx`.
fn list_query(fx: &[Effect]) -> TaskQuery {
    let r = reqs(fx);
    assert_eq!(r.len(), 1, "one request: {r:?}");
    match &r[0] {
        ApiRequest::ListPage {
            query,
            cursor: None,
            ..
        } => query.clone(),
        other => panic!("expected a new list walk, got {other:?}"),
    }
}

#[test]
fn a_config_view_is_reachable_by_its_key_and_sends_my_id_and_the_end_of_today() {
    let mut s = loaded_with(&config(DUE_TODAY), 3);
    let q = list_query(&s.on_key(key('7')));
    let end_of_today = dates::parse_bound("today", Timestamp::now(), false).unwrap();
    assert_eq!(
        q.pairs(),
        vec![
            ("assigned_to", "u-me".to_string()),
            ("complete_by_to", end_of_today),
        ],
        "exactly these filters on the wire"
    );
    let title = crate::ui::list_title(&s);
    assert!(
        title.starts_with("Tasks: Due today | filter assigned=me to="),
        "{title}"
    );
    assert_eq!(s.focus, Focus::List);
}

#[test]
fn a_view_naming_me_waits_for_the_identity_like_mine() {
    let mut s = crate::app::new_state("h".into(), &config(DUE_TODAY), false);
    s.start();
    for k in ['7', '2'] {
        assert!(reqs(&s.on_key(key(k))).is_empty(), "{k}: nothing sent");
        let (level, text, _) = s.status.clone().unwrap();
        assert_eq!(level, Level::Warn);
        assert!(text.contains("who you are is not known yet"), "{text}");
    }
    // A view without `me` goes at once.
    assert_eq!(list_query(&s.on_key(key('5'))).status.len(), 3);
}

#[test]
fn the_built_in_views_are_data_with_overdue_and_mine_open() {
    let mut s = loaded(1);
    let before = Timestamp::now() - jiff::SignedDuration::from_secs(1);
    let q = list_query(&s.on_key(key('5')));
    assert_eq!(
        q.status,
        vec!["not_started", "in_progress", "waiting_on_external"]
    );
    let to = crate::api::parse_timestamp(q.complete_by_to.as_deref().unwrap()).unwrap();
    assert!(to >= before && to <= Timestamp::now(), "to=now: {to}");
    assert_eq!((q.assigned_to, q.complete_by_from), (None, None));
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Overdue"));

    let q = list_query(&s.on_key(key('6')));
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert_eq!(q.status.len(), 3);
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Mine, open"));

    let q = list_query(&s.on_key(key('4')));
    let (from, to) = dates::this_week(Timestamp::now());
    assert_eq!(
        (q.complete_by_from, q.complete_by_to),
        (Some(from), Some(to))
    );

    let q = list_query(&s.on_key(key('1')));
    assert!(q.is_empty());
    assert!(crate::ui::list_title(&s).starts_with("Tasks: All"));
}

/// #26 §3: "my overdue open tasks" is one key from the list.
#[test]
fn mine_overdue_is_a_built_in_view_one_key_from_the_list() {
    let mut s = loaded(1);
    let before = Timestamp::now() - jiff::SignedDuration::from_secs(1);
    let q = list_query(&s.on_key(key('7')));
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert_eq!(
        q.status,
        vec!["not_started", "in_progress", "waiting_on_external"]
    );
    let to = crate::api::parse_timestamp(q.complete_by_to.as_deref().unwrap()).unwrap();
    assert!(to >= before && to <= Timestamp::now(), "to=now: {to}");
    assert_eq!(q.complete_by_from, None);
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Mine, overdue"));
}

#[test]
fn a_config_view_replaces_a_built_in_one_by_name_and_keeps_its_key() {
    let settings = config(
        r#"
[[views]]
name = "mine"
filter = "assigned=me priority=high"
"#,
    );
    let mut s = loaded_with(&settings, 1);
    let q = list_query(&s.on_key(key('2')));
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert_eq!(q.priority.as_deref(), Some("high"));
    assert_eq!(s.views.list.len(), 7, "replaced, not added");
    assert!(crate::ui::list_title(&s).starts_with("Tasks: mine"));
}

#[test]
fn views_by_name_from_the_palette() {
    let mut s = loaded_with(&config(DUE_TODAY), 1);
    let q = list_query(&palette(&mut s, "view overdue"));
    assert_eq!(q.status.len(), 3);
    let q = list_query(&palette(&mut s, "view Due today"));
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert!(reqs(&palette(&mut s, "view nowhere")).is_empty());
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Error);
    assert!(
        text.contains("no view") && text.contains("Overdue"),
        "{text}"
    );
    // The old names still work.
    assert_eq!(
        list_query(&s.command("view week")).complete_by_from,
        Some(dates::this_week(Timestamp::now()).0)
    );
    assert_eq!(
        list_query(&s.command("view involving"))
            .involving
            .as_deref(),
        Some("u-me")
    );
}

#[test]
fn filters_add_to_a_view_and_its_name_stays_while_they_hold() {
    let mut s = loaded(1);
    s.on_key(key('6'));
    let q = list_query(&palette(&mut s, "filter priority=high"));
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert_eq!(q.status.len(), 3);
    assert_eq!(q.priority.as_deref(), Some("high"));
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Mine, open"));
    // Another `:filter` starts from the view again, not from the last one.
    let q = list_query(&palette(&mut s, "filter tags=a"));
    assert_eq!(q.priority, None);
    assert_eq!(q.tags, vec!["a"]);
    // Changing what the view stands for drops its name.
    let q = list_query(&palette(&mut s, "filter status=completed"));
    assert_eq!(q.status, vec!["completed"]);
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Custom"));
    palette(&mut s, "filter clear");
    assert!(crate::ui::list_title(&s).starts_with("Tasks: All"));
    // Overdue's `to=now` was read when chosen: a filter on top keeps it.
    s.on_key(key('5'));
    let to = s.filters.complete_by_to.clone();
    let q = list_query(&palette(&mut s, "filter priority=urgent"));
    assert_eq!(q.complete_by_to, to);
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Overdue"));
}

fn count_reqs(fx: &[Effect]) -> Vec<(u64, usize, TaskQuery, u32)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api { ticket, req } => match &**req {
                ApiRequest::ViewCount { view, query, limit } => {
                    Some((*ticket, *view, query.clone(), *limit))
                }
                other => panic!("only counts: {other:?}"),
            },
            _ => None,
        })
        .collect()
}

fn page(n: i64, more: bool) -> Result<Reply, ApiError> {
    Ok(Reply::Page(TaskPage {
        items: (1..=n).map(|i| TaskItem::Task(Box::new(task(i)))).collect(),
        cursor: more.then(|| "next".to_string()),
    }))
}

#[test]
fn the_switcher_counts_each_view_with_one_first_page_and_switches() {
    let mut s = loaded_with(&config(DUE_TODAY), 2);
    let list_gen = s.list.gen;
    let fx = s.on_key(key('0'));
    assert!(matches!(s.overlay, Overlay::Views(_)));
    let asked = count_reqs(&fx);
    assert_eq!(asked.len(), 8, "one per view");
    for (i, (_, view, query, limit)) in asked.iter().enumerate() {
        assert_eq!(*view, i);
        assert_eq!(*limit, s.page_size, "the first page, as the list asks it");
        assert_eq!(query, &s.view_query(i).unwrap());
    }
    assert_eq!(asked[1].2.assigned_to.as_deref(), Some("u-me"));
    // Counting never touches the list's walk.
    assert_eq!(s.list.gen, list_gen);
    assert!(fx.iter().all(|e| match e {
        Effect::Api { req, .. } => req.slot().is_none(),
        _ => true,
    }));
    let answer_count = |s: &mut State, i: usize, result| {
        let (ticket, _, _, _) = asked[i].clone();
        s.on_api(ApiResult {
            ticket,
            req: ApiRequest::ViewCount {
                view: i,
                query: asked[i].2.clone(),
                limit: 50,
            },
            result,
        })
    };
    answer_count(&mut s, 0, page(50, true));
    answer_count(&mut s, 1, page(3, false));
    answer_count(
        &mut s,
        2,
        Err(ApiError::Status {
            status: 500,
            message: "down".into(),
        }),
    );
    let text = |s: &State, i: usize| s.views.counts.get(&i).map(|c| c.text());
    assert_eq!(text(&s, 0).as_deref(), Some("50+"));
    assert_eq!(text(&s, 1).as_deref(), Some("3"));
    assert_eq!(text(&s, 2).as_deref(), Some("error"));
    assert_eq!(text(&s, 3).as_deref(), Some("…"));
    // Reopened: only the views not being counted are asked again.
    s.on_key(code(KeyCode::Esc));
    assert!(matches!(s.overlay, Overlay::None));
    let again = count_reqs(&s.on_key(key('0')));
    assert_eq!(
        again.iter().map(|a| a.1).collect::<Vec<_>>(),
        vec![0, 1, 2],
        "views 3.. are still being counted"
    );
    // The older answer for view 1 is dropped.
    answer_count(&mut s, 1, page(9, false));
    assert_eq!(text(&s, 1).as_deref(), Some("…"));
    // j, Enter: Mine.
    s.on_key(key('j'));
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert!(matches!(s.overlay, Overlay::None));
    // A view's key inside the switcher chooses it.
    s.on_key(key('0'));
    let q = list_query(
        &s.on_key(key('7'))
            .into_iter()
            .filter(|e| {
                !matches!(e, Effect::Api { req, .. } if matches!(**req, ApiRequest::ViewCount { .. }))
            })
            .collect::<Vec<_>>(),
    );
    assert!(q.complete_by_to.is_some());
}

#[test]
fn the_switcher_before_the_identity_counts_what_it_can() {
    let mut s = crate::app::new_state("h".into(), &config(DUE_TODAY), false);
    s.start();
    let asked = count_reqs(&s.on_key(key('0')));
    let names: Vec<&str> = asked
        .iter()
        .map(|a| s.views.list[a.1].name.as_str())
        .collect();
    assert_eq!(names, vec!["All", "Due this week", "Overdue"]);
    assert_eq!(
        s.views.counts.get(&1),
        Some(&crate::app::views::Count::NeedsIdentity)
    );
}

#[test]
fn view_save_writes_the_filters_with_their_relative_dates() {
    let mut s = loaded_with(&config(DUE_TODAY), 1);
    s.on_key(key('7'));
    palette(&mut s, "filter priority=high");
    s.search = "annual return".into();
    let fx = palette(&mut s, "view save Hot today");
    assert_eq!(
        fx,
        vec![Effect::SaveView {
            name: "Hot today".into(),
            filter: "priority=high assigned=me to=today query=\"annual return\"".into()
        }]
    );
    // The words saved read back as the same filters.
    let mut q = crate::app::state::fields::parse_filters(
        "priority=high assigned=me to=today query=\"annual return\"",
        Some("u-me"),
    )
    .unwrap();
    q.query = None;
    assert_eq!(q, s.filters);
    s.view_saved(
        "Hot today".into(),
        "priority=high assigned=me to=today query=\"annual return\"".into(),
        Ok("/cfg/config.toml".into()),
    );
    assert!(crate::ui::list_title(&s).starts_with("Tasks: Hot today"));
    assert_eq!(s.views.list.len(), 9);
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Success);
    assert!(text.contains("/cfg/config.toml"), "{text}");
    // Chosen again later, it reads the same words.
    s.on_key(key('1'));
    let q = list_query(&palette(&mut s, "view hot today"));
    assert_eq!(q.priority.as_deref(), Some("high"));
    assert_eq!(q.query.as_deref(), Some("annual return"));

    // A date typed as a date, another person and a team are kept as ids.
    palette(&mut s, "filter from=2026-12-01 assigned=bob@acme.test");
    let fx = palette(&mut s, "view save Bob");
    match &fx[..] {
        [Effect::SaveView { filter, .. }] => {
            assert_eq!(
                filter,
                "priority=high assigned=u-bob from=2026-12-01 to=today query=\"annual return\""
            )
        }
        other => panic!("{other:?}"),
    }
    assert!(palette(&mut s, "view save").is_empty());
    s.view_saved("X".into(), "".into(), Err("disk full".into()));
    assert_eq!(s.status.as_ref().unwrap().0, Level::Error);
}

#[test]
fn keys_the_keymap_binds_are_reported_and_a_shared_key_goes_to_the_view() {
    let settings = config(
        r#"
[[views]]
name = "J"
filter = ""
key = "j"

[[views]]
name = "Eight"
filter = ""
key = "8"

[[commands]]
key = "8"
description = "Eight too"
run = "true"
"#,
    );
    let s = loaded_with(&settings, 1);
    let warned: Vec<&str> = s
        .messages
        .iter()
        .filter(|m| m.level == Level::Warn)
        .map(|m| m.text.as_str())
        .collect();
    assert!(
        warned
            .iter()
            .any(|w| w.contains("key j of view \"J\"") && w.contains("down")),
        "{warned:?}"
    );
    assert!(
        warned.iter().any(|w| w.contains("\"Eight\"'s already")),
        "{warned:?}"
    );
    assert_eq!(s.custom.commands[0].key, None);
    let problems = crate::app::views::key_problems(&s.keymap, &settings.views, &settings.commands);
    assert_eq!(problems.len(), 2, "{problems:?}");
}

#[test]
fn help_and_the_palette_list_the_views() {
    let s = loaded_with(&config(DUE_TODAY), 1);
    let help = crate::ui::help_lines(&s, "");
    assert!(help
        .iter()
        .any(|l| l.contains("7") && l.contains("view Due today: assigned=me to=today")));
    assert!(help.iter().any(|l| l.starts_with("Views")));
    let c = crate::app::popups::palette::complete("view due to", &s.palette_sources());
    assert_eq!(c[0], "view Due today");
}

#[test]
fn view_save_keeps_relative_dates_relative_later_and_after_a_restart() {
    let saved = |s: &mut State, name: &str| match &palette(s, &format!("view save {name}"))[..] {
        [Effect::SaveView { filter, .. }] => filter.clone(),
        other => panic!("{other:?}"),
    };
    let mut s = loaded(1);
    palette(&mut s, "filter to=now");
    // An hour later: the filter holds what `now` read an hour ago.
    let hour_ago = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(1);
    s.views.words_at = vec![hour_ago];
    s.filters.complete_by_to =
        Some(crate::app::dates::parse_bound("now", hour_ago, false).unwrap());
    assert_eq!(saved(&mut s, "Until now"), "to=now");

    // A restart: the next start restores the words with the filters.
    palette(&mut s, "filter to=+7d");
    let json = s.view_json();
    let mut t = loaded(1);
    t.apply_boot(crate::store::Boot {
        view: Some(json),
        ..Default::default()
    });
    assert_eq!(t.filters.complete_by_to, s.filters.complete_by_to);
    assert_eq!(saved(&mut t, "Week"), "to=+7d");
}

/// Issue 34 §4: in the demo, `:view save` says the view went to the demo's
/// own config, which is discarded at exit (never the user's file's path).
#[test]
fn view_save_in_the_demo_names_the_demo_config() {
    let mut s = loaded_with(&config(DUE_TODAY), 1);
    s.demo = true;
    s.view_saved(
        "Hot".into(),
        "priority=high".into(),
        Ok("/tmp/taskdeck-demo-1/config/config.toml".into()),
    );
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Success);
    assert_eq!(
        text,
        "view \"Hot\" saved in the demo's own config (discarded at exit): priority=high"
    );
}
