#!/usr/bin/env bash
# Instruction counts for a Swift program of this package under valgrind's callgrind.
#
#   scripts/callgrind.sh OUT.callgrind PROGRAM [ARGS...]
#   e.g. scripts/callgrind.sh /tmp/w3.cg .build/release/objectgraph-bench micro --n 100000 \
#          --repeat 1 --only context.fetch.W3
#   then: callgrind_annotate /tmp/w3.cg | head -40
#
# Why a preload: a Swift program with top-level `await` (objectgraph-bench, ledger) parks its
# main thread in libdispatch's dispatch_main, which calls sigsuspend with a signal mask held in
# read-only memory; valgrind's rt_sigsuspend wrapper writes into that mask and valgrind dies
# with SIGSEGV (3.19 and 3.24 alike). The preload below copies the mask before the system call.
# It is profiling tooling, built on the fly into a temporary folder; no C code is part of the
# package. Needs valgrind and a C compiler (Debian: apt-get install valgrind gcc).
set -euo pipefail
if [ $# -lt 2 ]; then echo "usage: $0 OUT.callgrind PROGRAM [ARGS...]" >&2; exit 64; fi
out=$1; shift
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
shim_dir=$(mktemp -d)
trap 'rm -rf "$shim_dir"' EXIT
cat > "$shim_dir/shim.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
C
cc -O2 -shared -fPIC -o "$shim_dir/shim.so" "$shim_dir/shim.c"
LD_PRELOAD="$shim_dir/shim.so" valgrind --tool=callgrind --callgrind-out-file="$out" "$@"
