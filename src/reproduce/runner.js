import { buildPlan, fixedWork, PRECISION, warmupFor } from '../run/plan.js';
import { calibrate } from '../run/calibrate.js';
import { runCell } from '../run/cell.js';
import { roundOrder } from '../run/interleave.js';
import { takeThp } from '../system/thp.js';
import { startTrace } from '../system/trace/tracer.js';
import { ExperimentData } from './data.js';
import { modesOf } from './experiments.js';
import { appendRecord } from './results-file.js';
import { QUICK, roundBounds } from './rounds.js';
import { cellsUnder, protocolsOf, PUBLISHED } from './protocols.js';

/**
 * @typedef {object} ReproduceOptions  what a run was asked for; kept in the results file's header
 * @property {number} k
 * @property {boolean} quick
 * @property {number|null} rounds  fixed rounds, or null: ROUNDS.min, then until every claim's
 *   interval is within ±precision, at most maxRounds
 * @property {number} [precision]  the relative half-width every claim's interval must reach
 * @property {number} maxRounds
 * @property {number} duration  seconds per cell when not quick
 * @property {number} timeout
 * @property {string|undefined} node
 * @property {string|undefined} fixturesDir
 * @property {string|undefined} jemalloc
 * @property {string} thpPath
 * @property {string[]} experiments
 * @property {'steady'|'published'|'both'} [protocol]  how cells are measured (protocols.js)
 */

/**
 * The plan of one setting: what `compare` would run with the equivalent flags, except that the
 * allocator variables of the user's shell are dropped (a baseline is glibc's defaults).
 * @param {import('./experiments.js').Variant} variant
 * @param {ReproduceOptions} options
 */
export function planVariant(variant, options, interrupt) {
  return buildPlan(
    {
      command: 'compare',
      task: variant.task,
      file: variant.file,
      k: variant.k ?? options.k,
      force: true, // the run's -k was checked, with the user's --force, when it started
      node: options.node,
      fixturesDir: options.fixturesDir,
      timeout: options.timeout, // --quick's shorter default was filled in when the run started
      env: variant.env ?? {},
      params: variant.params ?? {},
      inheritAllocatorEnv: false,
      ...work(variant, options),
    },
    { interrupt },
  );
}

/** What a setting's cells do: fixed by --quick, the published protocol or the setting, or calibrated. */
function work(variant, options) {
  const cold = variant.protocol === 'published';
  if (options.quick) {
    const iterations = variant.quickIterations ?? QUICK.iterations;
    return { iterations, warmup: cold ? 0 : Math.min(QUICK.warmup, iterations) };
  }
  // the investigation's own experiments (no fixed k of their own) as its scripts ran them
  if (cold && !variant.k) return { ...PUBLISHED };
  const steady = variant.iterations ? { iterations: variant.iterations } : { duration: options.duration };
  return cold ? { ...steady, warmup: 0 } : steady;
}

/**
 * Every claim's interval within ±precision: the stop rule of compare (stats/stopping.js), so a
 * claim's verdict keeps its 95% meaning. Stopping once the claims were decided would make
 * "holds" and "does not hold" come out more often than they should.
 */
const narrowEnough = (experiment, cells, { precision, protocol }) =>
  protocolsOf(protocol).every((under) =>
    experiment
      .verdicts(new ExperimentData(cellsUnder(cells, under)))
      .every((v) => v.halfWidth !== null && v.halfWidth <= precision),
  );

/**
 * Runs one experiment's cells that `records` do not hold yet, appending each to the results
 * file as it finishes. Every round runs every variant and mode, the variants' order rotating
 * and the modes' order alternating round by round, so slow drift on the machine spreads over
 * all of them.
 */
/**
 * @param {import('./experiments.js').Experiment} experiment
 * @param {import('./experiments.js').Variant[]} variants
 * @param {{ options: ReproduceOptions, records: any[], file: string, interrupt?: AbortSignal, progress?: { tick?: (payload: { label: string }) => void, grow?: (cells: number) => void }, thp: { path: string, restoreFile: string }, trace?: { bpftrace: string } | null }} run
 *   trace: the checked bpftrace, for variants traced as the investigation traced them
 */
export async function runExperiment(
  experiment,
  variants,
  { options, records, file, interrupt, progress = {}, thp, trace = null },
) {
  // a traced variant's cells run whole under mmap-lock.bt, which follows this process's children
  const traced = trace && {
    window: /** @type {const} */ ('cell'),
    start: () => startTrace({ bpftrace: trace.bpftrace, root: process.pid }),
  };
  const mine = records.filter((r) => r.experiment === experiment.name);
  const cells = mine.filter((r) => r.type === 'cell');
  const done = new Set(cells.map((r) => `${r.variant}|${r.round}|${r.mode}`));
  const [min, max] = roundBounds(options);

  // Each setting's plan, and the work its cells do: fixed by --quick, else calibrated once and
  // kept in the results file, so a resumed run does the same work.
  const plans = new Map();
  const work = new Map();
  for (const variant of variants) {
    const plan = await planVariant(variant, options, interrupt);
    let fixed = fixedWork(plan);
    if (!fixed) {
      const saved = mine.find((r) => r.type === 'calibration' && r.variant === variant.id);
      if (saved) fixed = { iterations: saved.iterations, warmup: saved.warmup };
      else {
        const calibration = await calibrate(plan, interrupt);
        fixed = { iterations: calibration.iterations, warmup: plan.warmup ?? warmupFor(calibration.iterations) };
        const record = { type: 'calibration', experiment: experiment.name, variant: variant.id, ...fixed, calibration };
        appendRecord(file, record);
        records.push(record);
      }
    }
    plans.set(variant.id, plan);
    work.set(variant.id, fixed);
  }

  let guard = null;
  try {
    for (let round = 1; round <= max; round++) {
      if (
        round > min &&
        narrowEnough(experiment, cells, {
          precision: options.precision ?? PRECISION.precision,
          protocol: options.protocol,
        })
      )
        break;
      if (round > min) progress.grow?.(cellsPerRound(variants));
      for (const variant of roundOrder(variants, round)) {
        for (const mode of roundOrder(modesOf(variant), round)) {
          if (done.has(`${variant.id}|${round}|${mode}`)) continue;
          if (variant.thp) {
            guard ??= takeThp(thp);
            guard.set(variant.thp);
          }
          const cell = await runCell(
            plans.get(variant.id),
            work.get(variant.id),
            mode,
            interrupt,
            variant.trace ? { trace: traced } : {},
          );
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
