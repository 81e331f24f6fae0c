//! The four reads the inbox's walk makes of the service (issue 43): the
//! seam through which the walk (`cycle`, `drafts::linked_drafts`,
//! `archived::read`) reads, so that the same walk runs against the
//! service through `api::Client` and, in the simulator, against the
//! model service (`sim::inbox`), polled to its end on one thread.

use crate::api::{ApiError, Client, Comment, Task, TaskPage, TaskQuery};
use std::future::Future;

/// What the walk reads: a page of the user's tasks, one task, a task's
/// comments (and the ones that could not be read) by the listing's
/// endpoint or the task's own.
pub trait Reads: Sync {
    fn list_tasks(
        &self,
        q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> impl Future<Output = Result<TaskPage, ApiError>> + Send;

    fn get_task(&self, id: &str) -> impl Future<Output = Result<Task, ApiError>> + Send;

    /// The comments of a task the walk lists (`Client::list_comments_counted`).
    fn list_comments_counted(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(Vec<Comment>, Vec<String>), ApiError>> + Send;

    /// The comments of a task read by itself (an archived one,
    /// `Client::list_task_comments_counted`).
    fn list_task_comments_counted(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(Vec<Comment>, Vec<String>), ApiError>> + Send;
}

impl Reads for Client {
    fn list_tasks(
        &self,
        q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> impl Future<Output = Result<TaskPage, ApiError>> + Send {
        Client::list_tasks(self, q, limit, cursor)
    }

    fn get_task(&self, id: &str) -> impl Future<Output = Result<Task, ApiError>> + Send {
        Client::get_task(self, id)
    }

    fn list_comments_counted(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(Vec<Comment>, Vec<String>), ApiError>> + Send {
        Client::list_comments_counted(self, id)
    }

    fn list_task_comments_counted(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(Vec<Comment>, Vec<String>), ApiError>> + Send {
        Client::list_task_comments_counted(self, id)
    }
}
