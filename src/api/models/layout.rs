//! The result of a layout validation.

use super::values::null_as_default;
use crate::text::Untrusted;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayoutIssue {
    pub path: Untrusted,
    pub code: Untrusted,
    pub message: Untrusted,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayoutResult {
    pub valid: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    pub errors: Vec<LayoutIssue>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub warnings: Vec<LayoutIssue>,
    pub omitted_errors: u64,
    pub omitted_warnings: u64,
    pub layout: Value,
}
