import { buildPlan } from '../../run/plan.js';
import { roundOrder, newSession, runRounds } from '../../run/scheduler.js';
import { takeThp } from '../../system/thp.js';
import { ExperimentData } from './data.js';
import { variantModes } from './experiments.js';
import { QUICK_EXPERIMENTS, roundBounds } from './bounds.js';
import { cellsUnder, PUBLISHED, readingsOf } from './protocols.js';
import { tracerFor } from '../../run/session.js';

/**
 * @typedef {import('./types.js').ReproduceOptions} ReproduceOptions
 * @typedef {import('./types.js').CellRecord} CellRecord
 * @typedef {import('./types.js').ResultRecord} ResultRecord
 */

/**
 * The plan of one setting: what `compare` would run with the equivalent flags, except that the
 * allocator variables of the user's shell are dropped (a baseline is glibc's defaults).
 * @param {import('./experiments.js').Variant} variant
 * @param {ReproduceOptions} options
 */
export function planVariant(variant, options, /** @type {AbortSignal | undefined} */ interrupt) {
  return buildPlan(
    {
      command: 'compare',
      task: variant.task,
      file: variant.file,
      k: variant.k ?? options.k,
      force: true, // the run's -k was checked, with the user's --force, when it started
      node: variant.node ?? options.node,
      fixturesDir: options.fixturesDir,
      timeout: options.timeout, // --quick's shorter default was filled in when the run started
      env: variant.env ?? {},
      params: variant.params ?? {},
      inheritAllocatorEnv: false,
      // the investigation measured the workers, with no app serving on the parent's main thread
      main: 'off',
      ...work(variant, options),
    },
    { interrupt },
  );
}

/**
 * What a setting's cells do: fixed by --quick, the published protocol or the setting, or calibrated.
 * @param {import('./experiments.js').Variant} variant
 * @param {ReproduceOptions} options
 * @returns {{ iterations?: number, warmup?: number, duration?: number }}
 */
function work(variant, options) {
  const cold = variant.protocol === 'published';
  if (options.quick) {
    const iterations = variant.quickIterations ?? QUICK_EXPERIMENTS.iterations;
    return { iterations, warmup: cold ? 0 : Math.min(QUICK_EXPERIMENTS.warmup, iterations) };
  }
  // the investigation's own experiments (no fixed k of their own) as its scripts ran them
  if (cold && !variant.k) return { ...PUBLISHED };
  const steady = variant.iterations ? { iterations: variant.iterations } : { duration: options.duration };
  return cold ? { ...steady, warmup: 0 } : steady;
}

/**
 * Whether every claim, under every reading, meets `enough`, its verdicts read at `look`.
 * @param {import('./experiments.js').Experiment} experiment
 * @param {CellRecord[]} cells
 * @param {{ protocol?: ReproduceOptions['protocol'], quick: boolean }} options
 * @param {import('../../stats/sequential.js').Look} look
 * @param {(verdict: import('./verdict.js').Verdict) => boolean} enough
 */
const everyClaim = (experiment, cells, { protocol, quick }, look, enough) =>
  readingsOf(protocol, experiment, { quick }).every((under) =>
    experiment.verdicts(new ExperimentData(cellsUnder(cells, under), { look })).every(enough),
  );

/**
 * Runs one experiment's cells that `records` do not hold yet, each added to them as it
 * finishes, and saved (`save`) with its round, as compare and sweep save theirs, and with a
 * setting's calibration. Its settings are the points of one run of rounds (run/scheduler.js): every
 * round runs every setting and mode, the settings' order rotating and the modes' alternating
 * round by round, so slow drift on the machine spreads over all of them. The work of a setting
 * is fixed by --quick, else calibrated once and kept in the results file, so a resumed run does
 * the same work.
 * @param {import('./experiments.js').Experiment} experiment
 * @param {import('./experiments.js').Variant[]} variants
 * @param {{ options: ReproduceOptions, records: ResultRecord[], save: () => void, interrupt?: AbortSignal, progress?: { tick?: (payload: { label: string }) => void, grow?: (cells: number) => void }, thp: { path: string, restoreFile: string }, trace?: { bpftrace: string } | null }} run
 *   trace: the checked bpftrace, for variants traced as the investigation traced them
 */
export async function runExperiment(
  experiment,
  variants,
  { options, records, save, interrupt, progress = {}, thp, trace = null },
) {
  // a traced variant's cells run whole under mmap-lock.bt, which follows this process's children
  const tracer = trace ? tracerFor({ bpftrace: trace.bpftrace, window: 'cell' }) : undefined;
  const mine = records.filter((r) => r.experiment === experiment.name);
  const cells = mine.flatMap((r) => (r.type === 'cell' ? [r] : []));
  const done = new Set(cells.map((r) => `${r.variant}|${r.round}|${r.mode}`));
  const points = await pointsOf(variants, { options, interrupt, mine, tracer });
  // a point is a setting: its id is the variant's
  const variantOf = (/** @type {{ id: string }} */ point) =>
    /** @type {import('./experiments.js').Variant} */ (variants.find((v) => v.id === point.id));

  const rule = reproduceStop(experiment, cells, variants, { options, progress });
  /** @type {ReturnType<typeof takeThp> | null} */
  let guard = null;
  try {
    const run = await runRounds(points, {
      // each round saved before the rule reads it
      stop: (round) => {
        save();
        rule(round);
      },
      interrupt,
      onCalibrated: (point, calibration) => {
        const work = /** @type {import('../../run/plan.js').Work} */ (point.session.work); // just calibrated
        records.push({ type: 'calibration', experiment: experiment.name, variant: point.id, ...work, calibration });
        save();
      },
      skip: (point, index, step) => done.has(`${point.id}|${index}|${step.arm}`),
      beforeCell: (point) => {
        const { thp: mode } = variantOf(point);
        if (!mode) return;
        guard ??= takeThp(thp);
        guard.set(mode);
      },
      onCell: (point, round, step, cell) => {
        /** @type {CellRecord} */
        const record = {
          type: 'cell',
          experiment: experiment.name,
          variant: point.id,
          round: round.index,
          mode: step.arm,
          cell,
        };
        records.push(record);
        cells.push(record);
        progress.tick?.({
          label: `${experiment.name}: ${variantOf(point).label}, ${step.arm}, round ${round.index}`,
        });
      },
    });
    if (run.error) throw run.error;
  } finally {
    /** @type {ReturnType<typeof takeThp> | null} */ (guard)?.restore();
  }
}

/**
 * Each setting as a point of the rounds: its plan, and its work as a resumed run kept it.
 * @param {import('./experiments.js').Variant[]} variants
 * @param {{ options: ReproduceOptions, interrupt?: AbortSignal,
 *   mine: ResultRecord[],
 *   tracer: import('../../run/cell.js').Tracer | undefined }} run  mine: the experiment's records so far
 * @returns {Promise<import('../../run/scheduler.js').Measurement[]>}
 */
async function pointsOf(variants, { options, interrupt, mine, tracer }) {
  /** @type {import('../../run/scheduler.js').Measurement[]} */
  const points = [];
  for (const variant of variants) {
    const plan = await planVariant(variant, options, interrupt);
    const session = newSession(plan);
    const saved = mine.flatMap((r) => (r.type === 'calibration' && r.variant === variant.id ? [r] : []))[0];
    if (!session.work && saved) session.work = { iterations: saved.iterations, warmup: saved.warmup };
    const modes = variantModes(variant);
    const point = {
      id: variant.id,
      plan,
      arms: modes,
      steps: (/** @type {number} */ index) =>
        roundOrder(modes, index).map((mode) => ({ arm: mode, runs: mode, traced: Boolean(variant.trace) })),
      tracer,
      session,
    };
    points.push(point);
  }
  return points;
}

/**
 * Reproduce's stop rule: at least the rounds' minimum, then more only while a claim is undecided
 * (its confidence sequence, valid at every look, on neither side), or with --precision while a
 * claim's interval is wider than that, at most the maximum; every setting of the experiment stops
 * at once.
 * @param {import('./experiments.js').Experiment} experiment
 * @param {CellRecord[]} cells
 * @param {import('./experiments.js').Variant[]} variants
 * @param {{ options: ReproduceOptions, progress: { grow?: (cells: number) => void } }} run
 * @returns {import('../../run/scheduler.js').StopRule}
 */
export function reproduceStop(experiment, cells, variants, { options, progress }) {
  const [min, max] = roundBounds(options);
  const precision = options.precision ?? null;
  return ({ points, index }) => {
    if (index < min) return;
    const stop =
      index >= max
        ? 'rounds'
        : precision === null
          ? everyClaim(experiment, cells, options, 'sequence', (v) => v.verdict !== 'inconclusive')
            ? 'decided'
            : null
          : everyClaim(experiment, cells, options, 'fixed', (v) => v.halfWidth !== null && v.halfWidth <= precision)
            ? 'precision'
            : null;
    if (stop) for (const point of points) point.session.stop = stop;
    else progress.grow?.(cellsPerRound(variants));
  };
}

/** Cells per round of an experiment: what the progress bar and --list count. */
export const cellsPerRound = (/** @type {import('./experiments.js').Variant[]} */ variants) =>
  variants.reduce((n, v) => n + variantModes(v).length, 0);
