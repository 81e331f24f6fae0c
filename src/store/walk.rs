//! The inbox walk's scratch (issue 42 §2): what one walk read of each
//! task — its snapshot's JSON, version, open or not — kept page by page as
//! the pages arrive in a TEMP table of the walk's own connection (SQLite's
//! temporary database: no other connection sees it, nothing of it stays
//! in the store's file), and compared with the stored bases a chunk at a
//! time when the walk commits. So a walk of 20,000 tasks holds neither
//! their snapshots (~10 MB of JSON) nor every stored base (as much again)
//! in memory: a page's worth at most, beside each task's id.

use super::db::Db;
#[cfg(test)]
use super::inbox::CLOCK_SKEW_SECS;
use super::inbox::{base_or_unreadable, Commit, InboxBase, InboxItem, BASE_COLS};
use rusqlite::params;

/// Rows of the scratch read back at once when the walk commits (a page).
pub const WALK_CHUNK: i64 = 100;

/// The temporary database's page cache, in KiB (negative: KiB), for the
/// scratch alone: SQLite's default is 2 MiB.
const TEMP_CACHE_KIB: i64 = -256;

/// One task as the walk read it, numbered in the walk's order (`n`).
#[derive(Clone, Debug, PartialEq)]
pub struct Walked {
    pub n: i64,
    pub task_id: String,
    /// Its snapshot's JSON.
    pub snap: String,
    pub version: i64,
}

/// One task of a page, as the walk keeps it: `snap` `None` for a row that
/// could not be read (met, so never taken for a task that left).
#[derive(Clone, Copy, Debug)]
pub struct WalkRow<'a> {
    pub task_id: &'a str,
    pub snap: Option<&'a str>,
    pub version: i64,
    pub open: bool,
}

impl Db {
    /// A fresh scratch for a walk: what an earlier walk of this
    /// connection left (one that stopped at an error) is dropped.
    pub fn walk_begin(&self) -> rusqlite::Result<()> {
        self.conn.execute_batch(&format!(
            "PRAGMA temp.cache_size = {TEMP_CACHE_KIB};
             CREATE TEMP TABLE IF NOT EXISTS inbox_walk(
               n INTEGER PRIMARY KEY,
               task_id TEXT NOT NULL UNIQUE,
               snap TEXT,
               version INTEGER NOT NULL DEFAULT 0,
               open INTEGER NOT NULL DEFAULT 0);
             DELETE FROM temp.inbox_walk;"
        ))
    }

    /// The scratch emptied (the walk is over).
    pub fn walk_end(&self) -> rusqlite::Result<()> {
        self.conn
            .execute_batch("DELETE FROM temp.inbox_walk;")
            .or_else(|e| match e {
                // Never begun: nothing to empty.
                rusqlite::Error::SqliteFailure(..) => Ok(()),
                e => Err(e),
            })
    }

    /// One page of the walk, numbered after the rows already kept (a task
    /// met twice keeps its first row). Only the temporary database is
    /// written: the store's lock is not taken.
    pub fn walk_add(&self, rows: &[WalkRow<'_>]) -> rusqlite::Result<()> {
        let tx = self.conn.unchecked_transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR IGNORE INTO temp.inbox_walk(task_id,snap,version,open) VALUES(?1,?2,?3,?4)",
            )?;
            for r in rows {
                st.execute(params![r.task_id, r.snap, r.version, r.open])?;
            }
        }
        tx.commit()
    }

    /// The numbers of the walk's tasks read that are open (`open`) or not,
    /// in their ids' order.
    pub fn walk_by_id(&self, open: bool) -> rusqlite::Result<Vec<i64>> {
        let mut st = self.conn.prepare_cached(
            "SELECT n FROM temp.inbox_walk WHERE snap IS NOT NULL AND open=?1 ORDER BY task_id",
        )?;
        let rows = st.query_map([open], |r| r.get(0))?;
        rows.collect()
    }

    /// The numbers of the walk's open tasks read that the inbox has no
    /// base of, in walk order (a walk while the inbox is learning reads
    /// their comments, as a first walk reads every open task's).
    pub fn walk_unknown(&self) -> rusqlite::Result<Vec<i64>> {
        let mut st = self.conn.prepare_cached(
            "SELECT w.n FROM temp.inbox_walk w
             LEFT JOIN main.inbox_base b ON b.task_id = w.task_id
             WHERE w.snap IS NOT NULL AND w.open AND b.task_id IS NULL ORDER BY w.n",
        )?;
        let rows = st.query_map([], |r| r.get(0))?;
        rows.collect()
    }

    /// The numbers of the walk's tasks whose stored base has another
    /// version (a base that does not decode: version 0), in walk order.
    /// The bases are read one at a time.
    pub fn walk_moved(&self) -> rusqlite::Result<Vec<i64>> {
        let cols = joined_base_cols();
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {cols}, w.n, w.version FROM temp.inbox_walk w
             JOIN main.inbox_base b ON b.task_id = w.task_id
             WHERE w.snap IS NOT NULL ORDER BY w.n"
        ))?;
        let mut rows = st.query([])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let version = base_or_unreadable(r, 0)?.map_or(0, |b| b.version);
            if version != r.get::<_, i64>(6)? {
                out.push(r.get(5)?);
            }
        }
        Ok(out)
    }

    /// The ids of the walk's tasks numbered `ns` (in that order).
    pub fn walk_ids(&self, ns: &[i64]) -> rusqlite::Result<Vec<(i64, String)>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT task_id FROM temp.inbox_walk WHERE n=?1")?;
        ns.iter()
            .map(|&n| Ok((n, st.query_row([n], |r| r.get(0))?)))
            .collect()
    }

    /// The tasks the inbox follows that the walk did not meet, in id
    /// order.
    pub fn walk_left(&self) -> rusqlite::Result<Vec<String>> {
        let mut st = self.conn.prepare_cached(
            "SELECT task_id FROM main.inbox_base
             WHERE task_id NOT IN (SELECT task_id FROM temp.inbox_walk) ORDER BY task_id",
        )?;
        let rows = st.query_map([], |r| r.get(0))?;
        rows.collect()
    }

    /// Write what the walk found, in one transaction, as
    /// [`Db::inbox_commit`] does: `judge` is given each task the walk read
    /// (in walk order) with its stored base (`None`: not followed; one that
    /// does not decode: [`InboxBase::unreadable`]), and answers its new
    /// base (`None`: the stored one stays) and its items. The scratch and
    /// the bases are read [`WALK_CHUNK`] rows at a time, each dropped once
    /// judged. `items` (the gone tasks', the drafts') go in before the
    /// walk's. `whole`: the walk read every page (a first walk that did
    /// not leaves the inbox learning: [`Db::inbox_learning`]). A
    /// read-only store is read and judged, nothing written.
    pub fn inbox_commit_walk(
        &mut self,
        mut judge: impl FnMut(Walked, Option<InboxBase>) -> (Option<InboxBase>, Vec<InboxItem>),
        gone: &[String],
        mut items: Vec<InboxItem>,
        now: i64,
        whole: bool,
    ) -> rusqlite::Result<usize> {
        let writing = self.read_only.is_none();
        let tx = self.conn.transaction_with_behavior(if writing {
            rusqlite::TransactionBehavior::Immediate
        } else {
            rusqlite::TransactionBehavior::Deferred
        })?;
        let added = {
            let mut commit = if writing {
                let mut c = Commit::new(&tx)?;
                c.whole = whole;
                Some(c)
            } else {
                None
            };
            let cols = joined_base_cols();
            let mut chunk = tx.prepare(&format!(
                "SELECT {cols}, w.n, w.task_id, w.snap, w.version FROM temp.inbox_walk w
                 LEFT JOIN main.inbox_base b ON b.task_id = w.task_id
                 WHERE w.n > ?1 AND w.snap IS NOT NULL ORDER BY w.n LIMIT ?2"
            ))?;
            let mut after = 0;
            loop {
                let rows: Vec<(Walked, Option<InboxBase>)> = chunk
                    .query_map(params![after, WALK_CHUNK], |r| {
                        let walked = Walked {
                            n: r.get(5)?,
                            task_id: r.get(6)?,
                            snap: r.get(7)?,
                            version: r.get(8)?,
                        };
                        Ok((walked, base_or_unreadable(r, 0)?))
                    })?
                    .collect::<rusqlite::Result<_>>()?;
                let Some((last, _)) = rows.last() else {
                    break;
                };
                after = last.n;
                for (walked, stored) in rows {
                    let (base, its) = judge(walked, stored);
                    if let (Some(c), Some(b)) = (commit.as_mut(), base) {
                        c.base(&b, now)?;
                    }
                    items.extend(its);
                }
            }
            match commit {
                Some(c) => c.finish(&tx, gone, &items, now)?,
                None => 0,
            }
        };
        tx.commit()?;
        Ok(added)
    }
}

/// [`BASE_COLS`] of the joined base `b`.
fn joined_base_cols() -> String {
    BASE_COLS
        .split(',')
        .map(|c| format!("b.{c}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: usize) -> String {
        format!("10000000-0000-4000-8000-{n:012}")
    }

    fn page(db: &Db, from: usize, to: usize) {
        let ids: Vec<String> = (from..to).map(id).collect();
        let rows: Vec<WalkRow> = ids
            .iter()
            .map(|t| WalkRow {
                task_id: t,
                snap: Some("{}"),
                version: 2,
                open: true,
            })
            .collect();
        db.walk_add(&rows).unwrap();
    }

    /// Every task the walk kept is judged once, in walk order, with its
    /// stored base; the scratch is read a chunk at a time across chunks;
    /// what the walk did not meet is left; a read-only store is judged
    /// and nothing of it written (its scratch lives in the temporary
    /// database, which a read-only store still has).
    #[test]
    fn the_commit_judges_every_walked_task_with_its_stored_base() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u.sqlite3");
        let (mut db, _) = Db::open(&path).unwrap();
        let old = |n: usize| InboxBase {
            task_id: id(n),
            snap: "{}".into(),
            version: 1,
            comment_ids: None,
            since: 7,
            reminds: true,
        };
        db.inbox_commit(&[old(1), old(300)], &[], &[], 1).unwrap();
        db.walk_begin().unwrap();
        page(&db, 0, 150);
        page(&db, 100, 250);
        assert_eq!(db.walk_moved().unwrap(), [2]);
        assert_eq!(db.walk_left().unwrap(), [id(300)]);
        assert_eq!(
            db.walk_ids(&[1, 250]).unwrap(),
            [(1, id(0)), (250, id(249))]
        );
        let mut judged = Vec::new();
        db.inbox_commit_walk(
            |w, stored| {
                judged.push((w.n, w.task_id.clone(), stored.map(|b| b.since)));
                let mut b = old(0);
                b.task_id = w.task_id;
                b.version = w.version;
                (Some(b), Vec::new())
            },
            &[id(300)],
            Vec::new(),
            1,
            true,
        )
        .unwrap();
        assert_eq!(judged.len(), 250);
        assert!(judged
            .iter()
            .enumerate()
            .all(|(k, j)| j.0 == k as i64 + 1 && j.1 == id(k)));
        assert_eq!(judged[1].2, Some(7), "the stored base joined");
        assert_eq!(judged.iter().filter(|j| j.2.is_some()).count(), 1);
        let bases = db.inbox_bases().unwrap();
        assert_eq!(bases.len(), 250);
        assert_eq!(bases[&id(1)].version, 2);
        db.walk_end().unwrap();
        assert!(db.walk_ids(&[1]).is_err(), "the scratch is emptied");
        drop(db);

        // Read-only (SQLite cannot make its shared-memory file).
        std::fs::create_dir(path.with_extension("sqlite3-shm")).unwrap();
        let (mut db, _, _) = Db::open_for(&path, "alice").unwrap();
        assert!(db.read_only().is_some());
        db.walk_begin().unwrap();
        page(&db, 0, 3);
        let mut n = 0;
        let added = db
            .inbox_commit_walk(
                |_, _| {
                    n += 1;
                    (None, Vec::new())
                },
                &[],
                Vec::new(),
                1,
                true,
            )
            .unwrap();
        assert_eq!((n, added), (3, 0));
        assert_eq!(db.inbox_bases().unwrap().len(), 250);
    }

    /// `Db::inbox_holds_back` answers as the commit judges: a read older
    /// than the stored base (not ahead of our clock) or with a write of
    /// ours in flight is skipped whole — its base and items unwritten —
    /// and one it does not hold back is written.
    #[test]
    fn what_holds_a_task_back_is_what_the_commit_skips() {
        let dir = tempfile::tempdir().unwrap();
        let (mut db, _) = Db::open(&dir.path().join("u.sqlite3")).unwrap();
        let now = 1_000_000;
        let base = |n: usize, version: i64| InboxBase {
            task_id: id(n),
            snap: "{}".into(),
            version,
            comment_ids: None,
            since: 7,
            reminds: true,
        };
        let item = |n: usize| InboxItem {
            task_id: id(n),
            key: format!("comment:{n}"),
            kind: "mention".into(),
            rank: 0,
            words: String::new(),
            changes: "[]".into(),
            label: String::new(),
            title: String::new(),
            target: None,
            at: now,
            read_at: None,
        };
        let ahead = (now + CLOCK_SKEW_SECS + 1) * 1000;
        // (task, its stored version, the version read, held back): older,
        // the same, newer, newer with a write of ours in flight, older
        // than a stored version ahead of our clock.
        let cases = [
            (1, 50, 40, true),
            (2, 50, 50, false),
            (3, 50, 60, false),
            (4, 50, 60, true),
            (5, ahead, 40, false),
        ];
        let stored: Vec<InboxBase> = cases.iter().map(|&(n, v, _, _)| base(n, v)).collect();
        db.inbox_commit(&stored, &[], &[], now).unwrap();
        db.inbox_own(&id(4), None, now).unwrap();
        for (n, _, v, held) in cases {
            assert_eq!(db.inbox_holds_back(&id(n), v, now).unwrap(), held, "{n}");
        }
        for (n, _, v, held) in cases {
            let added = db
                .inbox_commit(&[base(n, v)], &[], &[item(n)], now)
                .unwrap();
            let version = db.inbox_base(&id(n)).unwrap().unwrap().version;
            assert_eq!((added == 0, version == v), (held, !held || v == 50), "{n}");
        }
        assert!(
            !db.inbox_holds_back(&id(9), 1, now).unwrap(),
            "not followed"
        );
    }
}
