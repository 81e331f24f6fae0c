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
    /// One page of tasks as the service wrote it.
    async fn page_text(
        &self,
        q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> Result<String, ApiError> {
        let mut query = q.pairs();
        query.push(("limit", limit.to_string()));
        if let Some(c) = cursor {
            query.push(("cursor", c.to_string()));
        }
        self.call(
            Method::GET,
            "api/v1/tasks",
            &query,
            None,
            On404::Endpoint("the task list"),
        )
        .await
    }

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
        let text = self.page_text(q, limit, cursor).await?;
        let page: Page = decode(&text)?;
        Ok(RawPage {
            items: page.items.unwrap_or_default(),
            cursor: page.cursor.filter(|c| !c.is_empty()),
        })
    }

    /// One page of tasks; an item that cannot be read is kept as
    /// [`TaskItem::Unreadable`] and never fails the page. Each item is
    /// read where it lies in the answer (no copy of it is made) and
    /// bounded as it is read (`models::bound`, issue 42 §2).
    pub async fn list_tasks(
        &self,
        q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> Result<TaskPage, ApiError> {
        let text = self.page_text(q, limit, cursor).await?;
        read_task_page(&text)
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

/// A task list answer read: each item where it lies in `text`, bounded.
pub(crate) fn read_task_page(text: &str) -> Result<TaskPage, ApiError> {
    #[derive(serde::Deserialize)]
    struct Page<'a> {
        #[serde(default, borrow)]
        items: Option<Vec<&'a RawValue>>,
        #[serde(default)]
        cursor: Option<String>,
    }
    let page: Page = serde_json::from_str(text).map_err(|e| ApiError::Decode {
        message: e.to_string(),
        excerpt: crate::cut::excerpt(&crate::text::clean(text), 120),
    })?;
    Ok(TaskPage {
        items: page
            .items
            .unwrap_or_default()
            .into_iter()
            .map(|r| TaskItem::from_json(r.get()))
            .collect(),
        cursor: page.cursor.filter(|c| !c.is_empty()),
    })
}
