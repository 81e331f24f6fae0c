//! How the inbox's tests start (issue 40): a sandbox, Alice's client and
//! who she is ([`Me`]), and a store of their own in a temp folder. One
//! place, so that every walk test starts the same way: it holds the whole
//! (`let mut w = start(..).await`) and reads its fields (`w.alice`,
//! `&mut w.db`), and a test of the store alone takes [`store`].

use super::derive::Me;
use crate::api::Client;
use crate::sandbox::{Sandbox, SandboxOptions};
use crate::store::Db;
use std::path::PathBuf;
use tempfile::TempDir;

/// A sandbox of `tasks` tasks (and its quirk tasks when `quirks`: a
/// malformed task, a comment that cannot be read…), Alice signed in, and
/// an empty store.
pub struct Sandboxed {
    pub sb: Sandbox,
    /// Alice: the sandbox's first user.
    pub alice: Client,
    /// Alice, as the inbox knows her.
    pub me: Me,
    pub db: Db,
    /// The store's file (a test may change it behind `db`'s back).
    pub path: PathBuf,
    /// The store's folder: removed when the whole is dropped.
    pub _dir: TempDir,
}

/// Start a sandbox of `tasks` tasks (`quirks`: with the quirk tasks) and
/// an empty store.
pub async fn start(tasks: usize, quirks: bool) -> Sandboxed {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks,
        quirks,
        ..Default::default()
    })
    .await
    .unwrap();
    let alice = sb.client(0);
    let me = Me::of(&alice.me().await.unwrap());
    let Store { db, path, _dir } = store();
    Sandboxed {
        sb,
        alice,
        me,
        db,
        path,
        _dir,
    }
}

/// An empty store in a temp folder of its own.
pub struct Store {
    pub db: Db,
    /// The store's file.
    pub path: PathBuf,
    /// The folder: bind it (`_dir`) for as long as the store is used.
    pub _dir: TempDir,
}

/// An empty store in a temp folder of its own.
pub fn store() -> Store {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let (db, _) = Db::open(&path).unwrap();
    Store {
        db,
        path,
        _dir: dir,
    }
}

/// The walk's tasks whose base knows a comment that could not be read
/// (its print, `unreadable:…`).
pub fn odd_bases(db: &Db) -> Vec<String> {
    db.inbox_bases()
        .unwrap()
        .into_values()
        .filter(|b| {
            b.comment_ids
                .iter()
                .flatten()
                .any(|c| c.starts_with("unreadable:"))
        })
        .map(|b| b.task_id)
        .collect()
}
