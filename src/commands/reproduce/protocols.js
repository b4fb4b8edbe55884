/**
 * How cells are measured, and what a claim is decided on. `steady`: warm cells of about
 * --duration seconds, iterations calibrated per setting. `published`: the way the investigation
 * measured (its run-workers.js FILE 2000 8): 2,000 timed iterations per worker, no warmup, so each
 * cell starts with a cold V8 and a growing heap. The related sources (clog, promises, throttle)
 * ran their own benchmarks cold: under `published` their cells do the same work as under
 * `steady`, without the warmup. `fresh` (the default) measures steady cells and decides the
 * investigation's claims on their workers' first 2,000 ops, read from each cell's warm-up
 * (stats/ramp.js): fresh workers, as the investigation timed them, and the same cells once warm
 * beside them, in one run.
 */
export { PROTOCOL_CHOICES } from '../../run/defaults.js';
export { PUBLISHED_PROTOCOL as PUBLISHED } from '../../reference/published.js';

/**
 * @typedef {'fresh'|'steady'|'published'|'both'} ProtocolChoice
 * @typedef {'steady'|'published'} Measured  how a cell is run
 * @typedef {'fresh'|'steady'|'published'} Reading  what a claim is judged on
 */

/**
 * The protocols a run's cells are measured under, in report order.
 * @param {ProtocolChoice} [choice]  a file from before protocols: steady
 * @returns {Measured[]}
 */
export const protocolsOf = (choice) =>
  choice === 'both' ? ['steady', 'published'] : choice === 'published' ? ['published'] : ['steady'];

/**
 * What an experiment's claims are judged on, the deciding reading first: under the protocol each
 * was published with, what holds once warm beside it. The fresh reading needs cells that warmed
 * up until steady (not --quick's fixed warm-up) and claims on ops/s: an experiment of its own k
 * (a related source's benchmark) or one judged on its window's trace is read steady.
 * @param {ProtocolChoice | undefined} choice
 * @param {{ k?: number, windowOnly?: boolean }} experiment
 * @param {{ quick?: boolean }} [run]
 * @returns {Reading[]}
 */
export function readingsOf(choice, experiment, { quick = false } = {}) {
  if (choice === 'both') return ['published', 'steady'];
  if (choice === 'published') return ['published'];
  return choice === 'fresh' && !quick && !experiment.k && !experiment.windowOnly ? ['fresh', 'steady'] : ['steady'];
}

const SUFFIX = '@published';

/**
 * A setting under a protocol. Steady keeps the setting's id, so results files written before
 * protocols existed resume as they were; published settings are `<id>@published`.
 * @template {{ id: string }} V
 * @param {V} variant
 * @param {Measured} protocol
 */
export const underProtocol = (variant, protocol) =>
  protocol === 'steady' ? { ...variant, protocol } : { ...variant, id: `${variant.id}${SUFFIX}`, protocol };

/**
 * The cells a reading judges, under the setting ids the experiment's verdicts know; fresh: the
 * steady cells, each with the throughput of its workers' first 2,000 ops (none where its warm-up
 * ran fewer).
 * @template {{ variant: string, cell: { throughput?: number, ramp?: { firstThroughput: number | null } } }} C
 * @param {C[]} cells
 * @param {Reading} reading
 * @returns {C[]}
 */
export const cellsUnder = (cells, reading) =>
  reading === 'published'
    ? cells
        .filter((cell) => cell.variant.endsWith(SUFFIX))
        .map((cell) => ({ ...cell, variant: cell.variant.slice(0, -SUFFIX.length) }))
    : cells
        .filter((cell) => !cell.variant.endsWith(SUFFIX))
        .map((cell) =>
          reading === 'fresh'
            ? { ...cell, cell: { ...cell.cell, throughput: cell.cell.ramp?.firstThroughput ?? undefined } }
            : cell,
        );

/**
 * The settings a reading judges, under the ids the experiment's tables know.
 * @template {{ id: string, protocol?: string }} V
 * @param {V[]} variants
 * @param {Reading} reading
 * @returns {V[]}
 */
export const variantsUnder = (variants, reading) =>
  variants
    .filter((variant) => (variant.protocol ?? 'steady') === (reading === 'fresh' ? 'steady' : reading))
    .map((variant) => (reading === 'published' ? { ...variant, id: variant.id.slice(0, -SUFFIX.length) } : variant));
