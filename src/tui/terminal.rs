//! Terminal setup and, above all, restoration: on quit, panic, signals and
//! hang-ups the terminal is left as it was found.

use super::background;
use crate::platform::ffi;
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyCode, KeyEventKind,
};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Once, OnceLock};
use std::time::Duration;

/// The terminal, its reported size bounded ([`super::clamped`]).
pub type Term = Terminal<super::clamped::Clamped<CrosstermBackend<super::colors::ColorOut>>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The title is taskdeck's (`notify` has `title`): the terminal's own is
/// pushed when the terminal is taken and popped whenever it is given back
/// (quit, `$EDITOR`, ctrl-z, a panic, a signal).
static TITLE: AtomicBool = AtomicBool::new(false);

/// How many times the terminal was taken back after a suspension: the
/// title written before is gone then ([`super::notify`] writes it again).
static RESUMES: AtomicUsize = AtomicUsize::new(0);

/// Keep the terminal's title and give it back (before [`setup`]).
pub fn keep_title(keep: bool) {
    TITLE.store(keep, Ordering::SeqCst);
}

pub fn resumes() -> usize {
    RESUMES.load(Ordering::SeqCst)
}

fn push_title(out: &mut impl Write) -> io::Result<()> {
    if TITLE.load(Ordering::SeqCst) {
        out.write_all(super::notify::osc::PUSH_TITLE)?;
    }
    Ok(())
}

pub fn setup(mouse: bool, depth: super::colors::Depth) -> io::Result<Term> {
    remember_original_mode();
    install_abort_handler();
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    push_title(&mut out)?;
    execute!(
        out,
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )?;
    if mouse {
        execute!(out, EnableMouseCapture)?;
    }
    Terminal::new(super::clamped::Clamped::new(CrosstermBackend::new(
        super::colors::ColorOut::new(depth),
    )))
}

/// Raw mode off, mouse and bracketed paste off, alternate screen left,
/// cursor shown. Safe to call more than once and from a panic hook.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    // A terminal that hung up is not written to: nothing would arrive, and
    // a write to a terminal nobody reads may never return.
    if gone() || hung_up() {
        GONE.store(true, Ordering::SeqCst);
        return;
    }
    let mut out = io::stdout();
    // The title first: nothing is written after the restore's last byte.
    if TITLE.load(Ordering::SeqCst) {
        let _ = out.write_all(super::notify::osc::POP_TITLE);
    }
    let _ = execute!(
        out,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    let _ = out.flush();
}

/// The terminal's mode before raw mode (and the fd it was read from), for
/// the SIGABRT handler, which may only make system calls.
static ORIGINAL_MODE: OnceLock<(libc::c_int, ffi::TermMode)> = OnceLock::new();

/// What [`restore`] writes (mouse off, bracketed paste off, alternate
/// screen left, cursor shown), as bytes a signal handler can write.
const RESTORE_BYTES: &[u8] =
    b"\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?2004l\x1b[?1049l\x1b[?25h";

/// [`RESTORE_BYTES`] with the title popped first (`CSI 23;0 t`).
const RESTORE_BYTES_TITLE: &[u8] =
    b"\x1b[23;0t\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?2004l\x1b[?1049l\x1b[?25h";

fn remember_original_mode() {
    if ORIGINAL_MODE.get().is_some() {
        return;
    }
    use std::os::fd::IntoRawFd;
    let fd = if ffi::is_terminal(libc::STDIN_FILENO) {
        libc::STDIN_FILENO
    } else {
        // Kept open for the life of the process on purpose (the handler
        // restores through it).
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
        {
            Ok(tty) => tty.into_raw_fd(),
            Err(_) => return,
        }
    };
    if let Some(mode) = ffi::terminal_mode(fd) {
        let _ = ORIGINAL_MODE.set((fd, mode));
    }
}

/// [`restore`] for a signal handler: only `write(2)` and `tcsetattr(3)`
/// (async-signal-safe), no locks, no allocation.
pub(super) fn restore_from_signal_handler() {
    if !ACTIVE.swap(false, Ordering::SeqCst) || GONE.load(Ordering::SeqCst) {
        return;
    }
    let bytes = if TITLE.load(Ordering::SeqCst) {
        RESTORE_BYTES_TITLE
    } else {
        RESTORE_BYTES
    };
    ffi::write_raw(libc::STDOUT_FILENO, bytes);
    if let Some((fd, mode)) = ORIGINAL_MODE.get() {
        ffi::set_terminal_mode(*fd, mode);
    }
}

/// SIGABRT (`abort()` in a library, an allocation failure, a panic while
/// panicking, `kill -ABRT`) restores the terminal and then dies of SIGABRT
/// as it would have: the handler puts the default action back and raises
/// the signal again, which is delivered as soon as the handler returns.
/// The other signals are handled by the event loop (`spawn_signals`).
fn install_abort_handler() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        if let Err(e) = ffi::on_signal(libc::SIGABRT, on_abort) {
            tracing::warn!(error = %e, "cannot handle SIGABRT");
        }
    });
}

/// The SIGABRT action (a signal action: async-signal-safe calls only):
/// the terminal restored, then death by SIGABRT as without a handler.
fn on_abort(sig: i32) {
    restore_from_signal_handler();
    ffi::die_of(sig);
}

/// The terminal hung up (EOF, EIO, POLLHUP, a write that failed with
/// EIO): from then on nothing is written to it, not even the restore.
static GONE: AtomicBool = AtomicBool::new(false);

/// Say the terminal is gone ([`GONE`]).
pub fn mark_gone() {
    GONE.store(true, Ordering::SeqCst);
}

pub fn gone() -> bool {
    GONE.load(Ordering::SeqCst)
}

/// Whether the terminal taskdeck reads has hung up: poll(2) on it says
/// POLLHUP (or POLLERR, POLLNVAL) — the state a closed SSH connection, a
/// killed tmux server or a closed window leaves it in. No wait, no read.
pub fn hung_up() -> bool {
    let Some((fd, _)) = ORIGINAL_MODE.get() else {
        return false;
    };
    ffi::hung_up(*fd)
}

/// The error says the terminal is gone (the other end hung up): EIO,
/// ENXIO, EPIPE, EOF. Such a write is a hang-up, not a message to show.
pub fn is_hangup(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EIO | libc::ENXIO | libc::EPIPE | libc::EBADF)
    ) || matches!(
        e.kind(),
        io::ErrorKind::BrokenPipe | io::ErrorKind::UnexpectedEof | io::ErrorKind::WriteZero
    )
}

/// Re-enter after a suspension (the `$EDITOR`).
pub fn resume(term: &mut Term, mouse: bool) -> io::Result<()> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    push_title(&mut io::stdout())?;
    RESUMES.fetch_add(1, Ordering::SeqCst);
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )?;
    if mouse {
        execute!(io::stdout(), EnableMouseCapture)?;
    }
    term.clear()
}

/// Continued after a stop taskdeck did not make itself (`kill -STOP`, a
/// SIGTSTP sent from outside, a debugger): the shell that had the terminal
/// meanwhile may have put it in its own mode (line mode and echo, bracketed
/// paste off — readline turns it off after each line, so a paste would be
/// typed keys) and written on the screen. Raw mode and bracketed paste are
/// taken again and the next frame is drawn whole (a shell leaves the
/// alternate screen, the mouse and the title as they were). After
/// taskdeck's own ctrl-z ([`suspend`] took it all back) it changes nothing
/// but one whole redraw.
pub fn continued(term: &mut Term) -> io::Result<()> {
    if !ACTIVE.load(Ordering::SeqCst) || gone() {
        return Ok(());
    }
    // crossterm keeps raw mode as set: made again from the mode first found.
    let _ = terminal::disable_raw_mode();
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), EnableBracketedPaste, cursor::Hide)?;
    term.clear()
}

/// ctrl-z: give the terminal back as it was found, stop the way the
/// terminal's own ctrl-z would (SIGTSTP to our process group, which the
/// shell sees as a stopped job), and once continued (`fg`, SIGCONT) take
/// it again and clear it, so that the next frame is drawn whole.
pub fn suspend(term: &mut Term, mouse: bool) -> io::Result<()> {
    restore();
    tracing::info!("suspended (ctrl-z)");
    // Our own process group. It returns once we are continued (a process
    // in an orphaned group is not stopped: it returns at once and the
    // screen is simply taken again).
    ffi::signal_own_group(libc::SIGTSTP);
    tracing::info!("continued");
    resume(term, mouse)
}

/// The terminal as the loop holds it: drawn on, read by the input thread,
/// lent to an editor or an interactive command, suspended by ctrl-z.
pub struct Screen {
    pub term: Term,
    pub input: InputThread,
    /// `mouse` from the config: capture is turned on again when taken back.
    pub mouse: bool,
    /// The terminal went away during an effect (a write, a resume): the
    /// loop clears it before each round of effects and reads it after.
    pub hangup: bool,
}

impl Screen {
    /// Lend the terminal to `f` (`$EDITOR`, an interactive command): the
    /// input paused and the terminal given back meanwhile, taken again
    /// after (a failure to take it back is a hang-up).
    pub fn lend<R>(&mut self, f: impl FnOnce() -> R) -> R {
        self.input.pause();
        restore();
        let r = f();
        if let Err(e) = resume(&mut self.term, self.mouse) {
            // The terminal went away while it was lent.
            tracing::warn!(error = %e, "cannot take the terminal back; saving drafts and leaving");
            if is_hangup(&e) {
                mark_gone();
            }
            self.hangup = true;
        }
        self.input.resume();
        r
    }

    /// ctrl-z ([`suspend`]), the input paused meanwhile.
    /// SIGCONT: see [`continued`]; a terminal gone meanwhile is a hang-up.
    pub fn continued(&mut self) {
        if let Err(e) = continued(&mut self.term) {
            tracing::warn!(error = %e, "cannot take the terminal back after a stop; saving drafts and leaving");
            if is_hangup(&e) {
                mark_gone();
            }
            self.hangup = true;
        }
    }

    pub fn suspend(&mut self) {
        self.input.pause();
        if let Err(e) = suspend(&mut self.term, self.mouse) {
            tracing::warn!(error = %e, "cannot take the terminal back; saving drafts and leaving");
            self.hangup = true;
        }
        self.input.resume();
    }
}

/// Restore the terminal before any panic message is printed.
pub fn install_panic_hook() {
    // Once per process: each `:profile` switch starts the TUI again, and
    // hooks wrapped around hooks would restore the terminal once per run.
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Reads terminal events on a thread of its own. It polls with a short
/// timeout so that it can be paused (while `$EDITOR` owns the terminal)
/// without stealing keys, and looks for a hang-up between two polls: a
/// terminal that hung up ends the thread with [`InputEvent::Closed`].
pub struct InputThread {
    paused: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Closed (its sender dropped) when the thread ends, however it ends.
    ended: std::sync::mpsc::Receiver<()>,
}

pub enum InputEvent {
    Event(Event),
    /// The terminal's answer to OSC 11: its background
    /// ([`super::background`]), taken out of the keys.
    Background(super::background::Rgb),
    /// The terminal went away (EOF, an I/O error, a hang-up).
    Closed(String),
}

/// How long dropping an [`InputThread`] waits for it to end: a poll ends
/// within 50 ms; a thread stuck on a dead terminal is left behind rather
/// than waited for (the process is leaving).
const INPUT_JOIN: Duration = Duration::from_millis(300);

impl InputThread {
    pub fn start(send: impl Fn(InputEvent) -> bool + Send + 'static) -> InputThread {
        let paused = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (p, s) = (paused.clone(), stop.clone());
        let (ended_tx, ended) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("input".into())
            .spawn(move || {
                let _ended = ended_tx;
                read_events(&p, &s, &send);
            })
            .expect("spawn input thread");
        InputThread {
            paused,
            stop,
            thread: Some(thread),
            ended,
        }
    }

    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        // Let a poll in progress time out before the editor starts.
        std::thread::sleep(Duration::from_millis(70));
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}

/// The input thread's loop: events sent on until `stop`, the receiver
/// gone, or the terminal gone (said with [`InputEvent::Closed`]).
fn read_events(paused: &AtomicBool, stop: &AtomicBool, send: &dyn Fn(InputEvent) -> bool) {
    let closed = |why: String| {
        mark_gone();
        send(InputEvent::Closed(why));
    };
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        if paused.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        // A hung-up terminal reads as ready with nothing in it (EOF):
        // crossterm would poll it again and again. Asked first, each time.
        if hung_up() {
            closed("the terminal hung up".into());
            break;
        }
        match event::poll(Duration::from_millis(50)) {
            Ok(true) => match event::read() {
                Ok(ev) if background::starts_answer(&ev) => match osc_answer(ev) {
                    Ok(background::Read::Answer(rgb)) => {
                        if !send(InputEvent::Background(rgb)) {
                            break;
                        }
                    }
                    Ok(background::Read::Keys(evs)) => {
                        if !evs.into_iter().all(|e| send(InputEvent::Event(e))) {
                            break;
                        }
                    }
                    Err(e) => {
                        closed(e.to_string());
                        break;
                    }
                },
                Ok(ev) if is_key(&ev, |c| c == KeyCode::Esc) => match after_esc(ev) {
                    Ok(evs) => {
                        if !evs.into_iter().all(|e| send(InputEvent::Event(e))) {
                            break;
                        }
                    }
                    Err(e) => {
                        closed(e.to_string());
                        break;
                    }
                },
                Ok(ev) => {
                    if !send(InputEvent::Event(ev)) {
                        break;
                    }
                }
                Err(e) => {
                    closed(e.to_string());
                    break;
                }
            },
            Ok(false) => {}
            Err(e) => {
                closed(e.to_string());
                break;
            }
        }
    }
}

/// What follows an Alt-`]`: an answer of the terminal (OSC 11), or keys.
fn osc_answer(first: Event) -> io::Result<background::Read> {
    background::read_answer(vec![first], || {
        Ok(if event::poll(background::GAP)? {
            Some(event::read()?)
        } else {
            None
        })
    })
}

/// Ask the terminal its background (OSC 11; [`super::background`]): the
/// answer comes back through the input thread.
pub fn ask_background(in_tmux: bool) -> io::Result<()> {
    let mut out = io::stdout();
    out.write_all(&background::query(in_tmux))?;
    out.flush()
}

/// `ev` is a key press whose code `code` accepts (any modifiers: an
/// upper-case letter comes with SHIFT).
fn is_key(ev: &Event, code: impl Fn(KeyCode) -> bool) -> bool {
    matches!(ev, Event::Key(k) if k.kind != KeyEventKind::Release && code(k.code))
}

/// How long the rest of a sequence split after its ESC may take to come:
/// it is in the terminal already (no one types `[` 2 ms after Esc).
const SPLIT_GAP: Duration = Duration::from_millis(2);

/// The Esc key just read, and what follows it at once. A burst larger
/// than one read (2,000 mouse reports) may end a read right after a
/// sequence's ESC: crossterm reads that ESC as the Esc key and the rest
/// (`[<32;10;5M`) as typed keys — `[`, digits, `M`, which would move
/// through history and switch views. An Esc followed at once by `[` or
/// `O` is such a sequence: it is dropped whole (parameters up to its final
/// byte). Anything else is the Esc key, then what followed it.
fn after_esc(esc: Event) -> io::Result<Vec<Event>> {
    split_after_esc(esc, || event::poll(SPLIT_GAP), event::read)
}

/// [`after_esc`] over any source of events (`ready` says whether one is
/// there within the gap), so that it can be tested without a terminal.
/// What turns out not to be a sequence is given back whole, in order: the
/// Esc, the `[` or `O`, the bytes read since — nothing typed is lost.
fn split_after_esc(
    esc: Event,
    mut ready: impl FnMut() -> io::Result<bool>,
    mut read: impl FnMut() -> io::Result<Event>,
) -> io::Result<Vec<Event>> {
    if !ready()? {
        return Ok(vec![esc]);
    }
    let next = read()?;
    let ss3 = is_key(&next, |c| c == KeyCode::Char('O'));
    if !ss3 && !is_key(&next, |c| c == KeyCode::Char('[')) {
        return Ok(vec![esc, next]);
    }
    // Parameters and intermediates are 0x20–0x3F, the final byte
    // 0x40–0x7E; after `O` (SS3) the next byte is the final one.
    let param = |c| matches!(c, KeyCode::Char(' '..='?'));
    let fin = |c| matches!(c, KeyCode::Char('@'..='~'));
    let mut seen = Vec::new();
    for _ in 0..64 {
        if !ready()? {
            break;
        }
        let ev = read()?;
        if is_key(&ev, fin) {
            break;
        }
        if ss3 || !is_key(&ev, param) {
            // Not a sequence after all: everything read is kept.
            let mut all = vec![esc, next];
            all.extend(seen);
            all.push(ev);
            return Ok(all);
        }
        seen.push(ev);
    }
    tracing::debug!("a sequence split after its ESC was dropped");
    Ok(vec![])
}

impl Drop for InputThread {
    /// Stopped, and waited for (its poll ends within 50 ms): a key typed
    /// right after is read by whatever reads the terminal next — the next
    /// run's thread after a `:profile` switch — never lost to this one.
    /// Waited for [`INPUT_JOIN`] at most: a thread that does not end is
    /// left behind, never waited on forever.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        match self.ended.recv_timeout(INPUT_JOIN) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                tracing::warn!("the input thread did not end; leaving it behind");
            }
            _ => {
                if let Some(t) = self.thread.take() {
                    let _ = t.join();
                }
            }
        }
    }
}

pub use crate::ui::osc::{osc52, OSC52_MAX};

#[cfg(test)]
mod tests {

    mod split_after_esc {
        use super::super::split_after_esc;
        use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
        use std::collections::VecDeque;

        fn key(c: KeyCode) -> Event {
            Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
        }
        fn run(after: Vec<Event>) -> Vec<Event> {
            let mut q: VecDeque<Event> = after.into();
            let ready = std::cell::Cell::new(0);
            let n = q.len();
            split_after_esc(
                key(KeyCode::Esc),
                || {
                    ready.set(ready.get() + 1);
                    Ok(ready.get() <= n)
                },
                || Ok(q.pop_front().unwrap()),
            )
            .unwrap()
        }
        fn chars(s: &str) -> Vec<Event> {
            s.chars().map(|c| key(KeyCode::Char(c))).collect()
        }

        #[test]
        fn a_mouse_report_split_after_its_esc_is_dropped_whole() {
            assert!(run(chars("[<32;10;5M")).is_empty());
            assert!(run(chars("OA")).is_empty());
        }

        #[test]
        fn esc_alone_and_esc_then_a_key_are_kept() {
            assert_eq!(run(vec![]), vec![key(KeyCode::Esc)]);
            assert_eq!(
                run(chars("j")),
                vec![key(KeyCode::Esc), key(KeyCode::Char('j'))]
            );
        }

        #[test]
        fn what_is_not_a_sequence_after_esc_bracket_is_given_back_whole() {
            // Esc, `[`, `1`, then Enter: no sequence has Enter in it.
            let mut after = chars("[1");
            after.push(key(KeyCode::Enter));
            let mut want = vec![key(KeyCode::Esc)];
            want.extend(after.clone());
            assert_eq!(run(after), want);
            // After `O` only a final byte belongs to the sequence.
            let mut after = chars("O");
            after.push(key(KeyCode::Tab));
            let mut want = vec![key(KeyCode::Esc)];
            want.extend(after.clone());
            assert_eq!(run(after), want);
        }
    }
    use super::*;

    #[test]
    fn the_signal_handler_writes_what_restore_writes() {
        use crossterm::Command;
        let mut expected = String::new();
        DisableMouseCapture.write_ansi(&mut expected).unwrap();
        DisableBracketedPaste.write_ansi(&mut expected).unwrap();
        LeaveAlternateScreen.write_ansi(&mut expected).unwrap();
        cursor::Show.write_ansi(&mut expected).unwrap();
        assert_eq!(String::from_utf8_lossy(RESTORE_BYTES), expected);
        let popped = [super::super::notify::osc::POP_TITLE, RESTORE_BYTES].concat();
        assert_eq!(RESTORE_BYTES_TITLE, popped.as_slice());
    }

    #[test]
    fn osc52_never_carries_a_secret() {
        use base64::Engine;
        crate::secret::register("osc52-secret-key");
        let seq = osc52("id osc52-secret-key", false, false);
        let b64 = seq
            .strip_prefix("\x1b]52;c;")
            .and_then(|s| s.strip_suffix('\x07'))
            .unwrap();
        let copied = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        assert_eq!(copied, b"id [redacted]");
    }

    #[test]
    fn a_vanished_terminal_reads_as_a_hangup() {
        assert!(is_hangup(&io::Error::from_raw_os_error(libc::EIO)));
        assert!(is_hangup(&io::Error::from_raw_os_error(libc::ENXIO)));
        assert!(is_hangup(&io::Error::from(io::ErrorKind::BrokenPipe)));
        assert!(!is_hangup(&io::Error::from_raw_os_error(libc::EAGAIN)));
    }

    #[test]
    fn osc52_bytes() {
        assert_eq!(osc52("#12", false, false), "\x1b]52;c;IzEy\x07");
        assert_eq!(
            osc52("#12", true, false),
            "\x1b]52;c;IzEy\x07\x1bPtmux;\x1b\x1b]52;c;IzEy\x07\x1b\\"
        );
        // Through GNU screen: a DCS string it passes on.
        assert_eq!(osc52("#12", false, true), "\x1bP\x1b]52;c;IzEy\x07\x1b\\");
    }
}
