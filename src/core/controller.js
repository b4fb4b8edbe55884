// The one run loop of compare, workers, procs, trace, sweep and advise. Each command gives its
// plan (what to say first, what it expects) and how to run its rounds and build its document;
// the controller holds where the run writes, says and checks what comes before the first cell,
// keeps the document after every round (the journal --resume reads), stops the progress however
// the run ends, takes the gate and keeps the run.
import { holdingResults } from '../saved/claim.js';
import { checkMachine } from '../system/machine-load.js';
import { gateOf, keepRun } from './finish.js';
import { keepingWarnings } from './reporter.js';

/**
 * @template S  what the rounds so far are: a compare's session, a sweep's run
 * @typedef {object} Controlled
 * @property {import('../saved/resume.js').Resumed | null} resumed  a kept run it goes on with
 * @property {string | null} resuming  the line that says so
 * @property {Array<{ code: string, text: string }>} warnings  the plan's (each point's)
 * @property {string[]} notes  what else is said before the first cell (a tracefs mounted)
 * @property {boolean} quick  measures nothing: no check of the machine
 * @property {boolean} fixedRounds  a count of rounds, not a precision: what the gate says
 * @property {Omit<import('./reporter.js').Estimate, 'cells' | 'expectedSeconds'> & { estimate: () => { cells: number, seconds: number } }} expects
 * @property {(expected: { cells: number, seconds: number }) => string} [opening]  the line that
 *   says what the run will do, after the checks
 * @property {(hooks: { keep: ((soFar: S) => void) | null, reporter: import('./reporter.js').Reporter }) => Promise<S & { error?: Error | null }>} rounds
 *   runs the rounds: `keep` after each (null when nothing is saved), the reporter's `cell` after
 *   each cell
 * @property {(soFar: S, finished: boolean, machine: import('../system/machine-load.js').MachineCheck | null) => any} documentOf
 */

/**
 * @template S
 * @param {Controlled<S>} run
 * @param {import('./typed-options.js').Output} output
 * @param {import('./reporter.js').Reporter | undefined} given  the CLI's or the API's
 * @returns {Promise<import('./finish.js').Finished>}
 */
export function controlRun(run, output, given) {
  const reporter = keepingWarnings(given);
  // taken before anything is said of the run, so a refusal is the only line
  return holdingResults(output.save, run.resumed, reporter.warn, async (keeping) => {
    if (run.resuming) reporter.say(run.resuming);
    for (const warning of run.resumed?.warnings ?? []) reporter.warn(warning);
    for (const note of run.notes) reporter.say(note);
    for (const warning of run.warnings) reporter.warn(warning);
    // --quick measures nothing, so it skips the check and its 100 ms of sampling
    const machine = run.quick ? null : checkMachine();
    if (machine?.warning) reporter.warn({ code: 'machine-busy', text: machine.warning });
    const { estimate, ...expects } = run.expects;
    const expected = estimate();
    if (run.opening) reporter.say(run.opening(expected));
    reporter.start({ ...expects, cells: expected.cells, expectedSeconds: expected.seconds });
    // the warnings so far ride along in every document kept
    const documentOf = (/** @type {S} */ soFar, finished = false) => ({
      ...run.documentOf(soFar, finished, machine),
      warnings: reporter.warnings,
    });
    let ran;
    try {
      ran = await run.rounds({ keep: keeping ? (soFar) => keeping.keep(documentOf(soFar)) : null, reporter });
    } finally {
      reporter.stop();
    }
    const document = documentOf(ran, true);
    const gate = gateOf(document, output.gate, { fixedRounds: run.fixedRounds });
    return keepRun(gate ? { ...document, gate } : document, output, {
      runError: ran.error,
      reporter,
      kept: keeping,
    });
  });
}
