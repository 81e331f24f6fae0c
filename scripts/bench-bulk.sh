#!/usr/bin/env bash
# The bulk-edit figure of docs/performance.md: a bulk edit of 200 tasks
# (`:status completed` on 200 marked rows) and its undo, against the
# sandbox answering every request after 150 ms, driven headlessly through
# the real reducer and HTTP client (examples/bulk_bench.rs).
# Usage: scripts/bench-bulk.sh [--no-build] [--dev] [TASKS] [LIMIT]
# Needs: cargo, curl, python3 (for a free port). Runs in ~30 seconds.
set -euo pipefail

cd "$(dirname "$0")/.."
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
PROFILE=release
BUILD=1
ARGS=()
for a in "$@"; do
  case "$a" in
    --no-build) BUILD=0 ;;
    --dev) PROFILE=debug ;;
    *) ARGS+=("$a") ;;
  esac
done
TASKS=${ARGS[0]:-200}
LIMIT=${ARGS[1]:-}
DELAY_MS=150
KEY=demo-alice-acme

if [[ $BUILD == 1 ]]; then
  if [[ $PROFILE == release ]]; then
    cargo build --release --bin taskdeck --example bulk_bench >&2
  else
    cargo build --bin taskdeck --example bulk_bench >&2
  fi
fi
BIN="$TARGET_DIR/$PROFILE/taskdeck"
BENCH="$TARGET_DIR/$PROFILE/examples/bulk_bench"

WORK="$(mktemp -d)"
SANDBOX=""
cleanup() {
  [[ -n "$SANDBOX" ]] && kill "$SANDBOX" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$port"
# 1,000 seeded tasks: Alice sees several hundred of them.
"$BIN" sandbox --addr "127.0.0.1:$port" --tasks 1000 --faults "delay=$DELAY_MS" >"$WORK/sandbox.log" 2>&1 &
SANDBOX=$!
for _ in $(seq 1 300); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

declare -A R
while IFS='=' read -r k v; do R[$k]=$v; done < <(
  TASKDECK_BASE_URL="$URL" TASKDECK_API_KEY="$KEY" "$BENCH" "$TASKS" ${LIMIT:+"$LIMIT"}
)

cat <<TABLE

| figure | measured |
|---|---|
| bulk edit of ${R[edit_tasks]} tasks, ${DELAY_MS} ms per request (${PROFILE}) | ${R[edit_ms]} ms, ${R[edit_requests]} PATCHes, at most ${R[edit_wire_max_in_flight]} in flight (limit ${R[limit]}): "${R[edit_status]}" |
| its undo (each task read back, then one PATCH each) | ${R[undo_ms]} ms, ${R[undo_requests]} requests, at most ${R[undo_wire_max_in_flight]} in flight: "${R[undo_status]}" |
TABLE
echo
for k in $(printf '%s\n' "${!R[@]}" | sort); do echo "$k=${R[$k]}"; done
