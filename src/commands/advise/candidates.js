// `advise`'s candidates: the fixes for the user's task that this machine can try, each a variant
// of the task measured beside it in one sweep. The baseline is the task as given.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlan } from '../../run/plan.js';
import { MmapbenchError } from '../../errors.js';
import { formatSize, parseSize } from '../../words/spelling.js';

/**
 * @typedef {object} Candidate
 * @property {string} name  how the ranking names it
 * @property {'baseline'|'glibc'|'allocator'|'task'|'node'|'v8'|'k'} kind  k: the baseline at another k,
 *   for the K to run (--k-auto), in no ranking
 * @property {Record<string, string>} env  added to the user's --env
 * @property {string | undefined} task  the task it runs; undefined: the user's
 * @property {Record<string, unknown>} params  added to the user's parameters
 * @property {string | undefined} node  another Node (--node)
 * @property {'workers'|'procs'|null} mode  the one mode it applies to, measured and ranked in
 *   that mode alone; null: both, ranked by the workers'
 * @property {string} apply  what the user changes to apply it: an environment line, or the code change
 * @property {{ semiSpace?: number, k?: number }} [options]  options of its own for the cells (V8's
 *   young generation, --semi-space; another k)
 */

/** The task as the user gave it: what every candidate is measured against. @type {Candidate} */
export const BASELINE = {
  name: 'baseline',
  kind: 'baseline',
  env: {},
  task: undefined,
  params: {},
  node: undefined,
  mode: null,
  apply: 'as it is',
};

/** glibc's heap settings worth trying (docs/advise.md says why), each with a short name. */
const MIB64 = String(64 * 1024 * 1024);
const GLIBC = [
  ['MALLOC_TOP_PAD_', MIB64, 'TOP_PAD 64 MiB'],
  ['MALLOC_TRIM_THRESHOLD_', MIB64, 'TRIM_THRESHOLD 64 MiB'],
  ['MALLOC_ARENA_MAX', '1', 'ARENA_MAX 1'],
  ['MALLOC_ARENA_MAX', '2', 'ARENA_MAX 2'],
];
// glibc's default mmap threshold: a larger allocation is mmap'd, and munmap'd when freed
const MMAP_THRESHOLD = 128 * 1024;
// the largest it takes on 64-bit (HEAP_MAX_SIZE / 2)
const MMAP_THRESHOLD_MAX = 32 * 1024 * 1024;

// two sizes of V8's semi-space to try (MiB): Node 20's default is 16 at most on 64-bit, so twice
// and four times that
const SEMI_SPACES = [32, 64];

const environmentLine = (/** @type {Record<string, string>} */ env) =>
  `${Object.entries(env)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ')} node ...`;

/**
 * The candidates for a task on this machine, the baseline first; and the allocators not found,
 * each with its install line (never installed here).
 * @param {object} facts
 * @param {import('../../tasks/index.js').LoadedTask} facts.task  the user's task
 * @param {import('../../tasks/index.js').TaskFix[]} [facts.fixes]  its fixes for the user's parameters (fixesOf)
 * @param {boolean} facts.glibc  whether the C library is glibc
 * @param {number} facts.fileSize  the bytes an op reads (the mmap threshold applies above 128 KiB)
 * @param {Array<{ name: string, path: string | null, install: string }>} facts.allocators  system/allocators.js
 * @param {string[]} [facts.nodes]  other Nodes to try (--node)
 * @param {{ version: string, poolSize: number }} [facts.node]  the Node the cells run on: a fix
 *   that sets its default pool again is that Node's default, no fix
 * @returns {{ candidates: Candidate[], missing: Array<{ name: string, install: string }>,
 *   defaults: Array<{ name: string, why: string }> }}  defaults: fixes that are the Node's own default
 */
export function candidatesFor({ task, fixes = task.fixes, glibc, fileSize, allocators, nodes = [], node }) {
  /** @type {Array<{ name: string, why: string }>} */
  const defaults = [];
  /** @type {Candidate[]} */
  const candidates = [BASELINE];
  const add = (/** @type {Omit<Candidate, 'task' | 'params' | 'node' | 'mode'> & Partial<Candidate>} */ candidate) =>
    candidates.push({ task: undefined, params: {}, node: undefined, mode: null, ...candidate });
  // a task that talks to its parent spends its time sending, not allocating: its candidates are
  // the other ways to send (its fixes), not the heap's settings
  const heap = !task.parent;
  if (glibc && heap) glibcCandidates(fileSize).forEach(add);
  for (const allocator of heap ? allocators : [])
    if (allocator.path)
      add({
        name: allocator.name,
        kind: 'allocator',
        env: { LD_PRELOAD: allocator.path },
        apply: environmentLine({ LD_PRELOAD: allocator.path }),
      });
  for (const fix of fixes) {
    if (node && fix.params?.poolSize !== undefined && parseSize(fix.params.poolSize) === node.poolSize) {
      defaults.push({
        name: fix.name,
        why: `Buffer.poolSize is ${formatSize(node.poolSize)} by default on Node ${node.version}, the Node the cells run on`,
      });
      continue;
    }
    add({
      name: fix.name,
      kind: 'task',
      env: {},
      task: fix.task === undefined ? undefined : besideTask(task, fix.task),
      params: fix.params ?? {},
      mode: fix.mode ?? null,
      apply: fix.change,
    });
  }
  // V8's young generation, as an app sizes it for each worker: a busy thread's page faults and
  // scavenges fall as its semi-space grows (docs/advise.md)
  for (const semiSpace of heap ? SEMI_SPACES : [])
    add({
      name: `semi-space ${semiSpace} MiB`,
      kind: 'v8',
      env: {},
      options: { semiSpace },
      apply: `threads: new Worker(file, { resourceLimits: { maxYoungGenerationSizeMb: ${3 * semiSpace} } }); children: fork(file, { execArgv: ['--max-semi-space-size=${semiSpace}'] })`,
    });
  for (const node of nodes) add({ name: `node ${node}`, kind: 'node', env: {}, node, apply: `run on Node ${node}` });
  return {
    candidates,
    missing: (heap ? allocators : []).flatMap((allocator) =>
      allocator.path ? [] : [{ name: allocator.name, install: allocator.install }],
    ),
    defaults,
  };
}

/**
 * glibc's settings, each alone, and, above the mmap threshold, a threshold above the reads' size,
 * so they come from the heap rather than from mmap and munmap.
 * @param {number} fileSize
 */
function glibcCandidates(fileSize) {
  const candidates = [];
  for (const [key, value, name] of GLIBC)
    candidates.push({ name, kind: 'glibc', env: { [key]: value }, apply: environmentLine({ [key]: value }) });
  if (fileSize >= MMAP_THRESHOLD) {
    const value = String(Math.min(MMAP_THRESHOLD_MAX, 2 ** Math.ceil(Math.log2(fileSize * 2))));
    candidates.push({
      name: `MMAP_THRESHOLD ${formatSize(Number(value))}`,
      kind: 'glibc',
      env: { MALLOC_MMAP_THRESHOLD_: value },
      apply: environmentLine({ MALLOC_MMAP_THRESHOLD_: value }),
    });
  }
  return candidates;
}

/**
 * A fix's task as `--task` takes it: a built-in's name as it is, a path relative to the folder
 * of the module that declared it (a user's task names its sibling files).
 * @param {import('../../tasks/index.js').LoadedTask} task
 * @param {string} fixTask
 */
const besideTask = (task, fixTask) =>
  /^\.{1,2}[/\\]/.test(fixTask) && task.url.startsWith('file:')
    ? resolve(dirname(fileURLToPath(task.url)), fixTask)
    : fixTask;

/**
 * The baseline at every other k up to the CPUs this process may use (1, 2, 4, … and that count):
 * with the baseline itself, a k axis, whose scaling reading gives the K to run (--k-auto). Each
 * is named as the baseline is, so the sweep reads them as one group.
 * @param {number} k  the baseline's
 * @param {number} cpus
 * @returns {Candidate[]}
 */
export function scalingCandidates(k, cpus) {
  const ks = new Set([cpus]);
  for (let one = 1; one < cpus; one *= 2) ks.add(one);
  return [...ks]
    .filter((one) => one !== k)
    .sort((a, b) => a - b)
    .map((one) => ({ ...BASELINE, kind: /** @type {const} */ ('k'), options: { k: one }, apply: `-k ${one}` }));
}

/** The candidates the user named, whose errors end the run as compare's would. */
const USERS = ['baseline', 'node'];

/**
 * Each candidate as a point of a sweep, planned now: one that cannot start here (a library the
 * loader refuses, a task that does not load) is skipped with its reason, not the whole run.
 * @param {Candidate[]} candidates
 * @param {import('../../run/plan.js').MeasureOptions} shared  the user's options, the baseline's
 * @param {{ interrupt?: AbortSignal, say?: (line: string) => void, resumed?: import('../../run/plan.js').KeptK }} [context]
 * @param {Planned[]} [planned]  candidates planned already (the baseline), kept first
 *
 * @typedef {import('../sweep/points.js').SweepSetting & { plan: import('../../run/plan.js').Plan, candidate: Candidate }} Planned
 */
export async function planCandidates(candidates, shared, context, planned = /** @type {Planned[]} */ ([])) {
  planned = [...planned];
  /** @type {Array<{ name: string, reason: string }>} */
  const skipped = [];
  for (const candidate of candidates) {
    const at = {
      node: candidate.node ?? shared.node,
      task: candidate.task ?? shared.task,
      variant: { name: candidate.name, env: candidate.env },
      file: shared.file,
      params: candidate.params,
      k: candidate.options?.k ?? shared.k,
      cycles: shared.cycles,
    };
    /** @type {import('../../run/plan.js').MeasureOptions} */
    const options = {
      ...shared,
      command: 'compare',
      ...(candidate.mode ? { only: candidate.mode } : {}),
      node: at.node,
      task: at.task,
      // a fix that runs another task takes its own parameters, not the user's task's
      params: candidate.task ? { ...candidate.params } : { ...shared.params, ...candidate.params },
      env: { ...shared.env, ...candidate.env },
      ...candidate.options,
      keepUnavailable: true,
    };
    try {
      const plan = await buildPlan(options, context);
      planned.push({ id: `p${planned.length + 1}`, at, options, plan, candidate });
    } catch (error) {
      // the baseline and a --node are the user's own settings: their errors are theirs to fix,
      // with the exit code compare gives them
      if (USERS.includes(candidate.kind) || !(error instanceof MmapbenchError) || error.kind === 'interrupted')
        throw error;
      skipped.push({ name: candidate.name, reason: error.message });
    }
  }
  return { planned, skipped };
}
