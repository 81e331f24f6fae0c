//! Opening a store, and what is done with one that cannot be used.
//!
//! Only a database SQLite itself finds damaged (`SQLITE_CORRUPT`,
//! `SQLITE_NOTADB`, a failed page check) or one of a newer schema is set
//! aside (`….corrupt-<time>`), and the edits queued in its outbox are
//! carried over to the new one first (what can be read of them). A store
//! another process holds (`SQLITE_BUSY`/`SQLITE_LOCKED`) is waited for;
//! still held after the wait, this session runs without it and the file
//! is left exactly as it is. Any other failure (a full disk, a read-only
//! folder) leaves the file alone too.

use super::db::{Db, BUSY_TIMEOUT};
use super::outbox::rescue_outbox;
use super::rows::{now_secs, Boot};
use super::schema::SCHEMA_VERSION;
use rusqlite::{Connection, ErrorCode};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a start waits for a store another process holds.
pub const OPEN_WAIT: Duration = Duration::from_secs(5);

/// What stands in the way of using a database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// Damaged (or of a newer schema): set aside, its outbox carried over.
    Damaged,
    /// Held by another process: waited for, never set aside.
    Busy,
    /// Anything else (disk full, permissions): left alone.
    Other,
}

/// Which kind of trouble an error is.
pub fn trouble(e: &rusqlite::Error) -> Trouble {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => Trouble::Damaged,
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Trouble::Busy,
        // A schema newer than this build (see `migrate`).
        Some(ErrorCode::TypeMismatch) => Trouble::Damaged,
        _ => Trouble::Other,
    }
}

/// A store whose database or WAL files are symlinks is not opened: SQLite
/// would write through them to wherever they point (planted by someone
/// else, or a copy of another user's store). Says which and why.
fn refuse_links(path: &Path) -> Result<(), String> {
    for ext in ["sqlite3", "sqlite3-wal", "sqlite3-shm"] {
        let p = path.with_extension(ext);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "the local store {} is a symbolic link; it is not opened, so that nothing is \
                 written where the link points (remove the link to start a new store)",
                p.display()
            ));
        }
    }
    Ok(())
}

/// Why a database could not be used as it was, in one line. A write
/// SQLite could not make (`disk I/O error`, `database or disk is full`)
/// under a file-size limit (`ulimit -f`: the write failed with `EFBIG`)
/// names the limit.
pub(crate) fn describe(e: &rusqlite::Error) -> String {
    let text = crate::text::clean(&e.to_string());
    let write_failed = matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::SystemIoFailure | ErrorCode::DiskFull)
    );
    match file_size_limit().filter(|_| write_failed) {
        Some(limit) if limit % 1024 == 0 => format!(
            "{text}; files may not grow past {} KiB here (ulimit -f)",
            limit / 1024
        ),
        Some(limit) => format!("{text}; files may not grow past {limit} bytes here (ulimit -f)"),
        None => text,
    }
}

/// The process's file-size limit in bytes (`ulimit -f`), if it has one.
fn file_size_limit() -> Option<libc::rlim_t> {
    crate::platform::ffi::file_size_limit()
}

/// Move a database that cannot be used aside (`….corrupt-<time>`, kept
/// for a look), with its WAL files gone; says what happened, in one line.
/// Callers carry its outbox over first (`Db::set_aside`).
pub fn move_aside(path: &Path, why: &str) -> String {
    let aside = path.with_extension(format!("sqlite3.corrupt-{}", now_secs()));
    let moved = std::fs::rename(path, &aside);
    for ext in ["sqlite3-wal", "sqlite3-shm"] {
        let _ = std::fs::remove_file(path.with_extension(ext));
    }
    let _ = std::fs::remove_file(path);
    match moved {
        Ok(()) => format!(
            "the local store could not be used ({why}); it was moved aside to {}",
            aside.display()
        ),
        Err(m) => format!("the local store could not be used ({why}) nor moved aside ({m})"),
    }
}

impl Db {
    pub(super) fn with(conn: Connection, path: PathBuf) -> Db {
        Db {
            conn,
            path,
            instance: super::claims::Instance::new(),
            marks: Default::default(),
            owner: None,
            read_only: None,
        }
    }

    /// Open (or create) the database at `path`, 0600, waiting up to
    /// `OPEN_WAIT` for another process holding it. A damaged database is
    /// set aside with its outbox carried over, and a new one is made; the
    /// message says so, once.
    pub fn open(path: &Path) -> Result<(Db, Option<String>), String> {
        Self::open_waiting(path, OPEN_WAIT)
    }

    pub fn open_waiting(path: &Path, wait: Duration) -> Result<(Db, Option<String>), String> {
        refuse_links(path)?;
        if let Some(dir) = path.parent() {
            crate::config::ensure_private_dir(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let until = Instant::now() + wait;
        loop {
            let e = match Self::try_open(path, wait) {
                Ok(db) => return Ok((db, None)),
                Err(e) => e,
            };
            match trouble(&e) {
                Trouble::Damaged => {
                    let (db, note) = Self::set_aside(path, &describe(&e))?;
                    return Ok((db, Some(note)));
                }
                Trouble::Busy if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Trouble::Busy => return Err(busy_words(path)),
                Trouble::Other => {
                    // It cannot be written (a full disk, a read-only
                    // folder): read what it holds, keep nothing.
                    let why = describe(&e);
                    if let Some(db) = Self::open_read_only(path, &why) {
                        return Ok((db, Some(read_only_words(path, &why))));
                    }
                    return Err(format!(
                        "the local store cannot be used: {why}; left as it is ({})",
                        path.display()
                    ));
                }
            }
        }
    }

    /// Open the store of `user` and read what the first frame needs
    /// (`boot`, which takes the queued edits this process will send). A
    /// store SQLite finds damaged when read is set aside like one that
    /// does not open (its outbox carried over); one that opens but cannot
    /// be written (a full disk) is read read-only, keeping nothing; one
    /// held by another process is left alone.
    pub fn open_for(path: &Path, user: &str) -> Result<(Db, Option<String>, Option<Boot>), String> {
        let (mut db, note) = Self::open(path)?;
        db.set_owner(user);
        let e = match db.boot() {
            Ok(boot) => return Ok((db, note, Some(boot))),
            Err(e) => e,
        };
        drop(db);
        let why = describe(&e);
        let (mut db, note) = match trouble(&e) {
            Trouble::Damaged => Self::set_aside(path, &why)?,
            Trouble::Busy => return Err(busy_words(path)),
            Trouble::Other => match Self::open_read_only(path, &why) {
                Some(db) => (db, read_only_words(path, &why)),
                None => {
                    return Err(format!(
                        "the local store could not be read: {why}; left as it is ({})",
                        path.display()
                    ))
                }
            },
        };
        db.set_owner(user);
        let boot = db.boot().ok();
        Ok((db, Some(note), boot))
    }

    /// The store as it is on disk, read-only and without locks or WAL
    /// (`immutable`: nothing can be written next to it): `None` unless it
    /// is of this build's schema.
    fn open_read_only(path: &Path, why: &str) -> Option<Db> {
        use rusqlite::OpenFlags;
        if !path.is_file() {
            return None;
        }
        let uri = format!("file:{}?immutable=1", path.display());
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(uri, flags).ok()?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .ok()?;
        if version != SCHEMA_VERSION {
            return None;
        }
        let mut db = Db::with(conn, path.to_path_buf());
        db.read_only = Some(format!("the local store is read-only this session: {why}"));
        Some(db)
    }

    /// Why nothing is written (opened read-only), if so.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// Set a damaged database aside and start a new one, carrying its
    /// queued edits over (those that can be read); the note says so.
    /// The caller's connection to it, if any, is closed first.
    pub fn set_aside(path: &Path, why: &str) -> Result<(Db, String), String> {
        let rescued = rescue_outbox(path);
        let drafts = rescue_drafts(path);
        let note = move_aside(path, why);
        let mut db = Self::try_open(path, OPEN_WAIT)
            .map_err(|e| format!("{note}; cannot create a new one: {}", describe(&e)))?;
        let mut carried = match db.outbox_put_rows(&rescued) {
            Ok(()) if rescued.is_empty() => String::new(),
            Ok(()) => format!(
                "; {} carried over",
                match rescued.len() {
                    1 => "1 queued edit".to_string(),
                    n => format!("{n} queued edits"),
                }
            ),
            Err(e) => format!(
                "; its {} queued edit(s) could not be carried over ({})",
                rescued.len(),
                describe(&e)
            ),
        };
        // The draft tasks it knew: `:drafts` offers them offline too.
        if !drafts.is_empty() {
            carried.push_str(&match db.put_tasks(&drafts, now_secs()) {
                Ok(()) if drafts.len() == 1 => "; 1 draft carried over".to_string(),
                Ok(()) => format!("; {} drafts carried over", drafts.len()),
                Err(e) => format!("; its drafts could not be carried over ({})", describe(&e)),
            });
        }
        Ok((db, format!("{note} and a new one started{carried}")))
    }

    /// A full read of the database's pages (`PRAGMA quick_check`): damage
    /// deeper than the header shows here. Slow on a large store, so the
    /// store's thread runs it, never the start. `Err` only for damage;
    /// a check that could not run (busy) is not a verdict.
    pub fn check(&self) -> Result<(), String> {
        let check: String = match self.conn.query_row("PRAGMA quick_check", [], |r| r.get(0)) {
            Ok(c) => c,
            Err(e) if trouble(&e) == Trouble::Damaged => return Err(describe(&e)),
            Err(e) => {
                tracing::warn!(error = %e, "the store's page check could not run");
                return Ok(());
            }
        };
        if check == "ok" {
            Ok(())
        } else {
            Err(crate::text::clean(&check))
        }
    }

    fn try_open(path: &Path, busy: Duration) -> rusqlite::Result<Db> {
        // Created 0600 before SQLite opens it.
        if !path.exists() {
            let mut o = std::fs::OpenOptions::new();
            o.write(true).create(true).truncate(false);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                // A dangling link planted since the check is not followed.
                o.mode(0o600).custom_flags(libc::O_NOFOLLOW);
            }
            o.open(path)
                .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(busy.min(BUSY_TIMEOUT))?;
        // A file that is not a database fails here; deeper damage shows
        // in `check`. A lock held by another process fails here too, and
        // is waited for by the caller.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // SQLite's page cache, per connection: 2 MiB by default, filled by
        // the number index of a 10,000-task walk and kept for the session.
        // The file is a few MB and the operating system caches it too.
        conn.pragma_update(None, "cache_size", super::db::PAGE_CACHE_KIB)?;
        let mut db = Db::with(conn, path.to_path_buf());
        db.migrate()?;
        // From here on statements wait long for another process's lock:
        // the store's thread is off the UI loop.
        db.conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL side files are created by SQLite with the database's mode
        // only on some systems: make sure.
        #[cfg(unix)]
        for ext in ["sqlite3", "sqlite3-wal", "sqlite3-shm"] {
            use std::os::unix::fs::PermissionsExt;
            let p = path.with_extension(ext);
            if p.exists() {
                let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600));
            }
        }
        Ok(db)
    }
}

/// The draft tasks of a database about to be set aside, as far as they
/// can be read (nothing when its tasks cannot be). Read-only.
fn rescue_drafts(path: &Path) -> Vec<super::rows::StoredTask> {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let Ok(conn) = Connection::open_with_flags(path, flags) else {
        return vec![];
    };
    let Ok(mut st) = conn.prepare(
        "SELECT id, number, title, updated_at, json, full FROM tasks
         WHERE json_valid(json) AND json_extract(json, '$.draft') = 1",
    ) else {
        return vec![];
    };
    let Ok(rows) = st.query_map([], |r| {
        Ok(super::rows::StoredTask {
            id: r.get(0)?,
            number: r.get(1)?,
            title: r.get(2)?,
            updated_at: r.get(3)?,
            json: r.get(4)?,
            full: r.get(5)?,
        })
    }) else {
        return vec![];
    };
    rows.map_while(Result::ok).collect()
}

/// A store still held by another process after the wait: the words that
/// matter first (a status line is cut at the screen's edge), the path last.
pub fn busy_words(path: &Path) -> String {
    format!(
        "the local store is held by another program (another taskdeck?): waited {} s; trying again in the background — it is left as it is, and what is queued meanwhile waits in memory for it ({})",
        OPEN_WAIT.as_secs(),
        path.display()
    )
}

/// A store opened read-only because it cannot be written.
fn read_only_words(path: &Path, why: &str) -> String {
    format!(
        "the local store cannot be written ({why}): opened read-only — nothing is kept this session; edits made offline are NOT KEPT ({})",
        path.display()
    )
}

/// What `taskdeck doctor` says of a store, read without changing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inspection {
    /// The database file's size.
    pub bytes: u64,
    /// `PRAGMA user_version`.
    pub schema_version: i64,
    /// `PRAGMA quick_check`'s first line (`ok` when sound).
    pub integrity: String,
    /// Edits queued in the outbox.
    pub outbox: usize,
    /// Drafts kept beside it (the user's drafts folder).
    pub drafts: usize,
}

/// Read a store as it is: opened read-only (nothing made, migrated or set
/// aside), a lock held elsewhere waited for 200 ms at most; `drafts` is
/// the user's drafts folder (kept in the state folder, not beside the
/// store), whose drafts are counted.
pub fn inspect(path: &Path, drafts: &Path) -> Result<Inspection, String> {
    use rusqlite::OpenFlags;
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("cannot read it: {e}"))?
        .len();
    let conn = rusqlite::Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open it: {e}"))?;
    let _ = conn.busy_timeout(Duration::from_millis(200));
    let schema_version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| format!("cannot read it: {e}"))?;
    let integrity: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .unwrap_or_else(|e| format!("not checked ({e})"));
    let outbox = conn
        .query_row("SELECT count(*) FROM outbox", [], |r| r.get::<_, i64>(0))
        .map(|n| n.max(0) as usize)
        .unwrap_or(0);
    let drafts = std::fs::read_dir(drafts)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
                .count()
        })
        .unwrap_or(0);
    Ok(Inspection {
        bytes,
        schema_version,
        integrity,
        outbox,
        drafts,
    })
}
