// What the CLI declares before it knows which command runs: the option every command takes, and
// the names of compare's own (for the error that says which command takes one). Imports only
// how an option is declared: `mmapbench --help` loads it.
import { flag } from './option-spec.js';

/** What compare takes and one mode alone does not: the ratio's stopping rule, A/A, the gate. */
export const COMPARE_ONLY = ['aa', 'precision', 'maxTime', 'failBelow', 'failInconclusive', 'ci'];

export const COMMON = {
  verbose: flag(
    'the whole text: every round, the account, the warm-up and the sizing after the answer; stack traces and task output on failure',
  ),
};
