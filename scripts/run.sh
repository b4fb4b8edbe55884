#!/usr/bin/env bash
# The investigation's end-to-end suite (its run.sh): file sizes × k × malloc arenas, one
# `mmapbench compare` per combination, printed as markdown. Extra arguments go to every compare
# (--rounds 10, --duration 2, --quick). Override the matrix with FILES, KS and ARENAS, and the
# node the cells run on with NODE:
#   NODE=/path/to/node KS="1 2" bash scripts/run.sh --rounds 3
set -euo pipefail
cli="$(dirname "$0")/../bin/mmapbench.js"
FILES="${FILES:-small med large huge}"
KS="${KS:-1 4 8}"
ARENAS="${ARENAS:-default 1 64}"
node_args=()
[[ -n "${NODE:-}" ]] && node_args=(--node "$NODE")

for file in $FILES; do
  for k in $KS; do
    for arena in $ARENAS; do
      env_args=()
      [[ "$arena" != default ]] && env_args=(--env "MALLOC_ARENA_MAX=$arena")
      node "$cli" compare --file "$file" -k "$k" "${env_args[@]}" "${node_args[@]}" --markdown "$@"
      echo
    done
  done
done
