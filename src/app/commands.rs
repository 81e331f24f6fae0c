//! Palette commands (`:status completed`, `:due +3d`, …).

use super::dates;
use super::reducer::{file_entries, file_id, parse_filters};
use super::state::*;
use crate::api::*;
use chrono::Utc;
use std::time::Instant;

fn is_uuid(s: &str) -> bool {
    uuid::Uuid::parse_str(s).is_ok()
}

/// `none`/`clear` clear the field, anything else sets it.
fn id_or_clear(arg: &str) -> Result<Field<String>, String> {
    match arg {
        "" => Err("give an id, or none to clear".into()),
        "none" | "clear" => Ok(Field::Clear),
        id => Ok(Field::Set(id.to_string())),
    }
}

impl State {
    pub fn command(&mut self, line: &str) -> Vec<Effect> {
        let line = line.trim().trim_start_matches(':').trim();
        let (cmd, arg) = line
            .split_once(' ')
            .map(|(c, a)| (c, a.trim()))
            .unwrap_or((line, ""));
        match self.run_command(cmd, arg) {
            Ok(fx) => fx,
            Err(msg) => {
                self.say(Level::Error, format!(":{cmd}: {msg}"));
                vec![]
            }
        }
    }

    fn task_id(&self) -> Result<String, String> {
        self.current_task()
            .map(|t| t.id.as_str().to_string())
            .ok_or_else(|| self.no_task_reason().to_string())
    }

    fn run_command(&mut self, cmd: &str, arg: &str) -> Result<Vec<Effect>, String> {
        Ok(match cmd {
            "" => vec![],
            "status" => {
                if arg.is_empty() {
                    return Err(
                        "which status? not_started, in_progress, waiting_on_external, completed"
                            .into(),
                    );
                }
                let s = Status::parse(arg);
                if !s.is_known() {
                    return Err(format!("unknown status {arg:?}"));
                }
                self.patch(
                    "status",
                    s.label(),
                    TaskPatch {
                        status: Some(s),
                        ..Default::default()
                    },
                )
            }
            "priority" => {
                let p = Priority::parse(arg);
                if !p.is_known() {
                    return Err(format!(
                        "unknown priority {arg:?} (urgent, high, medium, low, no_priority)"
                    ));
                }
                self.patch(
                    "priority",
                    p.to_string(),
                    TaskPatch {
                        priority: Some(p),
                        ..Default::default()
                    },
                )
            }
            "assign" => {
                let (id, shown) = self.resolve_person(arg)?;
                self.patch(
                    "assigned_to",
                    shown,
                    TaskPatch {
                        assigned_to: Field::Set(id),
                        ..Default::default()
                    },
                )
            }
            "unassign" => self.patch(
                "assigned_to",
                "nobody".into(),
                TaskPatch {
                    assigned_to: Field::Clear,
                    ..Default::default()
                },
            ),
            "due" => {
                let due = dates::parse_due(arg, Utc::now())?;
                let shown = due.clone().unwrap_or_else(|| "none".into());
                let field = match due {
                    Some(d) => Field::Set(d),
                    None => Field::Clear,
                };
                self.patch(
                    "complete_by",
                    shown,
                    TaskPatch {
                        complete_by: field,
                        ..Default::default()
                    },
                )
            }
            "tags" => {
                if arg.is_empty() {
                    return Err(
                        "give tags: a,b replaces, +a -b adds and removes, none clears".into(),
                    );
                }
                let arg = if arg == "none" { "" } else { arg };
                let current: Vec<String> = self
                    .current_task()
                    .ok_or(self.no_task_reason())?
                    .tags
                    .iter()
                    .map(|t| t.raw().to_string())
                    .collect();
                let tags = edit_tags(&current, arg);
                let shown = if tags.is_empty() {
                    "none".into()
                } else {
                    tags.join(", ")
                };
                self.patch(
                    "tags",
                    shown,
                    TaskPatch {
                        tags: Some(tags),
                        ..Default::default()
                    },
                )
            }
            "title" => {
                if arg.is_empty() {
                    return Err("a title cannot be empty".into());
                }
                self.patch(
                    "title",
                    arg.to_string(),
                    TaskPatch {
                        title: Some(arg.to_string()),
                        ..Default::default()
                    },
                )
            }
            "description" | "context" => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                let id = t.id.as_str().to_string();
                let (current, field) = if cmd == "description" {
                    (t.description.clone(), "description")
                } else {
                    (t.additional_context.clone(), "additional_context")
                };
                if arg == "clear" || arg == "none" {
                    let p = super::compose::text_patch(field, "");
                    return Ok(self.patch(field, "none".into(), p));
                }
                if arg == "editor" {
                    let target = if cmd == "description" {
                        EditorTarget::Description { task_id: id }
                    } else {
                        EditorTarget::AdditionalContext { task_id: id }
                    };
                    return Ok(vec![Effect::Editor {
                        target,
                        initial: current.map(|d| d.raw().to_string()).unwrap_or_default(),
                    }]);
                }
                self.open_compose(ComposeKind::TextField { field })?
            }
            "agent" => {
                let f = id_or_clear(arg)?;
                self.patch(
                    "assigned_agent",
                    arg.into(),
                    TaskPatch {
                        assigned_agent: f,
                        ..Default::default()
                    },
                )
            }
            "team" => {
                let f = id_or_clear(arg)?;
                self.patch(
                    "assigned_team",
                    arg.into(),
                    TaskPatch {
                        assigned_team_id: f,
                        ..Default::default()
                    },
                )
            }
            "matter" => {
                let f = id_or_clear(arg)?;
                self.patch(
                    "matter",
                    arg.into(),
                    TaskPatch {
                        matter_id: f,
                        ..Default::default()
                    },
                )
            }
            "archive" => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                let (id, label) = (t.id.as_str().to_string(), t.label());
                if self.focus == Focus::List {
                    self.undo = Some((id, label, Instant::now() + super::reducer::UNDO_WINDOW));
                }
                self.patch(
                    "archived",
                    "archived".into(),
                    TaskPatch {
                        archived: Some(true),
                        ..Default::default()
                    },
                )
            }
            "restore" => self.patch(
                "archived",
                "restored".into(),
                TaskPatch {
                    archived: Some(false),
                    ..Default::default()
                },
            ),
            "undo" => {
                let (id, label, _) = self.undo.take().ok_or(
                    "nothing to undo (the offer lasts a few seconds after archiving; :restore restores the open task)",
                )?;
                self.say(Level::Info, format!("restoring {label}"));
                let patch = TaskPatch {
                    archived: Some(false),
                    ..Default::default()
                };
                vec![self.patch_task(id, "archived", "restored".into(), patch)]
            }
            "accept" => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                if !t.draft {
                    return Err("this task is not a draft".into());
                }
                self.patch(
                    "draft",
                    "accepted".into(),
                    TaskPatch {
                        draft: Some(false),
                        ..Default::default()
                    },
                )
            }
            "reject" => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                if !t.draft {
                    return Err("only a draft can be rejected".into());
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
            "comment" => self.open_compose(ComposeKind::Comment)?,
            "reply" => self.open_compose(ComposeKind::Requester)?,
            "link" => {
                let id = self.task_id()?;
                let words: Vec<&str> = arg.split_whitespace().collect();
                if words.is_empty() || words.len() % 2 != 0 {
                    return Err(
                        "use :link TYPE UUID [TYPE UUID…], TYPE one of chat, review, report, task"
                            .into(),
                    );
                }
                let mut links = Vec::new();
                for pair in words.chunks(2) {
                    let kind = LinkType::parse(pair[0]);
                    // A task may be named by its number when it is loaded.
                    let resolved;
                    let pair: [&str; 2] = if kind == LinkType::Task && pair[1].starts_with('#') {
                        let n = pair[1].trim_start_matches('#');
                        resolved = self
                            .list
                            .items
                            .iter()
                            .filter_map(|i| i.task())
                            .find(|t| {
                                t.display_id.raw() == pair[1]
                                    || t.task_number.map(|x| x.to_string()).as_deref() == Some(n)
                            })
                            .map(|t| t.id.as_str().to_string())
                            .ok_or(format!(
                                "{} is not among the loaded tasks: give its uuid",
                                pair[1]
                            ))?;
                        [pair[0], resolved.as_str()]
                    } else {
                        [pair[0], pair[1]]
                    };
                    if !kind.is_known() {
                        return Err(format!(
                            "unknown link type {:?} (chat, review, report, task)",
                            pair[0]
                        ));
                    }
                    if !is_uuid(pair[1]) {
                        return Err(format!("{:?} is not a uuid", pair[1]));
                    }
                    links.push((kind, pair[1].to_string()));
                }
                vec![self.request(ApiRequest::AddLinks { id, links })]
            }
            "role" => {
                let role = LinkRole::parse(arg);
                if !role.is_known() {
                    return Err(format!("unknown role {arg:?} (reference, subject, output)"));
                }
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
            "checks" => {
                let (id, kind, item) = self.link_target()?;
                if kind != LinkType::Review {
                    return Err("only review links take check ids".into());
                }
                let context = if arg.is_empty() || arg == "none" || arg == "clear" {
                    None
                } else {
                    Some(
                        arg.split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty())
                            .collect(),
                    )
                };
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
            "unlink" => {
                let (id, kind, item) = self.link_target()?;
                let name = self
                    .selected_link()
                    .map(|l| l.display_name.line().into_owned())
                    .unwrap_or_default();
                self.confirm(
                    vec![format!("Remove the {kind} link {name:?} from this task?")],
                    Confirmed::RemoveLink { id, kind, item },
                )
            }
            "share" => self.open_sharing()?,
            "attach" => {
                let id = self.task_id()?;
                let ids: Vec<String> = arg
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                if ids.is_empty() {
                    return Err("give one or more file ids".into());
                }
                if let Some(bad) = ids.iter().find(|i| !is_uuid(i)) {
                    return Err(format!("{bad:?} is not a file id (uuid)"));
                }
                vec![self.request(ApiRequest::Attach { id, file_ids: ids })]
            }
            "detach" => {
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
                let id = t.id.as_str().to_string();
                let name = crate::api::json_summary(&entry);
                self.confirm(
                    vec![
                        format!("Detach {name} from this task?"),
                        "The file itself is not deleted: it stays uploaded and can be attached again.".into(),
                    ],
                    Confirmed::Detach { id, file_id },
                )
            }
            "subtask" => {
                let parent = self.task_id()?;
                if arg.is_empty() {
                    return Err("give the subtask's title".into());
                }
                vec![self.request(ApiRequest::CreateSubtask {
                    parent,
                    title: arg.to_string(),
                })]
            }
            "filter" => {
                self.filters = parse_filters(arg, self.my_id())?;
                self.focus = Focus::List;
                self.reload_list(false)
            }
            "view" => match arg {
                "all" | "" => self.act(super::keymap::Action::ViewAll),
                "mine" => self.act(super::keymap::Action::ViewMine),
                "involving" => self.act(super::keymap::Action::ViewInvolving),
                "week" | "due" => self.act(super::keymap::Action::ViewDueWeek),
                other => {
                    return Err(format!(
                        "unknown view {other:?} (all, mine, involving, week)"
                    ))
                }
            },
            "open" => self.open_by_ref(arg)?,
            "validate" => {
                if arg.is_empty() {
                    return Err("give the path of a layout JSON file".into());
                }
                vec![Effect::ReadLayout {
                    path: arg.to_string(),
                }]
            }
            "copy" => {
                let t = self.current_task().ok_or(self.no_task_reason())?;
                let text = if arg == "id" {
                    t.id.as_str().to_string()
                } else {
                    t.display_id.raw().to_string()
                };
                vec![Effect::Copy(text)]
            }
            "refresh" => self.refresh(),
            "log" => self.act(super::keymap::Action::MessageLog),
            "help" => self.act(super::keymap::Action::Help),
            "quit" | "q" => self.act(super::keymap::Action::Quit),
            other => return Err(format!("unknown command {other:?} (see :help)")),
        })
    }

    fn link_target(&self) -> Result<(String, LinkType, String), String> {
        let l = self
            .selected_link()
            .ok_or("select a link in the Links tab first")?;
        let id = self
            .detail
            .as_ref()
            .map(|d| d.task_id.clone())
            .ok_or("no task open")?;
        Ok((id, l.kind.clone(), l.id.as_str().to_string()))
    }

    fn resolve_person(&self, arg: &str) -> Result<(String, String), String> {
        if arg.is_empty() {
            return Err("who? me, an e-mail, a name or a user id".into());
        }
        if arg == "me" {
            let me = self.me.as_ref().ok_or("who you are is not known yet")?;
            return Ok((me.user_id.clone(), me.user_name.line().into_owned()));
        }
        if is_uuid(arg) {
            let shown = self
                .people
                .get(arg)
                .map(|p| p.label())
                .unwrap_or_else(|| arg.to_string());
            return Ok((arg.to_string(), shown));
        }
        let lower = arg.to_lowercase();
        let matches: Vec<&Person> = self
            .people
            .values()
            .filter(|p| {
                p.email.raw().to_lowercase() == lower || p.name.raw().to_lowercase() == lower
            })
            .collect();
        match matches.as_slice() {
            [one] => Ok((one.id.as_str().to_string(), one.label())),
            [] => Err(format!(
                "no known person {arg:?}: type their e-mail as seen on a task, or their user id"
            )),
            many => Err(format!(
                "{arg:?} matches {} people: use the e-mail ({})",
                many.len(),
                many.iter()
                    .map(|p| p.email.line().into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn open_by_ref(&mut self, arg: &str) -> Result<Vec<Effect>, String> {
        let arg = arg.trim();
        if is_uuid(arg) {
            self.back_stack.clear();
            let task = self
                .list
                .position(arg)
                .and_then(|i| self.list.items[i].task().cloned());
            let fx = self.open_task(arg.to_string(), task);
            self.focus = Focus::Detail;
            return Ok(fx);
        }
        let number: i64 = arg
            .trim_start_matches('#')
            .parse()
            .map_err(|_| format!("{arg:?}: use #1234 or a task uuid"))?;
        let found = self.list.items.iter().find_map(|i| {
            i.task()
                .filter(|t| {
                    t.task_number == Some(number) || t.display_id.raw() == format!("#{number}")
                })
                .cloned()
        });
        Ok(match found {
            Some(t) => {
                self.back_stack.clear();
                self.say(Level::Info, format!("opened {}", t.label()));
                let fx = self.open_task(t.id.as_str().to_string(), Some(t));
                self.focus = Focus::Detail;
                fx
            }
            None => {
                // Navigate now: the detail shows that #N is being looked for,
                // and no action can land on the previously selected task.
                self.back_stack.clear();
                self.detail = Some(Detail::new(format!("#{number}"), None));
                self.focus = Focus::Detail;
                self.say(Level::Info, format!("looking for #{number}…"));
                let limit = 100;
                vec![self.request(ApiRequest::FindByNumber { number, limit })]
            }
        })
    }
}

/// `a,b` replaces; words starting with `+`/`-` add and remove.
pub fn edit_tags(current: &[String], arg: &str) -> Vec<String> {
    let words: Vec<&str> = arg
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    if !words.is_empty()
        && words
            .iter()
            .all(|w| w.starts_with('+') || w.starts_with('-'))
    {
        let mut tags = current.to_vec();
        for w in words {
            let (op, tag) = w.split_at(1);
            if op == "+" && !tags.iter().any(|t| t == tag) {
                tags.push(tag.to_string());
            } else if op == "-" {
                tags.retain(|t| t != tag);
            }
        }
        tags
    } else {
        let mut tags: Vec<String> = Vec::new();
        for w in words {
            if !tags.iter().any(|t| t == w) {
                tags.push(w.to_string());
            }
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_replace_add_remove() {
        let cur = vec!["a".to_string(), "b".to_string()];
        assert_eq!(edit_tags(&cur, "x,y"), vec!["x", "y"]);
        assert_eq!(edit_tags(&cur, "+c -a"), vec!["b", "c"]);
        assert_eq!(edit_tags(&cur, ""), Vec::<String>::new());
    }
}
