#!/usr/bin/env bash
# Issue 41 §6, the figure of docs/performance.md "Input under load": key →
# frame while a burst of 2,000 mouse drag reports and a slow store are in
# flight (`pty_probe input-burst`: an in-process sandbox, `mouse = true`,
# another connection holding BEGIN EXCLUSIVE on taskdeck's store 2 s at a
# time, a refresh every 10 keys, 2,000 SGR drag reports written before
# each `j`/`k`). Prints p50 / p99 / max. A baseline at the same moment:
# PROBE_REPORTS=0 PROBE_LOCK=0 scripts/bench-input.sh --no-build
# Usage: scripts/bench-input.sh [--no-build] [--dev] [KEYS]   (KEYS: 200)
# Needs: cargo. Runs in ~1 minute (release build aside).
set -euo pipefail

cd "$(dirname "$0")/.."
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
PROFILE=release
BUILD=1
KEYS=200
for a in "$@"; do
  case "$a" in
    --no-build) BUILD=0 ;;
    --dev) PROFILE=debug ;;
    *) KEYS=$a ;;
  esac
done

if [[ $BUILD == 1 ]]; then
  if [[ $PROFILE == release ]]; then
    cargo build --release --bin taskdeck --example pty_probe >&2
  else
    cargo build --bin taskdeck --example pty_probe >&2
  fi
fi
# Absolute: the probe starts the binary in a pty from a directory of its own.
BIN="$(realpath "$TARGET_DIR/$PROFILE/taskdeck")"
PROBE="$(realpath "$TARGET_DIR/$PROFILE/examples/pty_probe")"

declare -A R
while IFS='=' read -r k v; do R[$k]=$v; done < <("$PROBE" input-burst "$BIN" "$KEYS")

ok() { python3 -c "import sys; print('met' if $1 else 'NOT met')" 2>/dev/null || echo "not measured"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores ($PROFILE build)"
cat <<TABLE

| figure | measured | budget | |
|---|---|---|---|
| key → frame, ${R[input_burst_reports]} drag reports (${R[input_burst_bytes]} B) written before each of ${R[input_burst_keys]} keys, store locked ${R[input_burst_store_locked_s]} s, ${R[input_burst_refreshes]} refreshes (p50 / p99 / max) | ${R[input_burst_key_to_frame_p50_ms]} / ${R[input_burst_key_to_frame_p99_ms]} / ${R[input_burst_key_to_frame_max_ms]} ms | p99 ≤ 20 ms (idle machine) | $(ok "${R[input_burst_key_to_frame_p99_ms]} <= 20") |
| the same from the burst's first byte (p50 / p99 / max) | ${R[input_burst_burst_to_frame_p50_ms]} / ${R[input_burst_burst_to_frame_p99_ms]} / ${R[input_burst_burst_to_frame_max_ms]} ms | — | |
TABLE
echo
for k in $(printf '%s\n' "${!R[@]}" | sort); do echo "$k=${R[$k]}"; done
