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
# Known, each with why, and checked still to be needed (a name listed here
# that no longer appears twice fails too, so the list cannot go stale):
# thiserror 1 comes with crossterm's use-dev-tty (filedescriptor 0.8, its
# latest), the poll(2) reader issue 41 needs; ratatui uses thiserror 2.
allowed=(thiserror)
dups=$(printf '%s\n' "$tree" | grep -v -e '^taskdeck ' -e '^$' | sort -u || true)
for name in "${allowed[@]}"; do
    if [ "$(printf '%s\n' "$dups" | grep -c "^$name v")" -lt 2 ]; then
        echo "scripts/check-duplicates.sh allows $name twice, but it is no longer there twice: take it off the list"
        exit 1
    fi
    echo "allowed twice (see the script for why): $(printf '%s\n' "$dups" | grep "^$name v" | tr '\n' ' ')"
    dups=$(printf '%s\n' "$dups" | grep -v "^$name v" || true)
done
if [ -n "$dups" ]; then
    echo "crates in more than one version (cargo tree -d -e normal,no-proc-macro):"
    echo "$dups"
    exit 1
fi
echo "one version of each crate (proc-macro crates aside)"
