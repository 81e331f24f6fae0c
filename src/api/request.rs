//! Request bodies and query parameters.

use super::models::{AccessLevel, LinkRole, LinkType, Priority, Status, Visibility};
use serde::Serialize;
use serde_json::{Map, Value};

/// One field of a PATCH that can be cleared: leave it, set it, or clear it
/// with an explicit null.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Field<T> {
    #[default]
    Keep,
    Set(T),
    Clear,
}

/// A task PATCH body. Serialising sends exactly what was set: absent fields
/// stay absent, and `Field::Clear` is an explicit null (only the seven
/// fields the spec lets null clear are of that type).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskPatch {
    pub title: Option<String>,
    pub description: Field<String>,
    pub additional_context: Field<String>,
    pub assigned_to: Field<String>,
    pub assigned_agent: Field<String>,
    pub assigned_team_id: Field<String>,
    pub matter_id: Field<String>,
    pub status: Option<Status>,
    pub priority: Option<Priority>,
    pub complete_by: Field<String>,
    pub tags: Option<Vec<String>>,
    pub linked_items: Option<Vec<Value>>,
    pub involved_people: Option<Vec<Value>>,
    pub archived: Option<bool>,
    pub draft: Option<bool>,
}

impl TaskPatch {
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        fn field(m: &mut Map<String, Value>, k: &str, f: &Field<String>) {
            match f {
                Field::Keep => {}
                Field::Set(v) => {
                    m.insert(k.into(), Value::String(v.clone()));
                }
                Field::Clear => {
                    m.insert(k.into(), Value::Null);
                }
            }
        }
        if let Some(t) = &self.title {
            m.insert("title".into(), t.clone().into());
        }
        field(&mut m, "description", &self.description);
        field(&mut m, "additional_context", &self.additional_context);
        field(&mut m, "assigned_to", &self.assigned_to);
        field(&mut m, "assigned_agent", &self.assigned_agent);
        field(&mut m, "assigned_team_id", &self.assigned_team_id);
        field(&mut m, "matter_id", &self.matter_id);
        if let Some(s) = &self.status {
            m.insert("status".into(), s.as_wire().into());
        }
        if let Some(p) = &self.priority {
            m.insert("priority".into(), p.as_wire().into());
        }
        field(&mut m, "complete_by", &self.complete_by);
        if let Some(t) = &self.tags {
            m.insert("tags".into(), t.clone().into());
        }
        if let Some(l) = &self.linked_items {
            m.insert("linked_items".into(), Value::Array(l.clone()));
        }
        if let Some(p) = &self.involved_people {
            m.insert("involved_people".into(), Value::Array(p.clone()));
        }
        if let Some(a) = self.archived {
            m.insert("archived".into(), a.into());
        }
        if let Some(d) = self.draft {
            m.insert("draft".into(), d.into());
        }
        Value::Object(m)
    }
    pub fn is_empty(&self) -> bool {
        self.to_json().as_object().is_none_or(|m| m.is_empty())
    }

    /// Read back a body made by [`TaskPatch::to_json`] (the outbox keeps
    /// edits this way). `None` for anything else.
    pub fn from_json(v: &Value) -> Option<TaskPatch> {
        let m = v.as_object()?;
        let mut p = TaskPatch::default();
        fn field(v: &Value) -> Option<Field<String>> {
            match v {
                Value::Null => Some(Field::Clear),
                Value::String(s) => Some(Field::Set(s.clone())),
                _ => None,
            }
        }
        let strings = |v: &Value| -> Option<Vec<String>> {
            v.as_array()?
                .iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect()
        };
        for (k, v) in m {
            match k.as_str() {
                "title" => p.title = Some(v.as_str()?.to_string()),
                "description" => p.description = field(v)?,
                "additional_context" => p.additional_context = field(v)?,
                "assigned_to" => p.assigned_to = field(v)?,
                "assigned_agent" => p.assigned_agent = field(v)?,
                "assigned_team_id" => p.assigned_team_id = field(v)?,
                "matter_id" => p.matter_id = field(v)?,
                "status" => p.status = Some(Status::parse(v.as_str()?)),
                "priority" => p.priority = Some(Priority::parse(v.as_str()?)),
                "complete_by" => p.complete_by = field(v)?,
                "tags" => p.tags = Some(strings(v)?),
                "linked_items" => p.linked_items = Some(v.as_array()?.clone()),
                "involved_people" => p.involved_people = Some(v.as_array()?.clone()),
                "archived" => p.archived = Some(v.as_bool()?),
                "draft" => p.draft = Some(v.as_bool()?),
                _ => return None,
            }
        }
        Some(p)
    }
}

/// Filters of `GET /api/v1/tasks`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TaskQuery {
    pub query: Option<String>,
    pub status: Vec<String>,
    pub priority: Option<String>,
    pub assigned_to: Option<String>,
    pub involving: Option<String>,
    pub team_id: Option<String>,
    pub tags: Vec<String>,
    pub complete_by_from: Option<String>,
    pub complete_by_to: Option<String>,
}

impl TaskQuery {
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        let mut opt = |k: &'static str, v: &Option<String>| {
            if let Some(v) = v.as_ref().filter(|v| !v.is_empty()) {
                q.push((k, v.clone()));
            }
        };
        opt("query", &self.query);
        opt("priority", &self.priority);
        opt("assigned_to", &self.assigned_to);
        opt("involving", &self.involving);
        opt("team_id", &self.team_id);
        opt("complete_by_from", &self.complete_by_from);
        opt("complete_by_to", &self.complete_by_to);
        if !self.status.is_empty() {
            q.push(("status", self.status.join(",")));
        }
        if !self.tags.is_empty() {
            q.push(("tags", self.tags.join(",")));
        }
        q
    }
    pub fn is_empty(&self) -> bool {
        self.pairs().is_empty()
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct LinkRef {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
}

impl LinkRef {
    pub fn new(kind: &LinkType, id: &str) -> Self {
        LinkRef {
            kind: kind.as_wire().to_string(),
            id: id.to_string(),
        }
    }
}

/// Body of `PATCH …/links/{type}/{id}`: only what is set is sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkUpdate {
    pub role: Option<LinkRole>,
    /// `Some(None)` clears the context (explicit null).
    pub context: Option<Option<Vec<String>>>,
}

impl LinkUpdate {
    /// Read back a body made by [`LinkUpdate::to_json`].
    pub fn from_json(v: &Value) -> Option<LinkUpdate> {
        let m = v.as_object()?;
        let mut u = LinkUpdate::default();
        for (k, v) in m {
            match k.as_str() {
                "role" => u.role = Some(LinkRole::parse(v.as_str()?)),
                "context" => {
                    u.context = Some(match v {
                        Value::Null => None,
                        v => Some(
                            v.get("check_ids")?
                                .as_array()?
                                .iter()
                                .map(|x| x.as_str().map(str::to_string))
                                .collect::<Option<Vec<_>>>()?,
                        ),
                    })
                }
                _ => return None,
            }
        }
        Some(u)
    }

    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        if let Some(r) = &self.role {
            m.insert("role".into(), r.as_wire().into());
        }
        match &self.context {
            None => {}
            Some(None) => {
                m.insert("context".into(), Value::Null);
            }
            Some(Some(ids)) => {
                m.insert("context".into(), serde_json::json!({ "check_ids": ids }));
            }
        }
        Value::Object(m)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ShareUser {
    pub user_id: String,
    pub access_level: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ShareTeam {
    pub team_id: String,
    pub access_level: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SharingUpdate {
    pub visibility: String,
    pub users: Vec<ShareUser>,
    pub teams: Vec<ShareTeam>,
}

impl SharingUpdate {
    pub fn new(vis: &Visibility) -> Self {
        SharingUpdate {
            visibility: vis.as_wire().into(),
            users: vec![],
            teams: vec![],
        }
    }
    pub fn user(mut self, r: &str, a: &AccessLevel) -> Self {
        self.users.push(ShareUser {
            user_id: r.into(),
            access_level: a.as_wire().into(),
        });
        self
    }
    pub fn team(mut self, r: &str, a: &AccessLevel) -> Self {
        self.teams.push(ShareTeam {
            team_id: r.into(),
            access_level: a.as_wire().into(),
        });
        self
    }
}

/// Body for creating a task (endpoint not shown by the spec).
#[derive(Clone, Debug, Default, Serialize)]
pub struct NewTask {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_task_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patch_sends_exactly_what_was_set() {
        let p = TaskPatch {
            complete_by: Field::Clear,
            ..Default::default()
        };
        assert_eq!(p.to_json(), json!({"complete_by": null}));
        let p = TaskPatch {
            status: Some(Status::Completed),
            ..Default::default()
        };
        assert_eq!(p.to_json(), json!({"status": "completed"}));
        assert!(TaskPatch::default().is_empty());
        assert_eq!(TaskPatch::default().to_json(), json!({}));
    }

    #[test]
    fn link_update_sends_only_role() {
        let u = LinkUpdate {
            role: Some(LinkRole::Subject),
            context: None,
        };
        assert_eq!(u.to_json(), json!({"role": "subject"}));
        let u = LinkUpdate {
            role: None,
            context: Some(None),
        };
        assert_eq!(u.to_json(), json!({"context": null}));
    }

    #[test]
    fn query_pairs_join_lists() {
        let q = TaskQuery {
            status: vec!["in_progress".into(), "completed".into()],
            tags: vec!["a".into(), "b".into()],
            query: Some(String::new()),
            ..Default::default()
        };
        assert_eq!(
            q.pairs(),
            vec![
                ("status", "in_progress,completed".to_string()),
                ("tags", "a,b".to_string())
            ]
        );
    }
}
