//! Listings the spec does not show (comments, the requester thread): a
//! service of this family answers either with a bare JSON array or with the
//! task list's envelope `{"items": [...], "cursor": "..." | null}`. Both are
//! read; an envelope's cursor is followed (same `limit` on every page) until
//! it is null.

use super::client::{Client, On404};
use super::error::ApiError;
use crate::cut::excerpt;
use crate::text::clean;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// At most this many pages are followed; a longer listing is an error rather
/// than a silently truncated list.
pub const LISTING_MAX_PAGES: usize = 200;

/// One page of a listing, each item's JSON as received.
#[derive(Debug)]
pub struct ListingPage {
    pub items: Vec<Box<RawValue>>,
    /// The next page's cursor; `None` at the end (and always for an array).
    pub cursor: Option<String>,
}

/// Read one listing answer: a bare array, or `{"items": [...]|null,
/// "cursor": "..."|""|null}` (other keys are ignored). `what` names the
/// things listed ("comments") for the error of any other shape.
pub fn read_page(text: &str, what: &str) -> Result<ListingPage, ApiError> {
    let body = text.trim_start();
    let other = |got: String| ApiError::Decode {
        message: format!(
            "this service lists {what} in a shape taskdeck does not read \
             (expected a JSON array or {{\"items\": [...], \"cursor\": ...}}, got {got})"
        ),
        excerpt: excerpt(&clean(text), 120),
    };
    let syntax = |e: serde_json::Error| ApiError::Decode {
        message: e.to_string(),
        excerpt: excerpt(&clean(text), 120),
    };
    match body.as_bytes().first() {
        Some(b'[') => Ok(ListingPage {
            items: serde_json::from_str(body).map_err(syntax)?,
            cursor: None,
        }),
        Some(b'{') => {
            let fields: BTreeMap<String, Box<RawValue>> =
                serde_json::from_str(body).map_err(syntax)?;
            let Some(items) = fields.get("items") else {
                let keys: Vec<&str> = fields.keys().map(String::as_str).take(8).collect();
                return Err(other(if keys.is_empty() {
                    "an empty object".to_string()
                } else {
                    format!("an object with keys {}", keys.join(", "))
                }));
            };
            let items: Option<Vec<Box<RawValue>>> = serde_json::from_str(items.get())
                .map_err(|_| other("\"items\" that is not an array".into()))?;
            let cursor: Option<String> = match fields.get("cursor") {
                None => None,
                Some(c) => serde_json::from_str(c.get())
                    .map_err(|_| other("a \"cursor\" that is not a string or null".into()))?,
            };
            Ok(ListingPage {
                items: items.unwrap_or_default(),
                cursor: cursor.filter(|c| !c.is_empty()),
            })
        }
        _ => {
            // Valid JSON of another kind (a string, a number…) or not JSON.
            match serde_json::from_str::<serde_json::Value>(body) {
                Ok(v) => Err(other(kind_of(&v).into())),
                Err(e) => Err(syntax(e)),
            }
        }
    }
}

fn kind_of(v: &serde_json::Value) -> &'static str {
    use serde_json::Value::*;
    match v {
        Null => "null",
        Bool(_) => "a boolean",
        Number(_) => "a number",
        String(_) => "a string",
        Array(_) => "an array",
        Object(_) => "an object",
    }
}

/// A JSON text whose `\uXXXX` escapes of lone UTF-16 surrogates (a
/// `\udc9c` with no partner, which no string can hold) are written as
/// U+FFFD instead (issue 42, point 10); `None` when it has none.
pub fn lone_surrogates_replaced(json: &str) -> Option<String> {
    let b = json.as_bytes();
    let hex = |i: usize| -> Option<u16> {
        let h = json.get(i..i + 4)?;
        h.bytes()
            .all(|c| c.is_ascii_hexdigit())
            .then(|| u16::from_str_radix(h, 16).ok())
            .flatten()
    };
    // The unit of a `\u` escape at `i`, if one is there.
    let unit_at = |i: usize| -> Option<u16> {
        (b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u'))
            .then(|| hex(i + 2))
            .flatten()
    };
    let mut out = String::with_capacity(json.len());
    let (mut i, mut last, mut changed) = (0, 0, false);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(u) = unit_at(i) else {
            // Another escape (`\\`, `\"`…): both bytes are taken as they are.
            i += 2;
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&u)
            && unit_at(i + 6).is_some_and(|l| (0xDC00..0xE000).contains(&l));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&u) {
            out.push_str(&json[last..i]);
            out.push_str("\\ufffd");
            i += 6;
            last = i;
            changed = true;
        } else {
            i += 6;
        }
    }
    changed.then(|| {
        out.push_str(&json[last..]);
        out
    })
}

/// Decode the items of a page. An item whose only fault is a lone UTF-16
/// surrogate escape is read with U+FFFD in its place (the rest of it is
/// sound: a comment still names whom it mentions); one that still cannot
/// be read is skipped with a log line (its id, if any, and the reason): one
/// odd item never fails the listing.
#[cfg(test)]
pub fn decode_items<T: DeserializeOwned>(items: &[Box<RawValue>], what: &str) -> Vec<T> {
    decode_items_counted(items, what).0
}

/// [`decode_items`], and what names each item still unreadable
/// ([`unreadable_print`]): a walk says such an item once, and knows it
/// afterwards (issue 42 §10).
pub fn decode_items_counted<T: DeserializeOwned>(
    items: &[Box<RawValue>],
    what: &str,
) -> (Vec<T>, Vec<String>) {
    let mut unreadable = Vec::new();
    let read = items
        .iter()
        .filter_map(|raw| match serde_json::from_str::<T>(raw.get()) {
            Ok(item) => Some(item),
            Err(e) => {
                if let Some(item) = lone_surrogates_replaced(raw.get())
                    .and_then(|fixed| serde_json::from_str::<T>(&fixed).ok())
                {
                    tracing::warn!(
                        what,
                        "an item of a listing held a lone surrogate: read with U+FFFD in its place"
                    );
                    return Some(item);
                }
                let id = serde_json::from_str::<serde_json::Value>(raw.get())
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(str::to_string));
                tracing::warn!(
                    what,
                    id = id.as_deref().unwrap_or("?"),
                    reason = %crate::text::clean(&e.to_string()),
                    "skipped an unreadable item of a listing"
                );
                unreadable.push(unreadable_print(id.as_deref(), raw.get()));
                None
            }
        })
        .collect();
    (read, unreadable)
}

/// What names an item of a listing that cannot be read: its id when it has
/// one, else a hash of its text (FNV-1a), `unreadable:` before either (no
/// readable item's id or print looks like it).
pub fn unreadable_print(id: Option<&str>, raw: &str) -> String {
    match id {
        Some(id) => format!("unreadable:{id}"),
        None => {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in raw.bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            format!("unreadable:#{h:016x}")
        }
    }
}

/// Keeps a walk of cursors finite: a repeated cursor or too many pages end
/// it with an error.
#[derive(Debug, Default)]
pub struct CursorGuard {
    seen: std::collections::HashSet<String>,
    pages: usize,
}

impl CursorGuard {
    /// Record a page just received and its next cursor; `Err` when the walk
    /// must stop.
    pub fn next(&mut self, cursor: &str, what: &str) -> Result<(), ApiError> {
        self.pages += 1;
        if !self.seen.insert(cursor.to_string()) {
            return Err(ApiError::Decode {
                message: format!(
                    "listing {what}: the service gave the same cursor twice \
                     (after {} pages); stopped to avoid a loop",
                    self.pages
                ),
                excerpt: excerpt(&clean(cursor), 60),
            });
        }
        if self.pages >= LISTING_MAX_PAGES {
            return Err(ApiError::Decode {
                message: format!(
                    "listing {what}: still not at the end after {LISTING_MAX_PAGES} pages; stopped"
                ),
                excerpt: excerpt(&clean(cursor), 60),
            });
        }
        Ok(())
    }
}

impl Client {
    /// Every item of a listing whose shape the spec does not show: a bare
    /// array, or envelopes whose cursor is followed with the same `limit` on
    /// every page (bounded; a repeated cursor stops the walk with an error).
    /// Unreadable items are skipped with a log line.
    pub(super) async fn list_all<T: DeserializeOwned>(
        &self,
        path: &str,
        what: &'static str,
        on404: On404,
    ) -> Result<Vec<T>, ApiError> {
        Ok(self.list_all_counted(path, what, on404).await?.0)
    }

    /// [`Self::list_all`], and what names each item that could not be
    /// read ([`unreadable_print`]).
    pub(super) async fn list_all_counted<T: DeserializeOwned>(
        &self,
        path: &str,
        what: &'static str,
        on404: On404,
    ) -> Result<(Vec<T>, Vec<String>), ApiError> {
        let mut unreadable = Vec::new();
        let limit = self.cfg.listing_limit.max(1).to_string();
        let mut out = Vec::new();
        let mut guard = CursorGuard::default();
        let mut cursor: Option<String> = None;
        loop {
            let mut query = vec![("limit", limit.clone())];
            if let Some(c) = &cursor {
                query.push(("cursor", c.clone()));
            }
            let text = self.call(Method::GET, path, &query, None, on404).await?;
            let page = read_page(&text, what)?;
            let (read, odd) = decode_items_counted::<T>(&page.items, what);
            out.extend(read);
            unreadable.extend(odd);
            match page.cursor {
                None => return Ok((out, unreadable)),
                Some(next) => {
                    guard.next(&next, what)?;
                    cursor = Some(next);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(p: &ListingPage) -> Vec<String> {
        decode_items::<serde_json::Value>(&p.items, "things")
            .iter()
            .map(|v| v["id"].as_str().unwrap_or("").to_string())
            .collect()
    }

    /// Issue 42, point 10: a comment holding a lone surrogate is read,
    /// the surrogate as U+FFFD, the rest (its mention) whole; pairs and
    /// escaped backslashes are left as they are.
    #[test]
    fn a_lone_surrogate_is_read_as_a_replacement_character() {
        let p = read_page(
            r#"[{"id":"c1","content":"hi @[Bob](user:u-bob) \udc9c end"},
                {"id":"c2","content":"\ud83d\ude00 and \\udc9c and \ud83d!"}]"#,
            "comments",
        )
        .unwrap();
        let got = decode_items::<crate::api::Comment>(&p.items, "comments");
        assert_eq!(got.len(), 2, "nothing dropped");
        assert_eq!(got[0].content.raw(), "hi @[Bob](user:u-bob) \u{fffd} end");
        assert_eq!(got[1].content.raw(), "\u{1f600} and \\udc9c and \u{fffd}!");
        assert_eq!(lone_surrogates_replaced(r#"{"a":"\\udc9c"}"#), None);
        assert_eq!(
            lone_surrogates_replaced(r#"{"a":"x\ud800"}"#).as_deref(),
            Some(r#"{"a":"x\ufffd"}"#)
        );
    }

    #[test]
    fn a_bare_array_is_the_whole_listing() {
        let p = read_page(r#" [{"id":"a"},{"id":"b"}]"#, "comments").unwrap();
        assert_eq!(ids(&p), ["a", "b"]);
        assert_eq!(p.cursor, None);
    }

    #[test]
    fn an_envelope_gives_items_and_cursor() {
        let p = read_page(
            r#"{"items":[{"id":"a"}],"cursor":"c2","total":9}"#,
            "comments",
        )
        .unwrap();
        assert_eq!(ids(&p), ["a"]);
        assert_eq!(p.cursor.as_deref(), Some("c2"));
        for end in [
            r#"{"items":[],"cursor":null}"#,
            r#"{"items":[],"cursor":""}"#,
            r#"{"items":null}"#,
        ] {
            let p = read_page(end, "comments").unwrap();
            assert!(p.items.is_empty() && p.cursor.is_none(), "{end}");
        }
    }

    #[test]
    fn other_shapes_are_one_clear_line() {
        for (body, got) in [
            (
                r#"{"data":[],"total":0}"#,
                "an object with keys data, total",
            ),
            (r#"{"items":{"a":1}}"#, "\"items\" that is not an array"),
            (
                r#"{"items":[],"cursor":7}"#,
                "\"cursor\" that is not a string",
            ),
            (r#""hello""#, "a string"),
            ("{}", "an empty object"),
        ] {
            let e = read_page(body, "comments").unwrap_err();
            let line = e.to_string();
            assert!(matches!(e, ApiError::Decode { .. }), "{body}");
            assert!(
                line.contains("this service lists comments in a shape taskdeck does not read"),
                "{line}"
            );
            assert!(line.contains(got), "{body}: {line}");
            assert!(!line.contains('\n'), "{line}");
        }
        // Not JSON at all is an ordinary unreadable answer.
        let e = read_page("<html>", "comments").unwrap_err();
        assert!(!e.to_string().contains("shape"), "{e}");
    }

    #[test]
    fn an_unreadable_item_is_skipped_not_fatal() {
        #[derive(serde::Deserialize)]
        struct Thing {
            #[allow(dead_code)]
            id: String,
        }
        let p = read_page(r#"[{"id":"a"},{"id":42},"x",{"id":"c"}]"#, "things").unwrap();
        assert_eq!(decode_items::<Thing>(&p.items, "things").len(), 2);
    }

    #[test]
    fn a_repeated_cursor_or_an_endless_walk_stops() {
        let mut g = CursorGuard::default();
        g.next("a", "comments").unwrap();
        g.next("b", "comments").unwrap();
        let e = g.next("a", "comments").unwrap_err().to_string();
        assert!(e.contains("same cursor twice"), "{e}");

        let mut g = CursorGuard::default();
        let mut last = Ok(());
        for i in 0..LISTING_MAX_PAGES {
            last = g.next(&i.to_string(), "comments");
            if last.is_err() {
                break;
            }
        }
        let e = last.unwrap_err().to_string();
        assert!(e.contains("still not at the end"), "{e}");
    }
}
