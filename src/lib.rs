//! taskdeck: a keyboard-first terminal client for the Task Collaboration Service.
//!
//! No `unsafe` outside `platform::ffi`, the one module that holds the
//! foreign calls behind safe functions.
#![deny(unsafe_code)]

pub mod api;
pub mod app;
pub mod broken;
pub mod cli;
pub mod clock;
pub mod config;
pub mod cut;
pub mod domain;
pub mod files;
pub mod inbox;
pub mod platform;
#[cfg(feature = "sandbox")]
pub mod sandbox;
pub mod secret;
/// The simulator (issue 43): only with the `sim` feature (the tests and
/// the `simulate` example), never in the shipped library or binary.
#[cfg(feature = "sim")]
pub mod sim;
pub mod store;
pub mod text;
pub mod tui;
pub mod ui;
