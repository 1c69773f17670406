#!/usr/bin/env bash
# Run one fuzz target for 10^7 executions with the limits of docs/ROBUSTNESS.md#fuzzing:
#   fuzz/run.sh <target> [max_len] [runs]
# Needs nightly and cargo-fuzz (`cargo install cargo-fuzz`). The corpus grows in
# fuzz/corpus/<target>/ (minimize it afterwards with `cargo +nightly fuzz cmin -s none <target>`).
set -euo pipefail
cd "$(dirname "$0")"
target=$1
max_len=${2:-8192}
runs=${3:-10000000}
exec cargo +nightly fuzz run -O --debug-assertions -s none "$target" -- \
  -jobs=1 -runs="$runs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -malloc_limit_mb=512 -print_final_stats=1
