//! What the state does for `views` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::super::keymap::Key;
use super::super::state::{ApiRequest, Effect, Overlay, Reply, State};
use super::*;
use crate::api::TaskQuery;
use crate::app::edit::names::filter_template;
use crate::app::state::fields::{filter_words, parse_filters, resolve_names};
use crate::config::name_key;

impl State {
    /// The views and custom commands of the config file; the problems
    /// with their keys come back as warnings.
    pub fn install_config(&mut self, settings: &crate::config::Settings) -> Vec<String> {
        self.views = Views::from_entries(&crate::config::builtin_views(), &settings.views);
        // The list starts without filters: the title names the view that
        // has none (All, unless the config gave All a filter).
        if self.filters.is_empty() {
            self.view = self.views.list.iter().position(|v| v.filter.is_empty());
        }
        self.custom = super::super::custom::Custom::from_entries(&settings.commands);
        // A key two entries share goes to the first (views first).
        let taken: Vec<Key> = self.views.list.iter().filter_map(|v| v.key).collect();
        for c in self.custom.commands.iter_mut() {
            if c.key.is_some_and(|k| taken.contains(&k)) {
                c.key = None;
            }
        }
        // A macro whose key is taken is never offered (`config check`
        // fails on it).
        let refused = macro_key_problems(
            &self.keymap,
            &settings.views,
            &settings.commands,
            &settings.macros,
        );
        self.macros = settings
            .macros
            .iter()
            .filter(|m| !refused.iter().any(|(n, _)| *n == m.name))
            .cloned()
            .collect();
        let mut out = key_problems(&self.keymap, &settings.views, &settings.commands);
        out.extend(refused.into_iter().map(|(_, why)| why));
        out
    }

    /// A view named as stored (the last view of a previous run): current
    /// again over the filters restored with it, which `:filter` then adds
    /// to. A name no view has any more leaves the filters unnamed.
    pub fn restore_view(&mut self, name: Option<&str>) {
        self.view = name.and_then(|n| {
            self.views
                .list
                .iter()
                .position(|v| name_key(&v.name) == name_key(n))
        });
        self.views.base = self.view.map(|_| self.filters.clone());
    }

    /// The list title's name for the filters: the view's, else `Custom`.
    pub fn view_title(&self) -> &str {
        self.view
            .and_then(|i| self.views.list.get(i))
            .map(|v| v.title())
            .unwrap_or("Custom")
    }

    /// View `i`'s filters, read now: relative dates from today, `me` as
    /// who you are, names as ids.
    pub fn view_query(&self, i: usize) -> Result<TaskQuery, String> {
        let v = self.views.list.get(i).ok_or("no such view")?;
        if v.needs_me() && self.me.is_none() {
            return Err("who you are is not known yet (identity lookup pending or failed)".into());
        }
        let mut q = parse_filters(&v.filter, self.my_id())
            .map_err(|e| format!("view {:?}: {e}", v.name))?;
        match resolve_names(&mut q, &self.directory) {
            Ok(()) => Ok(q),
            Err(Ok(amb)) => Err(format!(
                "view {:?}: {}={} matches several — write an e-mail or id in its filter",
                v.name, amb.key, amb.reference
            )),
            Err(Err(e)) => Err(format!("view {:?}: {e}", v.name)),
        }
    }

    /// `:view NAME` (no name: the switcher).
    pub fn choose_view(&mut self, typed: &str) -> Result<Vec<Effect>, String> {
        if typed.trim().is_empty() {
            return Ok(self.open_switcher());
        }
        let i = self.views.find(typed)?;
        Ok(self.set_view(i))
    }

    /// The filters `:filter` adds to: the chosen view's, as chosen.
    pub fn view_base(&self) -> Option<&TaskQuery> {
        self.view.and(self.views.base.as_ref())
    }

    /// After the filters changed: the view whose name still holds. The
    /// chosen view's while its own filters are all still set (more may be
    /// added); no filter at all is the view without a filter (All).
    pub fn view_holding_filters(&self) -> Option<usize> {
        let f = &self.filters;
        if f.is_empty() {
            return self.views.list.iter().position(|v| v.filter.is_empty());
        }
        let i = self.view?;
        let base = self.views.base.as_ref()?;
        (!base.is_empty() && holds(f, base)).then_some(i)
    }

    /// The filters changed (the form, `:filter`): the view's name stays
    /// while they hold what it stands for; another view's filters become
    /// what `:filter` adds to.
    pub fn rename_view_for_filters(&mut self) {
        let v = self.view_holding_filters();
        if v != self.view {
            self.views.base = v.and_then(|i| self.view_query(i).ok());
        }
        self.view = v;
    }

    /// `:filter WORDS` ran: its words go on top of the ones behind the
    /// current filters (`clear` forgets them).
    /// `:filter WORDS` (`f`): names become ids before anything is sent
    /// (a choice when a name is several people's); the words go on top of
    /// the view's own filter, and `clear` clears all.
    pub fn filter_by(&mut self, words: &str) -> Result<Vec<Effect>, String> {
        let mut q = parse_filters(words, self.my_id())?;
        match resolve_names(&mut q, &self.directory) {
            Ok(()) => {}
            Err(Ok(amb)) => {
                let template = filter_template(words, amb.key, &amb.reference);
                return Ok(self.pick(&amb.reference, amb.key == "team", amb.candidates, template));
            }
            Err(Err(msg)) => return Err(msg),
        }
        let q = match self.view_base() {
            Some(base) if !q.is_empty() => crate::app::state::fields::merge(base, &q),
            _ => q,
        };
        self.note_filter_words(words);
        self.set_filters(q);
        self.focus = crate::app::state::Focus::List;
        Ok(self.reload_list(false))
    }

    pub fn note_filter_words(&mut self, words: &str) {
        match filter_words(words) {
            Ok(w) if words.trim() == "clear" || w.is_empty() => {
                self.views.words.clear();
                self.views.words_at.clear();
            }
            Ok(w) => {
                let now = crate::clock::timestamp();
                self.views.words_at.extend(w.iter().map(|_| now));
                self.views.words.extend(w);
            }
            Err(_) => {}
        }
    }

    /// The key of a view or a custom command (config data), when the
    /// keymap has none for it here.
    pub fn config_key(&mut self, ev: &crossterm::event::KeyEvent) -> Vec<Effect> {
        let Some(key) = Key::from_event(ev) else {
            return vec![];
        };
        if let Some(i) = self.views.by_key(&key) {
            return self.set_view(i);
        }
        if let Some(name) = self.custom.by_key(&key) {
            return self.run_or_say(crate::app::state::command::Command::Run(name));
        }
        if let Some(name) = self.macro_by_key(&key) {
            return self.run_or_say(crate::app::state::command::Command::Macro(name));
        }
        // A digit no view and no command claims: the Nth tab.
        if let Some(i) = self.views.tab_for_key(&key) {
            return self.set_view(i);
        }
        vec![]
    }

    /// The switcher: every view with its count. Counts are asked for now,
    /// one first page per view, and fill in as they come.
    pub fn open_switcher(&mut self) -> Vec<Effect> {
        let selected = self.view.unwrap_or(0);
        self.overlay = Overlay::Views(super::super::popups::switcher::Switcher { selected });
        self.count_views()
    }

    /// One first page per view (those not being counted already).
    pub fn count_views(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        for i in 0..self.views.list.len() {
            if matches!(self.views.counts.get(&i), Some(Count::Asking(_))) {
                continue;
            }
            if self.views.list[i].needs_me() && self.me.is_none() {
                self.views.counts.insert(i, Count::NeedsIdentity);
                continue;
            }
            match self.view_query(i) {
                Ok(query) => {
                    let e = self.request(ApiRequest::ViewCount {
                        view: i,
                        query,
                        limit: self.page_size,
                    });
                    if let Effect::Api { ticket, .. } = &e {
                        self.views.counts.insert(i, Count::Asking(*ticket));
                    }
                    fx.push(e);
                }
                Err(e) => {
                    self.views.counts.insert(i, Count::Failed(e));
                }
            }
        }
        fx
    }

    /// A count came back (an older ask for the same view is dropped).
    pub fn view_counted(
        &mut self,
        ticket: u64,
        view: usize,
        result: Result<Reply, crate::api::ApiError>,
    ) -> Vec<Effect> {
        if self.views.counts.get(&view) != Some(&Count::Asking(ticket)) {
            return vec![];
        }
        let c = match result {
            Ok(Reply::Page(p)) => Count::Rows {
                n: p.items.len(),
                more: p.cursor.is_some(),
            },
            Ok(_) => Count::Failed("unexpected answer".into()),
            Err(e) => Count::Failed(e.to_string()),
        };
        self.views.counts.insert(view, c);
        vec![]
    }
}
