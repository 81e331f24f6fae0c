//! The inbox's tables (what they mean is `crate::inbox`'s business; the
//! store keeps rows): what the inbox last knew of each task involving the
//! user (`inbox_base`), its items (`inbox_items`, one per change, keyed so
//! that the same change found twice — by two instances, or twice by one —
//! is one row), snoozes and follow-ups (`inbox_marks`), and the tasks a
//! write of ours is in flight for (`inbox_own`: their changes are ours).

use super::db::Db;
use rusqlite::params;
use std::collections::HashMap;

/// A task with a write of ours in flight is left alone by the inbox this
/// long at most (a write that never answered frees it).
pub const OWN_WRITE_HOLD: i64 = 120;

/// How far the service's clock may be off ours (seconds). A stored base
/// whose version is further ahead of our clock than this was written by a
/// service clock that ran ahead: it orders nothing, a later read replaces
/// it.
pub const CLOCK_SKEW_SECS: i64 = 300;

/// Items kept, newest first (read ones go first when over).
const ITEMS_KEPT: i64 = 2000;

/// What the inbox last knew of a task.
#[derive(Clone, Debug, PartialEq)]
pub struct InboxBase {
    pub task_id: String,
    /// The inbox's snapshot of the task (JSON).
    pub snap: String,
    /// Its `updated_at` in milliseconds (0: unknown): an older version
    /// never replaces a newer one.
    pub version: i64,
    /// The comment ids known (`None`: never read).
    pub comment_ids: Option<Vec<String>>,
    /// When the inbox started following it (seconds): comments made
    /// after it are new even before the first read.
    pub since: i64,
    /// Its due-date reminder still holds (the user's, open, due today or
    /// overdue); not stored: the reminder of a task that no longer
    /// reminds (done, due moved ahead) is over.
    pub reminds: bool,
}

impl InboxBase {
    /// A base stored for `task_id` of which nothing could be read (see
    /// `Db::inbox_bases`): its snapshot is empty, which no walk reads.
    pub fn unreadable(task_id: String) -> InboxBase {
        InboxBase {
            task_id,
            snap: String::new(),
            version: 0,
            comment_ids: None,
            since: 0,
            reminds: true,
        }
    }
}

/// One change that concerns the user.
#[derive(Clone, Debug, PartialEq)]
pub struct InboxItem {
    pub task_id: String,
    /// What makes it one change (`comment:<id>`, `fields:<version>`…).
    pub key: String,
    pub kind: String,
    /// Lower comes first in its row (a mention before a field change).
    pub rank: i64,
    pub words: String,
    /// The changed fields (JSON `[{field, before, after}]`).
    pub changes: String,
    pub label: String,
    pub title: String,
    /// Where opening it goes (a comment id, a field).
    pub target: Option<String>,
    pub at: i64,
    pub read_at: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Snooze,
    FollowUp,
}

impl MarkKind {
    fn as_str(self) -> &'static str {
        match self {
            MarkKind::Snooze => "snooze",
            MarkKind::FollowUp => "follow-up",
        }
    }
}

/// A snooze (hidden until `at`) or a follow-up (due at `at`), set at
/// `since`.
#[derive(Clone, Debug, PartialEq)]
pub struct InboxMark {
    pub task_id: String,
    pub kind: MarkKind,
    pub at: i64,
    pub since: i64,
    pub label: String,
    pub title: String,
}

fn item_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<InboxItem> {
    Ok(InboxItem {
        task_id: r.get(0)?,
        key: r.get(1)?,
        kind: r.get(2)?,
        rank: r.get(3)?,
        words: r.get(4)?,
        changes: r.get(5)?,
        label: r.get(6)?,
        title: r.get(7)?,
        target: r.get(8)?,
        at: r.get(9)?,
        read_at: r.get(10)?,
    })
}

pub(super) const BASE_COLS: &str = "task_id,snap,version,comment_ids,since";

fn base_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<InboxBase> {
    base_at(r, 0)
}

/// A base read from the columns [`BASE_COLS`] starting at `o`.
fn base_at(r: &rusqlite::Row<'_>, o: usize) -> rusqlite::Result<InboxBase> {
    let ids: Option<String> = r.get(o + 3)?;
    Ok(InboxBase {
        task_id: r.get(o)?,
        snap: r.get(o + 1)?,
        version: r.get(o + 2)?,
        comment_ids: ids.and_then(|s| serde_json::from_str(&s).ok()),
        since: r.get(o + 4)?,
        reminds: true,
    })
}

/// A stored base read from the columns [`BASE_COLS`] starting at `o`
/// (`None`: no row joined there): one that does not decode (a damaged
/// store) is a base with an empty snapshot ([`InboxBase::unreadable`]),
/// so the task is learnt again rather than news told of it.
pub(super) fn base_or_unreadable(
    r: &rusqlite::Row<'_>,
    o: usize,
) -> rusqlite::Result<Option<InboxBase>> {
    let Some(task_id) = r.get::<_, Option<String>>(o).ok().flatten() else {
        return Ok(None);
    };
    Ok(Some(base_at(r, o).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "an inbox base that does not decode is learnt again");
        InboxBase::unreadable(task_id)
    })))
}

const ITEM_COLS: &str = "task_id,key,kind,rank,words,changes,label,title,target,at,read_at";

impl Db {
    /// What the inbox knows of every task it follows (a walk's start).
    /// A row that does not decode (a damaged store) is kept as a base with
    /// an empty snapshot: the task is known to be followed, and nothing of
    /// it is readable, so the walk learns it again rather than telling
    /// news of it. A store that cannot be read at all is an error.
    ///
    /// Tests and `inbox --json`'s readers only: a walk reads each base
    /// when it compares it (`Db::inbox_commit_walk`), never all at once.
    pub fn inbox_bases(&self) -> rusqlite::Result<HashMap<String, InboxBase>> {
        #[cfg(test)]
        WHOLE_READS.with(|n| n.set(n.get() + 1));
        let mut st = self
            .conn
            .prepare(&format!("SELECT {BASE_COLS} FROM inbox_base"))?;
        let mut rows = st.query([])?;
        let mut out = HashMap::new();
        while let Some(r) = rows.next()? {
            if let Some(b) = base_or_unreadable(r, 0)? {
                out.insert(b.task_id.clone(), b);
            }
        }
        Ok(out)
    }

    /// [`Self::inbox_base`], a row that does not decode read as
    /// [`InboxBase::unreadable`] (as [`Self::inbox_bases`] reads it).
    pub fn inbox_base_or_unreadable(&self, task_id: &str) -> rusqlite::Result<Option<InboxBase>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {BASE_COLS} FROM inbox_base WHERE task_id=?1"
        ))?;
        let mut rows = st.query([task_id])?;
        match rows.next()? {
            Some(r) => base_or_unreadable(r, 0),
            None => Ok(None),
        }
    }

    /// What the inbox knows of one task (`None`: it does not follow it),
    /// read by its id alone (a write of ours answered).
    pub fn inbox_base(&self, task_id: &str) -> rusqlite::Result<Option<InboxBase>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {BASE_COLS} FROM inbox_base WHERE task_id=?1"
        ))?;
        st.query_row([task_id], base_row)
            .map(Some)
            .or_else(none_if_no_rows)
    }

    /// Whether a walk that read `task_id` in `version` at `now` would have
    /// its commit skip the task whole — a newer base stored, or a write of
    /// ours to it in flight — and so say none of its news yet (the
    /// simulator asks, to know which walks count for what it awaits).
    pub fn inbox_holds_back(
        &self,
        task_id: &str,
        version: i64,
        now: i64,
    ) -> rusqlite::Result<bool> {
        let stored: Option<i64> = self
            .conn
            .query_row(
                "SELECT version FROM inbox_base WHERE task_id=?1",
                [task_id],
                |r| Ok(r.get::<_, i64>(0).ok()),
            )
            .map(Some)
            .or_else(none_if_no_rows)?
            .flatten();
        let own: Option<i64> = self
            .conn
            .query_row(
                "SELECT at FROM inbox_own WHERE task_id=?1",
                [task_id],
                |r| r.get(0),
            )
            .map(Some)
            .or_else(none_if_no_rows)?;
        Ok(own.is_some_and(|at| own_held(at, now)) || newer_stored(stored, version, now))
    }

    /// Whether the inbox ever finished a walk here (the first one only
    /// learns what there is).
    pub fn inbox_started(&self) -> bool {
        self.get_meta("inbox_started").is_some()
    }

    /// Whether the inbox is still learning what there is: its first walk
    /// here stopped before the last page because a page failed, and no
    /// walk since read its pages without one failing (the page cap ends
    /// a walk as whole as this inbox's walks will be: it counts as whole). The tasks it never read have no
    /// base, and a later walk would take them for tasks that just came to
    /// the user; until a whole walk, such a task is learned, not news.
    /// (A store whose first walk was whole, or written before this was
    /// kept, never is.)
    pub fn inbox_learning(&self) -> bool {
        self.get_meta("inbox_learning").is_some()
    }

    /// Write what one walk found, in one transaction: for each task its
    /// new base and its items. A task whose stored base is newer than
    /// the one given (another instance, or our own write, got there
    /// first), or with a write of ours in flight, is skipped whole.
    /// `gone`: tasks no longer involving the user. Answers the number of
    /// items that are new.
    pub fn inbox_commit(
        &mut self,
        bases: &[InboxBase],
        gone: &[String],
        items: &[InboxItem],
        now: i64,
    ) -> rusqlite::Result<usize> {
        self.inbox_commit_each(bases.iter().map(Ok), gone, items, now)
    }

    /// [`Self::inbox_commit`] with the bases made one at a time, each
    /// written and dropped before the next is asked for: a walk of 20,000
    /// tasks never holds every base's snapshot JSON at once (~20 MB, issue
    /// 42 §2). A base that cannot be made (`Err`) ends the transaction,
    /// nothing written.
    pub fn inbox_commit_each<B: std::borrow::Borrow<InboxBase>>(
        &mut self,
        bases: impl IntoIterator<Item = rusqlite::Result<B>>,
        gone: &[String],
        items: &[InboxItem],
        now: i64,
    ) -> rusqlite::Result<usize> {
        if self.read_only.is_some() {
            return Ok(0);
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let added = {
            let mut w = Commit::new(&tx)?;
            for b in bases {
                w.base(b?.borrow(), now)?;
            }
            w.finish(&tx, gone, items, now)?
        };
        tx.commit()?;
        Ok(added)
    }

    /// A write of ours to `task_id` went out (`base: None`) or was
    /// answered with this new base: its changes are not news.
    pub fn inbox_own(
        &mut self,
        task_id: &str,
        base: Option<&InboxBase>,
        now: i64,
    ) -> rusqlite::Result<()> {
        if self.read_only.is_some() {
            return Ok(());
        }
        match base {
            None => {
                self.conn.execute(
                    "INSERT INTO inbox_own(task_id,at) VALUES(?1,?2)
                     ON CONFLICT(task_id) DO UPDATE SET at=excluded.at",
                    params![task_id, now],
                )?;
            }
            Some(b) => {
                let tx = self
                    .conn
                    .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                tx.execute("DELETE FROM inbox_own WHERE task_id=?1", [task_id])?;
                // Only a task the inbox follows, and never back in time
                // (unless the stored version is ahead of our clock).
                let ahead = (now + CLOCK_SKEW_SECS) * 1000;
                let n = tx.execute(
                    "UPDATE inbox_base SET snap=?2, version=?3 WHERE task_id=?1
                       AND (version <= ?3 OR version > ?4)",
                    params![task_id, b.snap, b.version, ahead],
                )?;
                // Our write ended its reminder (done, due moved ahead).
                if n > 0 && !b.reminds {
                    tx.execute(
                        "UPDATE inbox_items SET read_at=?2
                           WHERE task_id=?1 AND kind='due' AND read_at IS NULL",
                        params![task_id, now],
                    )?;
                }
                tx.commit()?;
            }
        }
        Ok(())
    }

    /// A write of ours failed: nothing of it to wait for.
    pub fn inbox_own_done(&self, task_id: &str) -> rusqlite::Result<()> {
        if self.read_only.is_none() {
            self.conn
                .execute("DELETE FROM inbox_own WHERE task_id=?1", [task_id])?;
        }
        Ok(())
    }

    /// A comment of ours on `task_id`: known, so never news.
    pub fn inbox_own_comment(&self, task_id: &str, comment_id: &str) -> rusqlite::Result<()> {
        if self.read_only.is_some() {
            return Ok(());
        }
        let ids: Option<String> = self
            .conn
            .query_row(
                "SELECT comment_ids FROM inbox_base WHERE task_id=?1",
                [task_id],
                |r| r.get(0),
            )
            .map(Some)
            .or_else(none_if_no_rows)?
            .flatten();
        let Some(ids) = ids else { return Ok(()) };
        let mut ids: Vec<String> = serde_json::from_str(&ids).unwrap_or_default();
        if !ids.iter().any(|i| i == comment_id) {
            ids.push(comment_id.to_string());
        }
        self.conn.execute(
            "UPDATE inbox_base SET comment_ids=?2 WHERE task_id=?1",
            params![task_id, serde_json::to_string(&ids).unwrap_or_default()],
        )?;
        Ok(())
    }

    /// The items, newest first: unread ones only unless `all`.
    pub fn inbox_items(&self, all: bool) -> rusqlite::Result<Vec<InboxItem>> {
        let sql = format!(
            "SELECT {ITEM_COLS} FROM inbox_items {} ORDER BY at DESC, rowid DESC",
            if all { "" } else { "WHERE read_at IS NULL" }
        );
        let mut st = self.conn.prepare(&sql)?;
        let rows = st.query_map([], item_row)?;
        rows.collect()
    }

    /// Add items made outside a walk (a follow-up that fell due).
    pub fn inbox_add(&self, items: &[InboxItem]) -> rusqlite::Result<usize> {
        if self.read_only.is_some() {
            return Ok(0);
        }
        let mut n = 0;
        for i in items {
            n += self.conn.execute(
                "INSERT OR IGNORE INTO inbox_items(task_id,key,kind,rank,words,changes,label,title,target,at)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
                params![
                    i.task_id, i.key, i.kind, i.rank, i.words, i.changes, i.label, i.title,
                    i.target, i.at
                ],
            )?;
        }
        Ok(n)
    }

    /// Mark the unread items of a task read; answers their keys (what `u`
    /// brings back). A snooze that came back is over too.
    pub fn inbox_read(&mut self, task_id: &str, now: i64) -> rusqlite::Result<Vec<String>> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let keys: Vec<String> = {
            let mut st =
                tx.prepare("SELECT key FROM inbox_items WHERE task_id=?1 AND read_at IS NULL")?;
            let rows = st.query_map([task_id], |r| r.get(0))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        tx.execute(
            "UPDATE inbox_items SET read_at=?2 WHERE task_id=?1 AND read_at IS NULL",
            params![task_id, now],
        )?;
        tx.execute(
            "DELETE FROM inbox_marks WHERE task_id=?1 AND kind='snooze' AND at <= ?2",
            params![task_id, now],
        )?;
        tx.commit()?;
        Ok(keys)
    }

    /// Bring items back (`u`).
    pub fn inbox_unread(&self, task_id: &str, keys: &[String]) -> rusqlite::Result<()> {
        for k in keys {
            self.conn.execute(
                "UPDATE inbox_items SET read_at=NULL WHERE task_id=?1 AND key=?2",
                params![task_id, k],
            )?;
        }
        Ok(())
    }

    pub fn inbox_mark(&self, m: &InboxMark) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT INTO inbox_marks(task_id,kind,at,since,label,title) VALUES(?1,?2,?3,?4,?5,?6)
             ON CONFLICT(task_id,kind) DO UPDATE SET at=excluded.at, since=excluded.since,
               label=excluded.label, title=excluded.title",
            params![m.task_id, m.kind.as_str(), m.at, m.since, m.label, m.title],
        )?;
        Ok(())
    }

    pub fn inbox_unmark(&self, task_id: &str, kind: MarkKind) -> rusqlite::Result<bool> {
        Ok(self.conn.execute(
            "DELETE FROM inbox_marks WHERE task_id=?1 AND kind=?2",
            params![task_id, kind.as_str()],
        )? > 0)
    }

    /// Snoozes and follow-ups, soonest first.
    pub fn inbox_marks(&self) -> rusqlite::Result<Vec<InboxMark>> {
        let mut st = self.conn.prepare(
            "SELECT task_id,kind,at,since,label,title FROM inbox_marks ORDER BY at, task_id",
        )?;
        let rows = st.query_map([], |r| {
            let kind: String = r.get(1)?;
            Ok(InboxMark {
                task_id: r.get(0)?,
                kind: if kind == "snooze" {
                    MarkKind::Snooze
                } else {
                    MarkKind::FollowUp
                },
                at: r.get(2)?,
                since: r.get(3)?,
                label: r.get(4)?,
                title: r.get(5)?,
            })
        })?;
        rows.collect()
    }

    /// Whether anything other than the user touched the task since `at`:
    /// an item of a change (not a reminder) found after it.
    pub fn inbox_news_since(&self, task_id: &str, at: i64) -> rusqlite::Result<bool> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM inbox_items WHERE task_id=?1 AND at >= ?2
               AND kind NOT IN ('due','follow-up','draft')",
            params![task_id, at],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }
}

/// A walk's commit in its transaction: each base written (or skipped),
/// then the tasks gone and the items ([`Db::inbox_commit_each`],
/// [`Db::inbox_commit_walk`]).
pub(super) struct Commit<'t> {
    held: rusqlite::CachedStatement<'t>,
    cur: rusqlite::CachedStatement<'t>,
    up: rusqlite::CachedStatement<'t>,
    over: rusqlite::CachedStatement<'t>,
    /// Tasks skipped whole (a newer base stored, a write of ours in
    /// flight): their items are not written.
    skipped: std::collections::HashSet<String>,
    /// The walk read every page (see [`Db::inbox_learning`]); a commit
    /// of bases alone ([`Db::inbox_commit`]) counts as whole.
    pub(super) whole: bool,
}

/// Whether a stored base in version `stored` is newer than a read in
/// `version`, so that the read does not replace it (the walk's commit):
/// a stored version ahead of our clock (`now`) orders nothing (a service
/// clock that ran ahead and was set back).
fn newer_stored(stored: Option<i64>, version: i64, now: i64) -> bool {
    let ahead = (now + CLOCK_SKEW_SECS) * 1000;
    stored.is_some_and(|v| v > version && v <= ahead)
}

/// Whether a write of ours noted at `at` still counts as in flight.
fn own_held(at: i64, now: i64) -> bool {
    at > now - OWN_WRITE_HOLD
}

impl<'t> Commit<'t> {
    pub(super) fn new(tx: &'t rusqlite::Transaction<'_>) -> rusqlite::Result<Commit<'t>> {
        Ok(Commit {
            held: tx.prepare_cached("SELECT at FROM inbox_own WHERE task_id=?1")?,
            cur: tx.prepare_cached("SELECT version FROM inbox_base WHERE task_id=?1")?,
            up: tx.prepare_cached(
                "INSERT INTO inbox_base(task_id,snap,version,comment_ids,since) VALUES(?1,?2,?3,?4,?5)
                 ON CONFLICT(task_id) DO UPDATE SET snap=excluded.snap, version=excluded.version,
                   comment_ids=coalesce(excluded.comment_ids, inbox_base.comment_ids)",
            )?,
            // A reminder that no longer holds (done, archived, not mine
            // any more) is over: read, not deleted (once per day still).
            over: tx.prepare_cached(
                "UPDATE inbox_items SET read_at=?2 WHERE task_id=?1 AND kind='due' AND read_at IS NULL",
            )?,
            skipped: std::collections::HashSet::new(),
            whole: true,
        })
    }

    /// Whether a write of ours to `task_id` is in flight.
    fn own(&mut self, task_id: &str, now: i64) -> rusqlite::Result<bool> {
        let own: Option<i64> = self
            .held
            .query_row([task_id], |r| r.get(0))
            .map(Some)
            .or_else(none_if_no_rows)?;
        Ok(own.is_some_and(|at| own_held(at, now)))
    }

    /// Write one task's new base, unless a newer one is stored or a write
    /// of ours to it is in flight (then the task is skipped whole).
    pub(super) fn base(&mut self, b: &InboxBase, now: i64) -> rusqlite::Result<()> {
        // A stored version that is not a number (a damaged row)
        // orders nothing: the new base replaces it.
        let stored: Option<i64> = self
            .cur
            .query_row([&b.task_id], |r| Ok(r.get::<_, i64>(0).ok()))
            .map(Some)
            .or_else(none_if_no_rows)?
            .flatten();
        if self.own(&b.task_id, now)? || newer_stored(stored, b.version, now) {
            self.skipped.insert(b.task_id.clone());
            return Ok(());
        }
        let ids = b
            .comment_ids
            .as_ref()
            .map(|v| serde_json::to_string(v).unwrap_or_default());
        self.up
            .execute(params![b.task_id, b.snap, b.version, ids, b.since])?;
        if !b.reminds {
            self.over.execute(params![b.task_id, now])?;
        }
        Ok(())
    }

    /// The tasks gone, then the items (but the skipped tasks'); the items
    /// kept trimmed, the inbox started. Answers the items that are new.
    pub(super) fn finish(
        mut self,
        tx: &rusqlite::Transaction<'_>,
        gone: &[String],
        items: &[InboxItem],
        now: i64,
    ) -> rusqlite::Result<usize> {
        // A task that left the walk while a write of ours to it is in
        // flight left by our doing, as far as anyone can tell yet: kept
        // (the answer tells), and nothing said of it.
        let mut del = tx.prepare_cached("DELETE FROM inbox_base WHERE task_id=?1")?;
        for id in gone {
            if self.own(id, now)? {
                self.skipped.insert(id.clone());
                continue;
            }
            del.execute([id])?;
        }
        let mut ins = tx.prepare_cached(
            "INSERT OR IGNORE INTO inbox_items(task_id,key,kind,rank,words,changes,label,title,target,at)
             VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
        )?;
        let mut added = 0;
        for i in items.iter().filter(|i| !self.skipped.contains(&i.task_id)) {
            added += ins.execute(params![
                i.task_id, i.key, i.kind, i.rank, i.words, i.changes, i.label, i.title, i.target,
                i.at
            ])?;
        }
        tx.execute(
            "DELETE FROM inbox_items WHERE rowid NOT IN
               (SELECT rowid FROM inbox_items ORDER BY read_at IS NULL DESC, at DESC LIMIT ?1)",
            [ITEMS_KEPT],
        )?;
        // A first walk that did not read every page leaves the inbox
        // learning (`Db::inbox_learning`); a whole walk ends it.
        if self.whole {
            tx.execute("DELETE FROM meta WHERE key='inbox_learning'", [])?;
        } else {
            tx.execute(
                "INSERT OR IGNORE INTO meta(key,value) SELECT 'inbox_learning',?1
                 WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key='inbox_started')",
                [now.to_string()],
            )?;
        }
        tx.execute(
            "INSERT INTO meta(key,value) VALUES('inbox_started',?1)
             ON CONFLICT(key) DO NOTHING",
            [now.to_string()],
        )?;
        Ok(added)
    }
}

#[cfg(test)]
thread_local! {
    /// How many times this thread read every base at once
    /// ([`Db::inbox_bases`]): a walk never does (issue 42 §2).
    pub(crate) static WHOLE_READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn none_if_no_rows<T>(e: rusqlite::Error) -> rusqlite::Result<Option<T>> {
    match e {
        rusqlite::Error::QueryReturnedNoRows => Ok(None),
        e => Err(e),
    }
}

/// How many archived tasks the inbox keeps reading the comments of (issue
/// 46 §3): the most recently seen archived; an older one is dropped.
pub const ARCHIVED_KEPT: usize = 300;

/// The archived tasks the inbox reads the comments of (`inbox_archived`):
/// each kept as a base (its snapshot when seen archived, the comments
/// known, since when), read one at a time; the walk holds their ids only.
impl Db {
    /// Keep `bases` (tasks just seen archived), then drop all but the
    /// [`ARCHIVED_KEPT`] most recently seen.
    pub fn inbox_archived_keep(&self, bases: &[InboxBase], now: i64) -> rusqlite::Result<()> {
        if self.read_only.is_some() || bases.is_empty() {
            return Ok(());
        }
        let mut up = self.conn.prepare_cached(
            "INSERT INTO inbox_archived(task_id,snap,comment_ids,since,at) VALUES(?1,?2,?3,?4,?5)
             ON CONFLICT(task_id) DO UPDATE SET snap=excluded.snap,
               comment_ids=coalesce(excluded.comment_ids, inbox_archived.comment_ids),
               since=excluded.since, at=excluded.at",
        )?;
        for b in bases {
            let ids = b
                .comment_ids
                .as_ref()
                .map(|v| serde_json::to_string(v).unwrap_or_default());
            up.execute(params![b.task_id, b.snap, ids, b.since, now])?;
        }
        self.conn.execute(
            "DELETE FROM inbox_archived WHERE task_id NOT IN
               (SELECT task_id FROM inbox_archived ORDER BY at DESC, task_id LIMIT ?1)",
            [ARCHIVED_KEPT as i64],
        )?;
        Ok(())
    }

    /// The ids of the archived tasks kept, in id order.
    pub fn inbox_archived_ids(&self) -> rusqlite::Result<Vec<String>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT task_id FROM inbox_archived ORDER BY task_id")?;
        let ids = st.query_map([], |r| r.get(0))?;
        ids.collect()
    }

    /// What the inbox knew of one archived task (`None`: not kept).
    pub fn inbox_archived(&self, task_id: &str) -> rusqlite::Result<Option<InboxBase>> {
        let mut st = self.conn.prepare_cached(
            "SELECT task_id,snap,0,comment_ids,since FROM inbox_archived WHERE task_id=?1",
        )?;
        st.query_row([task_id], base_row)
            .map(Some)
            .or_else(none_if_no_rows)
    }

    /// The comments now known of an archived task (ids and prints).
    pub fn inbox_archived_read(
        &self,
        task_id: &str,
        comment_ids: &[String],
    ) -> rusqlite::Result<()> {
        if self.read_only.is_some() {
            return Ok(());
        }
        let ids = serde_json::to_string(comment_ids).unwrap_or_default();
        self.conn.execute(
            "UPDATE inbox_archived SET comment_ids=?2 WHERE task_id=?1",
            params![task_id, ids],
        )?;
        Ok(())
    }

    /// Archived tasks no longer followed: restored (seen again among the
    /// user's tasks), or not shown any more (404, 403).
    pub fn inbox_archived_drop(&self, task_ids: &[String]) -> rusqlite::Result<()> {
        if self.read_only.is_some() {
            return Ok(());
        }
        let mut st = self
            .conn
            .prepare_cached("DELETE FROM inbox_archived WHERE task_id=?1")?;
        for id in task_ids {
            st.execute([id])?;
        }
        Ok(())
    }
}
