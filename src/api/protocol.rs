//! Which HTTP version a session speaks, and over which connection pool a
//! request goes.
//!
//! Over `https` TLS (ALPN) picks HTTP/2 when the service offers it: one
//! client, nothing to decide here. Over plain `http` nothing negotiates:
//! the session speaks HTTP/1.1 ([`Mode::Fixed`]), since trying HTTP/2
//! blindly costs a round trip at every start and sends `PRI *` to proxies
//! that may not know it. Only with `http2 = "always"` ([`Mode::Probe`]) does
//! the session find out by trying: a GET goes over HTTP/2 with prior
//! knowledge (h2c); an answer (a response head, whatever its status) proves
//! h2 works and the session keeps to its one connection. An h2c attempt that
//! fails before any answer, other than by failing to connect (which says
//! nothing about the protocol: the service may just be away), is retried
//! once over HTTP/1.1, and HTTP/1.1 is kept if that works. Writes never go
//! over a guess: while nothing is decided they go over HTTP/1.1, and they
//! are never sent twice. A decision is final for the session.

use std::sync::atomic::{AtomicU8, Ordering};

/// The HTTP version of the session, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// No request has been answered yet.
    Undecided,
    /// HTTP/2: one connection carries every request.
    Http2,
    /// HTTP/1.1 with a pool of keep-alive connections.
    Http1,
}

impl Protocol {
    fn from_u8(v: u8) -> Protocol {
        match v {
            1 => Protocol::Http2,
            2 => Protocol::Http1,
            _ => Protocol::Undecided,
        }
    }
    fn as_u8(self) -> u8 {
        match self {
            Protocol::Undecided => 0,
            Protocol::Http2 => 1,
            Protocol::Http1 => 2,
        }
    }
    /// The version a response came back in.
    pub(super) fn of(v: reqwest::Version) -> Protocol {
        if v == reqwest::Version::HTTP_2 {
            Protocol::Http2
        } else {
            Protocol::Http1
        }
    }
}

/// How the session picks its protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Plain http with `http2 = "always"`: try h2c, fall back to HTTP/1.1
    /// (see the module doc).
    Probe,
    /// https (ALPN decides per connection), plain http (HTTP/1.1) or
    /// `http2 = false`: one client;
    /// the first answer's version is only recorded.
    Fixed,
}

/// Which client a request goes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Route {
    /// HTTP/2 with prior knowledge.
    H2c,
    /// The ordinary client: HTTP/1.1 over http, ALPN's choice over https.
    Main,
}

/// How an h2c attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attempt {
    /// A response head arrived (any status; the body may still fail).
    Answered,
    /// The connection could not be made: nothing was sent.
    ConnectFailed,
    /// Sent, or tried to, and no answer: a refused preface, a closed or
    /// reset connection, a timeout.
    Failed,
}

/// What to do after an h2c attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Return its result.
    Done,
    /// Send the same GET once more over [`Route::Main`].
    FallBack,
}

/// The route of a request, given what is known.
pub(super) fn route(mode: Mode, known: Protocol, is_get: bool) -> Route {
    match (mode, known) {
        (Mode::Fixed, _) | (Mode::Probe, Protocol::Http1) => Route::Main,
        (Mode::Probe, Protocol::Http2) => Route::H2c,
        (Mode::Probe, Protocol::Undecided) if is_get => Route::H2c,
        // Never a write on a guess.
        (Mode::Probe, Protocol::Undecided) => Route::Main,
    }
}

/// After an h2c attempt, given what is known now (another request may have
/// decided meanwhile): what the session learns, and what to do.
pub(super) fn after_h2c(known: Protocol, attempt: Attempt) -> (Option<Protocol>, Next) {
    match (known, attempt) {
        (Protocol::Undecided, Attempt::Answered) => (Some(Protocol::Http2), Next::Done),
        // Once on h2, a failure is an ordinary failure (GETs are retried
        // as any other); a connect failure says nothing either way.
        (_, Attempt::Answered) | (_, Attempt::ConnectFailed) | (Protocol::Http2, _) => {
            (None, Next::Done)
        }
        (Protocol::Undecided | Protocol::Http1, Attempt::Failed) => (None, Next::FallBack),
    }
}

/// After a fallback over HTTP/1.1: what the session learns.
pub(super) fn after_fallback(known: Protocol, answered: bool) -> Option<Protocol> {
    (known == Protocol::Undecided && answered).then_some(Protocol::Http1)
}

/// What one session (all clones of a [`super::Client`]) knows.
#[derive(Debug)]
pub(super) struct Decision {
    mode: Mode,
    known: AtomicU8,
}

impl Decision {
    pub(super) fn new(mode: Mode) -> Decision {
        Decision {
            mode,
            known: AtomicU8::new(Protocol::Undecided.as_u8()),
        }
    }

    pub(super) fn known(&self) -> Protocol {
        Protocol::from_u8(self.known.load(Ordering::SeqCst))
    }

    pub(super) fn route(&self, is_get: bool) -> Route {
        route(self.mode, self.known(), is_get)
    }

    pub(super) fn after_h2c(&self, attempt: Attempt) -> Next {
        let (learnt, next) = after_h2c(self.known(), attempt);
        if let Some(p) = learnt {
            self.decide(p);
        }
        next
    }

    pub(super) fn after_fallback(&self, answered: bool) {
        if let Some(p) = after_fallback(self.known(), answered) {
            self.decide(p);
        }
    }

    /// [`Mode::Fixed`]: the version the first answer came in.
    pub(super) fn answered_in(&self, p: Protocol) {
        if self.mode == Mode::Fixed {
            self.decide(p);
        }
    }

    /// The first decision stands; the one that makes it logs it.
    fn decide(&self, p: Protocol) {
        let won = self
            .known
            .compare_exchange(
                Protocol::Undecided.as_u8(),
                p.as_u8(),
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok();
        if won {
            let how = match self.mode {
                Mode::Probe => "tried over plain http",
                Mode::Fixed => "as connected",
            };
            tracing::info!(protocol = ?p, how, "HTTP version of the session");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Attempt::*;
    use Protocol::*;

    #[test]
    fn undecided_gets_try_h2c_and_writes_never_do() {
        assert_eq!(route(Mode::Probe, Undecided, true), Route::H2c);
        assert_eq!(route(Mode::Probe, Undecided, false), Route::Main);
        assert_eq!(route(Mode::Probe, Http2, false), Route::H2c);
        assert_eq!(route(Mode::Probe, Http2, true), Route::H2c);
        assert_eq!(route(Mode::Probe, Http1, true), Route::Main);
        for known in [Undecided, Http2, Http1] {
            for get in [true, false] {
                assert_eq!(route(Mode::Fixed, known, get), Route::Main);
            }
        }
    }

    #[test]
    fn an_answer_decides_h2_a_connect_failure_decides_nothing() {
        assert_eq!(after_h2c(Undecided, Answered), (Some(Http2), Next::Done));
        assert_eq!(after_h2c(Undecided, ConnectFailed), (None, Next::Done));
        assert_eq!(after_h2c(Undecided, Failed), (None, Next::FallBack));
    }

    #[test]
    fn once_on_h2_a_failure_is_ordinary() {
        assert_eq!(after_h2c(Http2, Failed), (None, Next::Done));
        assert_eq!(after_h2c(Http2, ConnectFailed), (None, Next::Done));
        assert_eq!(after_h2c(Http2, Answered), (None, Next::Done));
    }

    #[test]
    fn an_h2c_attempt_overtaken_by_an_http1_decision_falls_back_and_changes_nothing() {
        assert_eq!(after_h2c(Http1, Failed), (None, Next::FallBack));
        assert_eq!(after_h2c(Http1, Answered), (None, Next::Done));
    }

    #[test]
    fn a_fallback_decides_http1_only_when_it_is_answered() {
        assert_eq!(after_fallback(Undecided, true), Some(Http1));
        assert_eq!(after_fallback(Undecided, false), None);
        assert_eq!(after_fallback(Http2, true), None);
    }

    #[test]
    fn a_session_down_at_first_then_up_speaks_h2() {
        let d = Decision::new(Mode::Probe);
        // Refused: nothing learnt, the next GET tries h2c again.
        assert_eq!(d.after_h2c(ConnectFailed), Next::Done);
        assert_eq!(d.known(), Undecided);
        // Accepted then dropped, over h2c and over HTTP/1.1: still nothing.
        assert_eq!(d.after_h2c(Failed), Next::FallBack);
        d.after_fallback(false);
        assert_eq!(d.known(), Undecided);
        assert_eq!(d.route(false), Route::Main);
        assert_eq!(d.route(true), Route::H2c);
        // Back: answered over h2c.
        assert_eq!(d.after_h2c(Answered), Next::Done);
        assert_eq!(d.known(), Http2);
        assert_eq!(d.route(false), Route::H2c);
        // A later failure does not flip it back.
        assert_eq!(d.after_h2c(Failed), Next::Done);
        d.after_fallback(true);
        assert_eq!(d.known(), Http2);
    }

    #[test]
    fn an_http1_service_is_decided_by_the_first_fallback_answered() {
        let d = Decision::new(Mode::Probe);
        assert_eq!(d.after_h2c(Failed), Next::FallBack);
        d.after_fallback(true);
        assert_eq!(d.known(), Http1);
        assert_eq!(d.route(true), Route::Main);
        // An h2c answer still in flight from before does not flip it.
        assert_eq!(d.after_h2c(Answered), Next::Done);
        assert_eq!(d.known(), Http1);
    }

    #[test]
    fn fixed_mode_records_the_first_answer_only() {
        let d = Decision::new(Mode::Fixed);
        d.answered_in(Http2);
        d.answered_in(Http1);
        assert_eq!(d.known(), Http2);
        assert_eq!(d.route(true), Route::Main);
        // Probe mode learns only from its own steps.
        let p = Decision::new(Mode::Probe);
        p.answered_in(Http1);
        assert_eq!(p.known(), Undecided);
    }
}
