//! The rotation: a share of a list read in turn, walk after walk, where
//! the last walk's share ended kept in the store's `meta` under a key of
//! the caller's, so that every one of the list comes within ⌈len / share⌉
//! walks. Two ways to say where a share ended, for two kinds of list:
//!
//! - [`rotate`] (over ids, in id order): the last id read; an id gone or
//!   new shifts nothing else. The tasks linked to (drafts) and the
//!   archived tasks turn so.
//! - [`by_offset`] (over the walk's own tasks, by index): the offset
//!   after the share; the walk's open tasks (half a walk) and its finished
//!   ones (a third) turn so.
//!
//! The store's work: the walk runs these off the runtime.

use crate::store::Db;

/// This walk's share of `ids` (in id order): the next `share` after
/// `after` (the last one read), wrapping to the first; each one at most
/// once.
pub fn share<'a>(ids: &'a [String], after: Option<&str>, share: usize) -> Vec<&'a str> {
    let start = after.map_or(0, |a| ids.partition_point(|id| id.as_str() <= a));
    ids.iter()
        .cycle()
        .skip(start)
        .take(share.min(ids.len()))
        .map(String::as_str)
        .collect()
}

/// This walk's share of `ids` (see [`share`]), where the last walk stopped
/// read from the store's `meta` under `key` and this one's end kept there.
pub fn rotate(db: &mut Db, key: &str, ids: &[String], per_walk: usize) -> Vec<String> {
    let after = db.get_meta(key);
    let out: Vec<String> = share(ids, after.as_deref(), per_walk)
        .into_iter()
        .map(str::to_string)
        .collect();
    if let Some(last) = out.last() {
        let _ = db.set_meta(key, last);
    }
    out
}

/// This walk's share of `of` (indexes in a stable order): the next
/// `share` (at least one, at most all) from where the last walk's share
/// ended (the offset kept in the store's `meta` under `key`).
pub fn by_offset<T: Copy>(db: &mut Db, key: &str, of: &[T], share: usize) -> Vec<T> {
    if of.is_empty() {
        return Vec::new();
    }
    let share = share.clamp(1, of.len());
    let offset = db
        .get_meta(key)
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(0)
        % of.len();
    let next = ((offset + share) % of.len()).to_string();
    let _ = db.set_meta(key, &next);
    (0..share).map(|k| of[(offset + k) % of.len()]).collect()
}

#[cfg(test)]
mod tests {
    use super::super::sandboxed::{store, Store};
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// Each id comes within ⌈L / D⌉ walks, in id order from where
    /// the last walk stopped (an id gone or new shifts nothing else), and
    /// none twice in a walk.
    #[test]
    fn the_share_goes_on_after_the_last_read_and_wraps() {
        let l = ids(&["a", "b", "c", "d", "e"]);
        assert_eq!(share(&l, None, 2), ["a", "b"]);
        assert_eq!(share(&l, Some("b"), 2), ["c", "d"]);
        assert_eq!(share(&l, Some("d"), 2), ["e", "a"]);
        // The last one read has left the links: the next after it.
        assert_eq!(share(&l, Some("bb"), 2), ["c", "d"]);
        assert_eq!(share(&l, Some("z"), 2), ["a", "b"]);
        // Fewer than the share: each once.
        assert_eq!(share(&l, Some("c"), 9), ["d", "e", "a", "b", "c"]);
        assert!(share(&[], Some("c"), 5).is_empty());
        assert!(share(&l, None, 0).is_empty());
        // Walk after walk, from where the store says the last one stopped.
        let Store { mut db, _dir, .. } = store();
        let key = "inbox_links_after";
        assert_eq!(rotate(&mut db, key, &l, 2), ["a", "b"]);
        assert_eq!(rotate(&mut db, key, &l, 2), ["c", "d"]);
        assert_eq!(rotate(&mut db, key, &l, 2), ["e", "a"]);
        assert!(rotate(&mut db, key, &[], 2).is_empty());
        assert_eq!(rotate(&mut db, key, &l, 2), ["b", "c"]);
        // Another key turns on its own.
        assert_eq!(rotate(&mut db, "other", &l, 1), ["a"]);
        assert_eq!(rotate(&mut db, key, &l, 1), ["d"]);
    }

    /// By offset: the next share from where the last ended, wrapping;
    /// at least one, at most all; an empty list reads nothing and keeps
    /// the offset; each key turns on its own.
    #[test]
    fn the_share_by_offset_goes_on_from_the_last_and_wraps() {
        let Store { mut db, _dir, .. } = store();
        let of = [10, 11, 12, 13, 14];
        let key = "inbox_rotation";
        assert_eq!(by_offset(&mut db, key, &of, 2), [10, 11]);
        assert_eq!(by_offset(&mut db, key, &of, 2), [12, 13]);
        assert_eq!(by_offset(&mut db, key, &of, 2), [14, 10]);
        assert!(by_offset(&mut db, key, &[] as &[i64], 2).is_empty());
        assert_eq!(by_offset(&mut db, key, &of, 0), [11]);
        assert_eq!(by_offset(&mut db, key, &of, 9), [12, 13, 14, 10, 11]);
        assert_eq!(by_offset(&mut db, "other", &of, 3), [10, 11, 12]);
        // A shorter list: the offset taken modulo its length.
        assert_eq!(by_offset(&mut db, key, &of[..2], 1), [10]);
        assert_eq!(by_offset(&mut db, key, &of[..2], 1), [11]);
    }
}
