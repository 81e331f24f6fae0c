//! People and teams: as referenced on tasks, in sharing states, and the
//! caller's own identity.

use super::display::short_id;
use super::enums::{AccessLevel, Visibility};
use super::shared::{Poolable, SharedPool};
use super::values::{null_as_default, Extra, Id};
use crate::text::Untrusted;
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, OnceLock};

/// `{id, name, email}`; missing parts read as empty rather than failing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Person {
    pub id: Id,
    pub name: Untrusted,
    pub email: Untrusted,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Person {
    pub fn label(&self) -> String {
        match crate::text::name_or_email(&self.name.line(), &self.email.line()) {
            "" => short_id(&self.id),
            w => w.to_string(),
        }
    }
}

impl Poolable for Person {
    fn pool() -> &'static Mutex<SharedPool<Person>> {
        static POOL: OnceLock<Mutex<SharedPool<Person>>> = OnceLock::new();
        POOL.get_or_init(Default::default)
    }
}

impl Poolable for TeamRef {
    fn pool() -> &'static Mutex<SharedPool<TeamRef>> {
        static POOL: OnceLock<Mutex<SharedPool<TeamRef>>> = OnceLock::new();
        POOL.get_or_init(Default::default)
    }
}

impl Poolable for Member {
    fn pool() -> &'static Mutex<SharedPool<Member>> {
        static POOL: OnceLock<Mutex<SharedPool<Member>>> = OnceLock::new();
        POOL.get_or_init(Default::default)
    }
}

/// A person on a task or in a sharing state, with role and access.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Member {
    pub id: Id,
    pub name: Untrusted,
    pub email: Untrusted,
    pub role: Option<Untrusted>,
    pub access_level: Option<AccessLevel>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TeamRef {
    pub id: Id,
    pub name: Untrusted,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TeamAccess {
    pub id: Id,
    pub name: Untrusted,
    pub access_level: Option<AccessLevel>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SharingState {
    pub visibility: Visibility,
    #[serde(default, deserialize_with = "null_as_default")]
    pub users: Vec<Member>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub teams: Vec<TeamAccess>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Identity {
    pub user_id: String,
    pub customer_id: String,
    pub user_name: Untrusted,
    pub user_email: Untrusted,
    pub customer_name: Untrusted,
    #[serde(flatten)]
    pub extra: Extra,
}
