#!/usr/bin/env bash
# Regenerate the README's key table from assets/keymap.toml (the test
# `readme_lists_every_default_binding` prints the expected table).
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(cargo test -q --lib readme_lists_every_default_binding 2>&1 | sed -n '/should read:/,/^$/p' | tail -n +2 | sed '/^$/d' || true)
[ -n "$table" ] || { echo "README table already up to date"; exit 0; }
python3 - "$table" <<'PY'
import sys, re
table = sys.argv[1].rstrip("\n") + "\n"
readme = open("README.md").read()
start = readme.index("| where | keys | action |")
end = readme.index("\n\n", start) + 1
open("README.md", "w").write(readme[:start] + table + readme[end:])
PY
echo "README key table updated"
