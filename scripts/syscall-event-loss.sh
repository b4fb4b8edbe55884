#!/usr/bin/env bash
# How many system call events the kernel loses under allocation load: four tracepoints see every
# brk(2) of a process whose Worker threads allocate, so any difference between their counts is
# events dropped. mmap-lock.bt attributes a write to the call recorded at raw_syscalls:sys_enter,
# which is why it keeps the kernel stack of a write that has none (docs/trace.md). As root, with
# bpftrace and tracefs.   Usage: scripts/syscall-event-loss.sh [runs] [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
seconds=${2:-4}
program='
tracepoint:raw_syscalls:sys_enter /pid == $1 && args->id == 12/ { @raw_sys_enter = count(); }
tracepoint:raw_syscalls:sys_exit /pid == $1 && args->id == 12/ { @raw_sys_exit = count(); }
tracepoint:syscalls:sys_enter_brk /pid == $1/ { @sys_enter_brk = count(); }
tracepoint:syscalls:sys_exit_brk /pid == $1/ { @sys_exit_brk = count(); }'
for ((run = 1; run <= runs; run++)); do
  node test/fixtures/allocates.js $((seconds + 1)) workers > /dev/null &
  app=$!
  sleep 0.3
  counts=$(timeout -s INT "$seconds" bpftrace -e "$program" "$app" 2> /dev/null | grep '^@' | tr -d '@:' || true)
  wait "$app"
  # the most any tracepoint counted is the least the process made; each one's shortfall from it
  awk -v run="$run" '{ n[$1] = $2; if ($2 > most) most = $2 }
    END { printf "run %d: brk calls >= %d;", run, most
          for (name in n) printf "  %s %d (%.1f%% lost)", name, n[name], 100 * (most - n[name]) / most
          print "" }' <<< "$counts"
done
