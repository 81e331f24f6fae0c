#!/usr/bin/env bash
# Soak the simulator (issue 43, docs/testing.md): random seeds, one after
# the other, for as long as asked; stops at the first seed that breaks an
# invariant (its output: seed, step, shrunk steps, how to replay) and
# reports the steps run and the steps per second.
#
#   scripts/simulate-soak.sh [SECONDS] [STEPS_PER_SEED] [FAULTS] [twice]
#
# Defaults: 600 seconds, 20000 steps a seed, every fault. `twice`: each
# seed is run two times and the runs compared step by step (`--twice`: a
# seed must be a run; the first step that differs is named). The steps
# per second count both runs.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-600}
steps=${2:-20000}
faults=${3:-all}
twice=()
if [ "${4:-}" = twice ]; then
    twice=(--twice)
fi

cargo build --release --example simulate
bin=target/release/examples/simulate

end=$(( $(date +%s) + secs ))
total=0
seeds=0
started=$(date +%s.%N)
while [ "$(date +%s)" -lt "$end" ]; do
    seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
    if ! out=$("$bin" --seed "$seed" --steps "$steps" --faults "$faults" "${twice[@]}" 2>&1); then
        echo "$out"
        echo "FAILED: seed $seed (replay: $bin --seed $seed --steps $steps --faults $faults --replay)"
        exit 1
    fi
    echo "$out" | tail -n 1
    total=$(( total + steps * (1 + ${#twice[@]}) ))
    seeds=$(( seeds + 1 ))
done
awk -v s="$seeds" -v t="$total" -v a="$started" -v b="$(date +%s.%N)" \
    'BEGIN { e = b - a; printf "soak: %d seeds, %d steps in %.1f s: %.0f steps/s, no violation\n", s, t, e, t / e }'
