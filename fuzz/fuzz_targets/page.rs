#![no_main]
//! Arbitrary bytes as a task page: parse, sanitise, render at a size taken
//! from the input. No panic, no control character in any cell.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = taskdeck::ui::fuzzing::fuzz_one(data) {
        panic!("{e}");
    }
});
