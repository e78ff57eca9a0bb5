#!/usr/bin/env bash
# Builds, tests and runs the package the README describes, made from the README alone, as a
# new user would: every fenced block preceded by `<!-- file: PATH -->` becomes PATH in a new
# package `Expenses`, beside a copy of this checkout named `ObjectGraph` (the README's path
# dependency). Prints how long the first build and the first test run took.
#
# Usage (from anywhere):  scripts/readme-package.sh [WORK_DIR]
#   WORK_DIR (default: a temporary folder, removed afterwards) receives ObjectGraph/ and Expenses/; it must
#   not hold an Expenses/ package already. Needs tar and awk. Takes a few minutes on 2 cores:
#   the first build compiles ObjectGraph from scratch.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -gt 0 ]; then
  work=$1
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
if [ -e "$work/Expenses" ]; then
  echo "readme package: $work/Expenses already exists" >&2
  exit 1
fi
mkdir -p "$work/ObjectGraph" "$work/Expenses"
echo "== readme package in $work"

# The checkout as a clone would have it (no build products, no git metadata).
tar -C "$repo" --exclude=./.build --exclude=./.git --exclude=./.swiftpm -cf - . |
  tar -C "$work/ObjectGraph" -xf -

# The README's files.
awk -v out="$work/Expenses" '
  /^<!-- file: .* -->$/ { path = $3; expect_fence = 1; next }
  expect_fence {
    if ($0 !~ /^```[a-z]+$/) { printf "README: no code block after the file comment for %s\n", path > "/dev/stderr"; exit 1 }
    expect_fence = 0; inside = 1; file = out "/" path
    dir = file; sub(/\/[^\/]*$/, "", dir); system("mkdir -p \"" dir "\"")
    printf "" > file; files++; next
  }
  inside && /^```$/ { inside = 0; close(file); next }
  inside { print >> file }
  END { if (inside) { print "README: unterminated block for " path > "/dev/stderr"; exit 1 }
        printf "%d files from the README\n", files }
' "$repo/README.md"

cd "$work/Expenses"
start=$(date +%s)
swift build
built=$(date +%s)
swift test
tested=$(date +%s)
output=$(swift run Expenses)
echo "$output"
if [ "$output" != "[12.5]" ]; then
  echo "readme package: the quick start printed '$output', not [12.5]" >&2
  exit 1
fi
echo "== readme package: first swift build $((built - start))s, then swift test $((tested - built))s"
