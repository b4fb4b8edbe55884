// The one run loop of every measuring command: compare, workers, procs, trace, sweep, advise and
// reproduce. Each gives its plan (what to say first, what it expects) and how to run its rounds,
// build its document and keep it; the controller holds where the run writes for the whole run,
// says and checks what comes before the first cell, keeps the journal as the rounds go (the
// document after every round, or a reproduce run's record of each cell), stops the progress
// however the run ends, and keeps the run with the error that stopped it: the end of compare,
// sweep and advise as data (the gate's outcome, the saved file, the exports), which the CLI prints
// (cli/finish.js) and the API returns.
import { holdingResults } from '../saved/claim.js';
import { checkMachine } from '../system/machine-load.js';
import { keepingWarnings } from './reporter.js';
import { MmapbenchError } from '../errors.js';
import { asSaved, saveDocument } from '../saved/save.js';
import { flagsGivenAgain } from '../saved/given-again.js';
import { ratioGate } from '../document/gate.js';
import { droppedOutputText, shortBudgetText, straysText } from '../document/sentences.js';

/**
 * What is said before the first cell, in order: a line, or a warning.
 * @typedef {{ say: string } | { warn: import('./reporter.js').Warning }} Before
 */

/**
 * @template S  what the rounds so far are: a compare's session, a sweep's run
 * @template R  what the run keeps: compare's and sweep's Finished, reproduce's report
 * @typedef {object} Controlled
 * @property {Before[]} before  resuming, the plan's warnings, a tracefs mounted …
 * @property {boolean} checksMachine  whether other work competing is looked for first (not for a
 *   run that measures nothing, --quick, nor for reproduce's published protocols)
 * @property {Omit<import('./reporter.js').Estimate, 'cells' | 'expectedSeconds'> & { estimate: () => { cells: number, seconds: number } }} expects
 * @property {(expected: { cells: number, seconds: number }) => string} [opening]  the line that
 *   says what the run will do, after the checks
 * @property {(warn: (warning: import('./reporter.js').Warning) => void, body: (journal: import('../saved/save.js').Keeper | null) => Promise<R>) => Promise<R>} hold
 *   holds where the run writes while `body` runs, and gives it the journal (null: none)
 * @property {(hooks: { keep: ((soFar: S) => void) | null, reporter: import('./reporter.js').Reporter }) => Promise<S & { error?: Error | null }>} rounds
 *   runs the rounds: `keep` after each (null when nothing is kept), the reporter's `cell` after
 *   each cell
 * @property {(soFar: S, finished: boolean, machine: import('../system/machine-load.js').MachineCheck | null) => any} documentOf
 * @property {(document: any, run: { runError: Error | null | undefined, reporter: import('./reporter.js').Reporter & { warnings: import('./reporter.js').Warning[] },
 *   journal: import('../saved/save.js').Keeper | null }) => R | Promise<R>} keep  keeps the run that ended
 */

/**
 * @template S, R
 * @param {Controlled<S, R>} run
 * @param {import('./reporter.js').Reporter | undefined} given  the CLI's or the API's
 * @returns {Promise<R>}
 */
export function controlRun(run, given) {
  const reporter = keepingWarnings(given);
  // taken before anything is said of the run, so a refusal is the only line
  return run.hold(reporter.warn, async (journal) => {
    for (const before of run.before) 'say' in before ? reporter.say(before.say) : reporter.warn(before.warn);
    // 100 ms of sampling, only for a run it can change the reading of
    const machine = run.checksMachine ? checkMachine() : null;
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
      ran = await run.rounds({ keep: journal ? (soFar) => journal.keep(documentOf(soFar)) : null, reporter });
    } finally {
      reporter.stop();
    }
    return run.keep(documentOf(ran, true), { runError: ran.error, reporter, journal });
  });
}

/**
 * How compare and sweep hold and keep a run: their --out folder or resumed file, the document
 * replaced after every round, then the gate and the saved file (keepRun).
 * @param {import('./typed-options.js').Output} output
 * @param {import('../saved/resume.js').Resumed | null} resumed
 * @param {{ fixedRounds: boolean, kind: import('../view/kind.js').Kind }} run  fixedRounds: a
 *   count of rounds, not a precision (what the gate says); kind: the kind of file it saves
 */
export const keptAsResults = (output, resumed, { fixedRounds, kind }) => ({
  /** @type {Controlled<any, Finished>['hold']} */
  hold: (warn, body) => holdingResults(output.save, resumed, warn, body),
  /** @type {Controlled<any, Finished>['keep']} */
  keep: (document, { runError, reporter, journal }) => {
    const gate = gateOf(document, output.gate, { fixedRounds, kind });
    return keepRun(gate ? { ...document, gate } : document, output, { runError, reporter, kept: journal, kind });
  },
});

/** @typedef {import('./typed-options.js').Output} Output */

/**
 * The gate of a compare or sweep that completed, for its document: null without --fail-below,
 * or when the run failed or was interrupted (its error is the outcome then).
 * @param {any} document  the document, before it is printed and saved
 * @param {Output['gate']} request
 * @param {{ fixedRounds: boolean, kind: import('../saved/load.js').FileKind }} run  kind: the
 *   kind of file the command saves, whose points the gate reads
 */
export function gateOf(document, request, { fixedRounds, kind }) {
  if (!request || document.status !== 'complete') return null;
  const points = kind.points?.(document) ?? [];
  // each point's verdict, by its id: the gate reads the interval the verdict was read from, valid
  // where the rounds stopped (stats/sequential.js)
  const verdictOf = (/** @type {string} */ id) =>
    document.points.find((/** @type {{ id: string }} */ point) => point.id === id)?.verdict;
  return ratioGate(
    points.map(({ id, label, ratio, seconds }) => {
      const verdict = verdictOf(id);
      return verdict?.interval && ratio
        ? {
            id,
            label,
            ratio: { ...ratio, ci95: verdict.interval },
            seconds: seconds ?? 0,
            confidence: verdict.confidence,
            look: verdict.look,
          }
        : { id, label, ratio, seconds: seconds ?? 0 };
    }),
    { ...request, aa: document.aa ?? null, fixedRounds },
  );
}

/**
 * What a finished (or stopped, or failed) run left: its document as saved, where it was saved
 * (or why it could not be), the files exported, and the run's own error.
 * @typedef {object} Finished
 * @property {any} document  with its warnings, its gate, and a save that failed in its status
 * @property {ReturnType<typeof saveDocument>} saved
 * @property {string[]} exported
 * @property {Error | null} runError
 * @property {import('../view/kind.js').Kind} kind  the kind of file the command saves
 * @property {string[]} [written]  other files it wrote (reproduce's REPORT.md)
 * @property {string[]} [resume]  how to go on with it where a run error stopped it: a command line
 */

/**
 * Keeps a run that ended: the processes it left are a warning in its document, then it is saved
 * (with its status, so an interrupted or failed run is kept too) and, unless it broke, exported.
 * @param {any} measured  the document, with `gate` from gateOf when one was asked for
 * @param {Output} output
 * @param {{ runError: Error | null | undefined, reporter: import('./reporter.js').Reporter & { warnings: import('./reporter.js').Warning[] },
 *   kept?: import('../saved/save.js').Keeper | null, kind: import('../view/kind.js').Kind }} run  kept: the file the run kept as
 *   it went; kind: the kind of file the command saves
 * @returns {Promise<Finished>}
 */
export async function keepRun(measured, output, { runError, reporter, kept = null, kind }) {
  const strays = straysText(measured);
  if (strays) reporter.warn({ code: 'strays', text: strays });
  const dropped = droppedOutputText(measured);
  if (dropped) reporter.warn({ code: 'output-dropped', text: dropped });
  const withWarnings = { ...measured, warnings: reporter.warnings };
  const saved = saveDocument(withWarnings, output.save, runError, kept);
  const document = asSaved(withWarnings, saved, runError);
  const broken = runError || (saved && 'error' in saved);
  // the exporters load only for a run that asked for one
  const exported =
    broken || !output.exports.length
      ? []
      : (await import('../saved/export.js')).writeExports([{ kind, path: 'this run', document }], output.exports);
  // a run stopped by Ctrl-C or a signal, kept with what it was asked, says how to go on with it
  const path = saved && 'path' in saved ? saved.path : null;
  const goesOn = runError instanceof MmapbenchError && runError.kind === 'interrupted' && path && measured.resume;
  return {
    ...{ document, saved, exported, runError: runError ?? null, kind },
    ...(goesOn
      ? { resume: ['mmapbench', measured.command, '--resume', path, ...flagsGivenAgain(measured.resume)] }
      : {}),
  };
}

/**
 * The error a run that was kept ends with, if any, with its document attached (`error.document`)
 * so that what it measured is never lost to a caller: the run's own error, else a save that
 * failed, else a budget too short to count a round. A gate is the caller's to read.
 * @param {Finished} finished
 * @returns {(Error & { document?: any }) | null}
 */
export function endingError({ document, saved, runError }) {
  const saveError = saved && 'error' in saved ? saved.error : null;
  /** @type {(Error & { document?: any }) | null} */
  const error =
    runError ??
    saveError ??
    (document.shortBudget?.counted === 0
      ? new MmapbenchError(shortBudgetText(document.shortBudget, document.seconds), { kind: 'budget' })
      : null);
  if (error) Object.defineProperty(error, 'document', { value: document, enumerable: false, configurable: true });
  return error;
}
