//! The client's transport failures as [`ApiError`]s, named in plain words
//! by [`super::failure`] (an `impl Client` part: the client itself does not
//! import it back).

use super::error::ApiError;
use super::failure::{chain, classify, lost, unknown_issuer};

impl super::Client {
    /// The response head, or its failure as an [`ApiError`].
    pub(super) async fn answered(
        &self,
        r: Result<reqwest::Response, reqwest::Error>,
        path: &str,
    ) -> Result<reqwest::Response, ApiError> {
        match r {
            Ok(resp) => Ok(resp),
            Err(e) => Err(self.transport(&e, path).await),
        }
    }

    /// A transport failure as an [`ApiError`]: named in plain words where
    /// it can be (this module); the raw chain goes to the log only.
    pub(super) async fn transport(&self, e: &reqwest::Error, path: &str) -> ApiError {
        let raw = chain(e);
        tracing::debug!(path, error = %raw, "transport failure");
        // Through a proxy the service is not ours to dial directly.
        let names = match (unknown_issuer(e), &self.via.proxy) {
            (true, None) => {
                let host = self.base.host_str().unwrap_or_default();
                let port = self.base.port_or_known_default().unwrap_or(443);
                super::tls::certificate_names(host, port, self.cfg.connect_timeout).await
            }
            _ => None,
        };
        if let Some(named) = classify(e, &self.via, names.as_ref()) {
            return named;
        }
        if e.is_timeout() {
            ApiError::Timeout {
                what: format!("waiting for /{}", path.trim_start_matches('/')),
            }
        } else {
            ApiError::Network {
                message: lost(e, &self.via),
            }
        }
    }
}
