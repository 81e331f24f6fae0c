#!/usr/bin/env bash
# The five end-to-end figures of docs/performance.md, against the sandbox
# on 127.0.0.1. Usage: scripts/bench.sh [--no-build]
#   1. start to first complete frame (identity + first page) in a pty
#   2. `taskdeck tasks --all --json --limit 100` over 10,000 tasks vs a curl loop
#   3. peak RSS with 10,000 tasks loaded in the TUI
#   4. bytes written to the terminal per `j` and per opening another task (200x50)
#   5. keypress-to-frame latency while every request stalls 3 s at the service
#   6. a second start while every request takes 5 s: time to the stored rows
#   7. over a 150 ms link (an in-process sandbox, every request 150 ms, behind
#      a proxy counting connections): key -> next task's comments while moving
#      down at 2 keys a second, requests per move over 50 moves, connections,
#      `:open #N` and `:open UUID` of a task not loaded (#16)
#   8. list requests and taskdeck's CPU per periodic refresh with one page
#      and with every task (10,013) loaded (#16)
#   9. the same with ~100,000 rows loaded (#24; peak memory at that size is
#      scripts/bench-memory.sh)
# Needs: cargo, curl, python3 (for JSON and a free port). Runs in ~2 minutes.
set -euo pipefail

cd "$(dirname "$0")/.."
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
BIN="$TARGET_DIR/release/taskdeck"
PROBE="$TARGET_DIR/release/examples/pty_probe"
TASKS=19400   # the sandbox seeds several organisations: Alice sees 10,013 of them
KEY=demo-alice-acme

if [[ "${1:-}" != "--no-build" ]]; then
  cargo build --release --bin taskdeck --example pty_probe >&2
fi
# Absolute: the probe starts the binary in a pty from a directory of its own.
BIN="$(realpath "$BIN")"
PROBE="$(realpath "$PROBE")"

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

# start_sandbox VAR TASKS [FAULTS]: starts one, sets VAR to its base URL.
start_sandbox() {
  local var=$1 tasks=$2 faults=${3:-} port url
  port=$(free_port)
  url="http://127.0.0.1:$port"
  local args=(sandbox --addr "127.0.0.1:$port" --tasks "$tasks")
  [[ -n "$faults" ]] && args+=(--faults "$faults")
  "$BIN" "${args[@]}" >"$WORK/sandbox-$port.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 300); do
    # Ready when it answers (a stalled one: when it accepts connections).
    if [[ -n "$faults" ]] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null \
      || curl -fs -o /dev/null -m 1 -H "Authorization: Bearer $KEY" "$url/api/v1/me" 2>/dev/null; then
      printf -v "$var" '%s' "$url"
      return 0
    fi
    sleep 0.1
  done
  echo "sandbox on $port did not start" >&2
  cat "$WORK/sandbox-$port.log" >&2
  exit 1
}

now() { python3 -c 'import time; print(time.monotonic())'; }
median() { python3 -c 'import sys,statistics; print("%.1f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

start_sandbox URL "$TASKS"
export TASKDECK_BASE_URL="$URL" TASKDECK_API_KEY="$KEY" TASKDECK_CONFIG=/nonexistent/taskdeck.toml
export XDG_STATE_HOME="$WORK/state" XDG_CACHE_HOME="$WORK/cache"
mkdir -p "$XDG_STATE_HOME"

declare -A R

echo "== 1. first complete frame" >&2
while IFS='=' read -r k v; do R[$k]=$v; done < <("$PROBE" first-frame "$BIN" 9)

echo "== 2. 10,000-task walk: taskdeck vs curl loop" >&2
curl_walk() {
  local cursor="" n=0 body
  while :; do
    if [[ -z "$cursor" ]]; then
      body=$(curl -fsS -H "Authorization: Bearer $KEY" "$URL/api/v1/tasks?limit=100")
    else
      body=$(curl -fsS -H "Authorization: Bearer $KEY" --get --data-urlencode "cursor=$cursor" "$URL/api/v1/tasks?limit=100")
    fi
    printf '%s\n' "$body" >>"$WORK/curl.out"
    cursor=$(printf '%s' "$body" | jq -r '.cursor // empty')
    n=$((n + 1))
    [[ -z "$cursor" ]] && break
  done
  echo "$n"
}
command -v jq >/dev/null || jq() { python3 -c 'import json,sys; c=json.load(sys.stdin).get("cursor"); print(c or "")'; }
cli=() ; floor=()
for i in 1 2 3 4 5; do
  t0=$(now); "$BIN" tasks --all --json --limit 100 >"$WORK/cli.json"; t1=$(now)
  cli+=("$(python3 -c "print(($t1-$t0)*1000)")")
  : >"$WORK/curl.out"
  t0=$(now); pages=$(curl_walk); t1=$(now)
  floor+=("$(python3 -c "print(($t1-$t0)*1000)")")
done
R[walk_tasks]=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/cli.json")
R[walk_pages]=$pages
R[walk_cli_ms]=$(median "${cli[@]}")
R[walk_curl_ms]=$(median "${floor[@]}")
R[walk_ratio]=$(python3 -c "print('%.2f' % (${R[walk_cli_ms]}/${R[walk_curl_ms]}))")

# The fair floor: one process, one keep-alive connection, the same pages.
while IFS='=' read -r k v; do R[$k]=$v; done < <("$PROBE" walk-floor "$BIN" 100)
R[floor_ratio]=$(python3 -c "print('%.2f' % (${R[floor_cli_ms]}/${R[floor_keepalive_ms]}))")

echo "== 3. peak RSS with 10,000 tasks loaded" >&2
while IFS='=' read -r k v; do R[$k]=$v; done < <("$PROBE" rss "$BIN")

echo "== 4. bytes per keypress at 200x50" >&2
# A store of its own: the one section 3 left (10,000 rows and a current
# task far down the list) would start elsewhere than the first row.
while IFS='=' read -r k v; do R[$k]=$v; done < <(XDG_STATE_HOME="$WORK/state4" XDG_CACHE_HOME="$WORK/cache4" "$PROBE" bytes "$BIN")

echo "== 5. keypress-to-frame with the service stalled 3 s" >&2
start_sandbox SLOW_URL 300 delay=3000
while IFS='=' read -r k v; do R[$k]=$v; done < <(TASKDECK_BASE_URL="$SLOW_URL" "$PROBE" latency "$BIN")

echo "== 6. second start, every request taking 5 s: stored rows" >&2
start_sandbox SLOW5_URL 300 delay=5000
while IFS='=' read -r k v; do R[$k]=$v; done < <(TASKDECK_BASE_URL="$SLOW5_URL" "$PROBE" stored-start "$BIN" 9)

echo "== 7. over a 150 ms link: the walk, requests per move, connections, :open" >&2
# The walk's own requests and connections: the inbox walks apart (its
# first walk reads up to 256 pages and comment lists, see inbox_bench).
printf 'inbox_refresh_secs = 0\n' >"$WORK/no-inbox.toml"
while IFS='=' read -r k v; do R[$k]=$v; done < <(PROBE_CONFIG="$WORK/no-inbox.toml" "$PROBE" slow-walk "$(realpath "$BIN")" 50 500)
echo "== 7f. over the same link: :open #N of tasks listed in an earlier session" >&2
while IFS='=' read -r k v; do R[$k]=$v; done < <("$PROBE" known-number "$(realpath "$BIN")" 7)

echo "== 8. requests per periodic refresh, one page / every task loaded" >&2
while IFS='=' read -r k v; do R[$k]=$v; done < <("$PROBE" refresh "$(realpath "$BIN")")
echo "== 9. the same at ~100,000 rows (sandbox --tasks 194000)" >&2
while IFS='=' read -r k v; do R["big_$k"]=$v; done < <(PROBE_TASKS=194000 "$PROBE" refresh "$(realpath "$BIN")")

size=$(stat -c %s "$BIN")
R[binary_bytes]=$size

# A probe that failed leaves its figures out: the table says so instead of
# stopping here (and losing every figure measured).
set +u
ok() { python3 -c "import sys; print('met' if $1 else 'NOT met')" 2>/dev/null || echo "not measured"; }
cat <<TABLE

| # | figure | measured | budget | |
|---|---|---|---|---|
| 1 | start → first complete frame (median of 9) | ${R[first_frame_ms]} ms | ≤ 150 ms | $(ok "${R[first_frame_ms]} <= 150") |
| 2 | \`tasks --all --json --limit 100\`, ${R[walk_tasks]} tasks / ${R[walk_pages]} pages | ${R[walk_cli_ms]} ms vs curl loop ${R[walk_curl_ms]} ms = ${R[walk_ratio]}× | ≤ 1.25× | $(ok "${R[walk_ratio]} <= 1.25") |
| 2b | the same walk, taskdeck vs a one-process keep-alive client reading the same ${R[floor_pages]} pages (median of 5) | ${R[floor_cli_ms]} ms vs ${R[floor_keepalive_ms]} ms = ${R[floor_ratio]}× | ≤ 1.25× | $(ok "${R[floor_ratio]} <= 1.25") |
| 3 | peak RSS, ${R[rss_tasks_loaded]} tasks loaded in the TUI | $(( ${R[rss_hwm_kb]} / 1024 )) MB (VmHWM ${R[rss_hwm_kb]} kB) | ≤ 40 MB | $(ok "${R[rss_hwm_kb]} <= 40*1024") |
| 4a | bytes written per \`j\` (200×50, median of 20) | ${R[bytes_per_j]} B | ≤ 2048 B | $(ok "${R[bytes_per_j]} <= 2048") |
| 4b | bytes written per opening another task (Enter) | ${R[bytes_per_open]} B | — | |
| 5 | keypress → frame, request stalled 3 s (median / max of 16) | ${R[latency_ms]} / ${R[latency_max_ms]} ms | ≤ 20 ms | $(ok "${R[latency_max_ms]} <= 20") |
| 6 | second start, every request 5 s: stored rows on screen (median / max of 9) | ${R[stored_start_ms]} / ${R[stored_start_max_ms]} ms | ≤ 500 ms | $(ok "${R[stored_start_max_ms]} <= 500") |
| 7a | 150 ms link, \`j\` every 500 ms: key → next task's newest comment (median / max of ${R[walk_moves]}) | ${R[walk_key_to_comments_ms]} / ${R[walk_key_to_comments_max_ms]} ms, ${R[walk_within_50ms]} within 50 ms | ≤ 50 ms for 8 of 10 | $(ok "${R[walk_within_50ms]} * 10 >= ${R[walk_moves]} * 8") |
| 7b | requests per move over ${R[walk_moves]} moves (total vs minimum) | ${R[walk_requests_per_move]} (${R[walk_requests]} vs ${R[walk_requests_minimum]}) | ≤ 5 | $(ok "${R[walk_requests_per_move]} <= 5") |
| 7c | connections opened: the walk / the session | ${R[walk_connections]} / ${R[session_connections]} | one | $(ok "${R[session_connections]} <= 1") |
| 7d | \`:open UUID\` of a task not loaded → its comments (median / max of 5) | ${R[open_id_to_comments_ms]} / ${R[open_id_to_comments_max_ms]} ms | ≤ 400 ms | $(ok "${R[open_id_to_comments_max_ms]} <= 400") |
| 7e | \`:open #N\` of a task not loaded → its comments (median / max of 5) | ${R[open_to_comments_ms]} / ${R[open_to_comments_max_ms]} ms | ≤ 400 ms | $(ok "${R[open_to_comments_max_ms]} <= 400") |
| 7f | \`:open #N\` of a task listed in an earlier session (the store's number index), not loaded → its comments (median / max of 7) | ${R[known_open_to_comments_ms]} / ${R[known_open_to_comments_max_ms]} ms, ${R[known_open_list_requests]} list requests | ≤ 400 ms | $(ok "${R[known_open_to_comments_max_ms]} <= 400") |
| 8 | list requests per periodic refresh (every ${R[refresh_period_s]} s, over 5 periods): one page / ${R[refresh_rows_all]} rows loaded | ${R[refresh_requests_one_page]} / ${R[refresh_requests_all]} (taskdeck CPU ${R[refresh_cpu_ms_one_page]} / ${R[refresh_cpu_ms_all]} ms a period) | the same | $(ok "${R[refresh_requests_all]} <= max(${R[refresh_requests_one_page]}, 1.0)") |
| 9 | the same with ${R[big_refresh_rows_all]} rows loaded: requests and taskdeck CPU a period | ${R[big_refresh_requests_all]} (${R[big_refresh_cpu_ms_all]} ms a period) | CPU ≤ 2× row 8's | $(ok "${R[big_refresh_cpu_ms_all]} <= 2 * max(${R[refresh_cpu_ms_all]}, 5)") |
| – | release binary size | $(( size / 1024 )) KiB ($size B) | reported | |
TABLE
echo
for k in $(printf '%s\n' "${!R[@]}" | sort); do echo "$k=${R[$k]}"; done
