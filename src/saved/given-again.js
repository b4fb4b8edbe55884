// The rule that a results file never chooses what runs: a program, library, task module, folder
// or environment a kept run names is used only when the user names it again with --resume (a
// file may come from anyone, and bpftrace runs as root). compare, sweep, advise and reproduce
// resume through it.
import { resolve } from 'node:path';
import { usageError } from '../errors.js';
import { findAllocators } from '../system/allocators.js';
import { parseVersionSpec } from '../system/node.js';
import { looksLikePath } from '../tasks/index.js';
import { commandLine } from '../words/command-line.js';
import { pairs } from '../words/vocabulary.js';

/**
 * A binary a kept run names runs only when the user gives it again: a results file may come
 * from anyone, and bpftrace runs as root.
 * @param {string} flag  --node, --bpftrace or --task
 * @param {string | undefined} kept  the binary the file names, when it names one by path
 * @param {string | undefined} given  the same option given with --resume
 * @param {string} path  the file
 * @param {object} [how]
 * @param {string} [how.shown]  how the fix names it (a task as the run was given it)
 * @param {string} [how.typed]  how the user gave it now
 * @param {(given: string, kept: string) => boolean} [how.same]  whether what was given is what was kept
 * @param {boolean} [how.needed]  whether it must be given (not where the file keeps the default)
 */
export function confirmBinary(flag, kept, given, path, how = {}) {
  const { shown = kept, typed = given, same = (a, b) => a === b, needed = kept !== undefined } = how;
  if (given !== undefined && (kept === undefined || !same(given, kept)))
    throw usageError(
      `${flag} ${typed} is not what --resume ${path} ran with (${kept ?? 'none given'}): a resumed run goes on with the same ${flag.slice(2)}; drop ${flag}, or start a new run`,
    );
  if (needed && given === undefined)
    throw usageError(
      `--resume ${path} runs ${kept} (${flag}); a results file may come from anyone, so name it yourself: add ${flag} ${commandLine([shown ?? String(kept)])}`,
    );
}

/**
 * A task module a kept run names by path loads only when the user names it again (`--task`): its
 * top level runs in the load probe and in every cell.
 * @param {Array<string | undefined>} tasks  the kept tasks (a sweep's axis)
 * @param {string | undefined} cwd  what their relative paths are relative to
 * @param {Record<string, any>} given  the options given with --resume
 * @param {string} path  the file
 */
export function confirmModules(tasks, cwd = process.cwd(), given, path) {
  const modules = tasks.filter((task) => task !== undefined && looksLikePath(task));
  const named = [given.task ?? []].flat().map(String);
  confirmBinary(
    '--task',
    modules.length ? modules.map((task) => resolve(cwd, String(task))).join(',') : undefined,
    named.length ? named.map((task) => resolve(task)).join(',') : undefined,
    path,
    { shown: modules.join(','), typed: named.join(',') },
  );
}

/**
 * The malloc replacements this machine has, by path: looked for once, and only when a kept
 * LD_PRELOAD asks.
 * @returns {() => string[]}
 */
function allocatorsFound() {
  /** @type {string[] | undefined} */
  let found;
  return () => (found ??= findAllocators().flatMap((allocator) => (allocator.path ? [allocator.path] : [])));
}

/**
 * What a kept run may set in its cells without the user naming it: glibc's malloc settings as
 * numbers, the libuv pool's size, and a malloc replacement this machine has (what --variant and
 * advise's candidates set). Anything else (NODE_OPTIONS, LD_LIBRARY_PATH, another LD_PRELOAD)
 * loads or runs code, and a results file may come from anyone.
 * @param {string} name
 * @param {string} value
 * @param {() => string[]} allocators  the libraries findAllocators found here
 */
const knownSetting = (name, value, allocators) =>
  (/^MALLOC_[A-Z_]+$/.test(name) && /^-?\d+$/.test(value)) ||
  (name === 'UV_THREADPOOL_SIZE' && /^\d+$/.test(value)) ||
  (name === 'GLIBC_TUNABLES' && value.split(':').every((tunable) => /^glibc\.malloc\.\w+=\d+$/.test(tunable))) ||
  (name === 'LD_PRELOAD' && allocators().includes(value));

/**
 * A kept environment reaches the cells only where each variable is a known allocator setting or
 * the user gives it again (`--env NAME=VALUE`); --env given with --resume names nothing else.
 * @param {Array<[string, Record<string, string>]>} environments  each field and the variables it sets
 * @param {Record<string, any>} given  the options given with --resume
 * @param {string} path  the file
 */
export function confirmEnv(environments, given, path) {
  const named = pairs(given.env, '--env', 'MALLOC_ARENA_MAX=1');
  const allocators = allocatorsFound();
  for (const [field, env] of environments)
    for (const [name, value] of Object.entries(env)) {
      if (named[name] === value || knownSetting(name, value, allocators)) continue;
      throw usageError(
        `--resume ${path} sets ${name} in the cells (${field}); a results file may come from anyone, so name it yourself: add --env ${name}=${commandLine([value])}, or start a new run`,
      );
    }
  for (const [name, value] of Object.entries(named))
    if (!environments.some(([, env]) => env[name] === value))
      throw usageError(
        `--env ${name}=${commandLine([value])} is not what --resume ${path} ran with: a resumed run goes on with the same environment; drop it, or start a new run`,
      );
}

/**
 * What `--resume` of a kept compare, sweep or advise must be given again, as flags, for the line
 * that says how to finish it: each Node binary and task module it names by path, the folder it
 * keeps fixtures in, its bpftrace, and every variable it sets in the cells that no known setting
 * lets through (each as the checks above compare it: a binary as kept, a module resolved).
 * @param {any} request  the document's `resume`: a compare's options, or a sweep's or an
 *   advise's request (`shared`, and `axes` or `advise`)
 * @returns {string[]}
 */
export function flagsGivenAgain(request) {
  const shared = request.shared ?? request;
  const nodes = /** @type {unknown[]} */ (request.axes?.node ?? request.advise?.node ?? [shared.node]);
  const tasks = /** @type {unknown[]} */ (request.axes?.task ?? [shared.task]);
  const environments = [shared.env ?? {}, ...(request.axes?.variant ?? []).map((/** @type {any} */ v) => v?.env ?? {})];
  const allocators = allocatorsFound();
  const env = new Map(
    environments.flatMap((one) =>
      Object.entries(/** @type {Record<string, string>} */ (one)).filter(
        ([name, value]) => !knownSetting(name, value, allocators),
      ),
    ),
  );
  const modules = tasks.filter((task) => typeof task === 'string' && looksLikePath(task));
  return [
    ...nodes.flatMap((node) => (typeof node === 'string' && !parseVersionSpec(node) ? ['--node', node] : [])),
    ...modules.flatMap((task) => ['--task', resolve(shared.cwd ?? process.cwd(), String(task))]),
    ...(shared.fixturesDir ? ['--fixtures-dir', String(shared.fixturesDir)] : []),
    ...(shared.trace?.bpftrace ? ['--bpftrace', String(shared.trace.bpftrace)] : []),
    ...[...env].flatMap(([name, value]) => ['--env', `${name}=${value}`]),
  ];
}
