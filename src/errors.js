import { escapeText } from './escape.js';
/**
 * The one error type mmapbench throws on purpose. `bin/` prints `message` (one line) and sets
 * the exit code; everything else is for `--json`, tests and `--verbose`.
 */
export class MmapbenchError extends Error {
  /**
   * @param {string} message what failed, where, and the fix
   * @param {object} [fields]
   * @param {'usage'|'run'|'environment'|'interrupted'|'gate-failed'|'gate-inconclusive'|'budget'} [fields.kind]
   *   environment: this machine lacks something the command needs (root, bpftrace, tracefs);
   *   budget: the run ended on its --max-time before any round counted, so it has no ratio;
   *   gate-*: the run completed and its CI gate failed or could not decide (--fail-inconclusive)
   * @param {unknown} [fields.cause]
   * @param {number} [fields.worker] index of the worker/process that failed
   * @param {string} [fields.signal] signal that ended it
   * @param {boolean} [fields.timedOut]
   */
  constructor(message, { kind = 'run', cause, worker, signal, timedOut = false } = {}) {
    // one line, whatever it quotes (a path, a task's name, a file's string): never obeyed by a terminal
    super(escapeText(message), { cause });
    this.name = 'MmapbenchError';
    this.kind = kind;
    this.worker = worker;
    this.signal = signal;
    this.timedOut = timedOut;
    /** @type {string | undefined} the task's own stack, shown with --verbose */
    this.taskStack = undefined;
    /** @type {string | undefined} what the failed host printed (its last 64 KiB a stream), shown with --verbose */
    this.taskOutput = undefined;
  }

  get exitCode() {
    return EXIT_CODES[this.kind];
  }

  /** What kind of problem, as the exit code means it: the API's name for `kind` (docs/api.md). */
  get code() {
    return this.kind;
  }
}

export const EXIT_CODES = {
  run: 1,
  usage: 2,
  environment: 3,
  'gate-failed': 4,
  'gate-inconclusive': 5,
  budget: 6,
  interrupted: 130,
};

/** @param {string} message @param {unknown} [cause] */
export const usageError = (message, cause) => new MmapbenchError(message, { kind: 'usage', cause });
/** @param {string} message @param {unknown} [cause] */
export const environmentError = (message, cause) => new MmapbenchError(message, { kind: 'environment', cause });
