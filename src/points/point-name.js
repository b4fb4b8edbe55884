// The full name a measured point goes by (`pointLabel`): what it ran, as the gate, the exports,
// diff, --ci's log and --verbose name it, the same in every run of that setting. Within one
// sweep, only the axes that tell its points apart name it (commands/sweep/columns.js).

/**
 * `KEY=value` pairs sorted by key, space-separated: `MALLOC_ARENA_MAX=1 MALLOC_TOP_PAD_=0`. A
 * parameter left out (undefined) is not named, as a saved document, which has no such key, reads.
 */
export const envText = (/** @type {Record<string, unknown> | undefined} */ env) =>
  Object.entries(env ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');

/**
 * The pool a point's cells ran the task through (compare --pool), as far as it names the point:
 * which pool, its two runtimes, the ops of a pool task where --batch set them (a batch sized from
 * the calibrated work, as the work itself, does not), and whether each task had a fresh worker.
 * @typedef {{ name: string, runtimes?: { workers?: string, procs?: string }, batch?: number | null,
 *   batchGiven?: boolean, isolate?: boolean }} PoolSetting
 */

/**
 * What names a point: what it ran. A reproduce run's points are its experiments' settings
 * (`experiment` and `variant`), with no task of their own.
 * @typedef {{ task: string, k: number, file?: { label: string }, env?: Record<string, string>,
 *   params?: Record<string, unknown>, node?: string | null, variant?: string | null,
 *   experiment?: string, cycles?: number, pool?: PoolSetting | null }} Setting  cycles: --cycles,
 *   named where more than 1; pool: a pool run's
 */

/**
 * A pool's part of a point's name: `tinypool`, `tinypool isolate batch=1`.
 * @param {PoolSetting | null | undefined} pool
 */
export const poolText = (pool) =>
  pool
    ? [pool.name, pool.isolate ? 'isolate' : '', pool.batchGiven ? `batch=${pool.batch}` : ''].filter(Boolean).join(' ')
    : '';

/**
 * What of a pool must be equal for two runs' points to be compared: the pool, its runtimes, a
 * batch --batch gave, isolate; null for a raw run.
 * @param {PoolSetting | null | undefined} pool
 */
export const poolKey = (pool) =>
  pool
    ? [
        pool.name,
        pool.runtimes?.workers ?? null,
        pool.runtimes?.procs ?? null,
        pool.batchGiven ? (pool.batch ?? null) : null,
        Boolean(pool.isolate),
      ]
    : null;

/**
 * A point in full: `arena1 · readfilesync · med (64 KiB) · k=2 · MALLOC_ARENA_MAX=1`, or a
 * reproduce run's `000 · baseline · k=2`. The variant and the Node only where a sweep has more
 * than one of them.
 * @param {Setting} setting
 */
export const pointLabel = ({ experiment, task, file, k, env, params, node, variant, cycles, pool }) =>
  [
    experiment,
    variant,
    task,
    file?.label,
    poolText(pool),
    `k=${k}`,
    (cycles ?? 1) > 1 ? `cycles=${cycles}` : '',
    envText(env),
    envText(params),
    node,
  ]
    .filter(Boolean)
    .join(' · ');
