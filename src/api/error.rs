//! Typed API errors; each displays as one clear, sanitised line.

use crate::cut::excerpt;
use crate::text::clean;
use serde_json::Value;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// 401: the key was refused.
    Unauthorized {
        message: String,
    },
    /// 403: the service refused this action to this user.
    Forbidden {
        message: String,
    },
    /// 404 for a thing (task, comment, link…).
    NotFound {
        what: String,
        message: String,
    },
    /// 404 where the spec says a feature flag is off.
    FeatureDisabled {
        feature: &'static str,
    },
    /// 404/405 on an endpoint the spec does not show: this service lacks it.
    NotAvailable {
        endpoint: &'static str,
    },
    /// 400 with the whole body kept (sharing candidates live there).
    BadRequest {
        message: String,
        body: Value,
    },
    /// Another refusal of the request itself (422 Unprocessable Entity…),
    /// with its real status and the whole body kept.
    Refused {
        status: u16,
        message: String,
        body: Value,
    },
    /// Any other non-success status.
    Status {
        status: u16,
        message: String,
    },
    Timeout {
        what: String,
    },
    Network {
        message: String,
    },
    /// No connection could be made (refused, no route, no name): the
    /// request was never sent. Also what the worker answers while the
    /// service is known to be unreachable.
    Unreachable {
        message: String,
    },
    /// TLS refused the connection: the service's certificate is not
    /// trusted, expired or for another name, or the handshake failed. A
    /// setting to fix, not the network down: never retried, not offline.
    Tls {
        message: String,
    },
    /// A proxy refused the request or the tunnel (407, a 401 of its own, a
    /// refused CONNECT, a SOCKS failure): not the service refusing the key.
    Proxy {
        status: Option<u16>,
        message: String,
    },
    /// The body could not be read as the expected JSON.
    Decode {
        message: String,
        excerpt: String,
    },
    BodyTooLarge {
        limit: usize,
    },
}

impl ApiError {
    /// The service could not be reached at all: the request was not sent.
    pub fn unreachable(&self) -> bool {
        matches!(self, ApiError::Unreachable { .. })
    }
    /// A TLS or proxy failure: how this computer reaches the service is
    /// misconfigured (a CA, a proxy's credentials); waiting will not help.
    pub fn is_setup(&self) -> bool {
        matches!(self, ApiError::Tls { .. } | ApiError::Proxy { .. })
    }
    /// The service was reached and answered, if only to refuse: not
    /// unreachable, not a connection lost or timed out, not this
    /// computer's TLS or proxy setup.
    pub fn refused_by_the_service(&self) -> bool {
        !(self.unreachable()
            || self.is_setup()
            || matches!(self, ApiError::Timeout { .. } | ApiError::Network { .. }))
    }
    pub fn is_auth(&self) -> bool {
        matches!(self, ApiError::Unauthorized { .. })
    }
    /// A write that failed this way may still have reached the service.
    pub fn outcome_unknown(&self) -> bool {
        matches!(
            self,
            ApiError::Timeout { .. }
                | ApiError::Network { .. }
                | ApiError::Decode { .. }
                | ApiError::BodyTooLarge { .. }
        ) || matches!(self, ApiError::Status { status, .. } if *status >= 500)
    }
    /// The error for a request the service refused as invalid (400, 422…):
    /// `BadRequest` for a 400, `Refused` with the real status otherwise, so
    /// that the message never claims a 400 the service did not send.
    pub fn refused(status: u16, message: String, body: Value) -> ApiError {
        match status {
            400 => ApiError::BadRequest { message, body },
            status => ApiError::Refused {
                status,
                message,
                body,
            },
        }
    }
    /// The body of a 400 (or another refusal such as 422), if any.
    pub fn bad_request_body(&self) -> Option<&Value> {
        match self {
            ApiError::BadRequest { body, .. } | ApiError::Refused { body, .. } => Some(body),
            _ => None,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Unauthorized { message } => {
                write!(f, "authentication failed (401): {}", clean(message))
            }
            ApiError::Forbidden { message } => write!(f, "not allowed (403): {}", clean(message)),
            ApiError::NotFound { what, message } if message.is_empty() => {
                write!(f, "{} not found (404)", clean(what))
            }
            ApiError::NotFound { what, message } => {
                write!(f, "{} not found (404): {}", clean(what), clean(message))
            }
            ApiError::FeatureDisabled { feature } => {
                write!(f, "the {feature} is not enabled for this organisation")
            }
            ApiError::NotAvailable { endpoint } => {
                write!(f, "{endpoint} is not available on this service")
            }
            ApiError::BadRequest { message, .. } => {
                write!(f, "refused by the service (400): {}", clean(message))
            }
            ApiError::Refused {
                status, message, ..
            } => {
                write!(f, "refused by the service ({status}): {}", clean(message))
            }
            ApiError::Status { status, message } if message.is_empty() => {
                write!(f, "the service answered {status}")
            }
            ApiError::Status { status, message } => {
                write!(f, "the service answered {status}: {}", clean(message))
            }
            ApiError::Timeout { what } => write!(f, "timed out {}", clean(what)),
            ApiError::Network { message } => write!(f, "network error: {}", clean(message)),
            ApiError::Unreachable { message } => {
                write!(f, "the service cannot be reached: {}", clean(message))
            }
            ApiError::Tls { message } | ApiError::Proxy { message, .. } => {
                f.write_str(&clean(message))
            }
            ApiError::Decode { message, excerpt } => write!(
                f,
                "unreadable answer from the service ({}): {}",
                clean(message),
                clean(excerpt)
            ),
            ApiError::BodyTooLarge { limit } => {
                write!(
                    f,
                    "answer larger than the {} MiB limit",
                    limit / (1024 * 1024)
                )
            }
        }
    }
}

impl std::error::Error for ApiError {}

/// The service's message from an error body of any shape.
pub fn message_from_body(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        for key in ["error", "message", "detail", "title"] {
            match v.get(key) {
                Some(Value::String(s)) if !s.is_empty() => return excerpt(&clean(s), 300),
                Some(Value::Object(o)) => {
                    if let Some(Value::String(s)) = o.get("message") {
                        return excerpt(&clean(s), 300);
                    }
                }
                _ => {}
            }
        }
        if let Value::String(s) = v {
            return excerpt(&clean(&s), 300);
        }
    }
    excerpt(&clean(body), 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_from_any_body_shape() {
        assert_eq!(
            message_from_body(r#"{"error":"bad key","status":401}"#),
            "bad key"
        );
        assert_eq!(message_from_body(r#"{"detail":"nope"}"#), "nope");
        assert_eq!(message_from_body(r#"{"error":{"message":"deep"}}"#), "deep");
        assert_eq!(
            message_from_body("<html>oops\u{1b}[2J</html>"),
            "<html>oops\u{241b}[2J</html>"
        );
        assert_eq!(message_from_body(""), "");
    }

    #[test]
    fn display_is_one_sanitised_line() {
        let e = ApiError::BadRequest {
            message: "line1\nline2\u{1b}]0;x\u{7}".into(),
            body: Value::Null,
        };
        let s = e.to_string();
        assert!(!s.contains('\n') && !s.contains('\u{1b}'), "{s}");
    }

    #[test]
    fn a_refusal_names_its_real_status() {
        let body = serde_json::json!({"error": "due date in the past"});
        let e = ApiError::refused(422, message_from_body(&body.to_string()), body.clone());
        assert_eq!(
            e.to_string(),
            "refused by the service (422): due date in the past"
        );
        assert_eq!(e.bad_request_body(), Some(&body));
        assert!(!e.outcome_unknown());
        let e = ApiError::refused(400, "bad".into(), body.clone());
        assert!(matches!(e, ApiError::BadRequest { .. }));
        assert_eq!(e.to_string(), "refused by the service (400): bad");
    }

    #[test]
    fn an_echoed_key_is_redacted_from_messages() {
        crate::secret::register("error-rs-key-4711");
        let body = r#"{"error":"invalid header Authorization: Bearer error-rs-key-4711"}"#;
        let m = message_from_body(body);
        assert_eq!(m, "invalid header Authorization: Bearer [redacted]");
        // Even when the message was built before the key was known.
        for e in [
            ApiError::Unauthorized {
                message: "Bearer error-rs-key-4711".into(),
            },
            ApiError::Status {
                status: 500,
                message: "error-rs-key-4711".into(),
            },
            ApiError::Decode {
                message: "x".into(),
                excerpt: "<h1>error-rs-key-4711</h1>".into(),
            },
        ] {
            assert!(!e.to_string().contains("error-rs-key-4711"), "{e}");
        }
    }
}
