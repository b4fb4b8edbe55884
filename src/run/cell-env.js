// The cells' environment: what they inherit of the CLI's, and a preloaded allocator checked
// before any cell runs with it.
import { usageError } from '../errors.js';
import { ALLOCATOR_VARS } from '../system/environment.js';

/**
 * Variables the cells do not inherit: read by Node at every process start and by no task.
 * NODE_EXTRA_CA_CERTS has each process parse a CA bundle at start (most of Node's start, for
 * every process of every cell), into the heap a procs cell then measures.
 * `--env NAME=VALUE` sets one in the cells all the same.
 */
const STARTUP_ONLY_VARS = ['NODE_EXTRA_CA_CERTS'];

/**
 * What the cells inherit of the CLI's environment, before --env: all of it but the variables
 * read only at Node's start, and, for reproduce (whose settings each name their allocator),
 * without MALLOC_*, GLIBC_TUNABLES and LD_PRELOAD.
 * @param {NodeJS.ProcessEnv} env
 * @param {{ allocator: boolean, startup?: boolean }} keep  startup: keep STARTUP_ONLY_VARS too
 *   (--inherit-env)
 */
export const inheritedEnv = (env, { allocator, startup = false }) =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => (startup || !STARTUP_ONLY_VARS.includes(name)) && (allocator || !ALLOCATOR_VARS.test(name)),
    ),
  );

/**
 * What the cells inherit of this process's environment: the allocator's variables unless a
 * setting names its own, and what Node reads at start only with --inherit-env.
 * @param {{ inheritAllocatorEnv?: boolean, inheritEnv?: boolean }} options  a MeasureOptions (plan.js)
 */
export const inheriting = (options) => ({
  allocator: options.inheritAllocatorEnv !== false,
  startup: Boolean(options.inheritEnv),
});

/**
 * The dynamic loader skips a library it cannot load with a warning only: check, or the report
 * would name an allocator the cells never ran with (the check loads only when one is preloaded).
 * @param {string} nodePath
 * @param {Record<string, string>} envOverrides  with LD_PRELOAD
 */
export async function checkPreload(nodePath, envOverrides) {
  const { preloadProblem } = await import('../system/jemalloc.js');
  const problem = preloadProblem(nodePath, envOverrides.LD_PRELOAD, { ...process.env, ...envOverrides });
  if (problem)
    throw usageError(
      `--env LD_PRELOAD=${envOverrides.LD_PRELOAD}: ${problem}; pass the path of a shared library, e.g. --env LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2`,
    );
}
