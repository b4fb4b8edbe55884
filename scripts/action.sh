#!/usr/bin/env bash
# action.yml's step: runs the CLI with --ci (its step summary and its gate's exit code), then
# sets the step's outputs from the results it saved. Inputs come as INPUT_* variables.
set -uo pipefail
read -r -a extra <<< "${INPUT_ARGS:-}"
args=("${INPUT_COMMAND:-compare}" "${extra[@]}" --ci --out "${INPUT_OUT:-mmapbench-results}")
[ -n "${INPUT_FAIL_BELOW:-}" ] && args+=(--fail-below "$INPUT_FAIL_BELOW")
[ -n "${INPUT_EXPORT:-}" ] && args+=(--export "$INPUT_EXPORT")
node "$GITHUB_ACTION_PATH/bin/mmapbench.js" "${args[@]}"
status=$?
file="${INPUT_OUT:-mmapbench-results}/${INPUT_COMMAND:-compare}-ci.json"
if [ -f "$file" ]; then
  node "$GITHUB_ACTION_PATH/scripts/action-outputs.js" "$file" >> "$GITHUB_OUTPUT" || { [ "$status" -eq 0 ] && status=1; }
fi
exit "$status"
