//! Every foreign call of the crate (libc, SQLite's C library), each behind
//! a safe function whose safety argument is written at its `unsafe` block.
//! This is the one module allowed `unsafe` (`#![deny(unsafe_code)]` holds
//! everywhere else): a new system call is added here, with its argument,
//! never at the place that needs it.
//!
//! Two kinds of function live here. Plain wrappers (a query, a kill(2), a
//! terminal mode) are sound for any argument. The signal registrations
//! ([`on_signal`], [`on_signal_from`]) run a plain `fn` inside a signal
//! handler: what that `fn` does cannot be checked by the compiler, so each
//! one given names itself as a signal action and makes only
//! async-signal-safe calls (atomics and the functions of this module marked
//! "async-signal-safe").

use std::ffi::CStr;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

pub use libc::pid_t;

/// The last system call's failure, as `io::Error`.
fn last() -> io::Error {
    io::Error::last_os_error()
}

// ------------------------------------------------------------ processes

/// Send `sig` to every process of group `pgid` (`kill(-pgid, sig)`); 0
/// only asks whether the group still has a process. Async-signal-safe.
/// A `pgid` below 2 is refused (`kill(0)` is our own group, `kill(-1)`
/// every process we may signal): always false.
pub fn kill_group(pgid: pid_t, sig: i32) -> bool {
    if pgid < 2 {
        return false;
    }
    // SAFETY: kill(2) takes no pointers; the group is a positive id, so
    // neither our own group (0) nor every process (-1) is meant.
    unsafe { libc::kill(-pgid, sig) == 0 }
}

/// Whether group `pgid` still has a process (zombies count until reaped).
pub fn group_alive(pgid: pid_t) -> bool {
    kill_group(pgid, 0)
}

/// Send `sig` to taskdeck's own process group (`kill(0, sig)`): a hang-up
/// passed on to the `$EDITOR` sharing it, a SIGTSTP that stops us as the
/// terminal's ctrl-z would (returns once continued). Async-signal-safe.
pub fn signal_own_group(sig: i32) {
    // SAFETY: kill(2) takes no pointers; 0 is our own group.
    unsafe { libc::kill(0, sig) };
}

/// Whether process `pid` is known not to exist (`kill(pid, 0)` says
/// ESRCH); one we may not signal exists.
pub fn process_gone(pid: pid_t) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: kill(2) with signal 0 sends nothing; only asks.
    let rc = unsafe { libc::kill(pid, 0) };
    rc != 0 && last().raw_os_error() == Some(libc::ESRCH)
}

/// Whether our child `pid` stopped since last asked (a stop is reported
/// once; an exit is left for `try_wait` to reap).
pub fn child_stopped(pid: pid_t) -> bool {
    // SAFETY: waitid(2) on our own child into a zeroed siginfo (a valid
    // value of the plain C struct) that it fills; without WEXITED an exit
    // is never reaped here, so no WNOWAIT is needed.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WSTOPPED | libc::WNOHANG,
        );
        r == 0 && info.si_pid() == pid && info.si_code == libc::CLD_STOPPED
    }
}

/// Our process id. Async-signal-safe.
pub fn getpid() -> pid_t {
    // SAFETY: getpid(2) has no arguments and cannot fail.
    unsafe { libc::getpid() }
}

/// Our effective user id.
pub fn geteuid() -> libc::uid_t {
    // SAFETY: geteuid(2) has no arguments and cannot fail.
    unsafe { libc::geteuid() }
}

/// Our process group. Async-signal-safe.
pub fn getpgrp() -> pid_t {
    // SAFETY: getpgrp(2) has no arguments and cannot fail.
    unsafe { libc::getpgrp() }
}

/// The terminal's name for this host (`gethostname(2)`), empty when it
/// cannot be read.
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer outlives the call and its length is given; the
    // name is cut at the first NUL below (or at the buffer's end).
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return String::new();
    }
    let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The process's file-size limit in bytes (`ulimit -f`), if it has one.
pub fn file_size_limit() -> Option<libc::rlim_t> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) writes into a struct of ours, valid for it.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

// ---------------------------------------------------------------- memory

/// Bound glibc's malloc to `n` arenas (`mallopt(M_ARENA_MAX)`). Without a
/// bound glibc makes an arena for each thread that allocates, up to eight
/// a core, and a thread's freed memory stays in its arena: the runtime's
/// workers, the store's and the walks' threads each kept their own share
/// of the process's memory (issue 42 §2). Takes effect only before glibc
/// has settled its limit (more than eight arenas made): call it first
/// thing. False where malloc is not glibc's, or when refused.
pub fn bound_malloc_arenas(n: i32) -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt(3) takes two integers and only sets a parameter.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, n) == 1 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = n;
        false
    }
}

/// How many arenas glibc's malloc has made (the `<heap nr=…>` entries of
/// `malloc_info(3)`); `None` where malloc is not glibc's or it cannot be
/// read.
pub fn malloc_arenas() -> Option<usize> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut buf: *mut libc::c_char = std::ptr::null_mut();
        let mut len: libc::size_t = 0;
        // SAFETY: open_memstream(3) writes the buffer's pointer and length
        // into our two locals, which outlive the stream (closed below);
        // malloc_info(3) writes to that stream; after fclose the buffer is
        // ours, read within its length, then freed once.
        unsafe {
            let f = libc::open_memstream(&mut buf, &mut len);
            if f.is_null() {
                return None;
            }
            let rc = libc::malloc_info(0, f);
            libc::fclose(f);
            if buf.is_null() {
                return None;
            }
            let text = std::slice::from_raw_parts(buf.cast::<u8>(), len);
            let n = String::from_utf8_lossy(text).matches("<heap nr=").count();
            libc::free(buf.cast());
            (rc == 0).then_some(n)
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        None
    }
}

/// No core dump from this process: the core size limit becomes 0 (soft
/// and hard, inherited by children) and, on Linux, the process is not
/// dumpable (no debugger of the same user attaches, `/proc/PID/mem` is
/// closed). Only system calls: safe anywhere.
pub fn disable_core_dumps() -> io::Result<()> {
    let mut result = Ok(());
    let none = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: setrlimit(2) reads a valid, initialised struct of ours.
    if unsafe { libc::setrlimit(libc::RLIMIT_CORE, &none) } != 0 {
        result = Err(last());
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(PR_SET_DUMPABLE, 0) takes no pointers.
        if unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) } != 0 {
            result = Err(last());
        }
    }
    result
}

// ------------------------------------------------------------ terminals

/// Make `pgid` the foreground process group of the terminal on `fd`.
/// Only the foreground may do this unless SIGTTOU is blocked (it would be
/// stopped), so it is blocked for the call, in this thread only, and the
/// mask put back as it was. Async-signal-safe (also run between fork and
/// exec, [`take_terminal_at_exec`]).
pub fn set_foreground(fd: i32, pgid: pid_t) {
    // SAFETY: the sigsets are ours, zeroed then filled by sigemptyset and
    // sigaddset before use; pthread_sigmask and tcsetpgrp take valid
    // pointers or none; the old mask is restored. All are
    // async-signal-safe.
    unsafe {
        let mut block: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut block);
        libc::sigaddset(&mut block, libc::SIGTTOU);
        libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old);
        libc::tcsetpgrp(fd, pgid);
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
    }
}

/// The terminal's foreground process group on `fd`, if it has one.
pub fn foreground_group(fd: i32) -> Option<pid_t> {
    // SAFETY: tcgetpgrp(3) takes no pointers; a bad fd gives -1.
    let fg = unsafe { libc::tcgetpgrp(fd) };
    (fg > 0).then_some(fg)
}

/// The child `cmd` spawns makes its own process group the foreground of
/// the terminal on `fd` before exec: so it never reads the terminal while
/// still in the background (it would be stopped). The parent does the
/// same after the spawn; whichever runs first wins, both agree.
pub fn take_terminal_at_exec(cmd: &mut Command, fd: i32) {
    // SAFETY: between fork and exec the closure calls only getpid and
    // [`set_foreground`] (sigemptyset, sigaddset, pthread_sigmask,
    // tcsetpgrp): async-signal-safe, no allocation, no lock.
    unsafe {
        cmd.pre_exec(move || {
            set_foreground(fd, libc::getpid());
            Ok(())
        });
    }
}

/// The child `cmd` spawns leads a new session (`setsid(2)` before exec):
/// no controlling terminal, and a new process group whose id is its own.
/// Not with `process_group(…)`, which would make it a group leader first,
/// and setsid would fail.
pub fn new_session_at_exec(cmd: &mut Command) {
    // SAFETY: between fork and exec only setsid(2) and reading errno:
    // async-signal-safe, no allocation (an io::Error from an errno holds
    // no heap memory).
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A terminal's mode (termios), as read by [`terminal_mode`].
#[derive(Clone, Copy)]
pub struct TermMode(libc::termios);

impl TermMode {
    /// The same mode with what is typed not echoed.
    pub fn without_echo(mut self) -> TermMode {
        self.0.c_lflag &= !libc::ECHO;
        self
    }
}

/// The mode of the terminal on `fd`, if `fd` is one.
pub fn terminal_mode(fd: i32) -> Option<TermMode> {
    // SAFETY: a zeroed termios is a valid value of the plain C struct;
    // tcgetattr(3) fills it or fails (then it is dropped).
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        (libc::tcgetattr(fd, &mut t) == 0).then_some(TermMode(t))
    }
}

/// Put the terminal on `fd` in `mode`, now. Async-signal-safe.
pub fn set_terminal_mode(fd: i32, mode: &TermMode) -> bool {
    // SAFETY: tcsetattr(3) reads a termios that tcgetattr filled.
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, &mode.0) == 0 }
}

/// Whether `fd` is a terminal.
pub fn is_terminal(fd: i32) -> bool {
    // SAFETY: isatty(3) takes no pointers; a bad fd is simply not one.
    unsafe { libc::isatty(fd) == 1 }
}

/// write(2) of `bytes` to `fd`, once, what it wrote ignored: for a signal
/// handler, which may neither lock nor allocate. Async-signal-safe.
pub fn write_raw(fd: i32, bytes: &[u8]) {
    // SAFETY: the pointer and length are those of a live slice.
    let _ = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
}

/// Whether the terminal on `fd` has hung up: poll(2) says POLLHUP,
/// POLLERR or POLLNVAL. No wait, no read.
pub fn hung_up(fd: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll(2) on one valid pollfd of ours, no wait.
    let r = unsafe { libc::poll(&mut p, 1, 0) };
    r > 0 && p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

// -------------------------------------------------------------- signals

/// Catch `sig` and do nothing: the signal no longer ends the process, and
/// unlike SIG_IGN this is not inherited by the commands taskdeck starts
/// (exec resets a caught signal to its default).
pub fn leave_alone(sig: i32) -> io::Result<()> {
    // SAFETY: the action does nothing at all, trivially async-signal-safe.
    unsafe { signal_hook::low_level::register(sig, || {}) }.map(|_| ())
}

/// Run `action(sig)` when `sig` arrives, inside the signal handler, beside
/// the other actions registered for it. `action` must make only
/// async-signal-safe calls (atomics, this module's functions marked so):
/// the contract of each function given here, stated at its definition.
pub fn on_signal(sig: i32, action: fn(i32)) -> io::Result<()> {
    // SAFETY: `action` is a plain function (no captured state to lock or
    // drop) that, by this function's contract, only makes
    // async-signal-safe calls.
    unsafe { signal_hook::low_level::register(sig, move || action(sig)) }.map(|_| ())
}

/// [`on_signal`], told whether the signal came from this process itself
/// (`action(sig, from_ourselves)`): a hang-up passed on to our own group
/// is no request of anyone else's. Same contract as [`on_signal`].
pub fn on_signal_from(sig: i32, action: fn(i32, bool)) -> io::Result<()> {
    // SAFETY: as in `on_signal`; si_pid is read from the siginfo the
    // kernel gave (valid for the signals a process is sent, which are
    // the ones registered here), getpid is async-signal-safe.
    unsafe {
        signal_hook_registry::register_sigaction(sig, move |info| {
            action(sig, info.si_pid() == libc::getpid())
        })
    }
    .map(|_| ())
}

/// Put `sig`'s default action back and raise it: the process dies of it
/// as it would have without a handler (delivered once the handler that
/// calls this returns). Async-signal-safe.
pub fn die_of(sig: i32) {
    // SAFETY: signal(2) with SIG_DFL and raise(3): no pointers, both
    // async-signal-safe.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// End the process at once with `code`: no destructor, no atexit, no
/// flush (`_exit(2)`). Async-signal-safe.
pub fn exit_now(code: i32) -> ! {
    // SAFETY: _exit(2) takes no pointers and never returns.
    unsafe { libc::_exit(code) }
}

// --------------------------------------------------------------- SQLite

/// Whether `sql` is one or more complete SQL statements
/// (`sqlite3_complete`).
pub fn sql_complete(sql: &CStr) -> bool {
    // SAFETY: a NUL-terminated string that outlives the call, only read.
    unsafe { rusqlite::ffi::sqlite3_complete(sql.as_ptr()) != 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a forked child (so that the test process keeps its own limits):
    /// after `disable_core_dumps` the process is not dumpable and its core
    /// limit is 0. The child only makes system calls, then `_exit`s.
    #[cfg(target_os = "linux")]
    #[test]
    fn core_dumps_are_disabled() {
        // SAFETY: fork; the child calls only async-signal-safe system calls
        // (prctl, setrlimit, getrlimit, _exit) and never returns.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                let ok = disable_core_dumps().is_ok();
                let after = libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0);
                let mut lim = libc::rlimit {
                    rlim_cur: 1,
                    rlim_max: 1,
                };
                libc::getrlimit(libc::RLIMIT_CORE, &mut lim);
                let code = match (ok, after, lim.rlim_cur, lim.rlim_max) {
                    (true, 0, 0, 0) => 0,
                    (false, _, _, _) => 11,       // a system call failed
                    (_, a, _, _) if a != 0 => 12, // still dumpable
                    _ => 13,                      // core limit not 0
                };
                libc::_exit(code);
            }
            let mut status = 0;
            assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
            assert!(libc::WIFEXITED(status), "child status {status}");
            assert_eq!(libc::WEXITSTATUS(status), 0, "see the codes in the child");
        }
    }

    #[test]
    fn a_group_below_two_is_never_signalled() {
        assert!(!kill_group(0, 0));
        assert!(!kill_group(1, 0));
        assert!(!kill_group(-5, 0));
        assert!(!process_gone(std::process::id() as pid_t));
        assert!(!hostname().contains('\0'));
    }
}
