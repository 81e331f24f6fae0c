//! taskdeck: a keyboard-first terminal client for the Task Collaboration Service.
pub mod sandbox;
