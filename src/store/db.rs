//! The database itself: schema and migrations, and every read and write.

use super::rows::{
    now_secs, Boot, DirEntry, Found, Recent, Scan, Seen, StoredDetail, StoredTab, StoredTask,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How long one statement waits for another process's lock before it
/// fails (the store's thread, off the UI loop; set where the store is
/// opened, `open`).
pub(super) const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

pub struct Db {
    pub(super) conn: Connection,
    pub(super) path: PathBuf,
    /// This process's name for the outbox rows it has taken for sending
    /// (`claimed_by`): host, pid and when it was opened; live while this
    /// `Db` is.
    pub(super) instance: super::claims::Instance,
    /// What names each queued edit this handle wrote or took (a cancel's
    /// mark, `outbox_cancel`), should the store not be readable then.
    pub(super) marks: std::cell::RefCell<HashMap<i64, super::claims::CancelMark>>,
    /// The user this store belongs to (the outbox rows it records and
    /// sends): set by whoever opened it for that user.
    pub(super) owner: Option<String>,
    /// Opened read-only (why: it could not be written): reads are
    /// answered, nothing is written, queued edits are not kept.
    pub(super) read_only: Option<String>,
}

/// SQLite's page cache, in KiB (a negative `cache_size` counts KiB).
pub(super) const PAGE_CACHE_KIB: i64 = -512;

/// A task as received replaces the stored one (of `updated_at` `old`):
/// unless it is an older version, or the same one as a row where the whole
/// task is kept. Unreadable or missing versions: it replaces.
fn replaces(old: Option<&str>, old_full: bool, new: &StoredTask) -> bool {
    let (Some(old), Some(new_at)) = (old, new.updated_at.as_deref()) else {
        return true;
    };
    let order = match (
        crate::api::parse_timestamp(old),
        crate::api::parse_timestamp(new_at),
    ) {
        (Some(a), Some(b)) => b.cmp(&a),
        // As before: by the text.
        _ => new_at.cmp(old),
    };
    match order {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => new.full || !old_full,
        std::cmp::Ordering::Less => false,
    }
}

impl Db {
    /// An in-memory database (tests, `cache = false` is *no* store at all).
    pub fn in_memory() -> rusqlite::Result<Db> {
        let mut db = Db::with(Connection::open_in_memory()?, PathBuf::new());
        db.migrate()?;
        Ok(db)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn get_meta(&self, key: &str) -> Option<String> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key=?1", [key], |r| r.get(0))
            .optional()
            .ok()
            .flatten()
    }

    pub fn set_meta(&self, key: &str, value: &str) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT INTO meta(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    /// Store tasks. A row never replaces a whole task of the same version
    /// or newer, and an older version never replaces a newer one.
    pub fn put_tasks(&mut self, tasks: &[StoredTask], now: i64) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut up = tx.prepare_cached(
                "INSERT INTO tasks(id,number,title,updated_at,json,full,fetched_at)
                 VALUES(?1,?2,?3,?4,?5,?6,?7)
                 ON CONFLICT(id) DO UPDATE SET number=excluded.number, title=excluded.title,
                   updated_at=excluded.updated_at, json=excluded.json, full=excluded.full,
                   fetched_at=excluded.fetched_at
                 WHERE ?8",
            )?;
            // Which version is newer is decided here, by instant: SQL
            // compares the text, where `…10:00:00.5Z` is older than
            // `…10:00:00Z` and an offset's digits beat UTC's.
            let mut stored = tx.prepare_cached("SELECT updated_at, full FROM tasks WHERE id=?1")?;
            let mut fresh = tx
                .prepare_cached("UPDATE tasks SET fetched_at=?2 WHERE id=?1 AND fetched_at < ?2")?;
            for t in tasks {
                let replaces = stored
                    .query_row([&t.id], |r| {
                        Ok(replaces(
                            r.get::<_, Option<String>>(0)?.as_deref(),
                            r.get(1)?,
                            t,
                        ))
                    })
                    .optional()?
                    .unwrap_or(true);
                let changed = up.execute(params![
                    t.id,
                    t.number,
                    t.title,
                    t.updated_at,
                    t.json,
                    t.full,
                    now,
                    replaces
                ])?;
                fresh.execute(params![t.id, now])?;
                if changed > 0 {
                    super::search::index_task(&tx, t)?;
                }
            }
        }
        tx.commit()
    }

    pub fn put_view(&self, key: &str, ids: &[String], now: i64) -> rusqlite::Result<()> {
        let ids = serde_json::to_string(ids).unwrap_or_else(|_| "[]".into());
        self.conn.execute(
            "INSERT INTO views(key,ids,saved_at) VALUES(?1,?2,?3)
             ON CONFLICT(key) DO UPDATE SET ids=excluded.ids, saved_at=excluded.saved_at",
            params![key, ids, now],
        )?;
        Ok(())
    }

    pub fn get_task(&self, id: &str) -> rusqlite::Result<Option<(StoredTask, i64)>> {
        self.conn
            .query_row(
                "SELECT id,number,title,updated_at,json,full,fetched_at FROM tasks WHERE id=?1",
                [id],
                super::rows::task_row,
            )
            .optional()
    }

    /// A view's rows in order (tasks evicted since are skipped), and when
    /// they were saved.
    pub fn get_view(&self, key: &str) -> rusqlite::Result<Option<(Vec<StoredTask>, i64)>> {
        let Some((ids, at)): Option<(String, i64)> = self
            .conn
            .query_row("SELECT ids, saved_at FROM views WHERE key=?1", [key], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?
        else {
            return Ok(None);
        };
        let ids: Vec<String> = serde_json::from_str(&ids).unwrap_or_default();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some((t, _)) = self.get_task(&id)? {
                out.push(t);
            }
        }
        Ok(Some((out, at)))
    }

    /// Store a tab of a task; its comments or requester messages are
    /// indexed for search as they are now (edited or deleted ones too).
    pub fn put_tab(
        &mut self,
        task_id: &str,
        tab: &str,
        json: &str,
        now: i64,
    ) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO tabs(task_id,tab,json,fetched_at) VALUES(?1,?2,?3,?4)
             ON CONFLICT(task_id,tab) DO UPDATE SET json=excluded.json, fetched_at=excluded.fetched_at",
            params![task_id, tab, json, now],
        )?;
        super::search::index_tab(&tx, task_id, tab, json)?;
        tx.commit()
    }

    pub fn get_detail(&self, id: &str) -> rusqlite::Result<StoredDetail> {
        let (task, fetched_at) = match self.get_task(id)? {
            Some((t, at)) => (Some(t), at),
            None => (None, 0),
        };
        let mut st = self
            .conn
            .prepare_cached("SELECT tab,json,fetched_at FROM tabs WHERE task_id=?1")?;
        let tabs = st
            .query_map([id], |r| {
                Ok(StoredTab {
                    tab: r.get(0)?,
                    json: r.get(1)?,
                    fetched_at: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(StoredDetail {
            task,
            fetched_at,
            tabs,
        })
    }

    pub fn opened(&self, id: &str, now: i64) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE tasks SET opened_at=?2 WHERE id=?1",
            params![id, now],
        )?;
        Ok(())
    }

    pub fn put_seen(&self, id: &str, seen: &Seen) -> rusqlite::Result<()> {
        let ids = |v: &Option<Vec<String>>| {
            v.as_ref()
                .map(|v| serde_json::to_string(v).unwrap_or_default())
        };
        // A tab not loaded this time keeps what was seen of it before.
        self.conn.execute(
            "INSERT INTO seen(task_id,updated_at,comment_ids,message_ids,at) VALUES(?1,?2,?3,?4,?5)
             ON CONFLICT(task_id) DO UPDATE SET updated_at=coalesce(excluded.updated_at, seen.updated_at),
               comment_ids=coalesce(excluded.comment_ids, seen.comment_ids),
               message_ids=coalesce(excluded.message_ids, seen.message_ids), at=excluded.at",
            params![
                id,
                seen.updated_at,
                ids(&seen.comment_ids),
                ids(&seen.message_ids),
                seen.at
            ],
        )?;
        Ok(())
    }

    pub fn all_seen(&self) -> rusqlite::Result<HashMap<String, Seen>> {
        let mut st = self
            .conn
            .prepare("SELECT task_id,updated_at,comment_ids,message_ids,at FROM seen")?;
        let ids = |s: Option<String>| s.and_then(|s| serde_json::from_str::<Vec<String>>(&s).ok());
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Seen {
                    updated_at: r.get(1)?,
                    comment_ids: ids(r.get(2)?),
                    message_ids: ids(r.get(3)?),
                    at: r.get(4)?,
                },
            ))
        })?;
        rows.collect()
    }

    /// Keep this many recent tasks.
    const RECENT_KEPT: usize = 200;

    pub fn put_recent(&self, r: &Recent) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT INTO recent(task_id,label,title,action,at) VALUES(?1,?2,?3,?4,?5)
             ON CONFLICT(task_id) DO UPDATE SET label=excluded.label, title=excluded.title,
               action=excluded.action, at=excluded.at",
            params![r.task_id, r.label, r.title, r.action, r.at],
        )?;
        self.conn.execute(
            "DELETE FROM recent WHERE task_id NOT IN (SELECT task_id FROM recent ORDER BY at DESC LIMIT ?1)",
            [Self::RECENT_KEPT as i64],
        )?;
        Ok(())
    }

    pub fn recent(&self) -> rusqlite::Result<Vec<Recent>> {
        let mut st = self.conn.prepare(
            "SELECT task_id,label,title,action,at FROM recent ORDER BY at DESC, rowid DESC",
        )?;
        let rows = st.query_map([], |r| {
            Ok(Recent {
                task_id: r.get(0)?,
                label: r.get(1)?,
                title: r.get(2)?,
                action: r.get(3)?,
                at: r.get(4)?,
            })
        })?;
        rows.collect()
    }

    /// Replace the directory with `entries` (it only grows in memory).
    pub fn put_directory(&mut self, entries: &[DirEntry]) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO people(id,team,name,email,tasks) VALUES(?1,?2,?3,?4,?5)
                 ON CONFLICT(id) DO UPDATE SET team=excluded.team, name=excluded.name,
                   email=excluded.email, tasks=excluded.tasks",
            )?;
            for e in entries {
                let tasks = serde_json::to_string(&e.tasks).unwrap_or_else(|_| "[]".into());
                st.execute(params![e.id, e.team, e.name, e.email, tasks])?;
            }
        }
        tx.commit()
    }

    pub fn directory(&self) -> rusqlite::Result<Vec<DirEntry>> {
        let mut st = self
            .conn
            .prepare("SELECT id,team,name,email,tasks FROM people ORDER BY id")?;
        let rows = st.query_map([], |r| {
            let tasks: String = r.get(4)?;
            Ok(DirEntry {
                id: r.get(0)?,
                team: r.get(1)?,
                name: r.get(2)?,
                email: r.get(3)?,
                tasks: serde_json::from_str(&tasks).unwrap_or_default(),
            })
        })?;
        rows.collect()
    }

    /// Stored tasks matching `query` (every word, as a prefix, in the
    /// task's own fields or in one comment or message), best first, each
    /// with where it matched (`search.rs`).
    pub fn find(&self, query: &str, limit: usize) -> rusqlite::Result<Vec<Found>> {
        super::search::find(&self.conn, query, limit)
    }

    /// Stored tasks matching `query`, best first (see [`Db::find`]).
    pub fn search(&self, query: &str, limit: usize) -> rusqlite::Result<Vec<StoredTask>> {
        Ok(self
            .find(query, limit)?
            .into_iter()
            .map(|f| f.task)
            .collect())
    }

    /// The search index's size on disk, in bytes.
    pub fn index_bytes(&self) -> rusqlite::Result<i64> {
        super::search::index_bytes(&self.conn)
    }

    /// Stored tasks of one kind, most recently fetched first: what the
    /// pickers offer when the service has no list for it (`:drafts`: the
    /// service lists no draft; `:attach`: no list of files).
    pub fn scan(&self, scan: Scan, limit: usize) -> rusqlite::Result<Vec<StoredTask>> {
        let filter = match scan {
            Scan::Drafts => "json_extract(json, '$.draft') = 1",
            Scan::WithFiles => {
                "(coalesce(json_array_length(json, '$.input_files'), 0)
                  + coalesce(json_array_length(json, '$.output_files'), 0)) > 0"
            }
        };
        let mut st = self.conn.prepare(&format!(
            "SELECT id,number,title,updated_at,json,full,fetched_at FROM tasks
             WHERE json_valid(json) AND {filter} ORDER BY fetched_at DESC LIMIT ?1"
        ))?;
        let rows = st.query_map([limit as i64], |r| super::rows::task_row(r).map(|(t, _)| t))?;
        rows.collect()
    }

    /// Forget a task the service deleted (a rejected draft): it, its tabs,
    /// its search text and its number.
    pub fn forget_task(&mut self, id: &str) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        super::search::unindex(&tx, id, None)?;
        for table in ["tasks WHERE id", "tabs WHERE task_id", "numbers WHERE id"] {
            tx.execute(&format!("DELETE FROM {table}=?1"), [id])?;
        }
        tx.commit()
    }

    pub fn task_count(&self) -> rusqlite::Result<usize> {
        self.conn
            .query_row("SELECT count(*) FROM tasks", [], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
    }

    /// Keep at most `max` tasks: unopened ones fetched longest ago go
    /// first, then opened ones by when they were opened. Their tabs and
    /// search text go with them; a task with an edit in the outbox stays.
    pub fn evict(&mut self, max: usize) -> rusqlite::Result<usize> {
        let n = self.task_count()?;
        if n <= max {
            return Ok(0);
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let gone = tx.execute(
            "DELETE FROM tasks WHERE id IN (
               SELECT id FROM tasks WHERE id NOT IN (SELECT task_id FROM outbox)
               ORDER BY (opened_at IS NOT NULL), coalesce(opened_at, fetched_at) LIMIT ?1)",
            [(n - max) as i64],
        )?;
        tx.execute_batch(
            "DELETE FROM tabs WHERE task_id NOT IN (SELECT id FROM tasks);
             DELETE FROM words_fts WHERE rowid IN
               (SELECT id FROM words WHERE task_id NOT IN (SELECT id FROM tasks));
             DELETE FROM words WHERE task_id NOT IN (SELECT id FROM tasks);",
        )?;
        tx.commit()?;
        Ok(gone)
    }

    /// Everything the first frame needs: the last view and its rows, the
    /// last current task, the directory, what was seen, the recent tasks
    /// and the outbox.
    /// The outbox rows come back taken for this process (`outbox_take`):
    /// those another taskdeck holds, or another user made, are counted.
    pub fn boot(&self) -> rusqlite::Result<Boot> {
        let (outbox, outbox_elsewhere) = match self.read_only {
            // Nothing can be taken (claimed) in a store that cannot be
            // written: its queued edits wait for a later start.
            Some(_) => (vec![], self.outbox()?.len()),
            None => self.outbox_take(now_secs())?,
        };
        let view = self.get_meta("last_view");
        let (rows, rows_saved_at) = match self.get_meta("last_view_key") {
            Some(k) => self.get_view(&k)?.unwrap_or_default(),
            None => (vec![], 0),
        };
        let current = match self.get_meta("last_task") {
            Some(id) => Some(self.get_detail(&id)?).filter(|d| d.task.is_some()),
            None => None,
        };
        Ok(Boot {
            view,
            rows,
            rows_saved_at,
            current,
            directory: self.directory()?,
            seen: self.all_seen()?,
            recent: self.recent()?,
            outbox,
            outbox_elsewhere,
        })
    }
}

/// The directory of a store, read only (nothing when there is no store or
/// it cannot be read): the CLI completes names with it.
pub fn read_directory(path: &Path) -> Vec<DirEntry> {
    if !path.exists() {
        return vec![];
    }
    let Ok(conn) = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return vec![];
    };
    let db = Db::with(conn, path.to_path_buf());
    db.directory().unwrap_or_default()
}

#[cfg(all(test, unix))]
mod link_tests {
    use super::*;

    #[test]
    fn a_store_path_that_is_a_symlink_is_refused_and_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        for ext in ["sqlite3", "sqlite3-wal", "sqlite3-shm"] {
            let path = dir.path().join(format!("store-{ext}")).join("u.sqlite3");
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(&victim, path.with_extension(ext)).unwrap();
            let e = Db::open(&path).err().expect("refused");
            assert!(e.contains("is a symbolic link"), "{e}");
            assert!(e.contains(&format!("u.{ext}")), "names the link: {e}");
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        }
        // A dangling link: nothing is created where it points.
        let path = dir.path().join("dangling.sqlite3");
        let target = dir.path().join("elsewhere.sqlite3");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        assert!(Db::open(&path).is_err());
        assert!(!target.exists(), "the link was followed");
    }
}

/// The simulator's model disk (issue 43, `crate::sim::disk`): only with
/// the `sim` feature, never in the shipped library or binary.
#[cfg(feature = "sim")]
impl Db {
    /// `full`: the file may not grow (a disk full: a write that fits the
    /// pages there are still goes, one that must grow the file is refused
    /// `SQLITE_FULL`). `no_wait`: another program's lock is not waited
    /// for (`SQLITE_BUSY` at once: what a lock held longer than the
    /// store's wait comes to, without the wait).
    pub fn sim_disk(&self, full: bool, no_wait: bool) -> rusqlite::Result<()> {
        let pages: i64 = if full {
            self.conn.query_row("PRAGMA page_count", [], |r| r.get(0))?
        } else {
            1 << 30
        };
        self.conn
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| {
                r.get::<_, i64>(0)
            })?;
        let wait = if no_wait {
            std::time::Duration::ZERO
        } else {
            BUSY_TIMEOUT
        };
        self.conn.busy_timeout(wait)
    }
}
