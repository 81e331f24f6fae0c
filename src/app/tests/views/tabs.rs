//! The views as tabs (#26 §3): `1`–`9` switch to the Nth tab, a view's
//! own key wins over a position, and each tab's count is only what is
//! known.

use super::*;
use crate::app::tests::views::saved::config;
use crate::app::views::Count;

/// Views 8 and 9 have no key: their digits are their positions'. Due
/// today takes 7 from Mine, overdue (a key written wins).
const TABS: &str = r#"
[[views]]
name = "Due today"
filter = "assigned=me to=today"
key = "7"

[[views]]
name = "Hot"
filter = "priority=urgent"

[[views]]
name = "Ops"
filter = "status=completed"
"#;

fn list_priority(fx: &[Effect]) -> Option<String> {
    reqs(fx).iter().find_map(|r| match r {
        ApiRequest::ListPage { query, .. } => Some(query.priority.clone().unwrap_or_default()),
        _ => None,
    })
}

#[test]
fn digits_switch_to_the_nth_tab_and_a_views_own_key_wins() {
    let mut s = loaded_with(&config(TABS), 2);
    let names: Vec<&str> = s.views.list.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names[6..], ["Mine, overdue", "Due today", "Hot", "Ops"]);
    // 9: the ninth tab, Hot (no key of its own).
    assert_eq!(
        list_priority(&s.on_key(key('9'))).as_deref(),
        Some("urgent")
    );
    assert_eq!(s.view_title(), "Hot");
    // 7 is Due today's own key, not the seventh tab.
    s.on_key(key('7'));
    assert_eq!(s.view_title(), "Due today");
    // 3: the third tab (and Involving me's key).
    s.on_key(key('3'));
    assert_eq!(s.view_title(), "Involving me");
    // The tabs say which key is whose; the tenth has no digit.
    let keys: Vec<Option<String>> = (0..s.views.list.len()).map(|i| s.tab_key(i)).collect();
    assert_eq!(
        keys[6], None,
        "Mine, overdue gave 7 away, and 7 is Due today's"
    );
    assert_eq!(keys[7].as_deref(), Some("7"));
    assert_eq!(keys[8].as_deref(), Some("9"));
    assert_eq!(keys[9], None);
    // The switcher takes the same digits.
    s.on_key(key('0'));
    s.on_key(key('9'));
    assert!(matches!(s.overlay, Overlay::None));
    assert_eq!(s.view_title(), "Hot");
}

#[test]
fn a_digit_the_keymap_or_a_command_binds_is_theirs() {
    let settings = config(&format!(
        "{TABS}\n[[commands]]\nname = \"nine\"\ndescription = \"Nine\"\nkey = \"9\"\nrun = \"true\"\n\n[keys.list]\n\"8\" = \"down\"\n"
    ));
    let mut s = loaded_with(&settings, 3);
    s.on_key(key('8'));
    assert_eq!(s.list.selected, 1, "8 is the keymap's: down");
    assert_ne!(s.view_title(), "Due today");
    assert_eq!(s.tab_key(7).as_deref(), Some("7"));
    assert_eq!(s.tab_key(8), None, "9 is the command's");
}

#[test]
fn a_tab_counts_only_what_is_known() {
    let mut s = loaded(3);
    assert_eq!(
        s.tab_count(0).as_deref(),
        Some("3"),
        "All: the list's rows, all loaded"
    );
    assert_eq!(s.tab_count(1), None, "Mine: nothing known");
    s.views.counts.insert(1, Count::Rows { n: 50, more: true });
    s.views.counts.insert(2, Count::Failed("500".into()));
    s.views.counts.insert(3, Count::Asking(7));
    s.views.counts.insert(4, Count::NeedsIdentity);
    assert_eq!(s.tab_count(1).as_deref(), Some("50+"));
    assert_eq!(s.tab_count(2), None, "a failed count is no number");
    assert_eq!(s.tab_count(3).as_deref(), Some("…"));
    assert_eq!(s.tab_count(4), None);
    // A filter added to the view: the list is no longer the view's rows.
    palette(&mut s, "filter priority=high");
    assert_eq!(s.tab_count(0), None);
    // Switching: asked, then the first page and more to come.
    let fx = s.on_key(key('6'));
    assert_eq!(s.tab_count(5).as_deref(), Some("…"));
    answer(
        &mut s,
        &fx,
        Ok(Reply::Page(TaskPage {
            items: vec![TaskItem::Task(Box::new(task(1)))],
            cursor: Some("next".into()),
        })),
    );
    assert_eq!(s.tab_count(5).as_deref(), Some("1+"));
    let tabs = s.tabs();
    assert_eq!(tabs.len(), 7);
    assert!(tabs[5].current && !tabs[0].current);
    assert_eq!(tabs[6].key.as_deref(), Some("7"));
    assert_eq!(tabs[6].name, "Mine, overdue");
}

#[test]
fn a_view_left_keeps_the_rows_its_list_knew_as_its_count() {
    let mut s = loaded(3);
    let fx = s.on_key(key('2'));
    assert_eq!(s.tab_count(0).as_deref(), Some("3"), "All had its 3 rows");
    answer(
        &mut s,
        &fx,
        Ok(Reply::Page(TaskPage {
            items: (1..=2).map(|i| TaskItem::Task(Box::new(task(i)))).collect(),
            cursor: Some("next".into()),
        })),
    );
    s.on_key(key('5'));
    assert_eq!(s.tab_count(1).as_deref(), Some("2+"), "Mine: 2 rows, more");
    // Left while loading: nothing known, nothing kept.
    s.on_key(key('1'));
    assert_eq!(s.tab_count(4), None);
}
