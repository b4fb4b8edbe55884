#!/usr/bin/env bash
# Re-captures the bpftrace JSON the parser tests read (test/fixtures/bpftrace/), as root, on a
# machine with bpftrace and tracefs. Each file is bpftrace's own stdout, unedited.
set -euo pipefail
cd "$(dirname "$0")/.."
out=test/fixtures/bpftrace
node=$(command -v node)

# mmap-lock.bt on PID $1's descendants while "$@" runs under it, then SIGINT.
traced() {
  local file=$1; shift
  bash -c 'sleep 2; exec "$@"' _ "$@" > /dev/null &
  local runner=$!
  bpftrace -f json -B line mmap-lock.bt "$runner" > "$out/$file" 2> /dev/null &
  local tracer=$!
  wait "$runner"
  kill -INT "$tracer"
  wait "$tracer" || true
}

traced workers-k2.json "$node" bin/mmapbench.js workers -k 2 --iterations 4000 --warmup 200 --no-save
traced procs-k2.json "$node" bin/mmapbench.js procs -k 2 --iterations 4000 --warmup 200 --no-save
# an audit: a process itself (second argument 1) with its Worker threads, the kernel stack of
# every write and its user stack (third argument 2), as `mmapbench trace --pid --stacks` runs the
# script; stopped while the process runs, so bpftrace can resolve its user frames
"$node" test/fixtures/allocates.js 6 workers > /dev/null &
app=$!
sleep 0.5
bpftrace -f json -B line mmap-lock.bt "$app" 1 2 > "$out/audit-workers.json" 2> /dev/null &
tracer=$!
sleep 3
kill -INT "$tracer"
wait "$tracer" || true
wait "$app"
# the same, but the process exits first: its user frames can no longer be resolved
"$node" test/fixtures/allocates.js 4 workers > /dev/null &
app=$!
sleep 0.5
bpftrace -f json -B line mmap-lock.bt "$app" 1 2 > "$out/audit-exited.json" 2> /dev/null &
tracer=$!
wait "$app"
wait "$tracer" || true
# a pid with no descendants: count maps print 0, sums and histograms are absent
sleep 3 &
idle=$!
bpftrace -f json -B line mmap-lock.bt "$idle" > "$out/nothing-traced.json" 2> /dev/null &
tracer=$!
wait "$idle"
kill -INT "$tracer"
wait "$tracer" || true
# by hand with -c: the command's own output lands between bpftrace's records
bpftrace -f json -B line mmap-lock.bt -c "$node bin/mmapbench.js procs -k 2 --iterations 2000 --warmup 200 --no-save" > "$out/by-hand-c.json" 2> /dev/null
# histogram corner cases: the negative bucket has no min, 0 and 1 are their own buckets, gaps
bpftrace -f json -e 'BEGIN { @h = hist(-5); @h = hist(0); @h = hist(1); @h = hist(300); @h = hist(70000); @k[1, "a"] = count(); @k[2, "b,c"] = count(); exit(); }' > "$out/hist-edges.json" 2> /dev/null
