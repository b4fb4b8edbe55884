// Every name a measured point goes by, in one place. In full (`pointLabel`): what it ran, as
// the gate, the exports, diff, --ci's log and --verbose name it, the same in every run of that
// setting. Within one sweep (`pointName`): only the axes that tell its points apart, as its
// tables, notes and charts head them.
import { kebab } from '../words/vocabulary.js';

/**
 * @typedef {import('../document/sweep.js').Axes} Axes
 * @typedef {import('../document/sweep.js').SavedPoint} SavedPoint
 */

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

/**
 * The axes that take more than one value: the columns that tell the points apart.
 * @param {Axes} axes
 * @returns {Array<{ head: string, cell: (point: SavedPoint) => string }>}
 */
export function varying(axes) {
  /** @type {Array<{ head: string, cell: (point: SavedPoint) => string }>} */
  const columns = [];
  if (axes.node.length > 1) columns.push({ head: 'node', cell: (p) => nodeLabel(axes, p.node) });
  if (axes.task.length > 1) columns.push({ head: 'task', cell: (p) => p.task });
  if (axes.variant.length > 1) columns.push({ head: 'variant', cell: (p) => p.variant.name });
  if (axes.file.length > 1) columns.push({ head: 'file', cell: (p) => p.file.label });
  for (const [name, values] of Object.entries(axes.params))
    if (values.length > 1) columns.push({ head: kebab(name), cell: (p) => String(p.params[name]) });
  // a sweep saved before --cycles was an axis has none
  if ((axes.cycles?.length ?? 0) > 1) columns.push({ head: 'cycles', cell: (p) => String(p.cycles ?? 1) });
  if (axes.k.length > 1) columns.push({ head: 'k', cell: (p) => String(p.k) });
  return columns;
}

/**
 * A point by the axes that tell the points apart: `k=2`, `node v24.21.0, k=2`; its id when
 * nothing varies (or only the axis left out).
 * @param {SavedPoint} point
 * @param {ReturnType<typeof varying>} columns
 * @param {{ separator?: string, except?: string }} [options]  except: an axis head to leave out
 */
export const pointName = (point, columns, { separator = ', ', except = '' } = {}) =>
  columns
    .filter((column) => column.head !== except)
    .map((column) => `${column.head === 'k' ? 'k=' : ''}${column.cell(point)}`)
    .join(separator) || point.id;

/** A Node by its version, or by its path when two binaries report one version. */
export const nodeLabel = (
  /** @type {Pick<Axes, 'node'>} */ axes,
  /** @type {{ path: string, version: string }} */ node,
) => (axes.node.filter((other) => other.version === node.version).length > 1 ? node.path : node.version);
