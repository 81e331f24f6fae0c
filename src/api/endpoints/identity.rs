//! Who the API key acts as: `GET /api/v1/me`.

use crate::api::client::On404;
use crate::api::*;
use reqwest::Method;
use serde_json::Value;

impl Client {
    pub async fn me(&self) -> Result<Identity, ApiError> {
        self.identity().await
    }

    /// `GET /api/v1/me`, as received.
    pub async fn me_raw(&self) -> Result<Value, ApiError> {
        self.identity().await
    }

    /// `GET /api/v1/me` read as `T`: one request for both readings.
    async fn identity<T: serde::de::DeserializeOwned>(&self) -> Result<T, ApiError> {
        self.json(
            Method::GET,
            "api/v1/me",
            &[],
            None,
            On404::Endpoint("the identity lookup"),
        )
        .await
    }
}
