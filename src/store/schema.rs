//! The schema and its migrations: `PRAGMA user_version` says which this
//! file has; each step below brings an older file up to the next, in place
//! and in one transaction (a file newer than this build is refused, and
//! moved aside by the caller).

use super::db::Db;

/// The schema version this build writes; older databases are migrated.
pub const SCHEMA_VERSION: i64 = 7;

impl Db {
    pub(super) fn migrate(&mut self) -> rusqlite::Result<()> {
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_MISMATCH),
                Some(format!(
                    "schema version {version} is newer than this taskdeck's ({SCHEMA_VERSION})"
                )),
            ));
        }
        // Read only: opening a store another process is writing to never
        // waits on its lock here.
        let gaps = super::repair::gaps(&self.conn, steps)?;
        if version == SCHEMA_VERSION && gaps.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Each step skips what already exists (a store whose version says
        // less than its tables hold), then what is missing is made.
        steps(&tx, version)?;
        let made = super::repair::fill(&tx, steps)?;
        let left = super::repair::gaps(&tx, steps)?;
        if !left.is_empty() {
            // Rolled back: the caller sets the store aside, its queued
            // edits and drafts carried over.
            return Err(super::repair::damaged(&left));
        }
        if version == SCHEMA_VERSION || !made.is_empty() {
            tracing::warn!(
                version,
                found = %gaps.join(", "),
                made = %made.join(", "),
                "the local store's schema was repaired"
            );
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()
    }
}

/// The migration steps from `version` to [`SCHEMA_VERSION`], each
/// statement skipped when its object already exists (`repair.rs`); an
/// empty database run through them is the schema this build expects.
/// Issue 32 (15): made idempotent, otherwise the steps are unchanged.
pub(super) fn steps(tx: &rusqlite::Connection, version: i64) -> rusqlite::Result<()> {
    use super::repair::idempotent;
    if version < 1 {
        idempotent(
                tx,
                "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE tasks(
                    id TEXT PRIMARY KEY,
                    number INTEGER,
                    title TEXT NOT NULL DEFAULT '',
                    updated_at TEXT,
                    json TEXT NOT NULL,
                    full INTEGER NOT NULL DEFAULT 0,
                    fetched_at INTEGER NOT NULL,
                    opened_at INTEGER);
                 CREATE INDEX tasks_number ON tasks(number);
                 CREATE TABLE tabs(
                    task_id TEXT NOT NULL, tab TEXT NOT NULL, json TEXT NOT NULL,
                    fetched_at INTEGER NOT NULL, PRIMARY KEY(task_id, tab));
                 CREATE TABLE views(key TEXT PRIMARY KEY, ids TEXT NOT NULL, saved_at INTEGER NOT NULL);
                 CREATE TABLE seen(
                    task_id TEXT PRIMARY KEY, updated_at TEXT, comment_ids TEXT,
                    message_ids TEXT, at INTEGER NOT NULL);
                 CREATE TABLE recent(
                    task_id TEXT PRIMARY KEY, label TEXT NOT NULL, title TEXT NOT NULL,
                    action TEXT NOT NULL, at INTEGER NOT NULL);
                 CREATE TABLE people(id TEXT PRIMARY KEY, team INTEGER NOT NULL, name TEXT NOT NULL,
                    email TEXT NOT NULL, tasks TEXT NOT NULL);
                 CREATE TABLE outbox(
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL,
                    label TEXT NOT NULL, what TEXT NOT NULL, request TEXT NOT NULL,
                    base_updated_at TEXT, created_at INTEGER NOT NULL);
                 CREATE VIRTUAL TABLE tasks_fts USING fts5(id UNINDEXED, text, tokenize='unicode61');",
            )?;
    }
    if version < 2 {
        // v2: the number index (`numbers.rs`), started from the tasks
        // already stored so that an upgraded store knows them at once.
        idempotent(
            tx,
            "CREATE TABLE numbers(
                    number INTEGER PRIMARY KEY, display_id TEXT NOT NULL, id TEXT NOT NULL,
                    title TEXT NOT NULL, seen_at INTEGER NOT NULL);
                 CREATE INDEX numbers_id ON numbers(id);
                 CREATE INDEX numbers_seen ON numbers(seen_at);
                 INSERT OR REPLACE INTO numbers(number, display_id, id, title, seen_at)
                    SELECT number,
                      coalesce(CASE WHEN json_valid(json)
                        THEN json_extract(json, '$.display_id') END, '#' || number),
                      id, title, fetched_at
                    FROM tasks WHERE number IS NOT NULL ORDER BY fetched_at;",
        )?;
    }
    if version < 3 {
        // v3: who made a queued edit (`user_id`) and which process
        // took it for sending (`claimed_by`, `claimed_at`; see
        // `outbox.rs`).
        idempotent(
            tx,
            "ALTER TABLE outbox ADD COLUMN user_id TEXT;
                 ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
                 ALTER TABLE outbox ADD COLUMN claimed_at INTEGER;",
        )?;
    }
    if version < 4 {
        // v4: the inbox (`inbox.rs`): what it last knew of each task
        // involving the user, its items, snoozes, follow-ups, and the
        // tasks with a write of ours in flight.
        idempotent(
            tx,
            "CREATE TABLE inbox_base(
                    task_id TEXT PRIMARY KEY, snap TEXT NOT NULL, version INTEGER NOT NULL,
                    comment_ids TEXT, since INTEGER NOT NULL);
                 CREATE TABLE inbox_items(
                    task_id TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL,
                    rank INTEGER NOT NULL, words TEXT NOT NULL, changes TEXT NOT NULL,
                    label TEXT NOT NULL, title TEXT NOT NULL, target TEXT,
                    at INTEGER NOT NULL, read_at INTEGER, PRIMARY KEY(task_id, key));
                 CREATE INDEX inbox_items_at ON inbox_items(at);
                 CREATE TABLE inbox_marks(
                    task_id TEXT NOT NULL, kind TEXT NOT NULL, at INTEGER NOT NULL,
                    since INTEGER NOT NULL, label TEXT NOT NULL, title TEXT NOT NULL,
                    PRIMARY KEY(task_id, kind));
                 CREATE TABLE inbox_own(task_id TEXT PRIMARY KEY, at INTEGER NOT NULL);",
        )?;
    }
    if version < 5 {
        // v5: the search index holds comments, requester messages,
        // additional context and people too (`search/`), filled from what
        // is stored. Idempotent: each table is made if missing and the
        // index is filled anew.
        idempotent(tx, super::search::SCHEMA_V5)?;
        super::search::rebuild(tx)?;
    }
    if version < 6 {
        // v6: the archived tasks whose comments the inbox still reads
        // (issue 46 §3; `inbox.rs`, `inbox/archived.rs`): what it knew of
        // each when it saw it archived, and when.
        idempotent(
            tx,
            "CREATE TABLE inbox_archived(
                    task_id TEXT PRIMARY KEY, snap TEXT NOT NULL, comment_ids TEXT,
                    since INTEGER NOT NULL, at INTEGER NOT NULL);
                 CREATE INDEX inbox_archived_at ON inbox_archived(at);",
        )?;
    }
    if version < 7 {
        // v7: the task as the user saw it when making a queued edit
        // (`outbox.saw`, the task's JSON): what a restart compares the
        // task read back with, never the copy stored since. A row of an
        // older store has none (NULL).
        idempotent(tx, "ALTER TABLE outbox ADD COLUMN saw TEXT;")?;
    }
    Ok(())
}
