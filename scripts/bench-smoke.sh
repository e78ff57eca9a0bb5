#!/usr/bin/env bash
# Checks that objectgraph-bench runs end to end at a small N: both stores, every workload,
# the peers' JSON-line shape, the micro-benchmarks and the ledger workloads. A check that it
# works, never a timing gate. Builds (or reuses) the debug binary with the flags given, so
# that CI can pass its own and reuse its build; the debug build also runs with the
# concurrency check on.
#
# Usage (from anywhere):  scripts/bench-smoke.sh [swift build flags...]
#   BENCH_N=2000 (default)  the number of expenses
# Needs python3 and ../shared/bench/dataset.py beside the project; skips (exit 0) without it.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_N:-2000}
SHARED=../shared/bench
if [ ! -f "$SHARED/dataset.py" ]; then
  echo "bench smoke: skipped: $SHARED/dataset.py not found (the shared benchmark scripts are absent)"
  exit 0
fi
swift build --product objectgraph-bench "$@"
BIN=$(swift build --show-bin-path "$@")/objectgraph-bench
DIR=$(mktemp -d /tmp/objectgraph-bench-smoke.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
python3 "$SHARED/dataset.py" --n "$N" --out "$DIR/dataset.jsonl"
for mode in memory jsonl; do
  "$BIN" --dataset "$DIR/dataset.jsonl" --mode "$mode" --dir "$DIR" > "$DIR/$mode.out"
done
"$BIN" micro --n "$N" --repeat 1 --json > "$DIR/micro.out"
"$BIN" ledger --n "$N" --repeat 1 --json --dir "$DIR/ledger" > "$DIR/ledger.out"
python3 "$(dirname "$0")/bench-smoke-check.py" "$DIR" "$N"
