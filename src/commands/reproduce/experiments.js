import { TABLES } from '../../reference/published.js';
import { EXPERIMENT_NAMES } from './names.js';
import { HEAP_EXPERIMENTS } from './experiments-heap.js';
import { NODE_EXPERIMENTS } from './experiments-node.js';
import { RELATED_EXPERIMENTS } from './experiments-related.js';
import { MODES } from '../../words/spelling.js';

/**
 * @typedef {import('./experiment-parts.js').Variant} Variant  one setting an experiment measures
 * @typedef {import('./experiment-parts.js').Experiment} Experiment
 * @typedef {import('./experiment-parts.js').Machine} Machine
 * @typedef {import('./experiment-parts.js').FixNode} FixNode
 * @typedef {import('./experiment-parts.js').ExperimentTable} ExperimentTable
 * @typedef {import('./experiment-parts.js').ClaimVerdict} ClaimVerdict
 */

/** @typedef {keyof typeof TABLES} TableName */

/** @type {Experiment[]} */
export const EXPERIMENTS = [...HEAP_EXPERIMENTS, ...NODE_EXPERIMENTS, ...RELATED_EXPERIMENTS];

for (const experiment of EXPERIMENTS) {
  /** @type {{ claim: string, source: string, setup?: string }} */
  const table = TABLES[/** @type {TableName} */ (experiment.name)];
  experiment.claim = table.claim;
  experiment.source = table.source;
  experiment.setup = table.setup;
}

export { EXPERIMENT_NAMES };
if (EXPERIMENTS.map((e) => e.name).join() !== EXPERIMENT_NAMES.join())
  throw new Error('names.js must list the experiments of experiments.js, in order');

/** The modes a variant runs in. */
export const variantModes = (/** @type {Variant} */ variant) => variant.modes ?? MODES;
