#!/usr/bin/env bash
# Kill -9 campaign over the programs users run: `ledger` creating a file, cleaning up after a
# failed command, importing thousands of rows, and three adds racing to create one file; a
# two-step context save; `objectgraph
# compact`, `repair`, `repair --salvage`, `seed` and `load`; `objectgraph migrate` and a staged
# migration with a custom stage. Each trial kills one program
# with SIGKILL (two in three at a pause point inside a write window, the rest after a seeded
# random delay) and checks that nothing acknowledged was lost, nothing half applied, and the
# next command works.
# StoreFileFormat.md §11 lists the pause points and the figures of the long runs.
#
# Usage (from anywhere):  scripts/kill-campaign.sh TRIALS SEED [swift build flags...]
#   KILL_SCENARIOS="ledger-import seed"   only these scenarios (default: all twelve)
# CI runs 60 trials (five of each scenario), then 12 of the two migration scenarios; the long
# runs are documented with their seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
TRIALS=${1:?usage: scripts/kill-campaign.sh TRIALS SEED [swift build flags...]}
SEED=${2:?usage: scripts/kill-campaign.sh TRIALS SEED [swift build flags...]}
shift 2
for product in objectgraph-crash-writer ledger objectgraph; do
  swift build --product "$product" "$@" > /dev/null
done
BUILT=$(swift build --show-bin-path "$@")
DIR=$(mktemp -d /tmp/objectgraph-kill-campaign.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
# The campaign runs copies of the programs, so a build during a long run cannot change them.
BIN="$DIR/bin"
mkdir "$BIN"
cp "$BUILT/objectgraph-crash-writer" "$BUILT/ledger" "$BUILT/objectgraph" "$BIN/"
ONLY=()
for scenario in ${KILL_SCENARIOS:-}; do ONLY+=(--scenario "$scenario"); done
"$BIN/objectgraph-crash-writer" campaign "$DIR" "$TRIALS" "$SEED" "${ONLY[@]}"
