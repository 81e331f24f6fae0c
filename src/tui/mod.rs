//! The TUI: one task owns the state. Terminal events, ticks and API results
//! arrive on one channel; the loop drains what is queued, applies it, and
//! renders once, only when something changed. The side effects live here,
//! above the state (`crate::app`) and the drawing (`crate::ui`): the
//! terminal, the worker, the store link, the clipboard, the inbox's link.

pub mod background;
pub mod clamped;
pub mod clipboard;
pub mod colors;
pub mod editor;
mod effects;
mod msg;
pub mod notify;
pub mod profiles;
pub mod runner;
mod session;
mod signals;
mod store_link;
pub mod terminal;
pub mod worker;

pub use msg::Msg;

use crate::api::Client;
use crate::config::Settings;
use session::Session;
pub use session::{LaunchInfo, RunEnd, DEMO_NOTE, EXIT_EDITS_LOST};
use std::time::Duration;
use tokio::sync::mpsc;

const TICK: Duration = Duration::from_millis(200);

/// The terminal's events waiting for the loop, at most: the input thread
/// waits (the terminal keeps what is typed) rather than queue more, and
/// drops mouse motion rather than wait (see `Session::start`).
const INPUT_QUEUE: usize = 256;

/// Run the TUI until the user quits; returns the process exit code. Top to
/// bottom: set up; then, until the run ends, draw if a frame is due, wait
/// for a message (or the tick, or the cursor to rest), take every message
/// queued, let the clock, the prefetch and the drafts' autosave have their
/// turn, carry out the effects, set the title; finish.
pub async fn run(
    client: Client,
    settings: Settings,
    launch: LaunchInfo,
) -> color_eyre::Result<RunEnd> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let (input_tx, mut input_rx) = mpsc::channel::<Msg>(INPUT_QUEUE);
    let mut input_open = true;
    let mut session = Session::start(client, settings, launch, tx, input_tx)?;
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        if session.frame_due() && !session.draw() {
            break;
        }
        let (redraw_in, settle_in) = (session.redraw_in(), session.settle_in());
        let first = tokio::select! {
            m = rx.recv() => m,
            m = input_rx.recv(), if input_open => {
                // The input thread ended (the terminal closed, said first).
                input_open = m.is_some();
                m
            }
            _ = ticker.tick() => None,
            _ = tokio::time::sleep(settle_in) => None,
            _ = tokio::time::sleep(redraw_in) => { continue; }
        };
        let mut batch: Vec<Msg> = first.into_iter().collect();
        // What the terminal sent, a queue's worth at most, then the rest:
        // one frame for all of it.
        while batch.len() < INPUT_QUEUE {
            let Ok(m) = input_rx.try_recv() else { break };
            batch.push(m);
        }
        while let Ok(m) = rx.try_recv() {
            batch.push(m);
        }
        for msg in batch {
            session.apply(msg);
        }
        session.tick();
        session.prefetch();
        session.autosave();
        session.carry_out();
        session.title();
        if session.quitting() {
            break;
        }
    }
    Ok(session.finish(&mut rx))
}
