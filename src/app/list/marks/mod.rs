//! Marks: the tasks a task action acts on when there are any. Keyed by task
//! id, so they survive refreshes and paging; `command_targets` is the one
//! place that says which tasks an action acts on.

use crate::api::*;
use std::collections::HashMap;

mod handle;

#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// Marked task ids, in the order they were marked.
    ids: Vec<String>,
    /// The task as it was when marked: a marked task that a refresh no
    /// longer lists is still acted on, and named.
    copies: HashMap<String, Task>,
    /// Marked tasks whose last bulk edit failed, with the error.
    pub failed: HashMap<String, String>,
    /// Where `v` marks a range from: the row last marked or unmarked.
    pub anchor: Option<String>,
}

impl Marks {
    pub fn len(&self) -> usize {
        self.ids.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
    pub fn contains(&self, id: &str) -> bool {
        self.copies.contains_key(id)
    }
    pub fn ids(&self) -> &[String] {
        &self.ids
    }
    pub fn copy(&self, id: &str) -> Option<&Task> {
        self.copies.get(id)
    }
    pub fn insert(&mut self, t: &Task) {
        let id = t.id.as_str().to_string();
        if self.copies.insert(id.clone(), t.clone()).is_none() {
            self.ids.push(id);
        }
    }
    pub fn remove(&mut self, id: &str) {
        if self.copies.remove(id).is_some() {
            self.ids.retain(|x| x != id);
        }
        self.failed.remove(id);
    }
    pub fn clear(&mut self) {
        self.ids.clear();
        self.copies.clear();
        self.failed.clear();
        self.anchor = None;
    }
    /// The error of the last bulk edit of a marked task, if it failed.
    pub fn error(&self, id: &str) -> Option<&str> {
        self.failed.get(id).map(String::as_str)
    }
}
