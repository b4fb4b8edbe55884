#!/usr/bin/env bash
# action.yml's step: runs the CLI with --ci (its step summary and its gate's exit code), then
# sets the step's outputs from the results this run saved. Inputs come as INPUT_* variables.
set -uo pipefail
refuse() {
  echo "mmapbench: $*" >&2
  exit 2
}
command="${INPUT_COMMAND:-compare}"
out="${INPUT_OUT:-mmapbench-results}"
case "$out" in
  *[[:cntrl:]]*) refuse "out: the folder's name has a line break or another control character: give it on one line" ;;
esac
# args splits at spaces, tabs and newlines alike: a YAML block of one option a line keeps them all
extra=()
read -r -d '' -a extra <<< "${INPUT_ARGS:-}" || true
for arg in "${extra[@]}"; do
  case "$arg" in
    --out | --out=*) refuse "args: $arg is the action's own input: set \`out:\` instead of passing --out in args" ;;
    # yargs reads the camelCase spelling as the same option
    --fail-below | --fail-below=* | --failBelow | --failBelow=*)
      [ -n "${INPUT_FAIL_BELOW:-}" ] && refuse "args: $arg and the fail-below input both set the gate: give it once"
      ;;
  esac
done
args=("$command" "${extra[@]}" --ci --out "$out")
[ -n "${INPUT_FAIL_BELOW:-}" ] && args+=(--fail-below "$INPUT_FAIL_BELOW")
[ -n "${INPUT_EXPORT:-}" ] && args+=(--export "$INPUT_EXPORT")
file="$out/$command-ci.json"
# a file left by an earlier run is not this run's: its outputs would be the earlier run's
before=$(stat -c '%i %z' -- "$file" 2> /dev/null || true)
node "$GITHUB_ACTION_PATH/bin/mmapbench.js" "${args[@]}"
status=$?
after=$(stat -c '%i %z' -- "$file" 2> /dev/null || true)
if [ -n "$after" ] && [ "$after" != "$before" ]; then
  node "$GITHUB_ACTION_PATH/scripts/action-outputs.js" "$file" >> "$GITHUB_OUTPUT" || { [ "$status" -eq 0 ] && status=1; }
else
  echo "mmapbench: this run saved no results, so the action's outputs are empty" >&2
fi
exit "$status"
