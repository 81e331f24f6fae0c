//! Artifact layouts: `POST /api/v1/artifacts/validate`.

use crate::api::client::On404;
use crate::api::*;
use crate::cut::excerpt;
use reqwest::Method;
use serde_json::Value;

impl Client {
    /// Validate a layout; returns the typed result and the body as received.
    pub async fn validate_layout(&self, layout: &Value) -> Result<(LayoutResult, Value), ApiError> {
        let body = serde_json::json!({ "layout": layout });
        let raw: Value = self
            .json(
                Method::POST,
                "api/v1/artifacts/validate",
                &[],
                Some(&body),
                On404::Feature("Visual Builder"),
            )
            .await?;
        let typed = serde_json::from_value(raw.clone()).map_err(|e| ApiError::Decode {
            message: e.to_string(),
            excerpt: excerpt(&crate::text::clean(&raw.to_string()), 120),
        })?;
        Ok((typed, raw))
    }
}
