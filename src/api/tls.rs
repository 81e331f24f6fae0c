//! TLS settings and diagnosis: the certificates of a `ca_file`, and who a
//! certificate refused by TLS is for and who issued it, to name them
//! in the error (the TLS library's error carries neither). A second
//! handshake is started whose verifier keeps the certificate the service
//! presents and then aborts: nothing is ever sent over it, and no
//! connection is completed with an unverified peer.

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The subject and issuer of a certificate, as `CN (O)` each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Names {
    pub subject: String,
    pub issuer: String,
    /// Issued by itself (the same name as subject and issuer): a
    /// self-signed certificate, which only `ca_file` can make trusted.
    pub self_signed: bool,
}

/// The certificate `host:port` presents, read within `wait`; `None` when
/// it cannot be had (the caller says what it knows without it).
pub(super) async fn certificate_names(host: &str, port: u16, wait: Duration) -> Option<Names> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let keeper = Arc::new(Keeper {
        schemes: provider
            .signature_verification_algorithms
            .supported_schemes(),
        seen: Mutex::new(None),
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .ok()?
        .dangerous()
        .with_custom_certificate_verifier(keeper.clone())
        .with_no_client_auth();
    let name = ServerName::try_from(host.trim_matches(['[', ']']).to_string()).ok()?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let attempt = async {
        let tcp = tokio::net::TcpStream::connect((host.trim_matches(['[', ']']), port))
            .await
            .ok()?;
        // Fails by design once the certificate is kept.
        let _ = connector.connect(name, tcp).await;
        Some(())
    };
    tokio::time::timeout(wait, attempt).await.ok()??;
    let der = keeper.seen.lock().ok()?.take()?;
    names_of(&der)
}

#[derive(Debug)]
struct Keeper {
    schemes: Vec<SignatureScheme>,
    seen: Mutex<Option<Vec<u8>>>,
}

impl ServerCertVerifier for Keeper {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Ok(mut seen) = self.seen.lock() {
            *seen = Some(end_entity.as_ref().to_vec());
        }
        // Never trusted: the handshake stops here.
        Err(rustls::Error::General(
            "certificate kept, not trusted".into(),
        ))
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("not verified".into()))
    }

    fn verify_tls13_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("not verified".into()))
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.schemes.clone()
    }
}

/// The certificates of a `ca_file` (PEM, one or several), or why not.
/// The most a `ca_file` may hold: a bundle of every public root is ~250 KB.
pub const CA_FILE_MAX_BYTES: u64 = 4 * 1024 * 1024;

pub fn ca_certificates(path: &std::path::Path) -> Result<Vec<reqwest::Certificate>, String> {
    let shown = path.display();
    let pem =
        crate::files::read_regular_bytes(path, CA_FILE_MAX_BYTES).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("ca_file {shown}: cannot read it: no such file")
            }
            _ => format!("ca_file {shown}: cannot read it: {e}"),
        })?;
    let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|_| {
        format!("ca_file {shown}: not PEM certificates (-----BEGIN CERTIFICATE-----)")
    })?;
    if certs.is_empty() {
        return Err(format!(
            "ca_file {shown}: no certificate in it (expected -----BEGIN CERTIFICATE-----)"
        ));
    }
    Ok(certs)
}

/// One DER element: its tag, its contents, and what follows it.
fn element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (first as usize, rest)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n].iter().fold(0usize, |l, b| (l << 8) | *b as usize);
        (len, &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

const SEQUENCE: u8 = 0x30;
const OID_CN: &[u8] = &[0x55, 0x04, 0x03];
const OID_O: &[u8] = &[0x55, 0x04, 0x0a];

/// The subject and issuer of a DER certificate.
pub(super) fn names_of(der: &[u8]) -> Option<Names> {
    let (SEQUENCE, cert, _) = element(der)? else {
        return None;
    };
    let (SEQUENCE, tbs, _) = element(cert)? else {
        return None;
    };
    let mut rest = tbs;
    // [0] version, when present.
    if rest.first() == Some(&0xa0) {
        rest = element(rest)?.2;
    }
    let rest = element(rest)?.2; // serial number
    let rest = element(rest)?.2; // signature algorithm
    let (_, issuer, rest) = element(rest)?;
    let rest = element(rest)?.2; // validity
    let (_, subject, _) = element(rest)?;
    Some(Names {
        subject: name(subject),
        issuer: name(issuer),
        self_signed: subject == issuer,
    })
}

/// A distinguished name as `CN (O)`, or what of them there is.
fn name(mut rdns: &[u8]) -> String {
    let (mut cn, mut o) = (None, None);
    while let Some((_, set, rest)) = element(rdns) {
        rdns = rest;
        let mut attrs = set;
        while let Some((_, attr, more)) = element(attrs) {
            attrs = more;
            let Some((0x06, oid, value)) = element(attr) else {
                continue;
            };
            let Some((_, text, _)) = element(value) else {
                continue;
            };
            let text = crate::text::clean(&String::from_utf8_lossy(text));
            match oid {
                OID_CN => cn = Some(text),
                OID_O => o = Some(text),
                _ => {}
            }
        }
    }
    match (cn, o) {
        (Some(cn), Some(o)) if cn != o => format!("{cn:?} ({o})"),
        (Some(cn), _) => format!("{cn:?}"),
        (None, Some(o)) => format!("{o:?}"),
        (None, None) => "an unnamed subject".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_from_a_certificate() {
        let pem = include_str!("../../tests/tls/localhost.pem");
        let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        use base64::Engine;
        let der = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        let n = names_of(&der).unwrap();
        assert_eq!(n.subject, "\"localhost\"");
        assert_eq!(n.issuer, "\"Taskdeck Test CA\" (Taskdeck Test)");
        assert_eq!(names_of(&der[..40]), None);
    }
}
