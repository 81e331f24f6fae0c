//! Filter and status words as the screen shows them, and `:filter`
//! completion: what is sent, and what Tab and Enter do in the palette.

use super::*;

fn list_query(fx: &[Effect]) -> TaskQuery {
    match reqs(fx)
        .into_iter()
        .find(|r| matches!(r, ApiRequest::ListPage { .. }))
    {
        Some(ApiRequest::ListPage { query, .. }) => query,
        r => panic!("a list request expected: {r:?}"),
    }
}

/// The palette's text now (the palette is open).
fn typed(s: &State) -> String {
    match &s.overlay {
        Overlay::Palette(p) => p.input.text.clone(),
        _ => panic!("the palette is not open"),
    }
}

/// `:` + `text`, then Tab.
fn tab(s: &mut State, text: &str) -> String {
    s.on_key(key(':'));
    type_str(s, text);
    s.on_key(code(KeyCode::Tab));
    typed(s)
}

fn close(s: &mut State) {
    s.on_key(code(KeyCode::Esc));
}

#[test]
fn filter_by_the_word_shown_sends_the_service_value() {
    let mut s = loaded(1);
    // The demo: the STATUS column shows `waiting`.
    let q = list_query(&palette(&mut s, "filter status=waiting"));
    assert_eq!(q.status, vec!["waiting_on_external"]);
    let q = list_query(&palette(&mut s, "filter status=in_p,comp priority=urg"));
    assert_eq!(q.status, vec!["in_progress", "completed"]);
    assert_eq!(q.priority.as_deref(), Some("urgent"));
    // Unknown: refused naming the words, nothing sent.
    assert!(reqs(&palette(&mut s, "filter status=done")).is_empty());
    let (_, said, _) = s.status.clone().unwrap();
    assert!(said.contains("waiting_on_external (waiting)"), "{said}");
    // A key without its value clears nothing.
    close(&mut s);
    assert!(reqs(&palette(&mut s, "filter status=")).is_empty());
    assert_eq!(s.filters.status, vec!["in_progress", "completed"]);
}

#[test]
fn status_and_priority_commands_take_the_word_shown_or_a_beginning() {
    let mut s = loaded(1);
    for (typed, sent) in [
        ("status waiting", "waiting_on_external"),
        ("status in progress", "in_progress"),
        ("status comp", "completed"),
    ] {
        let (id, body) = only_patch(&palette(&mut s, typed));
        assert_eq!(id, tid(1));
        assert_eq!(body, json!({ "status": sent }), "{typed}");
    }
    let (_, body) = only_patch(&palette(&mut s, "priority med"));
    assert_eq!(body, json!({"priority": "medium"}));
}

#[test]
fn tab_completes_keys_then_values_keeping_the_words_before() {
    let mut s = loaded(1);
    // After `filter `: the keys (clear as the only word).
    let c = crate::app::popups::palette::complete("filter ", &s.palette_sources());
    assert_eq!(c[0], "filter status=");
    assert!(c.contains(&"filter clear".to_string()));
    assert_eq!(tab(&mut s, "filter "), "filter status=");
    // Then a status value, as the service names it.
    type_str(&mut s, "w");
    s.on_key(code(KeyCode::Tab));
    assert_eq!(typed(&s), "filter status=waiting_on_external");
    // After a comma: the values not yet listed.
    type_str(&mut s, ",in");
    s.on_key(code(KeyCode::Tab));
    assert_eq!(typed(&s), "filter status=waiting_on_external,in_progress");
    // After a space: the keys again, the words before byte for byte.
    type_str(&mut s, "  pri");
    s.on_key(code(KeyCode::Tab));
    assert_eq!(
        typed(&s),
        "filter status=waiting_on_external,in_progress  priority="
    );
    type_str(&mut s, "h");
    s.on_key(code(KeyCode::Tab));
    let line = "filter status=waiting_on_external,in_progress  priority=high";
    assert_eq!(typed(&s), line);
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.status, vec!["waiting_on_external", "in_progress"]);
    assert_eq!(q.priority.as_deref(), Some("high"));
    // Bounds complete to date words.
    assert_eq!(tab(&mut s, "filter to=tom"), "filter to=tomorrow");
    close(&mut s);
}

#[test]
fn people_teams_and_tags_complete_to_words_the_filter_reads_back() {
    let mut s = loaded(2);
    s.directory
        .learn_person("u-dana", "Dana Alpha", "dana.a@acme.test", Some("#1"));
    // Tags seen on the loaded tasks (`a`, `b`), the listed ones left out.
    assert_eq!(tab(&mut s, "filter tags="), "filter tags=a");
    close(&mut s);
    assert_eq!(tab(&mut s, "filter tags=a,"), "filter tags=a,b");
    close(&mut s);
    // `me` first, then the people known.
    let c = crate::app::popups::palette::complete("filter assigned=", &s.palette_sources());
    assert_eq!(c[0], "filter assigned=me");
    assert!(
        c.contains(&r#"filter assigned="Bob <bob@acme.test>""#.to_string()),
        "{c:?}"
    );
    // A name with spaces is quoted, and runs as that person's id.
    let line = tab(&mut s, "filter status=comp involving=dana");
    assert_eq!(
        line,
        r#"filter status=comp involving="Dana Alpha <dana.a@acme.test>""#
    );
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.involving.as_deref(), Some("u-dana"));
    assert_eq!(q.status, vec!["completed"]);
    // A team known from the tasks.
    let line = tab(&mut s, "filter team=op");
    assert_eq!(line, r#"filter team="Ops (team-1…)""#);
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.team_id.as_deref(), Some("team-1"));
}

#[test]
fn enter_runs_a_suggestion_only_when_chosen_or_completing_the_word_typed() {
    let mut s = loaded(1);
    // `status=w`: the one suggestion completing it runs (the same filter).
    let q = list_query(&palette(&mut s, "filter status=w"));
    assert_eq!(q.status, vec!["waiting_on_external"]);
    // A value left empty: the first suggestion is not an answer.
    let fx = palette(&mut s, "filter priority=");
    assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
    assert_eq!(s.filters.priority, None);
    close(&mut s);
    // A key begun: completed for its value, nothing run.
    let fx = palette(&mut s, "filter pri");
    assert!(reqs(&fx).is_empty());
    assert_eq!(typed(&s), "filter priority=");
    // Chosen with the arrows: that one runs.
    s.on_key(code(KeyCode::Down));
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.priority.as_deref(), Some("high"));
    // A value then a space: what was typed runs, not a key offered.
    let q = list_query(&palette(&mut s, "filter status=waiting "));
    assert_eq!(q.status, vec!["waiting_on_external"]);
    // A tag begun: no parser completes it, only the one suggestion does.
    let mut j = task_json(1);
    j["tags"] = serde_json::json!(["urgent-review"]);
    let t: Task = serde_json::from_value(j).unwrap();
    let mut s = loaded_with_tasks(&Settings::default(), vec![t]);
    let q = list_query(&palette(&mut s, "filter tags=urg"));
    assert_eq!(q.tags, vec!["urgent-review"]);
    // Several people begin so: typed runs, and the picker asks which.
    s.directory
        .learn_person("u-sam1", "Sam Taylor", "sam.t@acme.test", Some("#1"));
    s.directory
        .learn_person("u-sam2", "Sam Taylor", "sam.taylor@acme.test", Some("#1"));
    let fx = palette(&mut s, "filter assigned=sam");
    assert!(reqs(&fx).is_empty(), "not the first Sam");
    assert!(matches!(s.overlay, Overlay::Picker(_)));
}

#[test]
fn a_view_in_the_config_takes_the_words_shown_and_sends_the_values() {
    let settings = super::saved::config(
        r#"
[[views]]
name = "Waiting"
filter = 'status=waiting,"in progress" priority=urg'
key = "8"
"#,
    );
    let mut s = loaded_with(&settings, 1);
    let q = list_query(&s.on_key(key('8')));
    assert_eq!(q.status, vec!["waiting_on_external", "in_progress"]);
    assert_eq!(q.priority.as_deref(), Some("urgent"));
    // A word that is no status is found by the config check, with the
    // words it could be.
    let c = crate::config::from_str("[[views]]\nname = \"W\"\nfilter = \"status=wat\"\n", None);
    let said = format!("{:?}", c.diagnostics);
    assert!(said.contains("waiting_on_external (waiting)"), "{said}");
}

#[test]
fn a_quoted_name_several_people_share_is_asked_once_then_sent_as_the_id() {
    // Completion quotes a name with spaces; two people known only by it.
    let mut s = loaded(1);
    s.directory
        .learn_person("u-s1", "Sam Taylor", "", Some("#1"));
    s.directory
        .learn_person("u-s2", "Sam Taylor", "", Some("#1"));
    let line = tab(&mut s, "filter tags=a assigned=sam");
    assert_eq!(line, r#"filter tags=a assigned="Sam Taylor""#);
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(reqs(&fx).is_empty(), "nothing sent before a choice");
    assert!(matches!(s.overlay, Overlay::Picker(_)));
    // The arrows move (letters narrow: the one picker, #40 §5).
    s.on_key(code(KeyCode::Down));
    let q = list_query(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(q.assigned_to.as_deref(), Some("u-s2"));
    assert_eq!(q.tags, vec!["a"]);
}
