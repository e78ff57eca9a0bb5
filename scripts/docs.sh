#!/usr/bin/env bash
# Builds the documentation of the ObjectGraph module (Sources/ObjectGraph/ObjectGraph.docc and
# every public declaration's comment) with the toolchain's own tools, no package plug-in:
# swift-symbolgraph-extract reads the module the build made, then `docc convert` renders it
# with warnings as errors, so every symbol link, article link and parameter list resolves.
#
# Usage (from anywhere):  scripts/docs.sh [swift build flags...]
#   Writes .build/docs/ObjectGraph.doccarchive (open it with `docc preview` or Xcode).
#   CI passes its own build flags so that the build step's modules are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target ObjectGraph "$@"
BIN=$(swift build --show-bin-path "$@")
TRIPLE=$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)
OUT=.build/docs
rm -rf "$OUT"
mkdir -p "$OUT/symbol-graphs"
swift-symbolgraph-extract -module-name ObjectGraph -I "$BIN/Modules" -target "$TRIPLE" \
  -minimum-access-level public -skip-inherited-docs -output-dir "$OUT/symbol-graphs"
docc convert Sources/ObjectGraph/ObjectGraph.docc \
  --additional-symbol-graph-dir "$OUT/symbol-graphs" \
  --fallback-display-name ObjectGraph --fallback-bundle-identifier ObjectGraph \
  --output-path "$OUT/ObjectGraph.doccarchive" --warnings-as-errors
echo "docs: $OUT/ObjectGraph.doccarchive"
