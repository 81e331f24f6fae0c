//! `:view save NAME`: the current filters written into the config file as
//! a `[[views]]` entry, as `:filter` words that mean the same when the
//! view is next chosen.

use super::super::state::{Effect, Level, State};
use super::super::views::View;
use crate::config::name_key;

impl State {
    /// The current filters as `:filter` words for `:view save`: people as
    /// `me` or their id and teams by id (a name may not be known when the
    /// view is next chosen), dates as they were typed when they still
    /// mean the same now (`to=today`), the search as `query=`.
    pub fn saved_filter(&self) -> Result<String, String> {
        let q = &self.filters;
        let me = self.my_id();
        let quote = |v: &str| -> Result<String, String> {
            if v.contains('"') {
                return Err(format!("{v:?} holds a double quote: a view cannot keep it"));
            }
            Ok(if v.contains(char::is_whitespace) || v.is_empty() {
                format!("\"{v}\"")
            } else {
                v.to_string()
            })
        };
        let person = |id: &str| {
            if Some(id) == me {
                "me".to_string()
            } else {
                id.to_string()
            }
        };
        let mut words = Vec::new();
        if !q.status.is_empty() {
            words.push(format!("status={}", q.status.join(",")));
        }
        if let Some(p) = &q.priority {
            words.push(format!("priority={p}"));
        }
        if let Some(a) = &q.assigned_to {
            words.push(format!("assigned={}", quote(&person(a))?));
        }
        if let Some(a) = &q.involving {
            words.push(format!("involving={}", quote(&person(a))?));
        }
        if let Some(t) = &q.team_id {
            words.push(format!("team={}", quote(t)?));
        }
        if !q.tags.is_empty() {
            words.push(format!("tags={}", quote(&q.tags.join(","))?));
        }
        let now = crate::clock::timestamp();
        // A word is kept as typed when it reads as the value, now or when
        // it was read into the filters (`to=now` an hour ago is still
        // `to=now`): a relative date stays relative.
        let typed = |keys: [&str; 2], lower: bool, value: &str| -> String {
            self.views
                .words
                .iter()
                .enumerate()
                .rev()
                .filter_map(|(i, w)| w.split_once('=').map(|(k, v)| (i, k, v)))
                .find(|(_, k, _)| keys.contains(k))
                .filter(|(i, _, v)| {
                    let at = self.views.words_at.get(*i).copied().unwrap_or(now);
                    [now, at].iter().any(|t| {
                        super::super::dates::parse_bound(v, *t, lower).as_deref() == Ok(value)
                    })
                })
                .map(|(_, _, v)| v)
                .unwrap_or(value)
                .to_string()
        };
        if let Some(v) = &q.complete_by_from {
            words.push(format!(
                "from={}",
                quote(&typed(["from", "due_from"], true, v))?
            ));
        }
        if let Some(v) = &q.complete_by_to {
            words.push(format!("to={}", quote(&typed(["to", "due_to"], false, v))?));
        }
        // The search, else a view's own `query=`.
        let search = self.search.trim();
        let query = if search.is_empty() {
            q.query.as_deref().unwrap_or("").trim()
        } else {
            search
        };
        if !query.is_empty() {
            words.push(format!("query={}", quote(query)?));
        }
        Ok(words.join(" "))
    }

    /// `:view save NAME`: the filter to write (the loop writes it, then
    /// calls `view_saved`).
    pub fn save_view(&mut self, name: &str) -> Result<Vec<Effect>, String> {
        let name = name.trim();
        if name_key(name).is_empty() {
            return Err("give the view a name: :view save NAME".into());
        }
        let filter = self.saved_filter()?;
        Ok(vec![Effect::SaveView {
            name: name.to_string(),
            filter,
        }])
    }

    /// The config file was written (or not): the view is usable at once,
    /// and it is the current view.
    pub fn view_saved(&mut self, name: String, filter: String, written: Result<String, String>) {
        match written {
            Ok(path) => {
                let i = match self
                    .views
                    .list
                    .iter()
                    .position(|v| name_key(&v.name) == name_key(&name))
                {
                    Some(i) => {
                        self.views.list[i].filter = filter.clone();
                        i
                    }
                    None => {
                        self.views.list.push(View {
                            name: name.clone(),
                            filter: filter.clone(),
                            key: None,
                        });
                        self.views.list.len() - 1
                    }
                };
                // The filters (and search) shown are the view now.
                self.views.counts.remove(&i);
                self.view = Some(i);
                self.views.base = Some(self.filters.clone());
                let shown = if filter.is_empty() {
                    "every task".to_string()
                } else {
                    filter
                };
                // The demo writes its own config, never the user's.
                let place = if self.demo {
                    "the demo's own config (discarded at exit)".to_string()
                } else {
                    path
                };
                self.say(
                    Level::Success,
                    format!("view {name:?} saved in {place}: {shown}"),
                );
            }
            Err(e) => self.say(Level::Error, format!("view {name:?} not saved: {e}")),
        }
    }
}
