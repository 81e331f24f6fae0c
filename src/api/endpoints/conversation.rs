//! Internal comments and the requester thread. Their listings are read in
//! either shape (see `api/listing.rs`).

use crate::api::client::{seg, On404};
use crate::api::*;
use reqwest::Method;
use serde_json::Value;

impl Client {
    pub async fn reply_to_requester(
        &self,
        id: &str,
        content: &str,
        file_ids: &[String],
    ) -> Result<RequesterMessage, ApiError> {
        let path = format!("api/v1/tasks/{}/thread", seg(id));
        let body = with_files(content, file_ids);
        self.json(
            Method::POST,
            &path,
            &[],
            Some(&body),
            On404::Feature("requester thread"),
        )
        .await
    }

    /// The requester thread's messages (an endpoint the spec does not show;
    /// a service without it answers "not available"). Read as a bare array
    /// or as pages of `{items, cursor}`.
    pub async fn list_thread(&self, id: &str) -> Result<Vec<RequesterMessage>, ApiError> {
        let path = format!("api/v1/tasks/{}/thread", seg(id));
        self.list_all(
            &path,
            "requester messages",
            On404::Endpoint("listing the requester thread"),
        )
        .await
    }

    /// List comments (an endpoint the spec does not show). Read as a bare
    /// array or as pages of `{items, cursor}`.
    pub async fn list_comments(&self, id: &str) -> Result<Vec<Comment>, ApiError> {
        let path = format!("api/v1/tasks/{}/comments", seg(id));
        self.list_all(&path, "comments", On404::Endpoint("listing comments"))
            .await
    }

    /// [`Self::list_comments`], and what names each comment that could not
    /// be read (even with lone surrogates replaced): the inbox's walk says
    /// each once (issue 42 §10).
    pub async fn list_comments_counted(
        &self,
        id: &str,
    ) -> Result<(Vec<Comment>, Vec<String>), ApiError> {
        self.comments_counted(id, On404::Endpoint("listing comments"))
            .await
    }

    /// [`Self::list_comments_counted`] for a task that may be hidden (an
    /// archived one, whose comments the spec need not show): a 404 answers
    /// that the task is not found, not that the listing is missing (a 405
    /// or 501 says that). Read the one way the walk reads comments: lone
    /// surrogates replaced, each comment still unreadable named (issue 40).
    pub async fn list_task_comments_counted(
        &self,
        id: &str,
    ) -> Result<(Vec<Comment>, Vec<String>), ApiError> {
        self.comments_counted(id, On404::Thing("task")).await
    }

    async fn comments_counted(
        &self,
        id: &str,
        on404: On404,
    ) -> Result<(Vec<Comment>, Vec<String>), ApiError> {
        let path = format!("api/v1/tasks/{}/comments", seg(id));
        self.list_all_counted(&path, "comments", on404).await
    }

    pub async fn add_comment(
        &self,
        id: &str,
        content: &str,
        file_ids: &[String],
    ) -> Result<Comment, ApiError> {
        let path = format!("api/v1/tasks/{}/comments", seg(id));
        let body = with_files(content, file_ids);
        self.json(Method::POST, &path, &[], Some(&body), On404::Thing("task"))
            .await
    }

    pub async fn edit_comment(
        &self,
        id: &str,
        comment_id: &str,
        content: &str,
    ) -> Result<Comment, ApiError> {
        let path = format!("api/v1/tasks/{}/comments/{}", seg(id), seg(comment_id));
        let body = serde_json::json!({ "content": content });
        self.json(
            Method::PATCH,
            &path,
            &[],
            Some(&body),
            On404::Thing("comment"),
        )
        .await
    }

    pub async fn reply_to_comment(
        &self,
        id: &str,
        comment_id: &str,
        content: &str,
        file_ids: &[String],
    ) -> Result<Comment, ApiError> {
        let path = format!(
            "api/v1/tasks/{}/comments/{}/replies",
            seg(id),
            seg(comment_id)
        );
        let body = with_files(content, file_ids);
        self.json(
            Method::POST,
            &path,
            &[],
            Some(&body),
            On404::Thing("comment"),
        )
        .await
    }
}

fn with_files(content: &str, file_ids: &[String]) -> Value {
    let mut body = serde_json::json!({ "content": content });
    if !file_ids.is_empty() {
        body["file_ids"] = serde_json::json!(file_ids);
    }
    body
}
