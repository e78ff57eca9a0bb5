"""Checks objectgraph-bench's output (see bench-smoke.sh): shape, keys, and the results
that must hold whatever the timings. Exits 1 with one line per problem."""
import json, math, sys

directory, n = sys.argv[1], int(sys.argv[2])
WORKLOADS = ["W0_baseline", "W1_insert", "W2_open_count", "W2b_load_all", "W3_fetch",
             "W4_update_all", "W4b_update_objects", "W5_delete_half", "W6_compact", "W7_peak_rss"]
EXTRA = {"W3_fetch": ["correct", "repeat_median_s"], "W4_update_all": ["style"],
         "W6_compact": ["size_after_w5_bytes", "size_after_compaction_bytes"],
         "W7_peak_rss": ["process_peak_rss_mb"]}
problems = []

def check_mode(mode):
    lines = [json.loads(l) for l in open(f"{directory}/{mode}.out") if l.strip()]
    got = [r.get("workload") for r in lines]
    if got != WORKLOADS:
        problems.append(f"{mode}: workloads {got}, expected {WORKLOADS}")
        return
    for r in lines:
        w = r["workload"]
        for key in ["peer", "mode", "workload", "n", "seconds", "peak_rss_mb", "rss_mb"] + EXTRA.get(w, []):
            if key not in r:
                problems.append(f"{mode} {w}: missing key {key}")
        if r.get("peer") != "objectgraph" or r.get("mode") != mode or r.get("n") != n:
            problems.append(f"{mode} {w}: peer/mode/n are {r.get('peer')}/{r.get('mode')}/{r.get('n')}")
        measurable = "error" not in r and "na" not in r and w not in ("W0_baseline", "W7_peak_rss")
        if measurable and not isinstance(r.get("seconds"), (int, float)):
            problems.append(f"{mode} {w}: seconds is {r.get('seconds')} without an error or na key")
        if w == "W3_fetch" and "error" not in r and r.get("correct") is not True:
            problems.append(f"{mode} W3_fetch: wrong result (correct = {r.get('correct')})")
        if w == "W5_delete_half" and "error" not in r:
            if r.get("deleted") != math.ceil(n / 2) or r.get("remaining") != n // 2:
                problems.append(f"{mode} W5: deleted {r.get('deleted')}, remaining {r.get('remaining')}")
        if w == "W2_open_count" and isinstance(r.get("seconds"), (int, float)) and r.get("count") != n:
            problems.append(f"{mode} W2: count {r.get('count')}")
    if mode == "jsonl":
        w6 = lines[WORKLOADS.index("W6_compact")]
        before, after = w6.get("size_after_w5_bytes"), w6.get("size_after_compaction_bytes")
        if "error" not in w6 and not (isinstance(before, int) and isinstance(after, int) and 0 < after < before):
            problems.append(f"jsonl W6: sizes {before} -> {after}; compaction must shrink the file")
    if mode == "memory":
        for r in lines:
            if r["workload"] in ("W1_insert", "W2b_load_all", "W4b_update_objects", "W5_delete_half") \
                    and not isinstance(r.get("seconds"), (int, float)):
                problems.append(f"memory {r['workload']}: the RAM store must be measurable")

for mode in ("memory", "jsonl"):
    check_mode(mode)
micro = [json.loads(l) for l in open(f"{directory}/micro.out") if l.strip()]
if len(micro) < 10:
    problems.append(f"micro: {len(micro)} cases, expected at least 10")
for r in micro:
    if not (r.get("ops_per_second", 0) > 0 and r.get("operations", 0) > 0):
        problems.append(f"micro {r.get('case')}: no operations measured")
ledger = [json.loads(l) for l in open(f"{directory}/ledger.out") if l.strip()]
if [r.get("workload") for r in ledger] != ["import", "reimport", "report", "adjust", "purge"]:
    problems.append(f"ledger: workloads {[r.get('workload') for r in ledger]}, expected import, reimport, report, adjust, purge")
for r in ledger:
    if r.get("mode") != "ledger" or r.get("n") != n or not isinstance(r.get("seconds"), (int, float)):
        problems.append(f"ledger {r.get('workload')}: mode/n/seconds are {r.get('mode')}/{r.get('n')}/{r.get('seconds')}")
for p in problems:
    print(f"bench smoke: {p}")
if problems:
    sys.exit(1)
print(f"bench smoke: ok (N = {n}: memory and jsonl, W0-W7; {len(micro)} micro cases; ledger)")
