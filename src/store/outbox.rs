//! The outbox in the store: edits waiting for the service, in order.
//!
//! Exactly once across processes: a row is sent only by the process that
//! took it (`claimed_by`), and taking is a single `UPDATE` (one write
//! transaction), so two taskdecks started together never both hold a
//! row. A process takes the free rows of its user when it opens the store
//! (`boot`), its new rows are its own, it keeps its claims alive while it
//! runs (`outbox_keep_claims`) and gives them back when it stops; a claim
//! not kept alive for `CLAIM_STALE_SECS` (a process that died) is taken
//! by the next start. A row records the user who made it (`user_id`) and
//! is only ever taken for that user.

pub use super::claims::CancelMark;
use super::claims::{fnv, host_name, Instance};
use super::db::Db;
use super::rows::OutboxRow;
use rusqlite::{params, OptionalExtension};
use std::path::{Path, PathBuf};

/// A claim not kept alive for this long belongs to a process that is gone.
pub const CLAIM_STALE_SECS: i64 = 300;

/// How often a running process says its claims are alive.
pub const CLAIM_KEEP_SECS: u64 = 60;

impl Db {
    /// The user whose store this is: the rows it writes record that user,
    /// and only that user's rows are taken.
    pub fn set_owner(&mut self, user: &str) {
        self.owner = Some(user.to_string());
    }

    #[allow(clippy::too_many_arguments)]
    pub fn outbox_add(
        &self,
        seq: i64,
        task_id: &str,
        label: &str,
        what: &str,
        request: &str,
        base_updated_at: Option<&str>,
        saw: Option<&str>,
        now: i64,
    ) -> rusqlite::Result<i64> {
        // Made here: this process's own row from the start.
        self.conn.execute(
            "INSERT INTO outbox(seq,task_id,label,what,request,base_updated_at,created_at,
                user_id,claimed_by,claimed_at,saw)
             VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?7,?10)",
            params![
                seq,
                task_id,
                label,
                what,
                request,
                base_updated_at,
                now,
                self.owner,
                self.instance,
                saw
            ],
        )?;
        self.marks.borrow_mut().insert(
            seq,
            CancelMark {
                seq,
                task: Some(task_id.to_string()),
                created: Some(now),
                request: Some(fnv(request)),
            },
        );
        Ok(seq)
    }

    pub fn outbox_remove(&self, seq: i64) -> rusqlite::Result<()> {
        self.conn
            .execute("DELETE FROM outbox WHERE seq=?1", [seq])?;
        Ok(())
    }

    /// The user cancelled a queued edit: its row goes. When the store
    /// cannot write (full, held by another program, read-only), the
    /// cancel is marked beside it instead (`<store>.cancelled`, read by
    /// the next take, which removes the row): the edit never comes back
    /// at the next start to be sent. The mark names the edit, not only
    /// its place (`CancelMark`): a mark carried out late, or twice, never
    /// takes another edit with it. `Err(why)`: neither could be written
    /// (the store still holds the edit).
    pub fn outbox_cancel(&self, seq: i64) -> Result<(), String> {
        let removed = match &self.read_only {
            Some(why) => Err(why.clone()),
            None => self
                .outbox_remove(seq)
                .map_err(|e| crate::text::clean(&e.to_string())),
        };
        let Err(why) = removed else {
            return Ok(());
        };
        let read = self
            .conn
            .query_row("SELECT * FROM outbox WHERE seq=?1", [seq], outbox_row)
            .optional();
        let mark = match (read, self.marks.borrow().get(&seq)) {
            (Ok(Some(row)), _) => CancelMark::of(&row),
            // Gone already (sent, or cancelled by another taskdeck):
            // nothing comes back.
            (Ok(None), _) => return Ok(()),
            // Not readable now (held whole by another program): as this
            // handle wrote or took it.
            (Err(_), Some(known)) => known.clone(),
            (Err(e), None) => {
                return Err(crate::text::clean(&format!(
                    "{why}; nor could the edit be read to mark its cancel: {e}"
                )))
            }
        };
        mark_cancel(&self.path, &mark).map_err(|e| {
            crate::text::clean(&format!(
                "{why}; nor could it be marked beside the store: {e}"
            ))
        })
    }

    /// Cancels marked beside the store (`outbox_cancel`) are carried out:
    /// the rows they name go (a row of the same place but another edit
    /// stays), then the marks.
    fn apply_cancel_marks(&self) -> rusqlite::Result<()> {
        let Some(file) = cancel_marks_path(&self.path) else {
            return Ok(());
        };
        if !file.exists() {
            return Ok(());
        }
        for mark in read_cancel_marks(&self.path) {
            let row = self
                .conn
                .query_row("SELECT * FROM outbox WHERE seq=?1", [mark.seq], outbox_row)
                .optional()?;
            if row.is_some_and(|r| mark.names(&r)) {
                self.outbox_remove(mark.seq)?;
            }
        }
        if let Err(e) = std::fs::remove_file(&file) {
            tracing::warn!(error = %e, "cannot remove the outbox's cancel marks");
        }
        Ok(())
    }

    /// The version a queued edit is checked against moved: the previous
    /// edit of its task (ours) was answered with `base`.
    pub fn outbox_rebase(&self, seq: i64, base: Option<&str>) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE outbox SET base_updated_at=?2 WHERE seq=?1",
            params![seq, base],
        )?;
        Ok(())
    }

    /// Every row, in order, whoever holds it.
    pub fn outbox(&self) -> rusqlite::Result<Vec<OutboxRow>> {
        let mut st = self.conn.prepare("SELECT * FROM outbox ORDER BY seq")?;
        let rows = st.query_map([], outbox_row)?;
        rows.collect()
    }

    /// Take the rows this process may send: free ones, its own, and those
    /// of a process gone quiet, of this store's user (a row recorded
    /// before rows named their user is this store's: stores are per
    /// user). One `UPDATE`, so one transaction: another process taking at
    /// the same moment gets the others. Returns the rows taken, in order,
    /// and how many are left to others (held elsewhere, another user's).
    pub fn outbox_take(&self, now: i64) -> rusqlite::Result<(Vec<OutboxRow>, usize)> {
        self.apply_cancel_marks()?;
        self.free_claims_of_the_dead()?;
        self.conn.execute(
            "UPDATE outbox SET claimed_by=?1, claimed_at=?2
             WHERE (claimed_by IS NULL OR claimed_by=?1 OR claimed_at IS NULL OR claimed_at < ?2 - ?3)
               AND (user_id IS NULL OR ?4 IS NULL OR user_id = ?4)",
            params![self.instance, now, CLAIM_STALE_SECS, self.owner],
        )?;
        let mut st = self
            .conn
            .prepare("SELECT * FROM outbox WHERE claimed_by=?1 ORDER BY seq")?;
        let mine = st
            .query_map([&self.instance], outbox_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        self.marks
            .borrow_mut()
            .extend(mine.iter().map(|r| (r.seq, CancelMark::of(r))));
        let all: i64 = self
            .conn
            .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))?;
        let elsewhere = (all as usize).saturating_sub(mine.len());
        Ok((mine, elsewhere))
    }

    /// Take what became free while running (a taskdeck that stopped, or
    /// died): only the rows this process did not hold already, so that a
    /// row it sent (or dropped) is never handed back.
    pub fn outbox_take_new(&self, now: i64) -> rusqlite::Result<Vec<OutboxRow>> {
        let held: std::collections::HashSet<i64> = {
            let mut st = self
                .conn
                .prepare("SELECT seq FROM outbox WHERE claimed_by=?1")?;
            let rows = st.query_map([&self.instance], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let (mine, _) = self.outbox_take(now)?;
        Ok(mine
            .into_iter()
            .filter(|r| !held.contains(&r.seq))
            .collect())
    }

    /// Claims of a process of this host that no longer runs, or of a
    /// store this process closed, are let go at once (not after
    /// `CLAIM_STALE_SECS`): a crash does not hold queued edits back from
    /// the next start, nor a store switched away from and back to in one
    /// run (its claims not given back at the switch) from the switch back.
    fn free_claims_of_the_dead(&self) -> rusqlite::Result<()> {
        let claims: Vec<String> = {
            let mut st = self.conn.prepare(
                "SELECT DISTINCT claimed_by FROM outbox WHERE claimed_by IS NOT NULL AND claimed_by != ?1",
            )?;
            let rows = st.query_map([&self.instance], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for c in claims.iter().filter(|c| claimant_gone(c)) {
            self.conn.execute(
                "UPDATE outbox SET claimed_by=NULL, claimed_at=NULL WHERE claimed_by=?1",
                [c],
            )?;
        }
        Ok(())
    }

    /// This process is alive: its claims stay its own.
    pub fn outbox_keep_claims(&self, now: i64) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE outbox SET claimed_at=?2 WHERE claimed_by=?1",
            params![self.instance, now],
        )?;
        Ok(())
    }

    /// This process stops: its rows are free for the next start.
    pub fn outbox_release(&self) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE outbox SET claimed_by=NULL, claimed_at=NULL WHERE claimed_by=?1",
            [&self.instance],
        )?;
        Ok(())
    }

    /// Rows carried over from a store set aside: written as they were,
    /// free to be taken.
    pub(super) fn outbox_put_rows(&mut self, rows: &[OutboxRow]) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for r in rows {
            tx.execute(
                "INSERT OR IGNORE INTO outbox(seq,task_id,label,what,request,base_updated_at,
                    created_at,user_id,saw) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
                params![
                    r.seq,
                    r.task_id,
                    r.label,
                    r.what,
                    r.request,
                    r.base_updated_at,
                    r.created_at,
                    r.user_id,
                    r.saw
                ],
            )?;
        }
        tx.commit()
    }
}

/// Where the cancels a store could not write are marked: beside it,
/// `<store>.cancelled`, one `CancelMark` a line (`None`: a store in
/// memory).
pub fn cancel_marks_path(store: &Path) -> Option<PathBuf> {
    if store.as_os_str().is_empty() {
        return None;
    }
    let mut name = store.as_os_str().to_owned();
    name.push(".cancelled");
    Some(PathBuf::from(name))
}

/// The cancels marked beside a store (none when there is no mark).
pub fn read_cancel_marks(store: &Path) -> Vec<CancelMark> {
    cancel_marks_path(store)
        .and_then(|f| std::fs::read_to_string(f).ok())
        .map(|s| s.lines().filter_map(CancelMark::parse).collect())
        .unwrap_or_default()
}

/// Mark a cancel beside the store (appended, the file 0600).
fn mark_cancel(store: &Path, mark: &CancelMark) -> std::io::Result<()> {
    use std::io::Write;
    let file =
        cancel_marks_path(store).ok_or_else(|| std::io::Error::other("the store is in memory"))?;
    // Never written through a link (as the store itself, `open.rs`).
    if std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(std::io::Error::other(format!(
            "{} is a symbolic link",
            file.display()
        )));
    }
    let line = serde_json::to_string(mark).map_err(std::io::Error::other)?;
    let mut o = std::fs::OpenOptions::new();
    o.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o.open(file)?;
    f.write_all(format!("{line}\n").as_bytes())?;
    f.sync_all()
}

/// A claim by another process of this host that is not running any more,
/// or by an instance of this process that is closed. Another host's (a
/// shared home folder) is only ever judged by time.
fn claimant_gone(claim: &str) -> bool {
    let mut parts = claim.rsplitn(3, ':');
    let (Some(_nanos), Some(pid), Some(host)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let Ok(pid) = pid.parse::<i32>() else {
        return false;
    };
    if host != host_name() || pid <= 0 {
        return false;
    }
    if pid as u32 == std::process::id() {
        return !Instance::live(claim);
    }
    crate::platform::ffi::process_gone(pid)
}

/// A row by column name: a store of an older schema (no `user_id`, no
/// `saw`) reads too, which matters when rows are rescued from a damaged one.
fn outbox_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<OutboxRow> {
    Ok(OutboxRow {
        seq: r.get("seq")?,
        task_id: r.get("task_id")?,
        label: r.get("label")?,
        what: r.get("what")?,
        request: r.get("request")?,
        base_updated_at: r.get("base_updated_at")?,
        created_at: r.get("created_at")?,
        user_id: r.get("user_id").unwrap_or(None),
        saw: r.get("saw").unwrap_or(None),
    })
}

/// What can be read of the outbox of a database about to be set aside:
/// row by row, stopping at the first that cannot be read (the rest is
/// damaged). Read-only; nothing when the file does not open.
pub(super) fn rescue_outbox(path: &Path) -> Vec<OutboxRow> {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let Ok(conn) = rusqlite::Connection::open_with_flags(path, flags) else {
        return vec![];
    };
    let Ok(mut st) = conn.prepare("SELECT * FROM outbox ORDER BY seq") else {
        return vec![];
    };
    let Ok(rows) = st.query_map([], outbox_row) else {
        return vec![];
    };
    // A cancel marked beside it is not carried over.
    let cancelled = read_cancel_marks(path);
    rows.map_while(Result::ok)
        .filter(|r| !cancelled.iter().any(|m| m.names(r)))
        .collect()
}

/// Queued edits that wait in the other stores of a service folder (other
/// users' stores: edits made as them, never sent with this key), by the
/// user who made them: `(user id, name as their store knows it, count)`.
/// Read-only; a store that cannot be read counts for nothing.
pub fn waiting_elsewhere(service_dir: &Path, mine: &Path) -> Vec<(String, String, usize)> {
    let Ok(entries) = std::fs::read_dir(service_dir) else {
        return vec![];
    };
    let mut out: Vec<(String, String, usize)> = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        if path == mine || path.extension().is_none_or(|x| x != "sqlite3") {
            continue;
        }
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let Ok(conn) = rusqlite::Connection::open_with_flags(&path, flags) else {
            continue;
        };
        let counts: Vec<(Option<String>, i64)> = conn
            .prepare("SELECT user_id, count(*) FROM outbox GROUP BY user_id")
            .and_then(|mut st| {
                st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<rusqlite::Result<_>>()
            })
            .unwrap_or_default();
        drop(conn);
        let people = super::db::read_directory(&path);
        for (user, n) in counts {
            let Some(user) = user.filter(|u| !u.is_empty()) else {
                continue;
            };
            let name = people
                .iter()
                .find(|p| !p.team && p.id == user)
                .map(|p| crate::text::name_or_email(&p.name, &p.email).to_string())
                .unwrap_or_default();
            match out.iter_mut().find(|(u, _, _)| *u == user) {
                Some(w) => w.2 += n as usize,
                None => out.push((user, name, n as usize)),
            }
        }
    }
    out
}
