// A sweep's points by the axes that tell them apart (`pointName`: `k=2`, `node v24.21.0, k=2`),
// as its tables, notes and charts head them; the full name is points/point-name.js's.
import { kebab } from '../../words/vocabulary.js';

/**
 * @typedef {import('./document.js').Axes} Axes
 * @typedef {import('./document.js').SavedPoint} SavedPoint
 */

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
  if (axes.cycles.length > 1) columns.push({ head: 'cycles', cell: (p) => String(p.cycles) });
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
