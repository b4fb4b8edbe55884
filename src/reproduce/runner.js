import { buildPlan, warmupFor } from '../run/plan.js';
import { calibrate } from '../run/calibrate.js';
import { runCell } from '../run/cell.js';
import { takeThp } from '../system/thp.js';
import { ExperimentData } from './data.js';
import { modesOf } from './experiments.js';
import { appendRecord } from './results-file.js';

/** --quick: every path of every experiment, in about a minute on 2 cores; decides little. */
export const QUICK = { iterations: 200, warmup: 50, rounds: 2, timeout: 60 };
/** The default: rounds until every claim is decided, between these bounds. */
export const ROUNDS = { min: 5, max: 12 };

// Variables that change what glibc does; a baseline must not inherit them from the user's shell.
const ALLOCATOR_VARS = /^(MALLOC_|GLIBC_TUNABLES$|LD_PRELOAD$)/;

/**
 * @typedef {object} ReproduceOptions  what a run was asked for; kept in the results file's header
 * @property {number} k
 * @property {boolean} quick
 * @property {number|null} rounds  fixed rounds, or null: ROUNDS.min until decided, at most maxRounds
 * @property {number} maxRounds
 * @property {number} duration  seconds per cell when not quick
 * @property {number} timeout
 * @property {string|undefined} node
 * @property {string|undefined} fixturesDir
 */

/** The plan of one variant, as `compare` would build it from the equivalent flags. */
export async function planVariant(variant, options) {
  const argv = {
    task: variant.task,
    file: variant.file,
    k: options.k,
    node: options.node,
    fixturesDir: options.fixturesDir,
    timeout: options.quick ? QUICK.timeout : options.timeout,
    env: Object.entries(variant.env ?? {}).map(([key, value]) => `${key}=${value}`),
    ...(options.quick ? { iterations: QUICK.iterations, warmup: QUICK.warmup } : { duration: options.duration }),
    ...variant.params,
  };
  const plan = await buildPlan(argv, 'compare');
  for (const name of Object.keys(plan.env)) {
    if (ALLOCATOR_VARS.test(name) && !(name in plan.envOverrides)) delete plan.env[name];
  }
  return plan;
}

/** Rounds at least and at most; the run stops between them once every claim is decided. */
export const roundBounds = (options) =>
  options.quick ? [QUICK.rounds, QUICK.rounds] : options.rounds ? [options.rounds, options.rounds] : [ROUNDS.min, options.maxRounds ?? ROUNDS.max];

const decided = (experiment, data) => experiment.verdicts(data).every((v) => v.verdict !== 'inconclusive');

/**
 * Runs one experiment's cells that `records` do not hold yet, appending each to the results
 * file as it finishes. Every round runs every variant and mode, the variants' order rotating
 * and the modes' order alternating round by round, so slow drift on the machine spreads over
 * all of them.
 */
export async function runExperiment(experiment, variants, { options, records, file, interrupt, progress = {}, thp }) {
  const mine = records.filter((r) => r.experiment === experiment.name);
  const cells = mine.filter((r) => r.type === 'cell');
  const done = new Set(cells.map((r) => `${r.variant}|${r.round}|${r.mode}`));
  const [min, max] = roundBounds(options);

  const plans = new Map();
  for (const variant of variants) {
    const plan = await planVariant(variant, options);
    if (plan.iterations === null) {
      const saved = mine.find((r) => r.type === 'calibration' && r.variant === variant.id);
      if (saved) ({ iterations: plan.iterations, warmup: plan.warmup } = saved);
      else {
        const calibration = await calibrate(plan, interrupt);
        plan.iterations = calibration.iterations;
        plan.warmup = warmupFor(plan.iterations);
        const record = { type: 'calibration', experiment: experiment.name, variant: variant.id, iterations: plan.iterations, warmup: plan.warmup, calibration };
        appendRecord(file, record);
        records.push(record);
      }
    }
    plans.set(variant.id, plan);
  }

  let guard = null;
  try {
    for (let round = 1; round <= max; round++) {
      if (round > min && decided(experiment, new ExperimentData(cells))) break;
      if (round > min) progress.grow?.(cellsPerRound(variants));
      const order = variants.map((_, i) => variants[(i + round - 1) % variants.length]);
      for (const variant of order) {
        const modes = round % 2 === 1 ? modesOf(variant) : [...modesOf(variant)].reverse();
        for (const mode of modes) {
          if (done.has(`${variant.id}|${round}|${mode}`)) continue;
          if (variant.thp) {
            guard ??= takeThp(thp);
            guard.set(variant.thp);
          }
          const cell = await runCell(plans.get(variant.id), mode, interrupt);
          const record = { type: 'cell', experiment: experiment.name, variant: variant.id, round, mode, cell };
          appendRecord(file, record);
          records.push(record);
          cells.push(record);
          progress.tick?.({ label: `${experiment.name}: ${variant.label}, ${mode}, round ${round}` });
        }
      }
    }
  } finally {
    guard?.restore();
  }
}

/** Cells per round of an experiment: what the progress bar and --list count. */
export const cellsPerRound = (variants) => variants.reduce((n, v) => n + modesOf(v).length, 0);
