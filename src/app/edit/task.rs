//! The commands that change the current task's own fields (`:status`,
//! `:assign`, `:due`, `:tags`, `:description`, …, `:accept`, `:reject`,
//! `:subtask`): each resolves what was typed, then sends one PATCH with a
//! pending mark (`patch_current`), or asks first (a picker, a
//! confirmation). `dispatch::commands` hands each command here.

use crate::api::*;
use crate::app::dates;
use crate::app::state::command::TextEdit;
use crate::app::state::directory::Resolved;
use crate::app::state::fields::edit_tags;
use crate::app::state::{
    AfterWhole, ApiRequest, ComposeKind, Confirmed, EditorTarget, Effect, Level, State,
};
use crate::domain::task_field::TaskField;

type Fx = Result<Vec<Effect>, String>;

impl State {
    /// A one-field PATCH of the current task with a pending mark.
    pub(crate) fn patch_current(&mut self, field: &str, shown: String, patch: TaskPatch) -> Fx {
        let (id, _) = self.target()?;
        Ok(vec![self.patch_task(id, field, shown, patch)])
    }

    /// `:status`.
    pub fn set_status(&mut self, s: Status) -> Fx {
        let shown = s.label();
        let patch = TaskPatch {
            status: Some(s),
            ..Default::default()
        };
        self.patch_current(TaskField::Status.wire(), shown, patch)
    }

    /// `:priority`.
    pub fn set_priority(&mut self, p: Priority) -> Fx {
        let shown = p.to_string();
        let patch = TaskPatch {
            priority: Some(p),
            ..Default::default()
        };
        self.patch_current(TaskField::Priority.wire(), shown, patch)
    }

    /// `:assign WHO`: a person known by that name, or a choice between the
    /// people of that name.
    pub fn assign(&mut self, who: &str) -> Fx {
        let (id, shown) = match self.resolve_person(who) {
            Ok(found) => found,
            Err(Ok(candidates)) => {
                self.target()?;
                return Ok(self.pick(who, false, candidates, "assign {}".into()));
            }
            Err(Err(msg)) => return Err(msg),
        };
        let patch = TaskPatch {
            assigned_to: Field::Set(id),
            ..Default::default()
        };
        self.patch_current(TaskField::AssignedTo.wire(), shown, patch)
    }

    /// `:unassign`.
    pub fn unassign(&mut self) -> Fx {
        let patch = TaskPatch {
            assigned_to: Field::Clear,
            ..Default::default()
        };
        self.patch_current(TaskField::AssignedTo.wire(), "nobody".into(), patch)
    }

    /// `:due WHEN` (`docs/dates.md`), or `:due none`.
    pub fn set_due(&mut self, arg: &str) -> Fx {
        let due = dates::parse_due(arg, crate::clock::timestamp())?;
        let shown = due.clone().unwrap_or_else(|| "none".into());
        let patch = TaskPatch {
            complete_by: due.map_or(Field::Clear, Field::Set),
            ..Default::default()
        };
        self.patch_current(TaskField::Due.wire(), shown, patch)
    }

    /// `:tags +a -b`, `:tags a b` or `:tags none`.
    pub fn set_tags(&mut self, arg: &str) -> Fx {
        if let Some(fx) = self.whole_first("tags", AfterWhole::Tags(arg.to_string())) {
            return fx;
        }
        let arg = if arg == "none" { "" } else { arg };
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
        let patch = TaskPatch {
            tags: Some(tags),
            ..Default::default()
        };
        self.patch_current(TaskField::Tags.wire(), shown, patch)
    }

    /// `:title TEXT`.
    pub fn set_title(&mut self, title: String) -> Fx {
        // Typed from the cut title (its prefix): sent, it would cut the
        // real one. The text waits in the palette for the whole title.
        let from_cut = self.current_task().is_some_and(|t| {
            let kept = t.title.line();
            is_cut(t, "title") && !kept.is_empty() && title.starts_with(&*kept)
        });
        if from_cut {
            if let Some(fx) = self.whole_first("title", AfterWhole::Title(title.clone())) {
                return fx;
            }
        }
        let patch = TaskPatch {
            title: Some(title.clone()),
            ..Default::default()
        };
        self.patch_current(TaskField::Title.wire(), title, patch)
    }

    /// `:description` / `:context`: here, in `$EDITOR`, or cleared.
    pub fn edit_text(&mut self, field: &'static str, how: TextEdit) -> Fx {
        if how != TextEdit::Clear {
            let then = AfterWhole::Text {
                field,
                how: how.clone(),
            };
            if let Some(fx) = self.whole_first(field, then) {
                return fx;
            }
        }
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

    /// An edit of `field` while the current task is the list's row with
    /// that field cut (issue 42 §2): nothing is sent, the whole task is
    /// asked for and the edit waits for it (`whole_arrived`). `None`: the
    /// field is whole, edit it now.
    pub(crate) fn whole_first(&mut self, field: &str, then: AfterWhole) -> Option<Fx> {
        let t = self.current_task().filter(|t| is_cut(t, field))?;
        let id = t.id.as_str().to_string();
        let (name, was) = match field {
            "tags" => ("tags".to_string(), "were"),
            f => (f.replace('_', " "), "was"),
        };
        self.whole_first = Some((id.clone(), then));
        self.say(
            Level::Info,
            format!("the {name} {was} cut in the list — reading the whole task first"),
        );
        Some(Ok(vec![self.request(ApiRequest::GetTask { id })]))
    }

    /// An answer to GET /tasks/{id}: the edit that waited for this task
    /// whole goes on (the palette or the editor holding the whole text), or,
    /// when the task could not be read, nothing is sent and what was typed
    /// is given back in the palette.
    pub(crate) fn whole_arrived(&mut self, req: &ApiRequest, task_read: bool) -> Vec<Effect> {
        let ApiRequest::GetTask { id } = req else {
            return vec![];
        };
        let Some((_, then)) = self.whole_first.take_if(|(w, _)| w == id) else {
            return vec![];
        };
        let whole = self
            .current_task()
            .filter(|t| t.id.as_str() == id && t.cut.is_none());
        let read = task_read && whole.is_some();
        let outcome = match (then, read) {
            (AfterWhole::EditTitle, true) => {
                let title = whole
                    .map(|t| t.title.line().into_owned())
                    .unwrap_or_default();
                Ok(self.open_palette(&format!("title {title}")))
            }
            (AfterWhole::Title(text), true) => {
                self.say(
                    Level::Info,
                    "the whole title is read: your text is kept here, nothing sent",
                );
                Ok(self.open_palette(&format!("title {text}")))
            }
            (AfterWhole::Text { field, how }, true) => self.edit_text(field, how),
            (AfterWhole::Tags(arg), true) => self.set_tags(&arg),
            (then, false) => {
                self.say(
                    Level::Warn,
                    "the whole task could not be read: nothing sent (the list holds the field cut)",
                );
                Ok(match then {
                    AfterWhole::Title(text) => self.open_palette(&format!("title {text}")),
                    AfterWhole::Tags(arg) => self.open_palette(&format!("tags {arg}")),
                    _ => vec![],
                })
            }
        };
        outcome.unwrap_or_else(|e| {
            self.say(Level::Error, e);
            vec![]
        })
    }

    /// `:agent ID` or `:agent none`.
    pub fn set_agent(&mut self, f: Field<String>) -> Fx {
        let shown = shown_field(&f);
        let patch = TaskPatch {
            assigned_agent: f,
            ..Default::default()
        };
        self.patch_current(TaskField::AssignedAgent.wire(), shown, patch)
    }

    /// `:team NAME|ID` (as the directory knows it) or `:team none`.
    pub fn set_team(&mut self, f: Field<String>) -> Fx {
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
        let patch = TaskPatch {
            assigned_team_id: f,
            ..Default::default()
        };
        self.patch_current(TaskField::AssignedTeam.wire(), shown, patch)
    }

    /// `:matter ID` or `:matter none`.
    pub fn set_matter(&mut self, f: Field<String>) -> Fx {
        let shown = shown_field(&f);
        let patch = TaskPatch {
            matter_id: f,
            ..Default::default()
        };
        self.patch_current(TaskField::Matter.wire(), shown, patch)
    }

    /// `:archive` (true) and `:restore` (false).
    pub fn set_archived(&mut self, archived: bool) -> Fx {
        let shown = if archived { "archived" } else { "restored" };
        let patch = TaskPatch {
            archived: Some(archived),
            ..Default::default()
        };
        self.patch_current(TaskField::Archived.wire(), shown.into(), patch)
    }

    /// `:accept`: the current draft becomes a task.
    pub fn accept_draft(&mut self) -> Fx {
        let t = self.current_task().ok_or(self.no_task_reason())?;
        if !t.draft {
            return Err(format!("{} is not a draft", t.label()));
        }
        let patch = TaskPatch {
            draft: Some(false),
            ..Default::default()
        };
        self.patch_current(TaskField::Draft.wire(), "accepted".into(), patch)
    }

    /// `:reject`: the current draft is deleted, once confirmed.
    pub fn reject_draft(&mut self) -> Fx {
        let t = self.current_task().ok_or(self.no_task_reason())?;
        if !t.draft {
            return Err(format!(
                "{} is not a draft: only a draft can be rejected",
                t.label()
            ));
        }
        let (id, label) = (t.id.as_str().to_string(), t.label());
        Ok(self.confirm(
            vec![
                format!("Reject draft {label}?"),
                "The draft task is deleted on the service.".into(),
            ],
            Confirmed::RejectDraft { id },
        ))
    }

    /// `:subtask TITLE`: a new task under the current one.
    pub fn add_subtask(&mut self, title: String) -> Fx {
        let (parent, _) = self.target()?;
        Ok(vec![
            self.request(ApiRequest::CreateSubtask { parent, title })
        ])
    }
}

fn shown_field(f: &Field<String>) -> String {
    match f {
        Field::Set(v) => v.clone(),
        _ => "none".into(),
    }
}

/// Whether the list row `t` holds `field` cut (`Task::cut`).
pub(crate) fn is_cut(t: &Task, field: &str) -> bool {
    t.cut
        .as_deref()
        .is_some_and(|c| c.iter().any(|c| c.field == field))
}
