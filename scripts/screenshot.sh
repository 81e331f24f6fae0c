#!/usr/bin/env bash
# The README's picture (docs/screen.svg), made from the real screen: the
# demo runs in a pseudo-terminal of 120×32 (list and detail side by side) (examples/screenshot.rs) and the
# screen it shows — characters, colours, bold, inverse — is written as SVG.
# Run it again after a change of the screen to renew the picture.
#
#   scripts/screenshot.sh [COLS ROWS]
#
# TASKDECK_BIN names a binary to picture instead of building one (the
# debug build by default: the screen is the same as the release one's).
set -euo pipefail
cd "$(dirname "$0")/.."
cols=${1:-120}
rows=${2:-32}
if [ -z "${TASKDECK_BIN:-}" ]; then
    cargo build --quiet --bin taskdeck
    TASKDECK_BIN=target/debug/taskdeck
fi
cargo run --quiet --example screenshot -- "$TASKDECK_BIN" docs/screen.svg "$cols" "$rows"
