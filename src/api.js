// mmapbench as a library: each command as a function of an options object that mirrors its
// command line in camelCase. The options become that command line and run through the same
// parser, checks and code as `npx mmapbench`, so a value the CLI refuses is refused here with the
// same message, as a MmapbenchError whose `code` says what kind of problem it is. Nothing is
// written to stdout or stderr, and nothing is saved unless `out` says where.
import { Writable } from 'node:stream';
import { run } from './cli/index.js';
import { MmapbenchError, usageError } from './errors.js';

export { MmapbenchError, EXIT_CODES } from './errors.js';

/**
 * @typedef {import('./tasks/index.js').Task} Task  what a task module exports (docs/tasks.md)
 * @typedef {import('./tasks/index.js').TaskContext} TaskContext  what a task's functions are given
 *
 * @typedef {object} ProgressEvent  one cell finished
 * @property {string} command
 * @property {number} round  the round it belongs to
 * @property {'workers'|'procs'} mode
 * @property {string} [point]  a sweep's or advise's point
 * @property {{ ratio: number, halfWidth: number | null } | null} soFar  compare: the ratio of the
 *   complete rounds so far, and its relative half-width once there are 3
 *
 * @typedef {object} RunOptions  what every measuring function takes besides its command's options
 * @property {AbortSignal} [signal]  stops the run: it resolves with what finished, `status: 'interrupted'`
 * @property {(event: ProgressEvent) => void} [onProgress]  after every cell
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

/** A stream that keeps what is written to it. */
class Kept extends Writable {
  text = '';
  /** @param {any} chunk @param {BufferEncoding} _encoding @param {() => void} done */
  _write(chunk, _encoding, done) {
    this.text += String(chunk);
    done();
  }
}

const kebab = (/** @type {string} */ name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// the options that are the function's, not its command line's
const OWN = ['signal', 'onProgress'];

/**
 * An options object as the command line it mirrors: `{ maxTime: 10, env: { A: 1 } }` is
 * `--max-time 10 --env A=1`; a list is one comma-separated value (sweep's axes); true is a
 * flag, false its `--no-` form; a precision given as a number is a percent.
 * @param {Record<string, unknown>} options
 * @returns {string[]}
 */
function argsOf(options) {
  /** @type {string[]} */
  const args = [];
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || OWN.includes(name)) continue;
    const flag = name.length === 1 ? `-${name}` : `--${kebab(name)}`;
    if (value === true) args.push(flag);
    else if (value === false) args.push(`--no-${kebab(name)}`);
    else if (name === 'env' || name === 'param') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw usageError(
          `${name} must be an object of NAME: value, as { ${name === 'env' ? 'MALLOC_ARENA_MAX: 1' : 'concurrency: 8'} }`,
        );
      for (const [key, setting] of Object.entries(value)) args.push(flag, `${key}=${setting}`);
    } else if (Array.isArray(value)) {
      // sweep's axes take one comma-separated list; --node and --variant repeat
      if (name === 'variant' || name === 'export') for (const one of value) args.push(flag, String(one));
      else args.push(flag, value.join(','));
    } else if (name === 'precision' && typeof value === 'number') args.push(flag, `${value}%`);
    else args.push(flag, String(value));
  }
  return args;
}

/**
 * Runs one command line with the document as its result.
 * @param {string[]} command  the command and what comes before the options (trace's mode)
 * @param {Record<string, any>} options
 * @param {{ json?: boolean, saves?: boolean }} [how]  json: the command prints its document with
 *   --json; saves: it saves its results unless told --no-save
 * @returns {Promise<any>}
 */
async function call(command, options = {}, { json = true, saves = true } = {}) {
  if (options === null || typeof options !== 'object') throw usageError('options must be an object');
  const stdout = new Kept();
  const stderr = new Kept();
  const save = saves && options.out === undefined && options.save === undefined ? ['--no-save'] : [];
  const args = [...command, ...argsOf(options), ...save, ...(json ? ['--json'] : [])];
  /** @type {import('./cli/index.js').Context} */
  const context = { stdout, stderr, interrupt: options.signal, onProgress: options.onProgress, args };
  try {
    await run(args, context);
  } catch (error) {
    // a run stopped, or whose gate failed, has its document: what finished is the answer
    if (
      error instanceof MmapbenchError &&
      json &&
      stdout.text &&
      ['interrupted', 'gate-failed', 'gate-inconclusive'].includes(error.kind)
    )
      return JSON.parse(stdout.text);
    throw error;
  }
  return json ? JSON.parse(stdout.text) : stdout.text;
}

/**
 * Threads against processes on one task: the workers/procs ratio with its 95% CI, a verdict,
 * and the trade-off (memory, start-up, latency).
 * @param {MeasureOptions & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const compare = (options) => call(['compare'], options);

/**
 * K Worker threads alone, in one fresh process.
 * @param {MeasureOptions & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const workers = (options) => call(['workers'], options);

/**
 * K child processes alone.
 * @param {MeasureOptions & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const procs = (options) => call(['procs'], options);

/**
 * A compare at every point of a grid: each setting option takes a list (`k: [1, 2, 4]`).
 * @param {Record<string, unknown> & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const sweep = (options) => call(['sweep'], options);

/**
 * The fixes for a task, measured beside it and ranked (the document's `advice`).
 * @param {Record<string, unknown> & RunOptions} [options]
 * @returns {Promise<Document>}
 */
export const advise = (options) => call(['advise'], options);

/**
 * compare (or `mode: 'workers' | 'procs'`) under bpftrace: the mmap_lock evidence. Needs root.
 * @param {MeasureOptions & RunOptions & { mode?: 'compare'|'workers'|'procs' }} [options]
 * @returns {Promise<Document>}
 */
export const trace = ({ mode = 'compare', ...options } = {}) => call(['trace', mode], options);

/**
 * What changed between two saved runs (the CLI's `diff BASE NEW`), as a document.
 * @param {string} base  a results file
 * @param {string} next  a results file
 * @param {{ maxWorsening?: number | string, failInconclusive?: boolean }} [options]
 * @returns {Promise<Document>}
 */
export const diff = (base, next, options = {}) => call(['diff', base, next], options, { saves: false });

/**
 * Saved results as the CLI prints them: the answer, or with `verbose` the whole text; `markdown`
 * for markdown. With `html`, the page is written there and its path is returned.
 * @param {string | string[]} files
 * @param {{ verbose?: boolean, markdown?: boolean, html?: string }} [options]
 * @returns {Promise<string>}
 */
export async function report(files, options = {}) {
  const text = await call(['report', ...[files].flat()], options, { json: false, saves: false });
  return options.html ?? text;
}
