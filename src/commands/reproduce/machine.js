// What this machine offers a reproduce run, and which experiments it can run here.
import { existsSync } from 'node:fs';
import { environmentError } from '../../errors.js';
import { findJemalloc, preloadProblem } from '../../system/jemalloc.js';
import { cachedNode, resolveNode } from '../../system/node.js';
import { taskUnavailable } from '../../run/task-check.js';
import { loadTask } from '../../tasks/index.js';
import { defaultRestoreFile, leftover, thpProblem } from '../../system/thp.js';
import { preflight } from '../../trace/preflight.js';
import { EXPERIMENTS } from './experiments.js';

/**
 * What this machine offers the experiments: the jemalloc library, the THP file.
 * @param {{ node?: string, jemalloc?: string, thpPath: string, experiments: string[] }} options
 * @param {{ thpRestoreFile?: string }} request
 * @param {AbortSignal} [interrupt]
 * @param {{ install?: boolean, say?: (line: string) => void }} [how]  install: false to look in
 *   the cache only (--list), so that showing what could run downloads nothing; what a run would
 *   install is said instead. say: how a release being installed says so
 */
export async function machine(options, request, interrupt, { install = true, say } = {}) {
  const node = await resolveNode(options.node, interrupt, say);
  const jemalloc = findJemalloc(options.jemalloc);
  if (jemalloc.path) {
    const problem = preloadProblem(node.path, jemalloc.path);
    if (problem) Object.assign(jemalloc, { path: null, why: problem });
  }
  const thp = {
    path: options.thpPath,
    restoreFile: request.thpRestoreFile ?? defaultRestoreFile(),
    why: thpProblem(options.thpPath),
  };
  // the locks experiment traces, as `mmapbench trace` does: the same checks, each failure a reason
  const wanted = options.experiments.length === 0 || options.experiments.includes('locks');
  /** @type {{ setup: import('../../trace/preflight.js').TraceSetup | null, why: string | null }} */
  const trace = wanted
    ? await preflight({ interrupt }).then(
        (setup) => ({ setup, why: null }),
        (error) => ({ setup: null, why: error.message }),
      )
    : { setup: null, why: 'not asked for' };
  // node-fix runs on this Node and the newest 24 and 26 (installed on first use)
  const nodes =
    options.experiments.length === 0 || options.experiments.includes('node-fix')
      ? await fixNodes(node, interrupt, install, say)
      : [];
  return { node, jemalloc, thp, trace, nodes };
}

/** The releases node-fix measures besides the Node the run is on. */
const FIX_RELEASES = ['24', '26'];

/**
 * The Nodes node-fix runs on, each with whether readFileSync takes its buffer option there (the
 * task's own check, on that Node). One that cannot be had (offline) is kept with the reason;
 * without `install`, one not in the cache is kept as one a run would install.
 * @param {{ path: string, version: string }} running
 * @param {AbortSignal | undefined} interrupt
 * @param {boolean} install
 * @param {(line: string) => void} [say]  how a release being installed says so
 * @returns {Promise<import('./experiments.js').FixNode[]>}
 */
async function fixNodes(running, interrupt, install, say) {
  const task = await loadTask('readfilesync-into');
  /** @type {import('./experiments.js').FixNode[]} */
  const nodes = [];
  /** @type {Array<[string, string | null]>} */
  const wanted = [
    ["the run's Node", null],
    ...FIX_RELEASES.map((major) => /** @type {[string, string]} */ ([`Node ${major}`, major])),
  ];
  for (const [label, spec] of wanted) {
    /** @type {{ path: string, version: string } | null} */
    let node = running;
    let why = null;
    if (spec && !install) {
      node = await cachedNode(spec, interrupt);
      if (!node) {
        nodes.push({ label, path: null, version: null, hasOption: false, why: 'not installed', install: spec });
        continue;
      }
    } else if (spec)
      try {
        node = await resolveNode(spec, interrupt, say);
      } catch (error) {
        if (error.kind === 'interrupted' || interrupt?.aborted) throw error;
        [node, why] = [null, error.message];
      }
    if (node && nodes.some((other) => other.path === node?.path)) continue;
    const missing = node ? await taskUnavailable(task, node, {}, interrupt) : null;
    nodes.push({
      label,
      path: node?.path ?? null,
      version: node?.version ?? null,
      hasOption: Boolean(node) && !missing,
      why: why ?? missing,
    });
  }
  return nodes;
}

/**
 * The experiments to run and those skipped with the reason; a named one that cannot run is an error.
 * @param {{ experiments: string[] }} options
 * @param {Awaited<ReturnType<typeof machine>>} ctx
 */
export function select(options, ctx) {
  const named = options.experiments.length > 0;
  const runnable = [];
  /** @type {Array<{ name: string, reason: string }>} */
  const skipped = [];
  for (const experiment of EXPERIMENTS.filter((e) => !named || options.experiments.includes(e.name))) {
    const why = experiment.unavailable?.(ctx) ?? null;
    if (!why) runnable.push(experiment);
    else if (named) throw environmentError(`${experiment.name} cannot run here: ${why}`);
    else skipped.push({ name: experiment.name, reason: why });
  }
  if (runnable.some((e) => e.name === 'thp') && existsSync(ctx.thp.restoreFile)) {
    throw leftover(ctx.thp.restoreFile, ctx.thp.path);
  }
  return { runnable, skipped };
}
