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
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{args:?}: {text}"
            );
            assert_ne!(o.status.code(), Some(0), "{args:?}: {text}");
            assert!(
                text.contains(&format!(
                    "cannot read the file: not a regular file ({kind})"
                )),
                "{args:?}: {text}"
            );
        }
    }
}

/// `TZ` naming a FIFO (`:` in front or not) or `/dev/zero`: the zone file
/// is refused at once, said in one line, and times are in UTC — the command
/// neither hangs on the FIFO nor reads `/dev/zero` until memory runs out.
#[tokio::test]
async fn a_tz_naming_a_fifo_or_dev_zero_is_refused_and_utc_is_used() {
    let sb = taskdeck::sandbox::Sandbox::start_local(taskdeck::sandbox::SandboxOptions {
        tasks: 20,
        ..Default::default()
    })
    .await
    .unwrap();
    let mut env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let fifo = env.dir.path().join("zone-fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo on a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let utc = env.run(&["tasks", "--limit", "5"]).await;
    assert_eq!(utc.status.code(), Some(0), "{}", stderr(&utc));
    for (tz, kind) in [
        (format!(":{}", fifo.display()), "a FIFO"),
        (fifo.display().to_string(), "a FIFO"),
        (":/dev/zero".to_string(), "a character device"),
    ] {
        env.set("TZ", &tz);
        let started = Instant::now();
        let o = env.run(&["tasks", "--limit", "5"]).await;
        let err = stderr(&o);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "TZ={tz}: {err}"
        );
        assert_eq!(o.status.code(), Some(0), "TZ={tz}: {err}");
        assert!(
            err.contains("not a regular file") && err.contains(kind),
            "TZ={tz}: {err}"
        );
        assert!(err.contains("times are in UTC"), "TZ={tz}: {err}");
        assert_eq!(
            err.lines().filter(|l| l.contains("TZ=")).count(),
            1,
            "TZ={tz}: {err}"
        );
        // The same list as without TZ, read in UTC.
        assert_eq!(stdout(&o), stdout(&utc), "TZ={tz}");
    }
    // A zone that exists is taken, without a word.
    env.set("TZ", "America/New_York");
    let o = env.run(&["tasks", "--limit", "5"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("TZ"), "{}", stderr(&o));
}

/// `search` with a 28 KB query (#42 §5): read up to its 32nd word and 512
/// bytes, and said on stderr; the service is asked the same cut query.
#[tokio::test]
async fn a_search_query_past_the_bound_is_cut_and_said() {
    let sb = taskdeck::sandbox::Sandbox::start_local(taskdeck::sandbox::SandboxOptions {
        tasks: 20,
        ..Default::default()
    })
    .await
    .unwrap();
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let long = "review ".repeat(4000);
    let o = env.run(&["search", &long]).await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("the search reads the first 32 words (512 bytes at most) of a query"),
        "{err}"
    );
    let asked: Vec<String> = sb
        .requests()
        .iter()
        .filter(|r| r.path == "/api/v1/tasks")
        .filter_map(|r| r.query.clone())
        .collect();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(asked[0].len() < 1024, "{}", asked[0]);
    // Within the bound, nothing is said.
    let o = env.run(&["search", "review plan"]).await;
    assert!(!stderr(&o).contains("words"), "{}", stderr(&o));
}

/// A service that answers every request with headers at once and then its
/// body one byte at a time, slowly, never finishing: no single read waits
/// long, so only a deadline for the whole command ends it.
async fn trickling_service() -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = sock.read(&mut buf).await;
                let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                            content-length: 100000\r\n\r\n";
                if sock.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                loop {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    if sock.write_all(b" ").await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn a_trickling_service_meets_one_deadline_per_command() {
    let base = trickling_service().await;
    let mut env = Env::new();
    env.set("TASKDECK_BASE_URL", &base);
    env.set("TASKDECK_API_KEY", "k");
    // The option, and the same through the environment.
    for (args, var) in [
        (&["me", "--timeout", "2"][..], None),
        (&["tasks", "--limit", "5"][..], Some("2")),
    ] {
        if let Some(v) = var {
            env.set("TASKDECK_TIMEOUT", v);
        }
        let o = env.run(args).await;
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("timed out: no complete answer from the service within 2 s"),
            "{args:?}: {err}"
        );
        assert!(err.contains("--timeout"), "{err}");
    }
}
