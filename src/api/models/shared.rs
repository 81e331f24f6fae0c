//! Lists that many tasks carry alike (the people on a task, its links),
//! stored once: a loaded list of a hundred thousand tasks holds a few
//! thousand different ones (issue 24 §5).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, MutexGuard};

/// A read-only list shared by every task that received the same one. Reads
/// as a slice; a task edited here is replaced whole by the service's answer,
/// never changed in place. Empty, it holds nothing. A thin pointer (8 bytes,
/// where `Arc<[T]>` takes 16; the list's length lives with the list): a task
/// holds three, a loaded list a hundred thousand tasks (issue 42 §2).
pub struct Shared<T>(Option<List<T>>);

/// One shared list: the pool's and its tasks' (the `Box` keeps the length
/// out of the pointer).
type List<T> = Arc<Box<[T]>>;

/// One value (a task's creator, assignee, team) shared by every task that
/// received the same, like [`Shared`]: a list of one, read as the value. A
/// thin pointer, never empty: `Option<One<Person>>` is 8 bytes where
/// `Option<Person>` was 32 (issue 42 §2).
pub struct One<T>(List<T>);

/// The pool of one kind of list: by a hash of the JSON text received, the
/// lists that had it (checked by value before one is shared).
pub struct SharedPool<T> {
    by_text: HashMap<u64, Vec<List<T>>>,
    len: usize,
    prune_at: usize,
    hasher: std::hash::RandomState,
}

/// Pruned when it has doubled since the last time: lists only the pool
/// holds (their tasks are gone) are let go, so it follows what is loaded.
const PRUNE_FLOOR: usize = 1024;

impl<T> Default for SharedPool<T> {
    fn default() -> Self {
        SharedPool {
            by_text: HashMap::new(),
            len: 0,
            prune_at: PRUNE_FLOOR,
            hasher: Default::default(),
        }
    }
}

impl<T> SharedPool<T> {
    pub(super) fn prune(&mut self) {
        self.by_text.retain(|_, lists| {
            lists.retain(|l| Arc::strong_count(l) > 1);
            !lists.is_empty()
        });
        self.by_text.shrink_to_fit();
        self.len = self.by_text.values().map(Vec::len).sum();
        self.prune_at = (self.len * 2).max(PRUNE_FLOOR);
    }
}

/// The kinds of list that are shared, each with its own pool.
pub trait Poolable: Sized + PartialEq + 'static {
    fn pool() -> &'static Mutex<SharedPool<Self>>;
    /// Give back the spare capacity decoding left (before it is shared).
    fn shrink(&mut self) {}
}

pub(super) fn lock<T: Poolable>() -> MutexGuard<'static, SharedPool<T>> {
    T::pool().lock().unwrap_or_else(|e| e.into_inner())
}

impl<T: Poolable> Shared<T> {
    /// The list received as `text` (`items`, read from it), shared with
    /// any task that received the same.
    fn share(text: &str, items: Vec<T>) -> Shared<T> {
        if items.is_empty() {
            return Shared(None);
        }
        Shared(Some(share(text, items)))
    }
}

/// The list received as `text` (`items`, not empty), shared with any task
/// that received the same.
fn share<T: Poolable>(text: &str, items: Vec<T>) -> List<T> {
    let mut pool = lock::<T>();
    let key = pool.hasher.hash_one(text);
    if let Some(same) = pool
        .by_text
        .get(&key)
        .and_then(|lists| lists.iter().find(|l| l[..] == items[..]))
    {
        return same.clone();
    }
    if pool.len >= pool.prune_at {
        pool.prune();
    }
    let list: List<T> = Arc::new(items.into_boxed_slice());
    pool.by_text.entry(key).or_default().push(list.clone());
    pool.len += 1;
    list
}

impl<T> Shared<T> {
    pub fn ptr_eq(&self, o: &Shared<T>) -> bool {
        match (&self.0, &o.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.0.as_ref().map_or(&[], |l| &l[..])
    }
}

impl<'a, T> IntoIterator for &'a Shared<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared(None)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, o: &Shared<T>) -> bool {
        **self == **o
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Built in code (tests, the service's answer to an edit): not pooled.
impl<T> From<Vec<T>> for Shared<T> {
    fn from(v: Vec<T>) -> Self {
        Shared((!v.is_empty()).then(|| Arc::new(v.into_boxed_slice())))
    }
}

impl<T> FromIterator<T> for Shared<T> {
    fn from_iter<I: IntoIterator<Item = T>>(i: I) -> Self {
        i.into_iter().collect::<Vec<T>>().into()
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

/// `null` reads as empty, like a missing list.
impl<'de, T: Poolable + serde::de::DeserializeOwned> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
        let items: Option<Vec<T>> = serde_json::from_str(raw.get()).map_err(D::Error::custom)?;
        let mut items = items.unwrap_or_default();
        items.iter_mut().for_each(T::shrink);
        Ok(Shared::share(raw.get(), items))
    }
}

impl<T> std::ops::Deref for One<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0[0]
    }
}

impl<T> Clone for One<T> {
    fn clone(&self) -> Self {
        One(self.0.clone())
    }
}

impl<T: PartialEq> PartialEq for One<T> {
    fn eq(&self, o: &One<T>) -> bool {
        **self == **o
    }
}

impl<T: fmt::Debug> fmt::Debug for One<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// Built in code (tests, a narrowing): not pooled.
impl<T> From<T> for One<T> {
    fn from(v: T) -> Self {
        One(Arc::new(Box::new([v])))
    }
}

impl<T> One<T> {
    pub fn ptr_eq(&self, o: &One<T>) -> bool {
        Arc::ptr_eq(&self.0, &o.0)
    }
}

impl<T: Serialize> Serialize for One<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

/// As `T` reads (an `Option<One<T>>` reads `null` as `None`).
impl<'de, T: Poolable + serde::de::DeserializeOwned> Deserialize<'de> for One<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
        let mut item: T = serde_json::from_str(raw.get()).map_err(D::Error::custom)?;
        item.shrink();
        Ok(One(share(raw.get(), vec![item])))
    }
}

// The kinds shared (`Member`, `LinkedItem`) implement `Poolable` where
// they are defined: this module knows none of them.

#[cfg(test)]
mod tests {
    use super::super::{Member, Task};
    use super::{lock, Shared};

    #[test]
    fn the_same_people_on_many_tasks_are_stored_once_and_let_go_with_the_last() {
        let people = r#"[{"id":"p-shared-1","name":"Ann Shared","role":"assignee"},{"id":"p-shared-2","name":"Ben Shared"}]"#;
        let a: Task =
            serde_json::from_str(&format!(r#"{{"id":"a","involved_people":{people}}}"#)).unwrap();
        let b: Task =
            serde_json::from_str(&format!(r#"{{"id":"b","involved_people":{people}}}"#)).unwrap();
        assert!(a.involved_people.ptr_eq(&b.involved_people), "one copy");
        assert_eq!(a.involved_people.len(), 2);
        assert_eq!(a.involved_people[1].name.raw(), "Ben Shared");
        let back = serde_json::to_value(&a).unwrap();
        assert_eq!(back["involved_people"][0]["role"], "assignee");
        // Another list, and null or missing: empty, nothing held.
        let c: Task =
            serde_json::from_str(r#"{"id":"c","involved_people":[{"id":"p-shared-1"}]}"#).unwrap();
        assert!(!c.involved_people.ptr_eq(&a.involved_people));
        let d: Task =
            serde_json::from_str(r#"{"id":"d","involved_people":null,"linked_items":null}"#)
                .unwrap();
        assert!(d.involved_people.is_empty() && d.linked_items.is_empty());
        assert_eq!(d.involved_people, Shared::<Member>::default());
        // Gone with its tasks: the pool lets it go when pruned.
        let held = a.involved_people.clone();
        let mut pool = lock::<Member>();
        drop((a, b));
        pool.prune();
        let ids: Vec<_> = held.iter().map(|m| m.id.as_str().to_string()).collect();
        assert_eq!(ids, ["p-shared-1", "p-shared-2"], "still held");
        drop(held);
        pool.prune();
        assert!(
            !pool
                .by_text
                .values()
                .flatten()
                .any(|l| l.iter().any(|m| m.name.raw() == "Ann Shared")),
            "no task holds it"
        );
    }
}
