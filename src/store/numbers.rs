//! The number index: which task id each task number (`#12`) was last seen
//! with, from every row any answer carried (list pages, searches, views,
//! subtasks, the walk of `:open #N`, single tasks). Compact — a number, a
//! label, an id, a title and when it was seen — and bounded
//! ([`NUMBERS_MAX`], the longest unseen go first), so that `:open #N` of a
//! task listed in an earlier session opens by id at once.

use super::db::Db;
use rusqlite::{params, OptionalExtension};

/// At most this many numbers are kept.
pub const NUMBERS_MAX: usize = 100_000;

/// A row as the index keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Numbered {
    pub number: i64,
    /// The service's `display_id` (`#12`), shown while the task loads.
    pub display_id: String,
    pub id: String,
    pub title: String,
}

impl Db {
    /// Record where `rows` were seen, in one transaction. A number names
    /// one task (the last seen with it) and a task has one number (the
    /// last it was seen with).
    pub fn put_numbers(&mut self, rows: &[Numbered], now: i64) -> rusqlite::Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut moved = tx.prepare_cached("DELETE FROM numbers WHERE id=?1 AND number<>?2")?;
            let mut up = tx.prepare_cached(
                "INSERT INTO numbers(number,display_id,id,title,seen_at) VALUES(?1,?2,?3,?4,?5)
                 ON CONFLICT(number) DO UPDATE SET display_id=excluded.display_id,
                   id=excluded.id, title=excluded.title, seen_at=excluded.seen_at",
            )?;
            for r in rows {
                moved.execute(params![r.id, r.number])?;
                up.execute(params![r.number, r.display_id, r.id, r.title, now])?;
            }
        }
        tx.commit()
    }

    /// The task last seen with `number`: the index, else a stored task.
    pub fn find_number(&self, number: i64) -> rusqlite::Result<Option<Numbered>> {
        let indexed = self
            .conn
            .query_row(
                "SELECT display_id,id,title FROM numbers WHERE number=?1",
                [number],
                |r| {
                    Ok(Numbered {
                        number,
                        display_id: r.get(0)?,
                        id: r.get(1)?,
                        title: r.get(2)?,
                    })
                },
            )
            .optional()?;
        if indexed.is_some() {
            return Ok(indexed);
        }
        self.conn
            .query_row(
                "SELECT id,title FROM tasks WHERE number=?1 ORDER BY fetched_at DESC LIMIT 1",
                [number],
                |r| {
                    Ok(Numbered {
                        number,
                        display_id: format!("#{number}"),
                        id: r.get(0)?,
                        title: r.get(1)?,
                    })
                },
            )
            .optional()
    }

    /// `number` no longer names `id` (the task is gone or renumbered).
    pub fn forget_number(&self, number: i64, id: &str) -> rusqlite::Result<()> {
        self.conn.execute(
            "DELETE FROM numbers WHERE number=?1 AND id=?2",
            params![number, id],
        )?;
        Ok(())
    }

    pub fn number_count(&self) -> rusqlite::Result<usize> {
        self.conn
            .query_row("SELECT count(*) FROM numbers", [], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
    }

    /// Keep at most `max` numbers: those seen longest ago go first.
    pub fn evict_numbers(&mut self, max: usize) -> rusqlite::Result<usize> {
        let n = self.number_count()?;
        if n <= max {
            return Ok(0);
        }
        self.conn.execute(
            "DELETE FROM numbers WHERE number IN (
               SELECT number FROM numbers ORDER BY seen_at, number LIMIT ?1)",
            [(n - max) as i64],
        )
    }
}
