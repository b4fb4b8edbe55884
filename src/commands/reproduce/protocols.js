/**
 * How cells are measured. `steady`: warm cells of about --duration seconds, iterations
 * calibrated per setting. `published`: the way the investigation measured (its run-workers.js
 * FILE 2000 8): 2,000 timed iterations per worker, no warmup, so each cell starts with a cold V8
 * and a growing heap. The related sources (clog, promises, throttle) ran their own benchmarks
 * cold: under `published` their cells do the same work as under `steady`, without the warmup.
 */
/** @type {unknown[]} */
export const PROTOCOL_CHOICES = ['steady', 'published', 'both'];
export { PUBLISHED_PROTOCOL as PUBLISHED } from '../../reference/published.js';

/** The protocols a run measures, in report order. */
/**
 * @param {'steady'|'published'|'both'} [choice]
 * @returns {Array<'steady'|'published'>}
 */
export const protocolsOf = (choice) => (choice === 'both' ? ['steady', 'published'] : [choice ?? 'steady']);

const SUFFIX = '@published';

/**
 * A setting under a protocol. Steady keeps the setting's id, so results files written before
 * protocols existed resume as they were; published settings are `<id>@published`.
 * @template {{ id: string }} V
 * @param {V} variant
 * @param {'steady'|'published'} protocol
 */
export const underProtocol = (variant, protocol) =>
  protocol === 'steady' ? { ...variant, protocol } : { ...variant, id: `${variant.id}${SUFFIX}`, protocol };

/**
 * The cells one protocol measured, under the setting ids the experiment's verdicts know.
 * @template {{ variant: string }} C
 * @param {C[]} cells
 * @param {'steady'|'published'} protocol
 * @returns {C[]}
 */
export const cellsUnder = (cells, protocol) =>
  protocol === 'steady'
    ? cells.filter((cell) => !cell.variant.endsWith(SUFFIX))
    : cells
        .filter((cell) => cell.variant.endsWith(SUFFIX))
        .map((cell) => ({ ...cell, variant: cell.variant.slice(0, -SUFFIX.length) }));

/**
 * The settings one protocol measures, under the ids the experiment's tables know.
 * @template {{ id: string, protocol?: string }} V
 * @param {V[]} variants
 * @param {'steady'|'published'} protocol
 * @returns {V[]}
 */
export const variantsUnder = (variants, protocol) =>
  variants
    .filter((variant) => (variant.protocol ?? 'steady') === protocol)
    .map((variant) => (protocol === 'steady' ? variant : { ...variant, id: variant.id.slice(0, -SUFFIX.length) }));
