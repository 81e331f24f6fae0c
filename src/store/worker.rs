//! The store's thread: it owns the database, so writes never wait on the
//! UI loop (nor the loop on them). Reads the loop asks for come back as
//! [`StoreAnswer`]s through a callback.

use super::db::Db;
use super::numbers::{Numbered, NUMBERS_MAX};
use super::rows::{
    now_secs, DirEntry, Found, OutboxRow, Recent, Scan, Seen, StoredDetail, StoredTask,
};
use std::sync::mpsc;

/// What the loop asks of the store.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreCmd {
    PutTasks(Vec<StoredTask>),
    /// Rows seen, for the number index.
    PutNumbers(Vec<Numbered>),
    /// `number` no longer names task `id`.
    ForgetNumber {
        number: i64,
        id: String,
    },
    PutView {
        key: String,
        /// The view as JSON (filters, search), restored at the next start.
        view: String,
        ids: Vec<String>,
    },
    PutTab {
        task_id: String,
        tab: &'static str,
        json: String,
    },
    /// The current task (opened at the next start).
    Current(String),
    Opened(String),
    Seen(String, Seen),
    Recent(Recent),
    Directory(Vec<DirEntry>),
    OutboxAdd {
        /// The loop's own number for it, sent back once written.
        local: u64,
        /// Its place in the queue (chosen by the loop).
        seq: i64,
        task_id: String,
        label: String,
        what: String,
        request: String,
        base_updated_at: Option<String>,
        /// The task as the user saw it when making the edit (JSON).
        saw: Option<String>,
        created_at: i64,
    },
    OutboxRemove(i64),
    /// The user cancelled a queued edit: removed; when the store cannot
    /// write (full, held by another program, read-only, failed), marked
    /// beside it instead (`Db::outbox_cancel`: the next open removes it),
    /// else tried again while the thread runs. Always answered
    /// (`OutboxCancelled`): a cancel is never dropped in silence.
    OutboxCancel(i64),
    /// The previous queued edit of the task (ours) was answered with this
    /// version: the next is checked against it.
    OutboxRebase {
        seq: i64,
        base: Option<String>,
    },
    /// Read everything stored about a task.
    LoadTask(String),
    /// Find a task by number (the index, else the stored tasks), with
    /// what is stored of it. `first`: asked before the service (`:open #N`
    /// online); else the service could not be reached.
    FindNumber {
        number: i64,
        first: bool,
    },
    Search {
        gen: u64,
        query: String,
    },
    /// The service deleted this task (a rejected draft).
    ForgetTask(String),
    /// Stored tasks of one kind, for a picker.
    Scan(Scan),
    /// Answer `Flushed` once everything before was written.
    Flush,
}

impl StoreCmd {
    /// Whether it writes (else it only asks).
    pub fn writes(&self) -> bool {
        !matches!(
            self,
            StoreCmd::LoadTask(_)
                | StoreCmd::FindNumber { .. }
                | StoreCmd::Search { .. }
                | StoreCmd::Scan(_)
                | StoreCmd::Flush
        )
    }
}

#[derive(Clone, Debug)]
pub enum StoreAnswer {
    Task(String, Box<StoredDetail>),
    Number {
        number: i64,
        first: bool,
        found: Option<Box<FoundNumber>>,
    },
    /// The stored matches, each with where it matched.
    Search {
        gen: u64,
        rows: Vec<Found>,
    },
    /// The answer to `Scan`: `Err` when the store could not be read.
    Scanned(Scan, Result<Vec<StoredTask>, String>),
    OutboxAdded {
        local: u64,
        seq: i64,
    },
    /// A queued edit could not be written (why): it is not kept.
    OutboxNotKept {
        local: u64,
        why: String,
    },
    /// A cancel (`OutboxCancel`): `Ok`: the edit will not come back at
    /// the next start; `Err(why)`: the store still holds it (tried again
    /// while the thread runs, answered `Ok` once it takes).
    OutboxCancelled {
        seq: i64,
        kept: Result<(), String>,
    },
    /// A write failed: said once, then the store is left alone.
    Failed(String),
    /// Queued edits another taskdeck left (it stopped or died), taken by
    /// this one to send.
    Taken(Vec<OutboxRow>),
    /// The store was found damaged and set aside; a new one (with the
    /// queued edits carried over) is used from now on. Said once.
    SetAside(String),
    Flushed,
}

/// A number the store knows: the task it names and what is stored of it.
#[derive(Clone, Debug)]
pub struct FoundNumber {
    pub row: Numbered,
    pub detail: StoredDetail,
}

/// The store's matches a keystroke of `/` asks for: a screen or two.
pub const SEARCH_ROWS: usize = 50;

/// Trim the number index after this many rows were written.
const NUMBERS_TRIM_EVERY: usize = 5000;

/// The handle the loop keeps.
pub struct StoreThread {
    tx: mpsc::Sender<StoreCmd>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl StoreThread {
    pub fn start(
        mut db: Db,
        max_tasks: usize,
        answer: impl Fn(StoreAnswer) + Send + 'static,
    ) -> StoreThread {
        let (tx, rx) = mpsc::channel::<StoreCmd>();
        let handle = std::thread::Builder::new()
            .name("taskdeck-store".into())
            .spawn(move || {
                // Damage the open did not see: set aside, its queued edits
                // carried over to a new store, which this session goes on
                // with (without a store if even that fails).
                let mut failed = None;
                if !db.path().as_os_str().is_empty() && db.read_only.is_none() {
                    if let Err(why) = db.check() {
                        let path = db.path().to_path_buf();
                        let owner = db.owner.clone();
                        drop(db);
                        match Db::set_aside(&path, &why) {
                            Ok((mut new, note)) => {
                                tracing::warn!("{note}");
                                if let Some(o) = owner {
                                    new.set_owner(&o);
                                }
                                // The carried rows are this process's.
                                if let Err(e) = new.outbox_take(now_secs()) {
                                    tracing::warn!(error = %e, "cannot take the carried outbox");
                                }
                                db = new;
                                answer(StoreAnswer::SetAside(note));
                            }
                            Err(note) => {
                                tracing::warn!("{note}");
                                let note = format!("{note}; this session goes on without it");
                                answer(StoreAnswer::Failed(note.clone()));
                                failed = Some(note);
                                db = Db::in_memory().expect("an in-memory database");
                            }
                        }
                    }
                }
                let mut server = Server::new(max_tasks, failed);
                let keep = std::time::Duration::from_secs(super::outbox::CLAIM_KEEP_SECS);
                let mut kept_at = std::time::Instant::now();
                loop {
                    let cmd = match rx.recv_timeout(keep) {
                        Ok(cmd) => Some(cmd),
                        Err(mpsc::RecvTimeoutError::Timeout) => None,
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    };
                    if server.failed.is_none()
                        && db.read_only.is_none()
                        && kept_at.elapsed() >= keep
                    {
                        // Alive: the rows taken stay this process's.
                        kept_at = std::time::Instant::now();
                        if let Err(e) = db.outbox_keep_claims(now_secs()) {
                            tracing::warn!(error = %e, "cannot keep the outbox claims");
                        }
                        // Edits another taskdeck left (it stopped or died).
                        match db.outbox_take_new(now_secs()) {
                            Ok(rows) if !rows.is_empty() => answer(StoreAnswer::Taken(rows)),
                            Ok(_) => {}
                            Err(e) => tracing::warn!(error = %e, "cannot take the outbox"),
                        }
                    }
                    let Some(cmd) = cmd else {
                        server.retry_cancels(&db, &answer);
                        continue;
                    };
                    server.serve(&mut db, cmd, &answer);
                }
                // A cancel the store could not take: a last try.
                server.retry_cancels(&db, &answer);
                let failed = server.failed;
                if failed.is_none() && db.read_only.is_none() {
                    let _ = db.evict(max_tasks);
                    let _ = db.evict_numbers(NUMBERS_MAX);
                    // The rows not sent are free for the next start.
                    if let Err(e) = db.outbox_release() {
                        tracing::warn!(error = %e, "cannot give the outbox claims back");
                    }
                }
            })
            .expect("spawn the store thread");
        StoreThread {
            tx,
            handle: Some(handle),
        }
    }

    pub fn send(&self, cmd: StoreCmd) {
        let _ = self.tx.send(cmd);
    }

    /// Write what is queued and stop (at quit).
    pub fn finish(mut self) {
        let (tx, _) = mpsc::channel();
        let old = std::mem::replace(&mut self.tx, tx);
        drop(old);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// What the store's thread keeps between commands, and one command
/// carried out (`serve`): the thread's loop and the simulator (issue 43,
/// `crate::sim`) run the same code.
pub struct Server {
    /// A write failed (why): questions are still answered, nothing more
    /// is written.
    pub failed: Option<String>,
    writes: usize,
    numbered: usize,
    max_tasks: usize,
    /// Cancels the store could not take yet (neither removed nor marked):
    /// tried again with the commands (`CANCEL_RETRY` apart: a store held
    /// by another program makes each try wait), when idle and at the end.
    cancels: Vec<i64>,
    cancels_tried: Option<std::time::Instant>,
}

/// How often commands try again a cancel the store could not take.
const CANCEL_RETRY: std::time::Duration = std::time::Duration::from_secs(10);

impl Server {
    pub fn new(max_tasks: usize, failed: Option<String>) -> Server {
        Server {
            failed,
            writes: 0,
            numbered: 0,
            max_tasks,
            cancels: Vec::new(),
            cancels_tried: None,
        }
    }

    /// A cancel: removed, or marked beside the store; else kept to be
    /// tried again (`retry_cancels`). Answered either way.
    fn cancel(&mut self, db: &Db, seq: i64, answer: &impl Fn(StoreAnswer)) {
        let kept = db.outbox_cancel(seq);
        if kept.is_err() && !self.cancels.contains(&seq) {
            self.cancels.push(seq);
            self.cancels_tried = Some(std::time::Instant::now());
        }
        answer(StoreAnswer::OutboxCancelled { seq, kept });
    }

    /// The cancels not taken yet, tried again (the lock let go, space
    /// found): each that takes now is answered `Ok`.
    pub fn retry_cancels(&mut self, db: &Db, answer: &impl Fn(StoreAnswer)) {
        if self.cancels.is_empty() {
            return;
        }
        self.cancels_tried = Some(std::time::Instant::now());
        let mut left = Vec::new();
        for seq in std::mem::take(&mut self.cancels) {
            match db.outbox_cancel(seq) {
                Ok(()) => answer(StoreAnswer::OutboxCancelled { seq, kept: Ok(()) }),
                Err(_) => left.push(seq),
            }
        }
        self.cancels = left;
    }

    /// Carry out `cmd` on `db`, answering through `answer`.
    pub fn serve(&mut self, db: &mut Db, cmd: StoreCmd, answer: &impl Fn(StoreAnswer)) {
        if self
            .cancels_tried
            .is_some_and(|t| t.elapsed() >= CANCEL_RETRY)
        {
            self.retry_cancels(db, answer);
        }
        // Before the failed and read-only paths: a cancel is tried (and
        // marked beside the store) whatever state the store is in. So is
        // the removal of an edit sent and answered (or found landed, or
        // refused): one the store could not drop came back at the next
        // start as if never sent — and, its task since set back to what
        // the edit was made against by a service whose clock went back,
        // was sent again (simulator seed 13400517069403342923).
        if let StoreCmd::OutboxCancel(seq) | StoreCmd::OutboxRemove(seq) = cmd {
            self.cancel(db, seq, answer);
            return;
        }
        if let Some(why) = &self.failed {
            // Questions are still answered (nothing known), so
            // that nobody waits for an answer that never comes;
            // a queued edit hears it is not kept.
            match cmd {
                StoreCmd::OutboxAdd { local, .. } => answer(StoreAnswer::OutboxNotKept {
                    local,
                    why: why.clone(),
                }),
                StoreCmd::Flush => answer(StoreAnswer::Flushed),
                StoreCmd::FindNumber { number, first } => answer(StoreAnswer::Number {
                    number,
                    first,
                    found: None,
                }),
                _ => {}
            }
            return;
        }
        if let (Some(why), true) = (&db.read_only, cmd.writes()) {
            // Read-only: reads are answered, writes skipped; a
            // queued edit hears it is not kept.
            if let StoreCmd::OutboxAdd { local, .. } = cmd {
                answer(StoreAnswer::OutboxNotKept {
                    local,
                    why: why.clone(),
                });
            }
            return;
        }
        if let StoreCmd::PutNumbers(rows) = &cmd {
            self.numbered += rows.len();
        }
        match run(db, cmd, answer) {
            Ok(wrote) => self.writes += usize::from(wrote),
            Err(e) => {
                tracing::warn!(error = %e, "local store write failed");
                let why = super::open::describe(&e);
                answer(StoreAnswer::Failed(format!(
                    "the local store failed ({why}); this session goes on without it"
                )));
                self.failed = Some(format!("the local store failed: {why}"));
            }
        }
        if self.numbered >= NUMBERS_TRIM_EVERY {
            self.numbered = 0;
            if let Err(e) = db.evict_numbers(NUMBERS_MAX) {
                tracing::warn!(error = %e, "local store number trim failed");
            }
        }
        if self.writes >= 500 {
            self.writes = 0;
            if let Err(e) = db.evict(self.max_tasks) {
                tracing::warn!(error = %e, "local store eviction failed");
            }
        }
    }
}

/// Carry out one command; `Ok(true)` when it wrote.
fn run(db: &mut Db, cmd: StoreCmd, answer: &impl Fn(StoreAnswer)) -> rusqlite::Result<bool> {
    let now = now_secs();
    match cmd {
        StoreCmd::PutTasks(t) => db.put_tasks(&t, now)?,
        StoreCmd::PutNumbers(rows) => db.put_numbers(&rows, now)?,
        StoreCmd::ForgetTask(id) => db.forget_task(&id)?,
        StoreCmd::ForgetNumber { number, id } => db.forget_number(number, &id)?,
        StoreCmd::PutView { key, view, ids } => {
            db.put_view(&key, &ids, now)?;
            db.set_meta("last_view", &view)?;
            db.set_meta("last_view_key", &key)?;
        }
        StoreCmd::PutTab { task_id, tab, json } => db.put_tab(&task_id, tab, &json, now)?,
        StoreCmd::Current(id) => db.set_meta("last_task", &id)?,
        StoreCmd::Opened(id) => db.opened(&id, now)?,
        StoreCmd::Seen(id, s) => db.put_seen(&id, &s)?,
        StoreCmd::Recent(r) => db.put_recent(&r)?,
        StoreCmd::Directory(d) => db.put_directory(&d)?,
        StoreCmd::OutboxAdd {
            local,
            seq,
            task_id,
            label,
            what,
            request,
            base_updated_at,
            saw,
            created_at,
        } => {
            let added = db.outbox_add(
                seq,
                &task_id,
                &label,
                &what,
                &request,
                base_updated_at.as_deref(),
                saw.as_deref(),
                created_at,
            );
            if let Err(e) = added {
                // Said for the edit itself, then as any failed write.
                answer(StoreAnswer::OutboxNotKept {
                    local,
                    why: crate::text::clean(&e.to_string()),
                });
                return Err(e);
            }
            answer(StoreAnswer::OutboxAdded { local, seq });
        }
        // Served before (`Server::serve`): never a failed write.
        StoreCmd::OutboxCancel(_) | StoreCmd::OutboxRemove(_) => return Ok(false),
        StoreCmd::OutboxRebase { seq, base } => db.outbox_rebase(seq, base.as_deref())?,
        StoreCmd::LoadTask(id) => {
            let d = db.get_detail(&id)?;
            answer(StoreAnswer::Task(id, Box::new(d)));
            return Ok(false);
        }
        StoreCmd::FindNumber { number, first } => {
            let found = match db.find_number(number)? {
                Some(row) => {
                    let detail = db.get_detail(&row.id)?;
                    Some(Box::new(FoundNumber { row, detail }))
                }
                None => None,
            };
            answer(StoreAnswer::Number {
                number,
                first,
                found,
            });
            return Ok(false);
        }
        StoreCmd::Search { gen, query } => {
            let rows = db.find(&query, SEARCH_ROWS)?;
            answer(StoreAnswer::Search { gen, rows });
            return Ok(false);
        }
        StoreCmd::Scan(scan) => {
            // A failed read is answered (the picker says so), never only
            // logged: the picker waits for it.
            let rows = db.scan(scan, 200).map_err(|e| e.to_string());
            answer(StoreAnswer::Scanned(scan, rows));
            return Ok(false);
        }
        StoreCmd::Flush => {
            answer(StoreAnswer::Flushed);
            return Ok(false);
        }
    }
    Ok(true)
}
