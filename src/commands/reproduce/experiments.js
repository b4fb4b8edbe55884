import { TABLES } from '../../reference/published.js';
import { EXPERIMENT_NAMES } from './names.js';
import { HEAP_EXPERIMENTS } from './experiments-heap.js';
import { NODE_EXPERIMENTS } from './experiments-node.js';
import { RELATED_EXPERIMENTS } from './experiments-related.js';
import { MODES } from '../../words/spelling.js';
import { published } from './experiment-parts.js';

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
export const EXPERIMENTS = [];

// what every experiment has unless it says otherwise: its published claim and source, and for
// each setting the investigation's task and file, and its published row by its label
for (const { variants, ...experiment } of [...HEAP_EXPERIMENTS, ...NODE_EXPERIMENTS, ...RELATED_EXPERIMENTS]) {
  const name = /** @type {TableName} */ (experiment.name);
  /** @type {{ claim: string, source: string, setup?: string }} */
  const table = TABLES[name];
  EXPERIMENTS.push({
    ...experiment,
    claim: table.claim,
    source: table.source,
    setup: table.setup,
    variants: (ctx) =>
      variants(ctx).map((variant) => ({
        task: 'readfilesync',
        file: 'med',
        ...('published' in variant ? {} : { published: published(name, variant.label) }),
        ...variant,
      })),
  });
}

export { EXPERIMENT_NAMES };
if (EXPERIMENTS.map((e) => e.name).join() !== EXPERIMENT_NAMES.join())
  throw new Error('names.js must list the experiments of experiments.js, in order');

/** The modes a variant runs in. */
export const variantModes = (/** @type {Variant} */ variant) => variant.modes ?? MODES;
