// `--resume FILE`: a compare, workers, procs, sweep or advise run that was killed or stopped goes on from
// the document it kept, with the settings it was started with, on the same machine. Its rounds
// become the sessions the scheduler continues (run/scheduler.js), numbered on from the last.
import { machineFacts } from '../document/machine-facts.js';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageError } from '../errors.js';
import { warmupBatchOf } from '../run/work.js';
import { looksLikePath, moduleSha256 } from '../tasks/index.js';
import { plural } from '../words/spelling.js';

/**
 * The file a run goes on in: the one --resume names, or, where that is a symbolic link, its
 * target, so the continued run is kept where the rounds are and the link stays a link.
 * @param {string} path
 */
export function resumedFile(path) {
  try {
    return realpathSync(path);
  } catch {
    return path; // not there: loading it says so
  }
}

/**
 * A kept run that can go on: its document, and what it was asked (the options or the sweep's
 * request), checked to be of `command` and not finished.
 * @param {import('./load.js').Saved} saved  the file --resume names, loaded
 * @param {'compare'|'workers'|'procs'|'sweep'|'advise'|'reproduce'} command
 * @returns {{ path: string, document: any, request: any }}
 */
export function resumable(saved, command) {
  const { path } = saved;
  const why = saved.kind.resumeWith(saved.document);
  if (why !== null) throw usageError(`--resume ${path} is ${why}`);
  // the fields every kind shares, and `resume`, which only an unfinished one has
  const document = /** @type {any} */ (saved).document;
  if (document.command !== command)
    throw usageError(
      `--resume ${path} is ${/^[aeiou]/.test(document.command) ? 'an' : 'a'} ${document.command} run; resume it with \`mmapbench ${document.command} --resume\``,
    );
  if (document.status === 'complete')
    throw usageError(`--resume ${path} finished (status complete): there is nothing to go on with; start a new run`);
  // what it was asked: a reproduce run's options are its report's settings too
  const request = command === 'reproduce' ? document.options : document.resume;
  if (!request)
    throw usageError(
      `--resume ${path} does not say how it was started (saved by an mmapbench from before --resume); start a new run`,
    );
  return { path, document, request };
}

/**
 * A kept run going on: its file, its document, and what its check of the task modules warned of.
 * @typedef {{ path: string, document: any, warnings?: Array<{ code: string, text: string }> }} Resumed
 */

/**
 * How the machine differs from the one a kept run measured on: a resumed run's rounds must be
 * comparable with its first part's. Empty when it is the same.
 * @param {any} then  the kept document's environment
 * @param {any} now   describeEnvironment() for the resumed run
 * @returns {string[]}
 */
const machineChanges = (then, now) => {
  const facts = (/** @type {any} */ env) => ({
    Node: env.node.version,
    'Node binary': env.node.path,
    ...machineFacts(env),
  });
  const [before, after] = /** @type {Array<Record<string, string>>} */ ([facts(then), facts(now)]);
  return Object.keys(before).flatMap((name) =>
    before[name] === after[name] ? [] : [`${name} ${before[name] ?? 'n/a'} then, ${after[name] ?? 'n/a'} now`],
  );
};

/**
 * The line a resumed run starts with, once the machine is known to be the same; a usage error
 * naming what changed otherwise.
 * @param {{ path: string, document: any }} resumed
 * @param {any} environment  describeEnvironment() for the resumed run
 * @param {number} rounds  the rounds it kept
 */
export function resumingLine({ path, document }, environment, rounds) {
  const changes = machineChanges(document.environment, environment);
  if (changes.length)
    throw usageError(
      `--resume ${path} was measured on another machine or setting (${changes.join('; ')}): its rounds and new ones would not compare; start a new run`,
    );
  return `resuming ${path}: ${plural(rounds, 'round')} kept, ${Math.round(document.seconds)} s of its budget spent`;
}

/**
 * A run's document as it is kept: a finished run's as it is; any other carries what it was
 * asked (`resume`) and the user's task modules it ran (`modules`), and one still going is
 * `incomplete`.
 * @template {{ status: string }} D
 * @param {D} document  the document as built from the run so far
 * @param {unknown} request  the options, or a sweep's or an advise's request
 * @param {boolean} finished  false while the run is still going
 * @param {Record<string, string>} modules  modulesOf the run's plans
 * @returns {D & { resume?: unknown, modules?: Record<string, string> }}
 */
export const keptDocument = (document, request, finished, modules) =>
  document.status === 'complete' && finished
    ? document
    : {
        ...document,
        status: document.status === 'complete' ? 'incomplete' : document.status,
        resume: request,
        modules,
      };

/**
 * The user's task modules a run loaded, by absolute path, each with its file's SHA-256 when it
 * loaded: what --resume checks that new rounds measure the same code.
 * @param {Array<{ task: import('../tasks/index.js').LoadedTask }>} plans
 * @returns {Record<string, string>}
 */
export const modulesOf = (plans) =>
  Object.fromEntries(plans.flatMap(({ task }) => (task.sha256 ? [[fileURLToPath(task.url), task.sha256]] : [])));

/**
 * Checks that each task module a kept run loaded is still the file it measured, before it is
 * loaded again: new rounds of other code would be averaged with the kept ones. A changed one is
 * refused unless `force`, and then named on a warning line.
 * @param {{ path: string, document: any }} kept
 * @param {boolean} force  --force: go on with a module that changed
 * @param {Array<string | undefined>} tasks  the tasks the kept settings name (a sweep's axis)
 * @param {string} [cwd]  what their relative paths are relative to
 * @returns {Array<{ code: string, text: string }>}  warnings
 */
export function checkModules({ path, document }, force, tasks, cwd = process.cwd()) {
  // a file from before modules were kept has nothing to check against
  if (document.modules !== undefined) {
    for (const task of tasks) {
      if (task === undefined || !looksLikePath(task)) continue;
      const module = resolve(cwd, task);
      if (!Object.hasOwn(document.modules, module))
        throw usageError(
          `--resume ${path}: resume names task module ${module}, which the run did not load (it is not in "modules"); start a new run`,
        );
    }
  }
  const warnings = [];
  for (const [module, sha256] of Object.entries(document.modules ?? {})) {
    const now = moduleSha256(module, module);
    if (now === sha256) continue;
    if (!force)
      throw usageError(
        `--resume ${path} ran task module ${module}, which has changed since (its SHA-256 differs): new rounds would measure other code than the kept ones; restore it, start a new run, or pass --force to go on with it as it is`,
      );
    warnings.push({
      code: 'task-changed',
      text: `task module ${module} changed since the run began; going on with it as it is (--force)`,
    });
  }
  return warnings;
}

/**
 * A saved point's rounds and what it learned, as the scheduler's session.
 * @param {any} point  a measure document, or a sweep's point
 * @param {Array<'workers'|'procs'>} modes
 * @returns {import('../run/scheduler.js').Session}
 */
export function sessionOf(point, modes) {
  return {
    calibration: point.calibration ?? null,
    work: point.config.iterations
      ? {
          iterations: point.config.iterations,
          warmup: point.config.warmup,
          ...(point.config.iterationsByMode ? { byMode: point.config.iterationsByMode } : {}),
          // a window the schedule lengthened warms up by the batches it had (run/schedule.js):
          // those of the work the first round sized
          ...(point.sizing?.scheduled?.scale > 1
            ? { warmupBatch: warmupBatchOf({ iterations: point.sizing.iterations, warmup: point.config.warmup }) }
            : {}),
        }
      : null,
    rounds: point.rounds.map((/** @type {any} */ round) => ({
      index: round.index,
      order: round.order,
      ...(round.pilot ? { pilot: /** @type {const} */ (true) } : {}),
      cells: Object.fromEntries(modes.flatMap((mode) => (round[mode] ? [[mode, round[mode]]] : []))),
      ...(round.traced
        ? {
            traced: Object.fromEntries(
              modes.flatMap((mode) => (round.traced[mode] ? [[mode, round.traced[mode]]] : [])),
            ),
          }
        : {}),
      ...(round.plain ? { plain: round.plain } : {}),
    })),
    error: null,
    stop: null,
    seconds: point.seconds,
    sizing: point.sizing ?? null,
    // the fault rounds a run stopped in: a mode whose round ended is not run again
    ...(point.fault ? { fault: point.fault } : {}),
  };
}
