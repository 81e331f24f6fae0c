//! The outbox's edits in the store's JSON form, and whether an edit
//! already holds on the service.

use crate::api::*;
use crate::app::state::requests::ApiRequest;

/// The store's JSON form of a queueable edit.
pub fn to_stored(req: &ApiRequest) -> Option<String> {
    use serde_json::json;
    let v = match req {
        ApiRequest::Patch { id, patch } => {
            json!({"kind": "patch", "id": id, "body": patch.to_json()})
        }
        ApiRequest::PutSharing { id, update } => {
            json!({"kind": "sharing", "id": id, "body": serde_json::to_value(update).ok()?})
        }
        ApiRequest::UpdateLink {
            id,
            kind,
            item,
            update,
        } => {
            json!({"kind": "link", "id": id, "type": kind.as_wire(), "item": item, "body": update.to_json()})
        }
        ApiRequest::RemoveLink { id, kind, item } => {
            json!({"kind": "unlink", "id": id, "type": kind.as_wire(), "item": item})
        }
        ApiRequest::Detach { id, file_id } => json!({"kind": "detach", "id": id, "file": file_id}),
        _ => return None,
    };
    Some(v.to_string())
}

/// A stored edit read back (`None`: not one this build knows).
pub fn from_stored(s: &str) -> Option<ApiRequest> {
    let v: serde_json::Value = serde_json::from_str(s).ok()?;
    let id = v["id"].as_str()?.to_string();
    let kind = || LinkType::parse(v["type"].as_str().unwrap_or(""));
    Some(match v["kind"].as_str()? {
        "patch" => ApiRequest::Patch {
            id,
            patch: TaskPatch::from_json(&v["body"])?,
        },
        "sharing" => ApiRequest::PutSharing {
            id,
            update: serde_json::from_value(v["body"].clone()).ok()?,
        },
        "link" => ApiRequest::UpdateLink {
            id,
            kind: kind(),
            item: v["item"].as_str()?.to_string(),
            update: LinkUpdate::from_json(&v["body"])?,
        },
        "unlink" => ApiRequest::RemoveLink {
            id,
            kind: kind(),
            item: v["item"].as_str()?.to_string(),
        },
        "detach" => ApiRequest::Detach {
            id,
            file_id: v["file"].as_str()?.to_string(),
        },
        _ => return None,
    })
}

/// The task already holds what the edit sets (the first attempt landed):
/// a PATCH's fields, a link's role and context, a link removed, a file
/// detached. `false` for an edit the task does not show (sharing: read
/// apart).
pub(crate) fn already_applied(req: &ApiRequest, t: &Task) -> bool {
    let patch = match req {
        ApiRequest::Patch { patch, .. } => patch,
        ApiRequest::UpdateLink {
            kind, item, update, ..
        } => return link_holds(kind, item, update, t),
        ApiRequest::RemoveLink { kind, item, .. } => return t.link(kind, item).is_none(),
        ApiRequest::Detach { file_id, .. } => return file_gone(file_id, t),
        _ => return false,
    };
    let body = patch.to_json();
    let Some(m) = body.as_object() else {
        return false;
    };
    !m.is_empty()
        && m.iter().all(|(k, v)| {
            crate::domain::task_field::TaskField::from_wire(k).is_some_and(|f| f.holds(v, t))
        })
}

/// The task's files read whole (each list an array or null, each entry
/// with an id) and `file` not among them. Files in another shape tell
/// nothing: the detach is checked as one that did not land.
fn file_gone(file: &str, t: &Task) -> bool {
    use crate::app::state::fields::{file_entries, file_id};
    let whole = [&*t.input_files, &*t.output_files]
        .iter()
        .all(|v| v.is_null() || v.is_array());
    let ids: Option<Vec<String>> = file_entries(t)
        .into_iter()
        .map(|(_, v)| file_id(v))
        .collect();
    whole && ids.is_some_and(|ids| !ids.iter().any(|i| i == file))
}

/// The task's link `kind`/`item` is there with what `update` sets: its
/// role (when sent) and its context (when sent: the same checks in any
/// order, or none when it clears it). An update that sets nothing holds
/// nothing (never sent: the service asks for one field at least).
fn link_holds(kind: &LinkType, item: &str, update: &LinkUpdate, t: &Task) -> bool {
    use std::collections::BTreeSet;
    if update.role.is_none() && update.context.is_none() {
        return false;
    }
    let Some(l) = t.link(kind, item) else {
        return false;
    };
    let checks = |c: &Option<LinkContext>| -> BTreeSet<String> {
        c.iter().flat_map(LinkContext::ids).collect()
    };
    let role = update
        .role
        .as_ref()
        .is_none_or(|r| l.role.as_ref() == Some(r));
    let context = match &update.context {
        None => true,
        Some(None) => checks(&l.context).is_empty(),
        Some(Some(ids)) => checks(&l.context) == ids.iter().cloned().collect(),
    };
    role && context
}

/// The sharing state `now` is already what the PUT `update` sets (the
/// first attempt landed): the same visibility, and the same people and
/// teams at the same levels, in any order (a level not said is `read`,
/// as `edit::changes::share_update` takes it).
pub(crate) fn sharing_holds(update: &SharingUpdate, now: &SharingState) -> bool {
    use std::collections::BTreeSet;
    type Levels<'a> = BTreeSet<(&'a str, String)>;
    fn held<'a>(id: &'a Id, a: &Option<AccessLevel>) -> (&'a str, String) {
        let level = a.clone().unwrap_or(AccessLevel::Read);
        (id.as_str(), level.as_wire().to_string())
    }
    let users_now: Levels = now
        .users
        .iter()
        .map(|m| held(&m.id, &m.access_level))
        .collect();
    let teams_now: Levels = now
        .teams
        .iter()
        .map(|t| held(&t.id, &t.access_level))
        .collect();
    let users_put: Levels = update
        .users
        .iter()
        .map(|u| (u.user_id.as_str(), u.access_level.clone()))
        .collect();
    let teams_put: Levels = update
        .teams
        .iter()
        .map(|t| (t.team_id.as_str(), t.access_level.clone()))
        .collect();
    now.visibility.as_wire() == update.visibility
        && users_now == users_put
        && teams_now == teams_put
}

/// The task read moved from what the user saw when making this PATCH in
/// the PATCH's own fields only (every other field as seen): the change
/// is this edit's, no one else's. `false` when what the user saw is not
/// known, or for any other edit.
pub(crate) fn only_its_fields_moved(req: &ApiRequest, saw: Option<&Task>, t: &Task) -> bool {
    use crate::domain::task_field::TaskField;
    let (ApiRequest::Patch { patch, .. }, Some(saw)) = (req, saw) else {
        return false;
    };
    let its = TaskField::in_patch(patch);
    TaskField::ALL
        .iter()
        .filter(|f| !its.contains(f))
        .all(|f| f.read(saw) == f.read(t))
}
