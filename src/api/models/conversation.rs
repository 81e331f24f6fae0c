//! Internal comments and messages of the requester thread.

use super::enums::DeliveryStatus;
use super::people::Person;
use super::stamp::time_text;
use super::task::parse_timestamp;
use super::values::{null_as_default, Extra, Id, Json};
use crate::text::Untrusted;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comment {
    pub id: Id,
    pub task_id: String,
    pub content: Untrusted,
    pub author: Person,
    pub parent_comment_id: Option<String>,
    pub mentioned_users: Json,
    #[serde(default, deserialize_with = "null_as_default")]
    pub file_ids: Vec<Untrusted>,
    #[serde(deserialize_with = "time_text")]
    pub created_at: Option<String>,
    #[serde(deserialize_with = "time_text")]
    pub updated_at: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Comment {
    pub fn edited(&self) -> bool {
        match (&self.created_at, &self.updated_at) {
            (Some(c), Some(u)) => match (parse_timestamp(c), parse_timestamp(u)) {
                (Some(a), Some(b)) => a != b,
                _ => c != u,
            },
            _ => false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RequesterMessage {
    pub id: Id,
    pub task_id: String,
    pub direction: Option<Untrusted>,
    pub content: Untrusted,
    #[serde(default, deserialize_with = "null_as_default")]
    pub file_ids: Vec<Untrusted>,
    pub sender: Option<Person>,
    pub sender_agent: Json,
    pub sender_display_name: Option<Untrusted>,
    /// `None` when the service did not say: never shown as sent.
    pub delivery_status: Option<DeliveryStatus>,
    #[serde(deserialize_with = "time_text")]
    pub created_at: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}
