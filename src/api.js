// mmapbench as a library: each command as a function of an options object, its flags in
// camelCase. The object is checked against the command line's own option table (core/options.js),
// so a value the CLI refuses is refused here with the same words, as a MmapbenchError whose
// `code` says what kind of problem it is; then the command's core runs and its document is the
// result. Nothing is written to stdout, stderr or $GITHUB_STEP_SUMMARY, and nothing is saved
// unless `out` says where (or `resume` names the file to go on with). A run's warnings are in
// its document (`warnings`) and reach `onWarning` as they happen.
import { MmapbenchError, usageError } from './errors.js';
import { SPECS_OF } from './core/options.js';
import { readObject } from './core/option-spec.js';
import { measureOptions, output } from './core/typed-options.js';
import { endingError } from './core/finish.js';
import { measureCommand, measureOrResume } from './core/measure.js';
import { sweepOrResume } from './core/sweep.js';
import { adviseCommand } from './core/advise.js';
import { diffFiles } from './core/diff.js';
import { reportFiles } from './core/report.js';

export { MmapbenchError, EXIT_CODES } from './errors.js';

/**
 * @typedef {import('./tasks/index.js').Task} Task  what a task module exports (docs/tasks.md)
 * @typedef {import('./tasks/index.js').TaskContext} TaskContext  what a task's functions are given
 *
 * @typedef {import('./core/reporter.js').ProgressEvent} ProgressEvent  one cell finished
 * @typedef {import('./core/reporter.js').Warning} Warning  a warning: its code and its sentence
 *
 * @typedef {object} RunOptions  what every measuring function takes besides its command's options
 * @property {AbortSignal} [signal]  stops the run: it resolves with what finished, `status: 'interrupted'`
 * @property {(event: ProgressEvent) => void} [onProgress]  after every cell
 * @property {(warning: Warning) => void} [onWarning]  as each warning happens (they are also in
 *   the document's `warnings`)
 * @property {string} [out]  save the results in this folder, as the CLI's --out; left out: nothing saved
 *
 * @typedef {object} MeasureOptions  compare's (and workers', procs', trace's) options: its flags in camelCase
 * @property {string} [task]  a built-in task's name or a module's path
 * @property {string} [file]  small, med, large, huge, a size (64k) or a path
 * @property {number} [k]
 * @property {number | string} [maxTime]  seconds
 * @property {number | string} [precision]  a percent: 5 or '5%'
 * @property {number} [rounds]
 * @property {number | string} [duration]  seconds a cell
 * @property {number} [iterations]
 * @property {number | 'steady'} [warmup]
 * @property {Record<string, string | number>} [env]  set in every cell
 * @property {Record<string, string | number>} [param]  a task's parameters (your own task's)
 * @property {string} [node]  a Node release or binary
 * @property {boolean} [quick]  a tiny run that proves every path works
 * @property {number | string} [failBelow]  the gate: its outcome is in the document's `gate`
 * @property {'workers'|'procs'} [aa]
 * @property {unknown} [shape] the message task's; and any other flag of the command, in camelCase
 *
 * @typedef {Record<string, any>} Document  what `--json` prints (docs/json.md, src/saved/results.schema.json)
 */

// what only changes how the CLI prints: the API returns the document
const PRINTING = ['json', 'markdown', 'verbose'];

/**
 * An options object split into the command's options, read as the command line reads its
 * flags, and what the function itself takes: the signal and the callbacks.
 * @param {unknown} given
 * @param {string} command
 */
function optionsOf(given, command) {
  if (given === undefined) given = {};
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw usageError('the options must be an object, as { k: 2 }; see docs/api.md');
  const { signal, onProgress, onWarning, ...rest } = /** @type {Record<string, unknown>} */ (given);
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw usageError('signal must be an AbortSignal, as AbortSignal.timeout(60_000) or an AbortController gives');
  for (const [name, callback] of Object.entries({ onProgress, onWarning }))
    if (callback !== undefined && typeof callback !== 'function') throw usageError(`${name} must be a function`);
  const printing = PRINTING.find((name) => rest[name] !== undefined);
  if (printing)
    throw usageError(
      `${printing} says how the command line prints; the API returns the document (report() prints one)`,
    );
  // nothing is saved unless `out` says where; a resumed run goes on in its own file
  const specs = SPECS_OF[command]();
  const saves = !specs.save || rest.out !== undefined || rest.resume !== undefined || rest.save !== undefined;
  const opts = readObject(saves ? rest : { ...rest, save: false }, specs, command);
  /** @type {import('./core/reporter.js').Context} */
  const context = {
    interrupt: /** @type {AbortSignal | undefined} */ (signal),
    reporter: {
      warn: (warning) => /** @type {((warning: Warning) => void) | undefined} */ (onWarning)?.(warning),
      say() {},
      start() {},
      cell: (event) => /** @type {((event: ProgressEvent) => void) | undefined} */ (onProgress)?.(event),
      stop() {},
    },
  };
  return { opts, context };
}

/**
 * The document a run kept. A run stopped by the signal resolves with what finished; one that
 * failed after measuring (a cell, a full disk, a budget too short) rejects with its error, the
 * document of what finished attached as `error.document`. A gate is the caller's to read.
 * @param {Promise<import('./core/finish.js').Finished>} run
 * @returns {Promise<Document>}
 */
async function documentOf(run) {
  const finished = await run;
  const error = endingError(finished);
  if (error && !(error instanceof MmapbenchError && error.kind === 'interrupted')) throw error;
  return finished.document;
}

/**
 * compare, workers or procs.
 * @param {'compare'|'workers'|'procs'} command
 * @param {unknown} options
 */
async function measure(command, options) {
  const { opts, context } = optionsOf(options, command);
  return documentOf(measureOrResume(opts, command, output(opts, command), context));
}

/**
 * Threads against processes on one task: the workers/procs ratio with its 95% CI, a verdict,
 * and the trade-off (memory, start-up, latency).
 * @param {MeasureOptions & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const compare = (options) => measure('compare', options);

/**
 * K Worker threads alone, in one fresh process.
 * @param {MeasureOptions & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const workers = (options) => measure('workers', options);

/**
 * K child processes alone.
 * @param {MeasureOptions & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const procs = (options) => measure('procs', options);

/**
 * A compare at every point of a grid: each setting option takes a list (`k: [1, 2, 4]`).
 * @param {Record<string, unknown> & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export async function sweep(options) {
  const { opts, context } = optionsOf(options, 'sweep');
  return documentOf(sweepOrResume(opts, output(opts, 'sweep'), context));
}

/**
 * The fixes for a task, measured beside it and ranked (the document's `advice`).
 * @param {Record<string, unknown> & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export async function advise(options) {
  const { opts, context } = optionsOf(options, 'advise');
  return documentOf(adviseCommand(opts, output(opts, 'advise'), context));
}

/**
 * compare (or `mode: 'workers' | 'procs'`) under bpftrace: the mmap_lock evidence. Needs root.
 * @param {MeasureOptions & RunOptions & { mode?: 'compare'|'workers'|'procs' }} [options]
 * @returns {Promise<Document>}
 */
export async function trace({ mode = 'compare', ...options } = {}) {
  if (!['compare', 'workers', 'procs'].includes(mode))
    throw usageError(`mode ${String(mode)} is invalid: it must be one of compare, workers, procs`);
  const { opts, context } = optionsOf(options, 'trace');
  const audit = ['pid', 'stacks', 'seconds'].find((name) => opts[name] !== undefined);
  if (audit) throw usageError(`${audit} is for an audit of another process, which is the CLI's: mmapbench trace --pid`);
  return documentOf(measureCommand(measureOptions(opts, mode, { trace: true }), output(opts, 'trace'), context));
}

/**
 * What changed between two saved runs (the CLI's `diff BASE NEW`), as a document.
 * @param {string} base  a results file
 * @param {string} next  a results file
 * @param {{ maxWorsening?: number | string, failInconclusive?: boolean }} [options]
 * @returns {Promise<Document>}
 */
export async function diff(base, next, options = {}) {
  if (typeof base !== 'string' || typeof next !== 'string')
    throw usageError('diff takes the paths of two results files, as diff(base, next)');
  const { opts } = optionsOf(options, 'diff');
  return diffFiles(base, next, opts);
}

/**
 * Saved results as the CLI prints them: the answer, or with `verbose` the whole text; `markdown`
 * for markdown. With `html`, the page is written there and its path is returned.
 * @param {string | string[]} files
 * @param {{ verbose?: boolean, markdown?: boolean, html?: string }} [options]
 * @returns {Promise<string>}
 */
export async function report(files, options = {}) {
  const list = [files].flat();
  if (!list.length || list.some((file) => typeof file !== 'string'))
    throw usageError('report takes the path of a results file, or a list of them');
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw usageError('the options must be an object, as { verbose: true }; see docs/api.md');
  const opts = readObject(options, SPECS_OF.report(), 'report');
  const { text, page } = await reportFiles({
    files: list,
    markdown: Boolean(opts.markdown),
    html: opts.html,
    exports: opts.export ?? [],
    verbose: Boolean(opts.verbose),
  });
  return page ? page.path : /** @type {string} */ (text);
}
