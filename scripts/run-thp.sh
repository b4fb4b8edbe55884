#!/usr/bin/env bash
# The investigation's run-thp.sh: the 64 KiB workers-vs-procs comparison under THP always,
# madvise and never, as `mmapbench reproduce thp`. Needs root. The original mode is written to a
# restore file before the first change and put back on exit, error, Ctrl-C, SIGTERM or SIGHUP;
# after a SIGKILL or power loss, run `mmapbench restore`. Extra arguments go to reproduce
# (--quick, --rounds 10, -k 8, --out DIR).
#   sudo bash scripts/run-thp.sh
set -euo pipefail
exec node "$(dirname "$0")/../bin/mmapbench.js" reproduce thp "$@"
