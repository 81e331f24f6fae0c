//! Tasks: the list (cursor pages), one task, creation, edits, deletion,
//! subtasks.

use crate::api::client::{decode, seg, On404};
use crate::api::*;
use reqwest::Method;
use serde_json::value::RawValue;
use serde_json::Value;

/// A page of tasks as received: each item's exact JSON text.
pub struct RawPage {
    pub items: Vec<Box<RawValue>>,
    pub cursor: Option<String>,
}

#[derive(Clone, Debug)]
pub struct TaskPage {
    pub items: Vec<TaskItem>,
    pub cursor: Option<String>,
}

impl Client {
    /// One page of tasks, each item's JSON exactly as received.
    pub async fn list_tasks_raw(
        &self,
        q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> Result<RawPage, ApiError> {
        #[derive(serde::Deserialize)]
        struct Page {
            #[serde(default)]
            items: Option<Vec<Box<RawValue>>>,
            #[serde(default)]
            cursor: Option<String>,
        }
        let mut query = q.pairs();
        query.push(("limit", limit.to_string()));
        if let Some(c) = cursor {
            query.push(("cursor", c.to_string()));
        }
        let text = self
            .call(
                Method::GET,
                "api/v1/tasks",
                &query,
                None,
                On404::Endpoint("the task list"),
            )
            .await?;
        let page: Page = decode(&text)?;
        Ok(RawPage {
            items: page.items.unwrap_or_default(),
            cursor: page.cursor.filter(|c| !c.is_empty()),
        })
    }

    /// One page of tasks; an item that cannot be read is kept as
    /// [`TaskItem::Unreadable`] and never fails the page.
    pub async fn list_tasks(
        &self,
        q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> Result<TaskPage, ApiError> {
        let raw = self.list_tasks_raw(q, limit, cursor).await?;
        Ok(TaskPage {
            items: raw
                .items
                .iter()
                .map(|r| TaskItem::from_json(r.get()))
                .collect(),
            cursor: raw.cursor,
        })
    }

    pub async fn get_task(&self, id: &str) -> Result<Task, ApiError> {
        let path = format!("api/v1/tasks/{}", seg(id));
        match self
            .json(Method::GET, &path, &[], None, On404::Thing("task"))
            .await
        {
            Err(ApiError::Status { status: 405, .. }) => Err(ApiError::NotAvailable {
                endpoint: "getting one task",
            }),
            other => other,
        }
    }

    pub async fn create_task(&self, t: &NewTask) -> Result<Task, ApiError> {
        let body = serde_json::to_value(t).unwrap_or(Value::Null);
        self.json(
            Method::POST,
            "api/v1/tasks",
            &[],
            Some(&body),
            On404::Endpoint("creating a task"),
        )
        .await
    }

    /// Delete a task (this is how a draft is rejected).
    pub async fn delete_task(&self, id: &str) -> Result<(), ApiError> {
        let path = format!("api/v1/tasks/{}", seg(id));
        match self
            .call(Method::DELETE, &path, &[], None, On404::Thing("task"))
            .await
        {
            Err(ApiError::Status { status: 405, .. }) => Err(ApiError::NotAvailable {
                endpoint: "deleting a task",
            }),
            other => other.map(|_| ()),
        }
    }

    pub async fn patch_task(&self, id: &str, patch: &TaskPatch) -> Result<Task, ApiError> {
        let path = format!("api/v1/tasks/{}", seg(id));
        self.json(
            Method::PATCH,
            &path,
            &[],
            Some(&patch.to_json()),
            On404::Thing("task"),
        )
        .await
    }

    pub async fn subtasks(&self, id: &str) -> Result<Vec<TaskItem>, ApiError> {
        let path = format!("api/v1/tasks/{}/subtasks", seg(id));
        let text = self
            .call(Method::GET, &path, &[], None, On404::Thing("task"))
            .await?;
        let items: Vec<Box<RawValue>> = decode(&text)?;
        Ok(items.iter().map(|r| TaskItem::from_json(r.get())).collect())
    }
}
