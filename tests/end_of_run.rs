//! The end of a run: background tasks still going when taskdeck ends are
//! dropped, and one caught in the middle of store work (which leaves the
//! runtime's worker for a moment) panics in tokio once it resumes. That
//! panic's report must not reach the terminal just restored (CI met it
//! after a SIGHUP, in `e2e_tui`). A binary of its own: the test replaces
//! the process's panic hook.

use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The log, into memory: what the end's panic hook logged is read here.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    /// The lines logged that say a background task panicked at the end.
    fn panics(&self) -> usize {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .filter(|l| l.contains("a background task panicked after the run ended"))
            .count()
    }
}

#[test]
fn a_task_caught_in_store_work_at_the_end_is_logged_not_printed() {
    let log = Log::default();
    let into = log.clone();
    tracing::subscriber::set_global_default(
        tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || into.clone())
            .finish(),
    )
    .unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (started, is_started) = mpsc::channel();
    rt.spawn(async move {
        taskdeck::inbox::cycle::off_runtime(|| {
            started.send(()).unwrap();
            // Store work that outlasts the runtime's end (200 ms).
            std::thread::sleep(Duration::from_millis(600));
        });
        // What the walk does next: a request bounded in time.
        tokio::time::sleep(Duration::from_millis(1)).await;
    });
    is_started
        .recv_timeout(Duration::from_secs(30))
        .expect("the task reached its store work");
    assert_eq!(log.panics(), 0);
    taskdeck::cli::end_runtime(rt);
    // The task resumes after the end and panics: logged by the hook the
    // end installed (the default hook prints to stderr and logs nothing).
    let deadline = Instant::now() + Duration::from_secs(30);
    while log.panics() == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        log.panics(),
        1,
        "the background task's panic after the end went to the log, not the terminal"
    );
}
