//! #40 §2: one name matcher behind every place a name is typed — case
//! and accents folded, the e-mail, any beginning of words — and the same
//! suggestions in each. What is sent stays exact.

use super::names::{list_query, review_and_send};
use super::*;
use crate::app::popups::palette::complete;

/// Carol Nguyễn (written with her accents) and a team with accents,
/// seen on task #1.
fn with_carol(s: &mut State) {
    s.directory
        .learn_person("u-carol", "Carol Nguyễn", "carol@acme.test", Some("#1"));
    s.directory.learn_team("t-eq", "Équipe Légale", Some("#1"));
}

#[test]
fn assign_finds_a_name_typed_without_its_accents_or_by_a_beginning() {
    let mut s = loaded(1);
    with_carol(&mut s);
    for who in ["carol nguyen", "CAROL NGUYỄN", "nguyen", "car ng", "Nguy"] {
        // Run as typed (not through a suggestion), as `s.command` does.
        let fx = s.command(&format!("assign {who}"));
        let (id, body) = only_patch(&fx);
        assert_eq!(id, tid(1));
        assert_eq!(body, json!({"assigned_to": "u-carol"}), "{who}");
    }
    // Through the palette as a user types it.
    let (_, body) = only_patch(&palette(&mut s, "assign carol nguyen"));
    assert_eq!(body, json!({"assigned_to": "u-carol"}));
}

#[test]
fn team_filters_and_share_add_fold_accents_too() {
    let mut s = loaded(1);
    with_carol(&mut s);
    let (_, body) = only_patch(&s.command("team equipe legale"));
    assert_eq!(body, json!({"assigned_team_id": "t-eq"}));
    let q = list_query(&s.command("filter assigned=nguyen"));
    assert_eq!(q.assigned_to.as_deref(), Some("u-carol"));
    let q = list_query(&s.command("filter involving=carol team=equipe"));
    assert_eq!(q.involving.as_deref(), Some("u-carol"));
    assert_eq!(q.team_id.as_deref(), Some("t-eq"));
    // `:share add` sends the id of the one person it names.
    let fx = s.command("share add carol nguyen write");
    assert_eq!(reqs(&fx), vec![ApiRequest::SharingForEdit { id: tid(1) }]);
    let current: SharingState = serde_json::from_value(json!({
        "visibility": "private",
        "users": [{"id": "u-me", "name": "Me", "email": "me@acme.test", "access_level": "write"}],
        "teams": []
    }))
    .unwrap();
    let fx = answer(&mut s, &fx, Ok(Reply::Sharing(current)));
    let update = reqs(&fx)
        .into_iter()
        .find_map(|r| match r {
            ApiRequest::PutSharing { update, .. } => Some(update),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a sharing PUT: {:?}", s.status));
    assert!(
        update
            .users
            .iter()
            .any(|u| u.user_id == "u-carol" && u.access_level == "write"),
        "{update:?}"
    );
}

#[test]
fn every_command_naming_people_or_teams_suggests_the_same_way() {
    let mut s = loaded(1);
    with_carol(&mut s);
    let src = s.palette_sources();
    let carol = "Carol Nguyễn <carol@acme.test>";
    let team = "Équipe Légale (t-eq…)";
    assert_eq!(
        complete("assign nguy", &src),
        vec![format!("assign {carol}")]
    );
    assert_eq!(
        complete("share add nguy", &src),
        vec![format!("share add {carol}")]
    );
    assert_eq!(
        complete("share team equipe", &src),
        vec![format!("share team {team}")]
    );
    assert_eq!(complete("team equ", &src), vec![format!("team {team}")]);
    assert_eq!(
        complete("filter assigned=nguyen", &src),
        vec![format!("filter assigned=\"{carol}\"")]
    );
    assert_eq!(
        complete("filter team=legale", &src),
        vec![format!("filter team=\"{team}\"")]
    );
    // `:share` first completes its word; alone it opens the editor.
    assert_eq!(complete("share t", &src), vec!["share team "]);
    assert!(complete("share ", &src).is_empty());
    // The picked suggestion runs and resolves to the one record.
    s.on_key(key(':'));
    type_str(&mut s, "share t");
    s.on_key(code(KeyCode::Enter));
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.input.text, "share team "),
        _ => panic!("the palette stays, completed"),
    }
}

#[test]
fn a_mention_suggests_and_completes_without_accents() {
    let mut s = loaded(1);
    with_carol(&mut s);
    s.on_key(key('c'));
    type_str(&mut s, "thanks @nguy");
    match &s.overlay {
        Overlay::Compose(c) => {
            assert_eq!(c.mention.as_deref(), Some("Carol Nguyễn <carol@acme.test>"))
        }
        _ => panic!("the composer expected"),
    }
    s.on_key(code(KeyCode::Tab));
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text(), "thanks @Carol Nguyễn "),
        _ => panic!("the composer expected"),
    }
}

/// The sharing editor's add lines suggest as the palette does, and Tab
/// takes the suggestion (its access kept): a completion names one
/// record and is sent as its id; a bare name still goes as typed.
#[test]
fn the_sharing_editor_suggests_names_and_tab_completes_them() {
    let mut s = loaded(1);
    with_carol(&mut s);
    sharing_editor_open(
        &mut s,
        json!([{"id": "u-me", "name": "Me Myself", "email": "me@acme.test", "access_level": "write"}]),
    );
    s.on_key(key('a'));
    type_str(&mut s, "nguyen write");
    match &s.overlay {
        Overlay::Sharing(ed) => {
            assert_eq!(ed.suggestions(), vec!["Carol Nguyễn <carol@acme.test>"])
        }
        _ => panic!("the sharing editor expected"),
    }
    s.on_key(code(KeyCode::Tab));
    match &s.overlay {
        Overlay::Sharing(ed) => assert_eq!(
            ed.adding.as_ref().map(|(_, i)| i.text.as_str()),
            Some("Carol Nguyễn <carol@acme.test> write")
        ),
        _ => panic!("the sharing editor expected"),
    }
    s.on_key(code(KeyCode::Enter));
    s.on_key(key('t'));
    type_str(&mut s, "legale");
    s.on_key(code(KeyCode::Tab));
    s.on_key(code(KeyCode::Enter));
    // A bare name typed, not picked: it goes as typed.
    s.on_key(key('t'));
    type_str(&mut s, "equipe");
    s.on_key(code(KeyCode::Enter));
    let (_, update) = review_and_send(&mut s);
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        json!({"visibility": "private",
               "users": [{"user_id": "u-me", "access_level": "write"}, {"user_id": "u-carol", "access_level": "write"}],
               "teams": [{"team_id": "t-eq", "access_level": "read"}, {"team_id": "equipe", "access_level": "read"}]})
    );
}

/// Two people named Sam Taylor known, and the picker `:assign Sam Taylor`
/// opens between them (nothing sent yet).
fn picking_between_two_sams() -> State {
    let mut s = loaded(1);
    s.directory
        .learn_person("u-sam1", "Sam Taylor", "sam.t@acme.test", Some("#1"));
    s.directory
        .learn_person("u-sam2", "Sam Taylor", "sam.taylor@acme.test", Some("#2"));
    assert!(reqs(&s.command("assign Sam Taylor")).is_empty());
    s
}

/// #40 §5: the picker between same-named people is the one picker —
/// letters narrow it (by the name matcher), the arrows move, Enter takes
/// the row left, and nothing left takes nothing.
#[test]
fn the_same_name_picker_narrows_as_typed() {
    let mut s = picking_between_two_sams();
    type_str(&mut s, "zzz");
    match &s.overlay {
        Overlay::Picker(p) => assert!(p.rows().is_empty()),
        _ => panic!("the picker expected"),
    }
    assert!(
        reqs(&s.on_key(code(KeyCode::Enter))).is_empty(),
        "nothing left"
    );
    assert!(matches!(s.overlay, Overlay::Picker(_)), "still asking");
    for _ in 0..3 {
        s.on_key(code(KeyCode::Backspace));
    }
    type_str(&mut s, "sam.taylor");
    match &s.overlay {
        Overlay::Picker(p) => {
            assert_eq!(p.find.text, "sam.taylor");
            assert_eq!(p.rows(), vec![1]);
        }
        _ => panic!("the picker expected"),
    }
    let (_, body) = only_patch(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(body, json!({"assigned_to": "u-sam2"}));
}

/// One picker: the sharing candidates' picker keeps the mark where every
/// chooser keeps it (`chooser::kept`) — on its row while what is typed
/// still matches it, else the first. It went back to the first row at
/// every letter, so Enter took another person than the one marked.
#[test]
fn the_same_name_picker_keeps_the_mark_on_its_row_while_it_matches() {
    let mut s = picking_between_two_sams();
    s.on_key(code(KeyCode::Down));
    type_str(&mut s, "sam");
    match &s.overlay {
        Overlay::Picker(p) => {
            assert_eq!(p.rows().len(), 2, "both still match");
            assert_eq!(p.selected, 1, "the mark stays on its row");
        }
        _ => panic!("the picker expected"),
    }
    // A letter its row no longer matches: the mark goes to the first.
    type_str(&mut s, ".t@");
    match &s.overlay {
        Overlay::Picker(p) => {
            assert_eq!(p.rows(), vec![0]);
            assert_eq!(p.selected, 0);
        }
        _ => panic!("the picker expected"),
    }
    for _ in 0..3 {
        s.on_key(code(KeyCode::Backspace));
    }
    s.on_key(code(KeyCode::Down));
    let (_, body) = only_patch(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(body, json!({"assigned_to": "u-sam2"}), "the row marked");
}
