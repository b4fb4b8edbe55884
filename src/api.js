// mmapbench as a library: each command as a function of an options object, its flags in
// camelCase. The object is checked against the command line's own option table (core/command-options.js),
// so a value the CLI refuses is refused here with the same words, as a MmapbenchError whose
// `code` says what kind of problem it is; then the command's core runs and its document is the
// result. Nothing is written to stdout, stderr or $GITHUB_STEP_SUMMARY, and nothing is saved
// unless `out` says where (or `resume` names the file to go on with). A run's warnings are in
// its document (`warnings`) and reach `onWarning` as they happen.
import { MmapbenchError, usageError } from './errors.js';
import { optionsOf as specsOf } from './core/command-options.js';
import { readObject } from './core/option-spec.js';
import { measureOptions, output } from './core/typed-options.js';
import { SILENT } from './core/reporter.js';

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
 *
 * @typedef {import('./core/command-options.js').CompareOptions} CompareOptions  compare's flags in camelCase
 * @typedef {import('./core/command-options.js').WorkersOptions} WorkersOptions
 * @typedef {import('./core/command-options.js').ProcsOptions} ProcsOptions
 * @typedef {import('./core/command-options.js').SweepOptions} SweepOptions  an axis takes a value or a list
 * @typedef {import('./core/command-options.js').AdviseOptions} AdviseOptions
 * @typedef {import('./core/command-options.js').TraceOptions} TraceOptions
 * @typedef {import('./core/command-options.js').DiffOptions} DiffOptions
 * @typedef {import('./core/command-options.js').ReportOptions} ReportOptions
 *
 * @typedef {import('./document/document.js').MeasureDocument} CompareDocument  what compare,
 *   workers, procs and trace print with `--json` (docs/json.md): laid out as a sweep's, its one
 *   point's figures under `points`
 * @typedef {import('./commands/sweep/document.js').SweepDocument} SweepDocument  sweep's, and advise's with its `advice`
 * @typedef {SweepDocument & { advice: import('./commands/advise/types.js').Advice }} AdviseDocument
 * @typedef {import('./commands/diff/document.js').DiffDocument} DiffDocument
 * @typedef {CompareDocument | SweepDocument | DiffDocument} Document  any document a function resolves with
 */

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
  const { specs } = specsOf(command);
  const refused = Object.keys(specs).find((name) => specs[name].cli && rest[name] !== undefined);
  if (refused) throw usageError(`${refused} is the command line's: ${specs[refused].cli}`);
  // nothing is saved unless `out` says where; a resumed run goes on in its own file
  const saves = !specs.save || rest.out !== undefined || rest.resume !== undefined || rest.save !== undefined;
  const opts = readObject(saves ? rest : { ...rest, save: false }, specs, command);
  /** @type {import('./core/reporter.js').Context} */
  const context = {
    interrupt: /** @type {AbortSignal | undefined} */ (signal),
    // the caller hears the warnings and the cells; notes and the progress bar are the CLI's
    reporter: {
      ...SILENT,
      warn: (warning) => /** @type {((warning: Warning) => void) | undefined} */ (onWarning)?.(warning),
      cell: (event) => /** @type {((event: ProgressEvent) => void) | undefined} */ (onProgress)?.(event),
    },
  };
  return { opts, context };
}

/**
 * The document a run kept. A run stopped by the signal resolves with what finished; one that
 * failed after measuring (a cell, a full disk, a budget too short) rejects with its error, the
 * document of what finished attached as `error.document`. A gate is the caller's to read.
 * @param {Promise<import('./core/controller.js').Finished>} run
 * @returns {Promise<any>}  the command's document: each function below names its type
 */
async function documentOf(run) {
  const [finished, { endingError }] = await Promise.all([run, import('./core/controller.js')]);
  const error = endingError(finished);
  if (error && !(error instanceof MmapbenchError && error.kind === 'interrupted')) throw error;
  return finished.document;
}

/**
 * Runs a call's core; what it started to contain its trees (a cgroup, the watcher) ends when it
 * settles, not when the caller's process exits.
 * @template T
 * @param {() => Promise<T>} call
 * @returns {Promise<T>}
 */
async function contained(call) {
  const { holdTrees } = await import('./system/containment.js');
  const release = holdTrees();
  try {
    return await call();
  } finally {
    release();
  }
}

/**
 * compare, workers or procs.
 * @param {'compare'|'workers'|'procs'} command
 * @param {unknown} options
 * @returns {Promise<CompareDocument>}
 */
async function measure(command, options) {
  const { opts, context } = optionsOf(options, command);
  // each command's core loads when it runs, as the CLI's does: importing mmapbench stays cheap
  const { measureOrResume } = await import('./commands/compare/run.js');
  return contained(() => documentOf(measureOrResume(opts, command, output(opts, command), context)));
}

/**
 * Threads against processes on one task: the workers/procs ratio with its 95% CI, a verdict,
 * and the trade-off (memory, start-up, latency).
 * @param {CompareOptions & RunOptions} [options]
 * @returns {Promise<CompareDocument>}
 */
export const compare = (options) => measure('compare', options);

/**
 * K Worker threads alone, in one fresh process.
 * @param {WorkersOptions & RunOptions} [options]
 * @returns {Promise<CompareDocument>}
 */
export const workers = (options) => measure('workers', options);

/**
 * K child processes alone.
 * @param {ProcsOptions & RunOptions} [options]
 * @returns {Promise<CompareDocument>}
 */
export const procs = (options) => measure('procs', options);

/**
 * A compare at every point of a grid: each setting option takes a list (`k: [1, 2, 4]`).
 * @param {SweepOptions & RunOptions} [options]
 * @returns {Promise<SweepDocument>}
 */
export async function sweep(options) {
  const { opts, context } = optionsOf(options, 'sweep');
  const { sweepOrResume } = await import('./commands/sweep/run.js');
  return contained(() => documentOf(sweepOrResume(opts, output(opts, 'sweep'), context)));
}

/**
 * The fixes for a task, measured beside it and ranked (the document's `advice`).
 * @param {AdviseOptions & RunOptions} [options]
 * @returns {Promise<AdviseDocument>}
 */
export async function advise(options) {
  const { opts, context } = optionsOf(options, 'advise');
  const { adviseOrResume } = await import('./commands/advise/run.js');
  return contained(() => documentOf(adviseOrResume(opts, output(opts, 'advise'), context)));
}

/**
 * compare (or `mode: 'workers' | 'procs'`) under bpftrace: the mmap_lock evidence. Needs root.
 * @param {TraceOptions & RunOptions & { mode?: 'compare'|'workers'|'procs' }} [options]
 * @returns {Promise<CompareDocument>}
 */
export async function trace({ mode = 'compare', ...options } = {}) {
  if (!['compare', 'workers', 'procs'].includes(mode))
    throw usageError(`mode ${String(mode)} is invalid: it must be one of compare, workers, procs`);
  const { opts, context } = optionsOf(options, 'trace');
  const { measureCommand } = await import('./commands/compare/run.js');
  return contained(() =>
    documentOf(measureCommand(measureOptions(opts, mode, { trace: true }), output(opts, 'trace'), context)),
  );
}

/**
 * What changed between two saved runs (the CLI's `diff BASE NEW`), as a document.
 * @param {string} base  a results file
 * @param {string} next  a results file
 * @param {DiffOptions} [options]
 * @returns {Promise<DiffDocument>}
 */
export async function diff(base, next, options = {}) {
  if (typeof base !== 'string' || typeof next !== 'string')
    throw usageError('diff takes the paths of two results files, as diff(base, next)');
  const { opts } = optionsOf(options, 'diff');
  const { diffFiles } = await import('./commands/diff/run.js');
  return diffFiles(base, next, opts);
}

/**
 * Results as the CLI prints them: the answer, or with `verbose` the whole text; `markdown` for
 * markdown. Given saved files (paths), their text, or with `html` the page written there and its
 * path; given a document a function returned, its text: the sentences (the verdict, what to try
 * next) are drawn from its figures, as the CLI draws them.
 * @param {string | string[] | Document} files  results files, or a document
 * @param {ReportOptions} [options]
 * @returns {Promise<string>}
 */
export async function report(files, options = {}) {
  const { opts } = optionsOf(options, 'report');
  const { checkDocument, documentText, reportFiles } = await import('./commands/report/run.js');
  if (files !== null && typeof files === 'object' && !Array.isArray(files)) {
    if (typeof files.command !== 'string')
      throw usageError('report takes a document a function returned, or the path of a results file');
    const { document } = checkDocument(files, 'report(document)');
    if (opts.html !== undefined || opts.export !== undefined)
      throw usageError('html and export are for saved files: give report() their paths');
    return documentText(document, { markdown: Boolean(opts.markdown), verbose: Boolean(opts.verbose) });
  }
  const list = /** @type {string[]} */ ([files].flat());
  if (!list.length || list.some((file) => typeof file !== 'string'))
    throw usageError('report takes the path of a results file, or a list of them');
  const { text, page } = await reportFiles({
    files: list,
    markdown: Boolean(opts.markdown),
    html: opts.html,
    exports: opts.export ?? [],
    verbose: Boolean(opts.verbose),
  });
  return page ? page.path : /** @type {string} */ (text);
}
