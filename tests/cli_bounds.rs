//! The real binary as a process, for what must stay bounded whatever comes
//! in: config paths that are not files, and a service that trickles.

mod cli_env;

use cli_env::*;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_config_path_that_is_a_fifo_or_dev_zero_is_refused_at_once() {
    let mut env = Env::new();
    let fifo = env.dir.path().join("fifo.toml");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo on a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for (path, kind) in [
        (fifo.display().to_string(), "a FIFO"),
        ("/dev/zero".to_string(), "a character device"),
    ] {
        env.set("TASKDECK_CONFIG", &path);
        env.set("TASKDECK_BASE_URL", "http://127.0.0.1:9");
        env.set("TASKDECK_API_KEY", "k");
        for args in [&["config", "check"][..], &["me"][..]] {
            let started = Instant::now();
            let o = env.run(args).await;
            let text = format!("{}{}", stdout(&o), stderr(&o));
            assert!(started.elapsed() < Duration::from_secs(20), "{args:?}: {text}");
            assert_ne!(o.status.code(), Some(0), "{args:?}: {text}");
            assert!(
                text.contains(&format!("cannot read the file: not a regular file ({kind})")),
                "{args:?}: {text}"
            );
        }
    }
}
