//! Views as data: named filters — the built-in ones (`assets/views.toml`)
//! and `[[views]]` from the config file, defined the same way — chosen by
//! their key, by `:view NAME` or from the switcher (with counts), and
//! saved with `:view save NAME`.
//!
//! A view keeps its filter as written: `to=today` or `assigned=me` is read
//! again each time the view is chosen (local days, `me` once known).

pub mod board;
mod save;
pub mod tabs;

use super::keymap::{Context, Key, KeyCodeOrd};
use crate::api::TaskQuery;
use crate::app::state::fields::{filter_words, merge};
use crate::config::{name_key, ViewEntry};
use std::collections::HashMap;

mod handle;

#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub name: String,
    /// `:filter` words, as written.
    pub filter: String,
    pub key: Option<Key>,
}

impl View {
    fn from_entry(e: &ViewEntry) -> View {
        View {
            name: e.name.clone(),
            filter: e.filter.clone(),
            key: e.key.as_deref().and_then(|k| Key::parse(k).ok()),
        }
    }

    pub fn title(&self) -> &str {
        &self.name
    }

    /// The filter names `me`: it waits for the identity lookup.
    pub fn needs_me(&self) -> bool {
        filter_words(&self.filter).is_ok_and(|words| {
            words.iter().any(|w| {
                matches!(
                    w.split_once('='),
                    Some(("assigned" | "assigned_to" | "assignee" | "involving", "me"))
                )
            })
        })
    }
}

/// A view's count in the switcher: the rows of its first page, and
/// whether the service has more.
#[derive(Clone, Debug, PartialEq)]
pub enum Count {
    Asking(u64),
    Rows {
        n: usize,
        more: bool,
    },
    Failed(String),
    /// The view names `me` and who you are is not known yet.
    NeedsIdentity,
}

impl Count {
    pub fn text(&self) -> String {
        match self {
            Count::Asking(_) => "…".into(),
            Count::Rows { n, more: true } => format!("{n}+"),
            Count::Rows { n, more: false } => n.to_string(),
            Count::Failed(_) => "error".into(),
            Count::NeedsIdentity => "—".into(),
        }
    }
}

pub struct Views {
    pub list: Vec<View>,
    /// Counts by view, asked for when the switcher opens.
    pub counts: HashMap<usize, Count>,
    /// The chosen view's filters as read when it was chosen: `:filter`
    /// adds to them, and the view keeps its name while they still hold.
    pub base: Option<TaskQuery>,
    /// The filter words behind the current filters (the view's, then
    /// `:filter`'s): `:view save` keeps their relative dates.
    pub words: Vec<String>,
    /// When each of `words` was read into the filters: a relative date
    /// (`to=now`, `+7d`) is known to be behind a filter value by reading it
    /// again at that time.
    pub words_at: Vec<jiff::Timestamp>,
}

impl Default for Views {
    fn default() -> Self {
        Views::from_entries(&crate::config::builtin_views(), &[])
    }
}

impl Views {
    /// The built-in views with the config's on top: one with a built-in's
    /// name replaces it; a key a config view takes is taken from the others.
    pub fn from_entries(builtin: &[ViewEntry], config: &[ViewEntry]) -> Views {
        let mut list: Vec<View> = builtin.iter().map(View::from_entry).collect();
        for e in config {
            let mut v = View::from_entry(e);
            if let Some(k) = &v.key {
                for other in list.iter_mut().filter(|o| o.key.as_ref() == Some(k)) {
                    other.key = None;
                }
            }
            match list
                .iter_mut()
                .find(|o| name_key(&o.name) == name_key(&v.name))
            {
                // A replacement without a key of its own keeps the key.
                Some(slot) => {
                    v.key = v.key.or(slot.key);
                    *slot = v;
                }
                None => list.push(v),
            }
        }
        Views {
            list,
            counts: HashMap::new(),
            base: None,
            words: Vec::new(),
            words_at: Vec::new(),
        }
    }

    /// A view by name as typed: its name (case and punctuation aside), a
    /// unique beginning of one, or `week` for "Due this week".
    pub fn find(&self, typed: &str) -> Result<usize, String> {
        let k = name_key(typed);
        if let Some(i) = self.list.iter().position(|v| name_key(&v.name) == k) {
            return Ok(i);
        }
        let starts: Vec<usize> = (0..self.list.len())
            .filter(|i| !k.is_empty() && name_key(&self.list[*i].name).starts_with(&k))
            .collect();
        if let [one] = starts[..] {
            return Ok(one);
        }
        if matches!(k.as_str(), "week" | "due") {
            if let Some(i) = self
                .list
                .iter()
                .position(|v| name_key(&v.name) == "duethisweek")
            {
                return Ok(i);
            }
        }
        Err(format!(
            "no view {typed:?} (views: {})",
            self.list
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    pub fn by_key(&self, key: &Key) -> Option<usize> {
        self.list.iter().position(|v| v.key.as_ref() == Some(key))
    }

    /// The tab a key switches to: the view whose own key it is, else
    /// digit N (`1`–`9`, no modifier) the Nth tab (#26 §3). A view's key
    /// is data the user wrote, so it wins over a position.
    pub fn tab_for_key(&self, key: &Key) -> Option<usize> {
        self.by_key(key).or_else(|| match key.code {
            KeyCodeOrd::Char(c @ '1'..='9') if !key.ctrl && !key.alt => {
                let i = c as usize - '1' as usize;
                (i < self.list.len()).then_some(i)
            }
            _ => None,
        })
    }

    /// The key shown on tab `i`: the view's own, else its position's
    /// digit when nothing else claims it (a view, or what `claimed` says).
    pub fn tab_key(&self, i: usize, claimed: impl Fn(&Key) -> bool) -> Option<String> {
        let v = self.list.get(i)?;
        if let Some(k) = &v.key {
            return Some(k.label());
        }
        let digit = Key::parse(&(i + 1).to_string()).ok().filter(|_| i < 9)?;
        (self.by_key(&digit).is_none() && !claimed(&digit)).then(|| digit.label())
    }

    pub fn names(&self) -> Vec<String> {
        self.list.iter().map(|v| v.name.clone()).collect()
    }
}

/// The contexts whose bindings a view's or custom command's key would
/// shadow (the keymap wins there).
const MAIN_CONTEXTS: [Context; 5] = [
    Context::Global,
    Context::List,
    Context::Detail,
    Context::Task,
    Context::Board,
];

/// A key of the config bound already in the keymap: where, and to what.
pub fn key_taken(keymap: &super::keymap::Keymap, key: &Key) -> Option<String> {
    let label = key.label();
    keymap
        .bindings()
        .into_iter()
        .find(|(ctx, keys, _)| MAIN_CONTEXTS.contains(ctx) && keys.contains(&label))
        .map(|(ctx, _, action)| format!("{} ({})", action.name(), ctx.name()))
}

/// The keys of `[[views]]` and `[[commands]]` that cannot work as given:
/// one the keymap binds (the keymap wins there), one two entries share.
/// Shown on screen at start and by `taskdeck config check`.
pub fn key_problems(
    keymap: &super::keymap::Keymap,
    views: &[ViewEntry],
    commands: &[crate::config::CommandEntry],
) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: HashMap<Key, String> = HashMap::new();
    for (what, key) in keyed(views, commands) {
        let Some(key) = key.and_then(|k| Key::parse(k).ok()) else {
            continue;
        };
        if let Some(bound) = key_taken(keymap, &key) {
            out.push(format!(
                "the key {} of {what} is bound to {bound}: the keymap wins there (unbind it in [keys] to use it)",
                key.label()
            ));
        }
        match seen.get(&key) {
            Some(first) => out.push(format!(
                "the key {} of {what} is {first}'s already: {what} gets no key",
                key.label()
            )),
            None => {
                seen.insert(key, what);
            }
        }
    }
    out
}

/// The views and custom commands that have a key, each named as a
/// problem names it (`view "mine"`, `command "open"`), with its key.
fn keyed<'a>(
    views: &'a [ViewEntry],
    commands: &'a [crate::config::CommandEntry],
) -> impl Iterator<Item = (String, Option<&'a str>)> + 'a {
    views
        .iter()
        .map(|v| (format!("view {:?}", v.name), v.key.as_deref()))
        .chain(
            commands
                .iter()
                .map(|c| (format!("command {:?}", c.name), c.key.as_deref())),
        )
}

/// Every filter `base` sets is set the same in `f`.
fn holds(f: &TaskQuery, base: &TaskQuery) -> bool {
    merge(f, base) == *f
}

/// The macros whose key cannot work: bound by the keymap where a task is
/// current, or by a view, a custom command or another macro. Each such
/// macro is left out (never offered) and `taskdeck config check` fails
/// naming it: (macro name, why).
pub fn macro_key_problems(
    keymap: &super::keymap::Keymap,
    views: &[ViewEntry],
    commands: &[crate::config::CommandEntry],
    macros: &[crate::domain::macros::Macro],
) -> Vec<(String, String)> {
    let mut seen: HashMap<Key, String> = HashMap::new();
    for (what, key) in keyed(views, commands) {
        if let Some(k) = key.and_then(|k| Key::parse(k).ok()) {
            seen.entry(k).or_insert(what);
        }
    }
    let mut out = Vec::new();
    for m in macros {
        let Some(key) = m.key.as_deref().and_then(|k| Key::parse(k).ok()) else {
            continue;
        };
        let what = format!("macro {:?}", m.name);
        let taken = key_taken(keymap, &key).or_else(|| seen.get(&key).cloned());
        match taken {
            Some(by) => out.push((
                m.name.clone(),
                format!(
                    "the key {} of {what} is bound twice (also {by}): the macro is left out until its key is free",
                    key.label()
                ),
            )),
            None => {
                seen.insert(key, what);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, filter: &str, key: Option<&str>) -> ViewEntry {
        ViewEntry {
            name: name.into(),
            filter: filter.into(),
            key: key.map(str::to_string),
        }
    }

    #[test]
    fn config_views_replace_built_ins_by_name_and_take_their_keys() {
        let v = Views::from_entries(
            &crate::config::builtin_views(),
            &[
                entry("mine", "assigned=me priority=high", None),
                entry("Due today", "assigned=me to=today", Some("5")),
            ],
        );
        let names = v.names();
        // Seven built-in views and Due today.
        assert_eq!(names.len(), 8, "{names:?}");
        assert_eq!(v.list[1].name, "mine");
        assert_eq!(v.list[1].filter, "assigned=me priority=high");
        assert_eq!(
            v.list[1].key,
            Key::parse("2").ok(),
            "a replacement without a key keeps the built-in's"
        );
        let five = Key::parse("5").unwrap();
        assert_eq!(v.by_key(&five), Some(7));
        assert_eq!(v.list[4].name, "Overdue");
        assert_eq!(v.list[4].key, None, "Overdue gave its key away");
        assert_eq!(v.find("due today"), Ok(7));
        assert_eq!(v.find("week"), Ok(3));
        assert_eq!(v.find("inv"), Ok(2));
        assert!(v.find("m").is_err(), "ambiguous");
        assert!(v.find("nope").unwrap_err().contains("Overdue"));
    }

    #[test]
    fn the_title_at_start_names_the_view_without_a_filter() {
        let settings = crate::config::Settings {
            views: vec![entry("All", "status=completed", None)],
            ..Default::default()
        };
        let s = crate::app::new_state("h".into(), &settings, false);
        assert_eq!(s.view_title(), "Custom");
        let s = crate::app::new_state("h".into(), &Default::default(), false);
        assert_eq!(s.view_title(), "All");
    }

    #[test]
    fn a_stored_view_is_restored_by_name_over_its_filters() {
        let mut s = crate::app::tests::loaded(1);
        s.filters.assigned_to = Some("u-me".into());
        s.restore_view(Some("Mine"));
        assert_eq!(s.view_title(), "Mine");
        s.command("filter priority=high");
        assert_eq!(s.filters.assigned_to.as_deref(), Some("u-me"));
        assert_eq!(s.view_title(), "Mine");
        s.restore_view(Some("Gone"));
        assert_eq!(s.view_title(), "Custom");
    }

    #[test]
    fn needs_me_reads_the_words() {
        assert!(View::from_entry(&entry("a", "status=completed assigned=me", None)).needs_me());
        assert!(!View::from_entry(&entry("a", "assigned=bob@acme.test", None)).needs_me());
    }
}
