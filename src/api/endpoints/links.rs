//! Links between a task and chats, reviews, reports and other tasks.

use crate::api::client::{seg, On404};
use crate::api::*;
use reqwest::Method;

impl Client {
    pub async fn add_links(&self, id: &str, links: &[LinkRef]) -> Result<Task, ApiError> {
        let path = format!("api/v1/tasks/{}/links", seg(id));
        let body = serde_json::json!({ "linked_items": links });
        self.json(Method::POST, &path, &[], Some(&body), On404::Thing("task"))
            .await
    }

    pub async fn update_link(
        &self,
        id: &str,
        kind: &LinkType,
        item_id: &str,
        update: &LinkUpdate,
    ) -> Result<Task, ApiError> {
        let path = link_path(id, kind, item_id);
        self.json(
            Method::PATCH,
            &path,
            &[],
            Some(&update.to_json()),
            On404::Thing("link"),
        )
        .await
    }

    pub async fn remove_link(
        &self,
        id: &str,
        kind: &LinkType,
        item_id: &str,
    ) -> Result<Task, ApiError> {
        let path = link_path(id, kind, item_id);
        self.json(Method::DELETE, &path, &[], None, On404::Thing("link"))
            .await
    }
}

fn link_path(id: &str, kind: &LinkType, item_id: &str) -> String {
    format!(
        "api/v1/tasks/{}/links/{}/{}",
        seg(id),
        seg(kind.as_wire()),
        seg(item_id)
    )
}
