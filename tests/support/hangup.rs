//! The binary in a pseudo-terminal that can be hung up (see [`HangupTui`]).

use super::*;
use portable_pty::{Child, MasterPty};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The binary in a pseudo-terminal whose far end can go away: every
/// descriptor of the pty's master belongs to this struct, so
/// [`HangupTui::hang_up`] closing them is what a closed terminal window or
/// a dropped SSH connection does (the kernel hangs the terminal up: SIGHUP,
/// then EIO on every read and write).
pub struct HangupTui {
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    fd: i32,
    stop: Arc<AtomicBool>,
    reader: Option<std::thread::JoinHandle<()>>,
    parser: Arc<Mutex<vt100::Parser>>,
}

impl HangupTui {
    pub fn spawn(home: &Home, extra: &[(String, String)], cols: u16, rows: u16) -> HangupTui {
        let pair = portable_pty::native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_taskdeck"));
        cmd.env_clear();
        for (k, v) in home.env().iter().chain(extra.iter()) {
            cmd.env(k, v);
        }
        cmd.cwd(home.root());
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        // SAFETY: dup of the master's valid fd; ours to close.
        let fd = unsafe { libc::dup(pair.master.as_raw_fd().unwrap()) };
        assert!(fd >= 0);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (parser, stop) = (parser.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                while !stop.load(Ordering::SeqCst) {
                    let mut p = libc::pollfd {
                        fd,
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: poll/read on our own fd with valid buffers.
                    let ready = unsafe { libc::poll(&mut p, 1, 20) };
                    if ready <= 0 {
                        continue;
                    }
                    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
                    if n <= 0 {
                        break;
                    }
                    let chunk = &buf[..n as usize];
                    if chunk.windows(4).any(|w| w == b"\x1b[6n") {
                        unsafe { libc::write(fd, b"\x1b[1;1R".as_ptr().cast(), 6) };
                    }
                    parser.lock().unwrap().process(chunk);
                }
            })
        };
        HangupTui {
            child,
            master: Some(pair.master),
            fd,
            stop,
            reader: Some(reader),
            parser,
        }
    }

    pub fn send(&self, keys: &str) {
        // SAFETY: write on our own fd.
        let n = unsafe { libc::write(self.fd, keys.as_ptr().cast(), keys.len()) };
        assert_eq!(n, keys.len() as isize);
    }

    pub fn pid(&self) -> i32 {
        self.child.process_id().unwrap() as i32
    }

    pub fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on our own child.
        unsafe { libc::kill(self.pid(), sig) };
    }

    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    pub fn wait_for(&self, text: &str, timeout: Duration) {
        let start = Instant::now();
        while !self.screen().contains(text) {
            if start.elapsed() > timeout {
                panic!("timed out waiting for {text:?}; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Close every descriptor of the master: the terminal is gone.
    pub fn hang_up(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        // SAFETY: our own fd, closed once.
        unsafe { libc::close(self.fd) };
        self.master = None;
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("the program did not exit within {timeout:?} after the hang-up");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for HangupTui {
    fn drop(&mut self) {
        if self.master.is_some() {
            self.hang_up();
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
