//! The handler of every `Command`: one exhaustive match. Task commands act
//! on the current task (`State::target`) and name it.

use crate::api::*;
use crate::app::dates;
use crate::app::edit::names::filter_template;
use crate::app::state::command::{Command, TextEdit};
use crate::app::state::directory::Resolved;
use crate::app::state::fields::{edit_tags, file_entries, file_id, parse_filters};
use crate::app::state::{
    ApiRequest, ComposeKind, Confirmed, EditorTarget, Effect, Focus, Level, Overlay, State, Tab,
};
use jiff::Timestamp;

impl State {
    /// Run palette text. Errors go to the status line.
    pub fn command(&mut self, line: &str) -> Vec<Effect> {
        match Command::parse(line) {
            Ok(c) => self.run_or_say(c),
            Err(msg) => {
                self.say(Level::Error, msg);
                vec![]
            }
        }
    }

    pub fn run_or_say(&mut self, c: Command) -> Vec<Effect> {
        let name = command_name(&c);
        match self.run(c) {
            Ok(fx) => fx,
            Err(msg) => {
                self.say(Level::Error, format!(":{name}: {msg}"));
                vec![]
            }
        }
    }

    /// A one-field PATCH of the current task with a pending mark.
    fn patch_current(
        &mut self,
        field: &str,
        shown: String,
        patch: TaskPatch,
    ) -> Result<Vec<Effect>, String> {
        let (id, _) = self.target()?;
        Ok(vec![self.patch_task(id, field, shown, patch)])
    }

    pub fn run(&mut self, c: Command) -> Result<Vec<Effect>, String> {
        // With tasks marked, a task edit acts on every marked task.
        if let Some(outcome) = self.run_marked(&c) {
            return outcome;
        }
        Ok(match c {
            Command::Status(s) => self.patch_current(
                "status",
                s.label(),
                TaskPatch {
                    status: Some(s),
                    ..Default::default()
                },
            )?,
            Command::Priority(p) => self.patch_current(
                "priority",
                p.to_string(),
                TaskPatch {
                    priority: Some(p),
                    ..Default::default()
                },
            )?,
            Command::Assign(who) => {
                let (id, shown) = match self.resolve_person(&who) {
                    Ok(found) => found,
                    Err(Ok(candidates)) => {
                        self.target()?;
                        return Ok(self.pick(&who, false, candidates, "assign {}".into()));
                    }
                    Err(Err(msg)) => return Err(msg),
                };
                self.patch_current(
                    "assigned_to",
                    shown,
                    TaskPatch {
                        assigned_to: Field::Set(id),
                        ..Default::default()
                    },
                )?
            }
            Command::Unassign => self.patch_current(
                "assigned_to",
                "nobody".into(),
                TaskPatch {
                    assigned_to: Field::Clear,
                    ..Default::default()
                },
            )?,
            Command::Due(arg) => {
                let due = dates::parse_due(&arg, Timestamp::now())?;
                let shown = due.clone().unwrap_or_else(|| "none".into());
                let field = match due {
                    Some(d) => Field::Set(d),
                    None => Field::Clear,
                };
                self.patch_current(
                    "complete_by",
                    shown,
                    TaskPatch {
                        complete_by: field,
                        ..Default::default()
                    },
                )?
            }
            Command::Tags(arg) => {
                let arg = if arg == "none" { "" } else { arg.as_str() };
                let current: Vec<String> = self
                    .current_task()
                    .ok_or(self.no_task_reason())?
                    .tags
                    .iter()
                    .map(|t| t.raw().to_string())
                    .collect();
                let tags = edit_tags(&current, arg)?;
                let shown = if tags.is_empty() {
                    "none".into()
                } else {
                    tags.join(", ")
                };
                self.patch_current(
                    "tags",
                    shown,
                    TaskPatch {
                        tags: Some(tags),
                        ..Default::default()
                    },
                )?
            }
            Command::Title(title) => self.patch_current(
                "title",
                title.clone(),
                TaskPatch {
                    title: Some(title),
                    ..Default::default()
                },
            )?,
            Command::Description(how) => self.edit_text("description", how)?,
            Command::Context(how) => self.edit_text("additional_context", how)?,
            Command::Agent(f) => {
                let shown = shown_field(&f);
                self.patch_current(
                    "assigned_agent",
                    shown,
                    TaskPatch {
                        assigned_agent: f,
                        ..Default::default()
                    },
                )?
            }
            Command::Team(f) => {
                // A team by name or id, as the directory knows it.
                let f = match f {
                    Field::Set(r) => match self.directory.resolve_team(&r) {
                        Resolved::One(id, _) => Field::Set(id),
                        Resolved::Many(c) => {
                            self.target()?;
                            return Ok(self.pick(&r, true, c, "team {}".into()));
                        }
                        Resolved::None if uuid::Uuid::parse_str(&r).is_ok() => Field::Set(r),
                        Resolved::None => {
                            return Err(format!(
                                "no known team {r:?}: type its name as seen on a task, or its id (nothing sent)"
                            ))
                        }
                    },
                    other => other,
                };
                let shown = match &f {
                    Field::Set(id) => self
                        .directory
                        .teams
                        .get(id)
                        .map(|t| t.label())
                        .unwrap_or_else(|| id.clone()),
                    _ => "none".into(),
                };
                self.patch_current(
                    "assigned_team",
                    shown,
                    TaskPatch {
                        assigned_team_id: f,
                        ..Default::default()
                    },
                )?
            }
            Command::Matter(f) => {
                let shown = shown_field(&f);
                self.patch_current(
                    "matter",
                    shown,
                    TaskPatch {
                        matter_id: f,
                        ..Default::default()
                    },
                )?
            }
            Command::Archive => self.patch_current(
                "archived",
                "archived".into(),
                TaskPatch {
                    archived: Some(true),
                    ..Default::default()
                },
            )?,
            Command::Restore => self.patch_current(
                "archived",
                "restored".into(),
                TaskPatch {
                    archived: Some(false),
                    ..Default::default()
                },
            )?,
            Command::Undo => self.undo_last()?,
            Command::Redo => self.redo_last()?,
            Command::History => self.show_history(),
            Command::Accept => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                if !t.draft {
                    return Err(format!("{} is not a draft", t.label()));
                }
                self.patch_current(
                    "draft",
                    "accepted".into(),
                    TaskPatch {
                        draft: Some(false),
                        ..Default::default()
                    },
                )?
            }
            Command::Reject => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                if !t.draft {
                    return Err(format!(
                        "{} is not a draft: only a draft can be rejected",
                        t.label()
                    ));
                }
                let (id, label) = (t.id.as_str().to_string(), t.label());
                self.confirm(
                    vec![
                        format!("Reject draft {label}?"),
                        "The draft task is deleted on the service.".into(),
                    ],
                    Confirmed::RejectDraft { id },
                )
            }
            Command::Comment => self.open_compose(ComposeKind::Comment)?,
            Command::Reply => self.open_compose(ComposeKind::Requester)?,
            Command::Link(pairs) => {
                let (id, _) = self.target()?;
                // One `task #N` not in the list: the picker looks further
                // (the tasks seen, those of earlier sessions).
                if let [(LinkType::Task, item)] = &pairs[..] {
                    if item.starts_with('#') && self.task_by_number(item).is_none() {
                        return self.open_link_picker(item);
                    }
                }
                let mut links = Vec::new();
                for (kind, item) in pairs {
                    let item = if item.starts_with('#') {
                        self.task_by_number(&item)
                            .map(|t| t.id.as_str().to_string())
                            .ok_or(format!(
                                "{item} is not among the loaded tasks: give its uuid"
                            ))?
                    } else {
                        item
                    };
                    links.push((kind, item));
                }
                vec![self.request(ApiRequest::AddLinks { id, links })]
            }
            Command::Role(role) => {
                let (id, kind, item) = self.link_target()?;
                vec![self.request(ApiRequest::UpdateLink {
                    id,
                    kind,
                    item,
                    update: LinkUpdate {
                        role: Some(role),
                        context: None,
                    },
                })]
            }
            Command::Checks(context) => {
                let (id, kind, item) = self.link_target()?;
                if kind != LinkType::Review {
                    return Err("only review links take check ids".into());
                }
                vec![self.request(ApiRequest::UpdateLink {
                    id,
                    kind,
                    item,
                    update: LinkUpdate {
                        role: None,
                        context: Some(context),
                    },
                })]
            }
            Command::Unlink => {
                let (id, kind, item) = self.link_target()?;
                let (_, label) = self.target()?;
                let name = self
                    .selected_link()
                    .map(|l| l.display_name.line().into_owned())
                    .unwrap_or_default();
                self.confirm(
                    vec![format!("Remove the {kind} link {name:?} from {label}?")],
                    Confirmed::RemoveLink { id, kind, item },
                )
            }
            Command::Share => self.open_sharing()?,
            Command::ShareAdd(add) => self.share_add_current(&add)?,
            Command::AttachPick => self.open_attach_picker()?,
            Command::LinkPick(query) => self.open_link_picker(&query)?,
            Command::Drafts => self.open_drafts(),
            Command::Attach(file_ids) => {
                let (id, _) = self.target()?;
                vec![self.request(ApiRequest::Attach { id, file_ids })]
            }
            Command::Detach => {
                let d = self
                    .detail
                    .as_ref()
                    .filter(|d| d.tab == Tab::Files)
                    .ok_or("select a file in the Files tab first")?;
                let t = d.task.as_ref().ok_or("the task is still loading")?;
                let entry = file_entries(t)
                    .get(d.cursor)
                    .map(|(_, v)| (*v).clone())
                    .ok_or("no file selected")?;
                let file_id = file_id(&entry).ok_or("this file entry has no id")?;
                let (id, label) = (t.id.as_str().to_string(), t.label());
                let name = crate::api::json_summary(&entry);
                self.confirm(
                    vec![
                        format!("Detach {name} from {label}?"),
                        "The file itself is not deleted: it stays uploaded and can be attached again.".into(),
                    ],
                    Confirmed::Detach { id, file_id },
                )
            }
            Command::Subtask(title) => {
                let (parent, _) = self.target()?;
                vec![self.request(ApiRequest::CreateSubtask { parent, title })]
            }
            Command::Parent => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                let parent = t.parent_id().ok_or(format!(
                    "{} is not a subtask (the service names no parent)",
                    t.label()
                ))?;
                let fx = self.jump_to(parent, None);
                self.focus = Focus::Detail;
                fx
            }
            Command::Filter(words) => {
                let mut q = parse_filters(&words, self.my_id())?;
                // Names become ids before anything is sent.
                match crate::app::state::fields::resolve_names(&mut q, &self.directory) {
                    Ok(()) => {}
                    Err(Ok(amb)) => {
                        let template = filter_template(&words, amb.key, &amb.reference);
                        return Ok(self.pick(
                            &amb.reference,
                            amb.key == "team",
                            amb.candidates,
                            template,
                        ));
                    }
                    Err(Err(msg)) => return Err(msg),
                }
                // On top of the view's own filter; `clear` clears all.
                let q = match self.view_base() {
                    Some(base) if !q.is_empty() => crate::app::state::fields::merge(base, &q),
                    _ => q,
                };
                self.note_filter_words(&words);
                self.set_filters(q);
                self.focus = Focus::List;
                self.reload_list(false)
            }
            Command::View(name) => self.choose_view(&name)?,
            Command::SaveView(name) => self.save_view(&name)?,
            Command::Run(name) => self.run_custom(&name)?,
            Command::Output => self.show_output()?,
            Command::Board => self.toggle_board(),
            Command::Open(arg) => self.open_by_ref(&arg)?,
            Command::Validate(path) => vec![Effect::ReadLayout { path }],
            Command::Copy { id } => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                let text = if id {
                    t.id.as_str().to_string()
                } else {
                    t.display_id.raw().to_string()
                };
                vec![Effect::Copy(text)]
            }
            Command::Back => self.history_back(),
            Command::Forward => self.history_forward(),
            Command::Zoom => {
                self.zoom = !self.zoom;
                vec![]
            }
            Command::Raw => {
                self.markdown_raw = !self.markdown_raw;
                self.say(
                    Level::Info,
                    if self.markdown_raw {
                        "text as written (m again: rendered)"
                    } else {
                        "text rendered (m again: as written)"
                    },
                );
                vec![]
            }
            Command::Refresh => self.refresh(),
            Command::Recent => {
                self.open_chooser(crate::app::popups::chooser::ChooserKind::Recent);
                vec![]
            }
            Command::Changed => {
                self.open_chooser(crate::app::popups::chooser::ChooserKind::Changed);
                vec![]
            }
            Command::Outbox => {
                self.open_chooser(crate::app::popups::chooser::ChooserKind::Outbox);
                vec![]
            }
            Command::Inbox => self.open_inbox(),
            Command::Snooze(when) => self.inbox_mark(crate::store::MarkKind::Snooze, &when)?,
            Command::FollowUp(when) => self.inbox_mark(crate::store::MarkKind::FollowUp, &when)?,
            Command::Snoozed => {
                self.open_chooser(crate::app::popups::chooser::ChooserKind::Snoozed);
                vec![]
            }
            Command::Profile(name) => self.switch_profile(&name)?,
            Command::Log => vec![Effect::ShowLog],
            Command::Help => {
                self.overlay = Overlay::Help {
                    filter: crate::app::state::input::LineInput::default(),
                    scroll: 0,
                };
                vec![]
            }
            Command::Quit => {
                self.quit = true;
                vec![Effect::Quit]
            }
        })
    }

    /// `:description` / `:context`: here, in `$EDITOR`, or cleared.
    fn edit_text(&mut self, field: &'static str, how: TextEdit) -> Result<Vec<Effect>, String> {
        let t = self.current_task().ok_or(self.no_task_reason())?;
        let id = t.id.as_str().to_string();
        let current = if field == "description" {
            t.description.clone()
        } else {
            t.additional_context.clone()
        };
        Ok(match how {
            TextEdit::Clear => {
                let p = crate::app::popups::compose::text_patch(field, "");
                self.patch_current(field, "none".into(), p)?
            }
            TextEdit::Editor => {
                let target = if field == "description" {
                    EditorTarget::Description { task_id: id }
                } else {
                    EditorTarget::AdditionalContext { task_id: id }
                };
                vec![Effect::Editor {
                    target,
                    initial: current.map(|d| d.raw().to_string()).unwrap_or_default(),
                }]
            }
            TextEdit::Here => self.open_compose(ComposeKind::TextField { field })?,
        })
    }

    /// A loaded task by its number (`#12` or `12`).
    pub fn task_by_number(&self, arg: &str) -> Option<&Task> {
        let n = arg.trim().trim_start_matches('#');
        self.list.items.iter().filter_map(|i| i.task()).find(|t| {
            t.display_id.raw() == format!("#{n}")
                || t.task_number.map(|x| x.to_string()).as_deref() == Some(n)
        })
    }

    fn link_target(&self) -> Result<(String, LinkType, String), String> {
        let l = self
            .selected_link()
            .ok_or("select a link in the Links tab first")?;
        let (id, _) = self.target()?;
        Ok((id, l.kind.clone(), l.id.as_str().to_string()))
    }

    fn open_by_ref(&mut self, arg: &str) -> Result<Vec<Effect>, String> {
        let arg = arg.trim();
        if uuid::Uuid::parse_str(arg).is_ok() {
            let fx = self.jump_to(arg.to_string(), None);
            self.focus = Focus::Detail;
            return Ok(fx);
        }
        let number: i64 = arg
            .trim_start_matches('#')
            .parse()
            .map_err(|_| format!("{arg:?}: use #1234 or a task uuid"))?;
        Ok(match self.task_by_number(arg).cloned() {
            Some(t) => {
                self.say(Level::Info, format!("opened {}", t.label()));
                let fx = self.jump_to(t.id.as_str().to_string(), Some(t));
                self.focus = Focus::Detail;
                fx
            }
            // Not a row: what is known of the number, else the service
            // (`list/numbers/`).
            None => self.open_number(number),
        })
    }
}

fn shown_field(f: &Field<String>) -> String {
    match f {
        Field::Set(v) => v.clone(),
        _ => "none".into(),
    }
}

/// The command's name, for messages.
fn command_name(c: &Command) -> String {
    if matches!(c, Command::ShareAdd(_)) {
        return "share".into();
    }
    if matches!(c, Command::FollowUp(_)) {
        return "follow-up".into();
    }
    let dbg = format!("{c:?}");
    let word: String = dbg.chars().take_while(|ch| ch.is_alphanumeric()).collect();
    word.to_lowercase()
}
