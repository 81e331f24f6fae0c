//! The task list's order, kept per organisation: a page is found by
//! seeking in it, not by filtering and sorting every task of the service.
//! Each live task is in its organisation's map under its [`ListKey`];
//! every change of a task goes through `Store::add_task`,
//! `Store::set_task` or `Store::delete_task` (`store.rs`), which keep the
//! map true. A leaf: the key is made from a task's fields by
//! `Task::list_key`.

use std::cmp::Reverse;

use base64::Engine;
use jiff::Timestamp;
use uuid::Uuid;

/// Where a task sorts in the list: priority, due date (nulls last), newest
/// first, id.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct ListKey {
    priority: u8,
    no_due: bool,
    due: Timestamp,
    created: Reverse<Timestamp>,
    id: Uuid,
}

impl ListKey {
    /// The key of a task of priority rank `priority` (see
    /// `store::priority_rank`), due `due`, created `created`.
    pub fn new(priority: u8, due: Option<Timestamp>, created: Timestamp, id: Uuid) -> ListKey {
        ListKey {
            priority,
            no_due: due.is_none(),
            due: due.unwrap_or(Timestamp::UNIX_EPOCH),
            created: Reverse(created),
            id,
        }
    }

    fn encode(&self) -> String {
        // Whole seconds rounded down and a fraction 0..1e9, as before.
        let at = |d: &Timestamp| {
            let nanos = d.subsec_nanosecond().rem_euclid(1_000_000_000);
            format!("{}.{nanos}", crate::api::unix_seconds(*d))
        };
        format!(
            "{}:{}:{}:{}:{}",
            self.priority,
            u8::from(self.no_due),
            at(&self.due),
            at(&self.created.0),
            self.id
        )
    }

    fn decode(s: &str) -> Option<ListKey> {
        let at = |s: &str| {
            let (secs, nanos) = s.split_once('.')?;
            let nanos: u32 = nanos.parse().ok()?;
            Timestamp::new(secs.parse().ok()?, i32::try_from(nanos).ok()?).ok()
        };
        let mut p = s.splitn(5, ':');
        Some(ListKey {
            priority: p.next()?.parse().ok()?,
            no_due: match p.next()? {
                "0" => false,
                "1" => true,
                _ => return None,
            },
            due: at(p.next()?)?,
            created: Reverse(at(p.next()?)?),
            id: Uuid::parse_str(p.next()?).ok()?,
        })
    }
}

/// A task list cursor: the page number (offset = page × the limit of the
/// request, as the spec says), and where the page that issued it ended —
/// the key of its last row and the offset after it — so the walk seeks.
#[derive(Debug, PartialEq)]
pub(crate) struct ListCursor {
    pub page: u64,
    pub after: Option<(u64, ListKey)>,
}

impl ListCursor {
    pub fn encode(page: u64, issued_limit: u64, last: &ListKey) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(format!("page:{page}:{issued_limit}:{}", last.encode()))
    }

    /// `page:N` (a bare page number) or `page:N:LIMIT:KEY`.
    pub fn decode(c: &str) -> Option<ListCursor> {
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(c.trim_end_matches('='))
            .ok()?;
        let raw = String::from_utf8(raw).ok()?;
        let rest = raw.strip_prefix("page:")?;
        let Some((page, rest)) = rest.split_once(':') else {
            return Some(ListCursor {
                page: rest.parse().ok()?,
                after: None,
            });
        };
        let page: u64 = page.parse().ok()?;
        let (limit, key) = rest.split_once(':')?;
        let limit: u64 = limit.parse().ok()?;
        Some(ListCursor {
            page,
            after: Some((page.checked_mul(limit)?, ListKey::decode(key)?)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::store::Task;

    #[test]
    fn a_cursor_reads_back_what_it_says() {
        let t = Task {
            id: Uuid::from_u128(7),
            priority: "high".into(),
            complete_by: Timestamp::new(1_800_000_000, 123).ok(),
            created_at: Timestamp::new(1_700_000_000, 999_999_999).unwrap(),
            ..Default::default()
        };
        let k = t.list_key();
        let c = ListCursor::encode(3, 25, &k);
        assert_eq!(
            ListCursor::decode(&c),
            Some(ListCursor {
                page: 3,
                after: Some((75, k))
            })
        );
        let bare = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("page:4");
        assert_eq!(
            ListCursor::decode(&bare),
            Some(ListCursor {
                page: 4,
                after: None
            })
        );
        for bad in ["garbage!!", "cGFnZTp4", "cGFnZToxOjI6eA"] {
            assert_eq!(ListCursor::decode(bad), None, "{bad}");
        }
        // Nulls last, newest first, then id.
        let mut u = t.clone();
        u.complete_by = None;
        assert!(t.list_key() < u.list_key());
        let mut older = t.clone();
        older.created_at = Timestamp::from_second(1_600_000_000).unwrap();
        assert!(t.list_key() < older.list_key());
    }
}
