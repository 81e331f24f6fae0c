//! An open popup gets the key first (`overlay_key`): the one `impl State`
//! of the popups, which hands each key to the popup's own module and acts
//! on its outcome. Above the state; imported by no one.

use super::super::keymap::Context;
use super::super::state::{ApiRequest, Confirmed, Effect, Focus, Level, Overlay, State};
use super::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl State {
    pub fn overlay_key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && ev.code == KeyCode::Char('c') && !matches!(self.overlay, Overlay::Compose(_)) {
            if let Overlay::Confirm {
                back_to: Some(b), ..
            } = std::mem::replace(&mut self.overlay, Overlay::None)
            {
                self.overlay = *b;
            }
            return vec![];
        }
        let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
        match overlay {
            Overlay::None => vec![],
            Overlay::Help { filter, scroll } => self.help_key(filter, scroll, ev),
            Overlay::Text {
                title,
                lines,
                scroll,
            } => self.text_key(title, lines, scroll, ev),
            Overlay::Search(b) => self.search_key(b, ev),
            Overlay::Palette(mut p) => {
                let sources = self.palette_sources();
                let action = self.keymap.lookup(&[Context::Palette], &ev);
                match p.on_key(&ev, action, &sources) {
                    palette::PaletteOutcome::Stay => {
                        self.overlay = Overlay::Palette(p);
                        vec![]
                    }
                    palette::PaletteOutcome::Ask(words) => {
                        self.overlay = Overlay::Palette(p);
                        self.say(Level::Info, words);
                        vec![]
                    }
                    palette::PaletteOutcome::Close => vec![],
                    palette::PaletteOutcome::Run(text) => self.run_palette(&text, p.target),
                }
            }
            Overlay::Confirm {
                lines,
                on_yes,
                back_to,
                scroll,
            } => self.confirm_key(lines, on_yes, back_to, scroll, ev),
            Overlay::Compose(c) => self.compose_key(c, ev),
            Overlay::Picker(mut p) => {
                match p.on_key(&ev, self.keymap.lookup(&[Context::Picker], &ev)) {
                    sharing::PickerOutcome::Stay => {
                        self.overlay = Overlay::Picker(p);
                        vec![]
                    }
                    sharing::PickerOutcome::Cancel => {
                        self.say(Level::Info, "nothing chosen: nothing sent");
                        // Back to the editor, its entries as they were.
                        if let sharing::PickThen::Editor { editor, .. } = p.then {
                            self.overlay = Overlay::Sharing(editor);
                        }
                        vec![]
                    }
                    sharing::PickerOutcome::Chosen(id) => self.picked(p, id),
                }
            }
            Overlay::Sharing(mut ed) => {
                match ed.on_key(&ev, self.keymap.lookup(&[Context::Sharing], &ev)) {
                    sharing::SharingOutcome::Stay => {
                        self.overlay = Overlay::Sharing(ed);
                        vec![]
                    }
                    sharing::SharingOutcome::Cancel => {
                        self.say(Level::Info, "sharing unchanged");
                        vec![]
                    }
                    sharing::SharingOutcome::Review => self.review_sharing(ed),
                }
            }
            Overlay::Chooser(c) => self.chooser_key(c, ev),
            Overlay::Views(sw) => self.switcher_key(sw, ev),
            Overlay::Conflict(mut v) => {
                let out = v.on_key(self.keymap.lookup(&[Context::Conflict], &ev));
                self.conflict_outcome(v, out)
            }
            Overlay::Inbox(mut list) => {
                let action = self.keymap.lookup(&[Context::Inbox], &ev);
                let out = list.on_key(action, self.inbox.row_count());
                self.inbox_outcome(list, out)
            }
            Overlay::Filter(mut form) => {
                match form.on_key(&ev, self.keymap.lookup(&[Context::Filter], &ev)) {
                    filter_form::FormOutcome::Stay => {
                        self.overlay = Overlay::Filter(form);
                        vec![]
                    }
                    filter_form::FormOutcome::Close => vec![],
                    filter_form::FormOutcome::Apply => self.apply_filter_form(form),
                }
            }
        }
    }

    /// What the palette completes from besides the commands.
    pub fn palette_sources(&self) -> palette::Sources {
        palette::Sources {
            people: self.people_labels(),
            teams: self.directory.team_labels().into_iter().cloned().collect(),
            views: self.views.names(),
            commands: self.custom.palette(),
            macros: self
                .macros
                .iter()
                .map(|m| (m.name.clone(), m.description.clone()))
                .collect(),
            tags: self.loaded_tags(),
        }
    }

    /// The tags on the loaded tasks, each once, in order.
    fn loaded_tags(&self) -> Vec<String> {
        let tags: std::collections::BTreeSet<String> = self
            .list
            .items
            .iter()
            .filter_map(|i| i.task())
            .flat_map(|t| t.tags.iter().map(|g| g.raw().to_string()))
            .collect();
        tags.into_iter().collect()
    }

    pub fn open_palette(&mut self, prefill: &str) -> Vec<Effect> {
        let target = self.target().ok();
        self.overlay = Overlay::Palette(palette::Palette::new(prefill, target));
        vec![]
    }

    /// Run palette text; a task command runs only on the task the palette
    /// was opened for.
    pub(crate) fn run_palette(
        &mut self,
        text: &str,
        target: Option<(String, String)>,
    ) -> Vec<Effect> {
        let (word, _) = crate::app::state::command::split(text);
        let is_task = crate::app::state::command::spec(word).is_some_and(|s| s.task);
        if is_task {
            let now = self.target().ok();
            if let (Some((was, was_label)), Some((id, label))) = (&target, &now) {
                if was != id {
                    self.say(
                        Level::Error,
                        format!(
                            "the current task changed while the palette was open ({was_label} → {label}): nothing sent"
                        ),
                    );
                    return vec![];
                }
            }
        }
        self.command(text)
    }

    /// The sharing editor's review: what the PUT will do, in words. A
    /// name typed that the directory knows several of is asked first: the
    /// review never promises access the request cannot give (#32 §3).
    fn review_sharing(&mut self, ed: Box<sharing::SharingEditor>) -> Vec<Effect> {
        if let Some((team, index, candidates)) = ed.ambiguous_typed() {
            let list = if team { &ed.teams } else { &ed.users };
            let reference = list[index].reference.clone();
            self.say(
                Level::Info,
                format!("{reference:?} names more than one — pick one before the review"),
            );
            self.overlay = Overlay::Picker(sharing::Picker::new(
                reference,
                team,
                candidates,
                sharing::PickThen::Editor { editor: ed, index },
            ));
            return vec![];
        }
        let mut lines = vec![
            format!(
                "Save sharing of {}? This replaces who has access:",
                ed.task_label
            ),
            String::new(),
        ];
        lines.extend(ed.diff(self.my_id()));
        let id = ed.task_id.clone();
        let update = ed.update();
        // `n` returns to this editor with its edits.
        self.overlay = Overlay::Confirm {
            lines,
            on_yes: Confirmed::PutSharing { id, update },
            back_to: Some(Box::new(Overlay::Sharing(ed))),
            scroll: 0,
        };
        vec![]
    }

    /// A candidate was chosen: the editor's entry takes it (then the
    /// review), resend the sharing, or run the command.
    fn picked(&mut self, p: sharing::Picker, chosen: String) -> Vec<Effect> {
        match p.then {
            sharing::PickThen::Editor { mut editor, index } => {
                let label = p
                    .candidates
                    .iter()
                    .find(|(id, _)| *id == chosen)
                    .map_or(chosen.clone(), |(_, l)| l.clone());
                editor.resolve(p.team, index, chosen, label);
                editor.note = None;
                self.review_sharing(editor)
            }
            sharing::PickThen::Command { template, target } => {
                self.run_palette(&template.replace("{}", &chosen), target)
            }
            sharing::PickThen::PutSharing {
                task_id,
                mut update,
            } => {
                if p.team {
                    for t in update.teams.iter_mut().filter(|t| t.team_id == p.reference) {
                        t.team_id = chosen.clone();
                    }
                } else {
                    for u in update.users.iter_mut().filter(|u| u.user_id == p.reference) {
                        u.user_id = chosen.clone();
                    }
                }
                vec![self.request(ApiRequest::PutSharing {
                    id: task_id,
                    update,
                })]
            }
        }
    }

    pub fn open_filter_form(&mut self) -> Vec<Effect> {
        let form =
            filter_form::FilterForm::from_query(&self.filters, self.my_id(), &self.directory);
        self.overlay = Overlay::Filter(Box::new(form));
        vec![]
    }

    /// Apply what the form shows: names become ids first; a problem keeps
    /// the form open with the message.
    fn apply_filter_form(&mut self, mut form: Box<filter_form::FilterForm>) -> Vec<Effect> {
        let problem = match form.to_query(self.my_id()) {
            Ok(mut q) => match crate::app::state::fields::resolve_names(&mut q, &self.directory) {
                Ok(()) => {
                    self.set_filters(q);
                    self.focus = Focus::List;
                    return self.reload_list(false);
                }
                Err(Ok(amb)) => format!(
                    "{}={} matches {}: type one of their e-mails",
                    amb.key,
                    amb.reference,
                    amb.candidates
                        .iter()
                        .map(|(_, l)| l.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Err(Err(e)) => e,
            },
            Err(e) => e,
        };
        form.error = Some(crate::text::clean(&problem));
        self.overlay = Overlay::Filter(form);
        vec![]
    }
}
