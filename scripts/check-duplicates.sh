#!/usr/bin/env bash
# One version of each crate in what taskdeck links (issue 45 §4): fails
# naming every crate `cargo tree` finds in two versions among the normal
# dependencies. Proc-macro crates (and what only they use) run at build
# time and are left out. No network: run after the dependencies are fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
# A cargo tree that fails is a failure, never "no duplicates".
tree=$(cargo tree --locked --offline --duplicates --edges normal,no-proc-macro \
    --depth 0 --prefix none --format '{p}')
dups=$(printf '%s\n' "$tree" | grep -v -e '^taskdeck ' -e '^$' | sort -u || true)
if [ -n "$dups" ]; then
    echo "crates in more than one version (cargo tree -d -e normal,no-proc-macro):"
    echo "$dups"
    exit 1
fi
echo "one version of each crate (proc-macro crates aside)"
