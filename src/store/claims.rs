//! What names the outbox's rows, a leaf of the store: the instance of an
//! open store that holds (claims) rows for sending (`Instance`), and a
//! cancel marked beside the store (`CancelMark`); `outbox.rs` uses both.

use super::rows::OutboxRow;

/// A cancel marked beside the store: the edit's place in the queue and
/// what makes it that edit — its task, when it was made and its request
/// (FNV-1a, hex). A place alone could name another edit later (a mark
/// whose file could not be removed, a store copied back, a clock set
/// back); the mark takes only the edit it was written for. A line of an
/// older taskdeck (the place alone) is carried out by the place, as it
/// was written to be.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CancelMark {
    pub seq: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
}

impl CancelMark {
    pub(super) fn of(r: &OutboxRow) -> CancelMark {
        CancelMark {
            seq: r.seq,
            task: Some(r.task_id.clone()),
            created: Some(r.created_at),
            request: Some(fnv(&r.request)),
        }
    }

    /// Whether this mark was written for the edit `r`.
    pub fn names(&self, r: &OutboxRow) -> bool {
        r.seq == self.seq
            && self.task.as_ref().is_none_or(|t| *t == r.task_id)
            && self.created.is_none_or(|c| c == r.created_at)
            && self.request.as_ref().is_none_or(|h| *h == fnv(&r.request))
    }

    pub(super) fn parse(line: &str) -> Option<CancelMark> {
        let line = line.trim();
        if let Ok(seq) = line.parse() {
            return Some(CancelMark {
                seq,
                task: None,
                created: None,
                request: None,
            });
        }
        serde_json::from_str(line).ok()
    }
}

/// FNV-1a (64 bits) of `text`, in hex: the same in every build.
pub(super) fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// This process's name for the claims of one open store (`host:pid:n`,
/// `n` the time it was opened, in nanoseconds, made unique within the
/// process): live while its `Db` is. A claim of this process whose
/// instance is no longer live (a store closed at a switch whose claims
/// could not be given back: held by another program) is let go at the
/// next take (`free_claims_of_the_dead`), as a dead process's is; two
/// live ones (two handles on one store, as two processes) never take
/// each other's rows.
pub(super) struct Instance(String);

/// The instances of this process that are open, and the last `n` given.
static INSTANCES: std::sync::Mutex<(u128, Vec<String>)> = std::sync::Mutex::new((0, Vec::new()));

fn instances() -> std::sync::MutexGuard<'static, (u128, Vec<String>)> {
    INSTANCES.lock().unwrap_or_else(|e| e.into_inner())
}

impl Instance {
    pub(super) fn new() -> Instance {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let mut all = instances();
        let n = nanos.max(all.0 + 1);
        all.0 = n;
        let name = format!("{}:{}:{n}", host_name(), std::process::id());
        all.1.push(name.clone());
        Instance(name)
    }

    /// Whether `claim` names an instance of this process that is open.
    pub(super) fn live(claim: &str) -> bool {
        instances().1.iter().any(|i| i == claim)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        instances().1.retain(|i| *i != self.0);
    }
}

impl std::ops::Deref for Instance {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl rusqlite::ToSql for Instance {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

pub(super) fn host_name() -> String {
    crate::platform::ffi::hostname().replace(':', "_")
}
