//! A certificate or a proxy refused is a setting to fix, not the link down:
//! never OFFLINE, shown as the request's error, and a probe that meets one
//! while offline ends the probing (no "retrying" forever).

use super::*;
use std::time::{Duration, Instant};

fn untrusted() -> ApiError {
    ApiError::Tls {
        message: "svc.test: the service's certificate is not trusted".into(),
    }
}

#[test]
fn a_certificate_refused_is_shown_and_not_offline() {
    let mut s = loaded(2);
    refresh_answered(&mut s, Err(untrusted()));
    assert!(s.offline.is_none(), "not OFFLINE");
    let shown = format!("{:?} {:?}", s.list.error, s.status);
    assert!(shown.contains("certificate is not trusted"), "{shown}");
    assert!(s
        .offline_tick(Instant::now() + Duration::from_secs(60))
        .is_empty());
}

#[test]
fn a_probe_meeting_a_refused_proxy_ends_the_probing() {
    let mut s = loaded(2);
    let fx = s.refresh();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Err(ApiError::Unreachable {
            message: "connection refused".into(),
        }),
    );
    assert!(s.offline.is_some());
    let t0 = Instant::now() + Duration::from_secs(60);
    let probe = s.offline_tick(t0);
    assert_eq!(reqs(&probe), vec![ApiRequest::Me]);
    let fx = answer(
        &mut s,
        &probe,
        Err(ApiError::Proxy {
            status: Some(407),
            message: "the proxy http://p:3128 refused the request to svc.test: 407".into(),
        }),
    );
    assert!(s.offline.is_none(), "a setting to fix, not offline");
    // Not "back online": nothing is refreshed or sent on its strength.
    assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
    assert!(
        !s.messages.iter().any(|m| m.text.contains("back online")),
        "{:?}",
        s.messages.back()
    );
    assert!(s.offline_tick(t0 + Duration::from_secs(600)).is_empty());
}
