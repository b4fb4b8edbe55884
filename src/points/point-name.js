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
 * What names a point: what it ran. A reproduce run's points are its experiments' settings
 * (`experiment` and `variant`), with no task of their own.
 * @typedef {{ task: string, k: number, file?: { label: string }, env?: Record<string, string>,
 *   params?: Record<string, unknown>, node?: string | null, variant?: string | null,
 *   experiment?: string, cycles?: number }} Setting  cycles: --cycles, named where more than 1
 */

/**
 * A point in full: `arena1 · readfilesync · med (64 KiB) · k=2 · MALLOC_ARENA_MAX=1`, or a
 * reproduce run's `000 · baseline · k=2`. The variant and the Node only where a sweep has more
 * than one of them.
 * @param {Setting} setting
 */
export const pointLabel = ({ experiment, task, file, k, env, params, node, variant, cycles }) =>
  [
    experiment,
    variant,
    task,
    file?.label,
    `k=${k}`,
    (cycles ?? 1) > 1 ? `cycles=${cycles}` : '',
    envText(env),
    envText(params),
    node,
  ]
    .filter(Boolean)
    .join(' · ');
