//! The commands that change what a task links to and carries: `:link`,
//! `:role`, `:checks`, `:unlink`, `:attach FILE_ID…` and `:detach`. A
//! link or a file is named by the row selected in the detail's Links or
//! Files tab; a removal asks first. `dispatch::commands` hands each
//! command here.

use crate::api::*;
use crate::app::state::fields::{file_entries, file_id};
use crate::app::state::{ApiRequest, Confirmed, Effect, State, Tab};

type Fx = Result<Vec<Effect>, String>;

/// What a command on the selected link says when none is selected.
pub const NO_LINK: &str = "select a link in the Links tab first";

impl State {
    /// `:link KIND ITEM…`: `#N` names a loaded task; one `task #N` that is
    /// not in the list opens the picker, which looks further (the tasks
    /// seen, those of earlier sessions, the service).
    pub fn add_links(&mut self, pairs: Vec<(LinkType, String)>) -> Fx {
        let (id, _) = self.target()?;
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
        Ok(vec![self.request(ApiRequest::AddLinks { id, links })])
    }

    /// `:role ROLE` of the selected link.
    pub fn set_link_role(&mut self, role: LinkRole) -> Fx {
        let (id, kind, item) = self.link_target()?;
        let update = LinkUpdate {
            role: Some(role),
            context: None,
        };
        Ok(vec![self.request(ApiRequest::UpdateLink {
            id,
            kind,
            item,
            update,
        })])
    }

    /// `:checks ID…` (or none) of the selected review link.
    pub fn set_link_checks(&mut self, context: Option<Vec<String>>) -> Fx {
        let (id, kind, item) = self.link_target()?;
        if kind != LinkType::Review {
            return Err("only review links take check ids".into());
        }
        let update = LinkUpdate {
            role: None,
            context: Some(context),
        };
        Ok(vec![self.request(ApiRequest::UpdateLink {
            id,
            kind,
            item,
            update,
        })])
    }

    /// `:unlink`: the selected link goes, once confirmed.
    pub fn unlink(&mut self) -> Fx {
        let (id, kind, item) = self.link_target()?;
        let (_, label) = self.target()?;
        let name = self
            .selected_link()
            .map(|l| l.display_name.line().into_owned())
            .unwrap_or_default();
        Ok(self.confirm(
            vec![format!("Remove the {kind} link {name:?} from {label}?")],
            Confirmed::RemoveLink { id, kind, item },
        ))
    }

    /// `:attach FILE_ID…`: files uploaded before.
    pub fn attach(&mut self, file_ids: Vec<String>) -> Fx {
        let (id, _) = self.target()?;
        Ok(vec![self.request(ApiRequest::Attach { id, file_ids })])
    }

    /// `:detach`: the file selected in the Files tab, once confirmed.
    pub fn detach(&mut self) -> Fx {
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
        Ok(self.confirm(
            vec![
                format!("Detach {name} from {label}?"),
                "The file itself is not deleted: it stays uploaded and can be attached again."
                    .into(),
            ],
            Confirmed::Detach { id, file_id },
        ))
    }

    /// The current task, and the kind and id of its selected link.
    fn link_target(&self) -> Result<(String, LinkType, String), String> {
        let l = self.selected_link().ok_or(NO_LINK)?;
        let (id, _) = self.target()?;
        Ok((id, l.kind.clone(), l.id.as_str().to_string()))
    }
}
