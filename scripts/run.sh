#!/usr/bin/env bash
# The investigation's end-to-end suite (its run.sh): file sizes × k × malloc arenas, as one
# interleaved `mmapbench sweep` (36 points; a minute each at most unless --max-time says so).
# Extra arguments go to sweep (--max-time 600, --rounds 10, --markdown, --quick). Override the
# matrix with FILES, KS and ARENAS, and the node the cells run on with NODE:
#   NODE=/path/to/node KS="1 2" bash scripts/run.sh --rounds 3
set -euo pipefail
FILES="${FILES:-small med large huge}"
KS="${KS:-1 4 8}"
ARENAS="${ARENAS:-default 1 64}"
variants=()
for arena in $ARENAS; do
  if [[ "$arena" == default ]]; then variants+=(--variant default); else variants+=(--variant "arena$arena:MALLOC_ARENA_MAX=$arena"); fi
done
exec node "$(dirname "$0")/../bin/mmapbench.js" sweep --file "${FILES// /,}" -k "${KS// /,}" "${variants[@]}" ${NODE:+--node "$NODE"} "$@"
