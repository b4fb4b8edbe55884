// What the experiments' definitions share: a published row by its label, the claim's shape,
// the pool's premise on the Node the cells run on.
import { NODE_CHANGES, sinceText } from '../../reference/node-changes.js';
import { TABLES } from '../../reference/published.js';

/**
 * @typedef {import('./variant.js').Variant} Variant  one setting an experiment measures
 *
 * @typedef {object} Experiment
 * @property {string} name
 * @property {string} hypothesis  where in the investigation
 * @property {string} [claim]   the published claim, in its words (from TABLES)
 * @property {string} [source]  where it was published (from TABLES)
 * @property {string} [setup]   how it was measured there, when not the investigation's k=8 runs
 * @property {string} needs  what it needs, in words, for --list
 * @property {(ctx: Machine) => string | null} [unavailable]  why it cannot run here, or null
 * @property {(ctx: Machine) => string[]} [installs]  what a run installs first (Node releases)
 * @property {(ctx: Machine) => Variant[]} variants
 * @property {(data: import('./data.js').ExperimentData) => ClaimVerdict[]} verdicts
 * @property {'grid'} [shape]  how its table is drawn; a row per variant unless given
 * @property {(variants: Variant[], data: import('./data.js').ExperimentData) => ExperimentTable} [table]  its own
 *   table (the task's metrics beside the published figures), instead of workers / procs
 * @property {number} [k]  the k every variant runs at (a single process, as published), not -k
 * @property {boolean} [windowOnly]  its claims read what its timed windows traced, which a fresh
 *   worker's first ops (protocols.js, `fresh`) have no reading of
 * @property {(ctx: Machine) => string | null} [premise]  what upstream changed under its claim,
 *   on the Node the cells run on (said beside the claim in --list and the report)
 *
 * @typedef {{ jemalloc: { path: string | null, why?: string | null }, thp?: { why: string | null },
 *   trace?: { why: string | null }, nodes?: FixNode[], node?: { version: string, poolSize?: number } }} Machine
 *   what this machine offers the experiments (a saved run's report knows its jemalloc and its
 *   nodes); node: the Node the cells run on, and its default pool
 * @typedef {Omit<Experiment, 'variants'> & { variants: (ctx: Machine) => Setting[] }} Definition
 *   an experiment as it is written (experiments-*.js): its settings take the investigation's task
 *   and file, and their published row by label, unless they say otherwise (experiments.js)
 * @typedef {Omit<Variant, 'task' | 'file'> & { task?: string, file?: string }} Setting
 * @typedef {import('./types.js').FixNode} FixNode  a Node node-fix runs on
 * @typedef {import('./variant.js').ExperimentTable} ExperimentTable
 * @typedef {{ claim: string } & import('./verdict.js').Verdict} ClaimVerdict
 */

/** @typedef {keyof typeof TABLES} TableName */

const POOL_CHANGE = /** @type {import('../../reference/node-changes.js').NodeChange} */ (
  NODE_CHANGES.find((change) => change.id === 'pool-64k')
);

/**
 * @param {TableName} name
 * @param {string} label
 * @returns {Record<string, unknown> | undefined}
 */
export const published = (name, label) =>
  /** @type {Array<{ label: string }>} */ (TABLES[name].rows).find((row) => row.label === label);
/** @type {Array<'workers'|'procs'>} */
export const procsOnly = ['procs'];

/**
 * The default pool of the Node the cells run on, as a column's name (`64k`); null when not known
 * (a saved run from before it was recorded).
 * @param {Machine} ctx
 */
export const defaultPool = (ctx) => (ctx.node?.poolSize ? `${ctx.node.poolSize / 1024}k` : null);

/**
 * What upstream did to the pool's default, on the Node the cells run on.
 * @param {Machine} ctx
 */
export const poolPremise = (ctx) => {
  const pool = defaultPool(ctx);
  if (!pool || !ctx.node) return null;
  return pool === '64k'
    ? `on Node ${ctx.node.version} Buffer.poolSize is 64 KiB by default: upstream raised it from 8 KiB in ${sinceText('pool-64k')} (${POOL_CHANGE.source}), Hypothesis 5c's answer, so the 8k pool here is the old default, set by hand`
    : `on Node ${ctx.node.version} Buffer.poolSize is ${pool.replace('k', ' KiB')} by default (64 KiB from ${sinceText('pool-64k')}, ${POOL_CHANGE.source})`;
};

// The claims in words, each tested by the 95% interval of a per-round ratio (verdict.js).
export const claim = (/** @type {string} */ text, /** @type {import('./verdict.js').Verdict} */ verdict) => ({
  claim: text,
  ...verdict,
});
