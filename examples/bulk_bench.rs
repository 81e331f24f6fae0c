//! The bulk engine against a service that answers every request after a
//! delay: a bulk edit of N tasks, then its undo, driven headlessly through
//! the real reducer (keys, commands, confirmation) and the real HTTP client
//! (every request spawned as the TUI's worker does). Used by
//! `scripts/bench-bulk.sh`; prints `key=value` lines.
//!
//! bulk_bench [TASKS] [LIMIT]    defaults: 200 tasks, the engine's limit
//!
//! The service address and key come from the environment
//! (TASKDECK_BASE_URL, TASKDECK_API_KEY).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::Instant;
use taskdeck::api::{ApiKey, Client, ClientConfig};
use taskdeck::app::state::{ApiResult, Effect, State};
use taskdeck::config::Settings;
use tokio::sync::mpsc;

struct Driver {
    client: Client,
    tx: mpsc::UnboundedSender<ApiResult>,
    rx: mpsc::UnboundedReceiver<ApiResult>,
    in_flight: usize,
    max_in_flight: usize,
    requests: usize,
}

impl Driver {
    fn spawn(&mut self, fx: Vec<Effect>) {
        for e in fx {
            if let Effect::Api { ticket, req } = e {
                self.in_flight += 1;
                self.requests += 1;
                self.max_in_flight = self.max_in_flight.max(self.in_flight);
                let (c, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let result = taskdeck::tui::worker::execute(&c, &req).await;
                    let _ = tx.send(ApiResult {
                        ticket,
                        req: *req,
                        result,
                    });
                });
            }
        }
    }

    /// Answer everything in flight (and what the answers send) until none
    /// is left.
    async fn settle(&mut self, s: &mut State) {
        while self.in_flight > 0 {
            let r = self.rx.recv().await.expect("an answer");
            self.in_flight -= 1;
            let more = s.on_api(r);
            self.spawn(more);
        }
    }

    fn reset(&mut self) {
        self.max_in_flight = 0;
        self.requests = 0;
    }
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let limit: Option<usize> = args.next().and_then(|a| a.parse().ok());
    let base = std::env::var("TASKDECK_BASE_URL").expect("TASKDECK_BASE_URL");
    let api_key = std::env::var("TASKDECK_API_KEY").expect("TASKDECK_API_KEY");
    let client = Client::new(ClientConfig::new(base, ApiKey::new(api_key))).expect("client");
    let settings = Settings {
        page_size: 100,
        refresh_secs: 0,
        ..Default::default()
    };
    let mut s = taskdeck::app::new_state(client.host(), &settings, false);
    if let Some(l) = limit {
        s.engine.limit = l;
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let mut d = Driver {
        client,
        tx,
        rx,
        in_flight: 0,
        max_in_flight: 0,
        requests: 0,
    };

    // Load at least N rows, page by page.
    let fx = s.start();
    d.spawn(fx);
    d.settle(&mut s).await;
    while s.list.items.len() < n && !s.list.end_reached {
        let fx = vec![s.next_page()];
        d.spawn(fx);
        d.settle(&mut s).await;
    }
    assert!(
        s.list.items.len() >= n,
        "the service lists only {} tasks",
        s.list.items.len()
    );

    // Mark rows 1..=N: `v` at the top, `v` again on row N.
    s.on_key(key('g'));
    s.on_key(key('v'));
    s.list.selected = n - 1;
    s.on_key(key('v'));
    assert_eq!(s.marks.len(), n);

    for (what, fx) in [
        ("edit", {
            s.command("status completed");
            s.on_key(key('y'))
        }),
        ("undo", Vec::new()),
    ] {
        d.reset();
        let t0 = Instant::now();
        let fx = if what == "undo" {
            s.on_key(key('z'))
        } else {
            fx
        };
        d.spawn(fx);
        d.settle(&mut s).await;
        let elapsed = t0.elapsed();
        let stats = s.engine.last.clone().expect("a finished run");
        let status = s.status.as_ref().map(|x| x.1.clone()).unwrap_or_default();
        println!("{what}_tasks={}", stats.tasks);
        println!("{what}_done={}", stats.done);
        println!("{what}_failed={}", stats.failed);
        println!("{what}_requests={}", d.requests);
        println!("{what}_ms={}", elapsed.as_millis());
        println!("{what}_engine_max_in_flight={}", stats.max_in_flight);
        println!("{what}_wire_max_in_flight={}", d.max_in_flight);
        println!("{what}_status={status}");
    }
    println!("limit={}", s.engine.limit);
}
