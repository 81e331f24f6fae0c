//! The typed client of the Task Collaboration Service. Knows nothing of the UI.

mod client;
mod endpoints;
mod error;
mod failure;
mod listing;
pub mod models;
mod protocol;
mod request;
mod tls;
mod transport;

pub use client::{again, ApiKey, Client, ClientConfig, Tried, CREDENTIALS_IN_URL};
pub use endpoints::{RawPage, TaskPage};
pub use error::{message_from_body, ApiError};
pub use models::*;
pub use protocol::Protocol;
pub use request::*;
pub use tls::{ca_certificates, CA_FILE_MAX_BYTES};
