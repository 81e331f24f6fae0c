//! Who can see a task (sharing) and the files attached to it.

use crate::api::client::{seg, On404};
use crate::api::*;
use reqwest::Method;
use serde_json::Value;

impl Client {
    pub async fn get_sharing(&self, id: &str) -> Result<SharingState, ApiError> {
        let path = format!("api/v1/tasks/{}/sharing", seg(id));
        self.json(Method::GET, &path, &[], None, On404::Thing("task"))
            .await
    }

    pub async fn put_sharing(
        &self,
        id: &str,
        update: &SharingUpdate,
    ) -> Result<SharingState, ApiError> {
        let path = format!("api/v1/tasks/{}/sharing", seg(id));
        let body = serde_json::to_value(update).unwrap_or(Value::Null);
        self.json(Method::PUT, &path, &[], Some(&body), On404::Thing("task"))
            .await
    }

    pub async fn attach_files(&self, id: &str, file_ids: &[String]) -> Result<Task, ApiError> {
        let path = format!("api/v1/tasks/{}/files", seg(id));
        let body = serde_json::json!({ "file_ids": file_ids });
        self.json(
            Method::POST,
            &path,
            &[],
            Some(&body),
            On404::Thing("task or file"),
        )
        .await
    }

    pub async fn detach_file(&self, id: &str, file_id: &str) -> Result<Task, ApiError> {
        let path = format!("api/v1/tasks/{}/files/{}", seg(id), seg(file_id));
        self.json(
            Method::DELETE,
            &path,
            &[],
            None,
            On404::Thing("task or file"),
        )
        .await
    }
}
