#!/usr/bin/env bash
# Peak memory with the whole list loaded (issue 24 §5), at ~10k and ~100k
# rows, and what a row costs. Usage: scripts/bench-memory.sh [--no-build] [RUNS]
#   1. `examples/task_memory`: heap held per loaded row (a counting
#      allocator; the state built as the TUI builds it), and its parts
#   2. `pty_probe rss` against `taskdeck sandbox --tasks 19400` (Alice sees
#      10,013) and `--tasks 194000` (99,497): `G` until the list says
#      `(all)`, then the process's VmHWM (peak RSS) and VmRSS
# Needs: cargo, curl, python3. Runs in ~2 minutes after the build.
set -euo pipefail

cd "$(dirname "$0")/.."
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
BIN="$(realpath -m "$TARGET_DIR/release/taskdeck")"
PROBE="$TARGET_DIR/release/examples/pty_probe"
KEY=demo-alice-acme

if [[ "${1:-}" == "--no-build" ]]; then
  shift
else
  cargo build --release --bin taskdeck --example pty_probe --example task_memory >&2
fi
RUNS="${1:-3}"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

echo "== 1. heap per row (task_memory, 100,000 rows)" >&2
"$TARGET_DIR/release/examples/task_memory" 100000 --parts

for tasks in 19400 194000; do
  echo "== 2. peak RSS, sandbox --tasks $tasks ($RUNS runs)" >&2
  port=$(free_port)
  "$BIN" sandbox --addr "127.0.0.1:$port" --tasks "$tasks" >"$WORK/sandbox-$port.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 600); do
    curl -fs -o /dev/null -m 1 -H "Authorization: Bearer $KEY" "http://127.0.0.1:$port/api/v1/me" && break
    sleep 0.1
  done
  for run in $(seq 1 "$RUNS"); do
    # A fresh store each run: the first walk, as at a first start.
    rm -rf "$WORK/state" "$WORK/cache"
    mkdir -p "$WORK/state"
    TASKDECK_BASE_URL="http://127.0.0.1:$port" TASKDECK_API_KEY="$KEY" \
      TASKDECK_CONFIG=/nonexistent/taskdeck.toml \
      XDG_STATE_HOME="$WORK/state" XDG_CACHE_HOME="$WORK/cache" \
      "$PROBE" rss "$BIN" | sed "s/^/tasks_$tasks run_$run /"
  done
done
