// The one loop every measuring command runs: compare (one point), sweep (many) and reproduce
// (an experiment's settings) differ only in their points, their stop rule and what they do with
// each finished cell.
import { MmapbenchError } from '../errors.js';
import { calibrate } from './calibrate.js';
import { runCell } from './cell.js';
import { PLAIN_EVERY, plainWarmup, runPlainTree } from './plain-tree.js';
import { fixedWork } from './work.js';
import { sizeByPilot } from './pilot.js';
import { scheduleByNoise } from './schedule.js';
import { ratioStats, roundRatio } from '../stats/ratio.js';
import { stopReason } from '../stats/stopping.js';

// The app alone (its load before any worker starts) is read in every cell of one round in
// ALONE_EVERY, from the first: each read costs the cell its alone stretch (plan.js, mainOf), and
// a figure of its own needs reads from many trees, not from every one.
const ALONE_EVERY = 3;

/**
 * Whether round `index`'s cells read the app alone.
 * @param {Readonly<import('./plan.js').Plan>} plan
 * @param {number} index
 */
export const aloneRound = (plan, index) => plan.main !== null && plan.main !== undefined && index % ALONE_EVERY === 1;

// Op latency is timed in one complete round in TIMED_EVERY, from the second; the first and
// every other time none, and their memory is the figure: the sampled loop's compiling kept
// 0.6-0.7 MiB more in each thread's allocator than a plain script's loop does
// (docs/how-it-measures.md, "Memory, start-up and tail latency"). Counted by a point's complete
// rounds, not the run's: a pilot round before them, or a sweep's points started at other rounds,
// move nothing.
const TIMED_EVERY = 2;

/**
 * Whether a point's next cells time some of their ops (run/latency-sampler.js): those of its
 * second complete round, its fourth, and so on.
 * @param {{ session: { rounds: Round[] } }} point
 * @param {Mode[]} arms
 */
export const timedRound = (point, arms) => completeRounds(point.session, arms).length % TIMED_EVERY === 1;

/**
 * @typedef {'workers'|'procs'} Mode
 *
 * One cell of a round: the arm it is filed under, the mode it runs (an A/A run's arms both run
 * one mode), and whether it runs under the tracer; plain: not a cell but a plain tree of the
 * same work (plain-tree.js), kept in the round's `plain`.
 * @typedef {{ arm: Mode, runs: Mode, traced: boolean, plain?: true }} Step
 *
 * @typedef {import('../stats/cell-summary.js').RoundCells & { order: Mode[], pilot?: true,
 *   scheduled?: { scale: number, windows: number } }} Round  order: the order its arms ran in;
 *   pilot: its cells ran the calibration's work, which missed the window by more than
 *   SIZE_TOLERANCE (pilot.js), or a window the schedule lengthened after it (schedule.js): it
 *   sized the cells after it and counts in no figure; scheduled: the round after which the
 *   schedule lengthened the window `scale` times, the windows of a tree holding that share of the
 *   rounds' spread
 *
 * @typedef {import('./pilot.js').Sizing} Sizing
 *
 * What a point learned and measured.
 * @typedef {object} Session
 * @property {import('./calibrate.js').Calibration | null} calibration
 * @property {import('./plan.js').Work | null} work  iterations and warmup every cell ran
 * @property {Round[]} rounds  including a last, incomplete one if the run stopped inside it
 * @property {MmapbenchError | null} error  why the run stopped early, if it did
 * @property {'rounds'|'precision'|'decided'|'max-time'|'interrupted'|'failed'|'dropped'|'ordered'|null} stop  why it stopped
 *   (dropped, ordered: advise's race, run/race.js)
 * @property {{ round: number, leader: string }} [dropped]  raced out after this round, below the leader
 * @property {number} seconds  the point's own time: its calibration and its cells
 * @property {import('./fault-cell.js').FaultRound} [fault]  compare --fault: what one failing
 *   worker took down in each mode, in the rounds after the measured ones
 * @property {Sizing | null} sizing  calibrated points: what the first round's cells took
 *
 * A setting the scheduler measures in rounds (a compare's one, a sweep's per point, a reproduce
 * run's per experiment and setting): its plan, its arms and steps, and its session. What its
 * rounds came to is read back as a Point (points/points.js).
 * @typedef {object} Measurement
 * @property {string} id
 * @property {Readonly<import('./plan.js').Plan>} plan
 * @property {Mode[]} arms  what a complete round holds a cell of
 * @property {(index: number) => Step[]} steps  the cells of round `index`, in the order they run
 * @property {import('./cell.js').Tracer} [tracer]  how a traced step is traced
 * @property {boolean} [pilot]  a calibrated point's first round sizes its cells (sizeByPilot);
 *   compare and sweep, not reproduce, whose cells resume by round from their file
 * @property {boolean} [schedule]  its noise may lengthen its window, where its plan lets it
 *   (scheduleByNoise): compare's
 * @property {Session} session  filled in as the run goes
 *
 * After every round, the rule marks `session.stop` on the points that are done; the run ends
 * when every point is.
 * @typedef {(state: { points: Measurement[], visited: Measurement[], index: number, elapsedSeconds: number, roundSeconds: number }) => void} StopRule
 *
 * @typedef {object} RoundsRun  what a run of rounds did
 * @property {Measurement[]} points
 * @property {Array<{ index: number, points: string[] }>} rounds  which points each round visited, in order
 * @property {MmapbenchError | null} error
 * @property {number} seconds  wall time, calibration included
 */

/**
 * A point's session before anything ran: its work, if the plan fixes it.
 * @param {Readonly<import('./plan.js').Plan>} plan
 * @returns {Session}
 */
export const newSession = (plan) => ({
  calibration: null,
  work: fixedWork(plan),
  rounds: [],
  error: null,
  stop: null,
  seconds: 0,
  sizing: null,
});

/**
 * The steps of compare and sweep: each arm, in alternating order; traced too, by turns, with
 * --trace; with `plain`, a plain tree of each after them in every PLAIN_EVERY-th round.
 * @param {Readonly<import('./plan.js').Plan>} plan
 * @param {Mode[]} arms
 * @param {{ plain?: boolean }} [also]
 * @returns {(index: number) => Step[]}
 */
export const armSteps =
  (plan, arms, { plain = false } = {}) =>
  (index) => [
    ...roundOrder(arms, index).flatMap((arm) =>
      (plan.trace ? roundOrder([false, true], index) : [false]).map((traced) => ({
        arm,
        // an A/A run keeps the arms' names (workers = A, procs = B) but runs plan.aa in both
        runs: plan.aa ?? arm,
        traced,
      })),
    ),
    ...(plain && index % PLAIN_EVERY === 0
      ? // which goes first alternates from one round of them to the next
        roundOrder(arms, index / PLAIN_EVERY).map((arm) => ({
          arm,
          runs: arm,
          traced: false,
          plain: /** @type {const} */ (true),
        }))
      : []),
  ];

/**
 * Runs rounds until the stop rule has stopped every point. Each point is calibrated first
 * (unless its plan or the caller fixed its work). A round visits each point still running, one
 * step further along each time (A B C, B C A, ...), so drift on the machine spreads over all
 * of them. A failure or Ctrl-C ends the run but keeps every finished cell: the points still
 * running get the error, for the caller to report after their rounds.
 * @param {Measurement[]} points
 * @param {object} hooks
 * @param {StopRule} hooks.stop
 * @param {AbortSignal} [hooks.interrupt]
 * @param {(point: Measurement, calibration: import('./calibrate.js').Calibration) => void} [hooks.onCalibrated]
 * @param {(point: Measurement, index: number, step: Step) => boolean} [hooks.skip]  a cell already measured (resume)
 * @param {(point: Measurement, step: Step) => void} [hooks.beforeCell]
 * @param {(point: Measurement, round: Round, step: Step, cell: any) => void} [hooks.onCell]
 * @param {(point: Measurement, round: Round, elapsedSeconds: number, run: RoundsRun) => void} [hooks.onRound]
 *   a point's round finished (every step of it ran): where results are kept as they come
 * @param {{ seconds: number, rounds: RoundsRun['rounds'] }} [hooks.resumed]  what a kept run had
 *   done: its points' sessions come filled in, their rounds go on after the last it had, and its
 *   time counts toward the budget
 * @param {{ runCell: typeof runCell, calibrate: typeof calibrate, runPlain?: typeof runPlainTree }} [hooks.cells]
 *   what runs a cell, a calibration and a plain tree: a fresh process tree; a stand-in in the
 *   scheduler's own tests
 * @param {boolean} [hooks.isolate]  a point whose calibration or cell fails stops alone, with
 *   its error, and the others go on (advise: a candidate that cannot run); Ctrl-C still ends all
 * @param {number} [hooks.budget]  seconds (--max-time, calibration included): once they are
 *   spent, no calibration and no point's round starts, and every point still running stops on
 *   'max-time'; what runs then is at most the one point's calibration or round under way
 * @returns {Promise<RoundsRun>}
 */
export async function runRounds(points, hooks) {
  const { stop, interrupt, onCalibrated, skip, beforeCell, onCell, onRound, resumed, budget = Infinity } = hooks;
  const { cells = { runCell, calibrate, runPlain: runPlainTree }, isolate = false } = hooks;
  const started = performance.now() - (resumed?.seconds ?? 0) * 1000;
  const elapsed = () => (performance.now() - started) / 1000;
  // the budget spent: every point still running stops, and nothing more starts
  const spent = () => {
    if (elapsed() <= budget) return false;
    for (const point of points) point.session.stop ??= 'max-time';
    return true;
  };
  /** @type {RoundsRun} */
  const run = { points, rounds: [...(resumed?.rounds ?? [])], error: null, seconds: 0 };
  const done = Math.max(0, ...points.flatMap((point) => point.session.rounds.map((round) => round.index)));
  const alone = isolated(isolate, interrupt);
  try {
    await calibrateAll(points, { cells, interrupt, onCalibrated, spent, alone });
    // a kept run's points are judged by the rule before any new round: one that had its rounds
    // (a run stopped in its fault rounds, a sweep's point done before its siblings) runs no more
    if (resumed)
      stop({
        points,
        visited: points.filter((point) => !point.session.stop && point.session.rounds.length),
        index: done,
        elapsedSeconds: elapsed(),
        roundSeconds: 0,
      });
    // when the last cell ended: the CLI's own work between cells is a phase of the next one
    const clock = { lastCellEnded: performance.now() };
    for (let index = done + 1; ; index++) {
      const running = points.filter((point) => !point.session.stop);
      if (!running.length) break;
      const roundStarted = elapsed();
      const visited = roundOrder(running, index);
      /** @type {RoundsRun['rounds'][number]} */
      const visit = { index, points: [] };
      run.rounds.push(visit);
      const steps = { cells, interrupt, skip, beforeCell, onCell, clock };
      if (
        await visitAll(visited, visit, {
          spent,
          alone,
          steps,
          done: (point, round) => onRound?.(point, round, elapsed(), run),
        })
      ) {
        if (!visit.points.length) run.rounds.pop();
        break;
      }
      stop({
        points,
        visited: visited.filter((point) => point.session.stop !== 'failed'),
        index,
        elapsedSeconds: elapsed(),
        roundSeconds: elapsed() - roundStarted,
      });
    }
  } catch (caught) {
    run.error = stopRunning(points, sessionError(caught));
  }
  run.seconds = elapsed();
  return run;
}

/**
 * The points still running get the error that stopped the run.
 * @param {Measurement[]} points
 * @param {MmapbenchError} error
 */
function stopRunning(points, error) {
  for (const point of points.filter((p) => !p.session.stop))
    Object.assign(point.session, { error, stop: error.kind === 'interrupted' ? 'interrupted' : 'failed' });
  return error;
}

/**
 * One round's visits: each point in the round's order runs its steps, until the budget is spent.
 * @param {Measurement[]} visited
 * @param {RoundsRun['rounds'][number]} visit  the round's record: the points it visited
 * @param {{ spent: () => boolean, alone: ReturnType<typeof isolated>, steps: Parameters<typeof runSteps>[3],
 *   done: (point: Measurement, round: Round) => void }} how
 * @returns {Promise<boolean>}  whether the budget ran out
 */
async function visitAll(visited, visit, { spent, alone, steps, done }) {
  for (const point of visited) {
    if (spent()) return true;
    visit.points.push(point.id);
    const order = point.steps(visit.index);
    /** @type {Round} */
    const round = { index: visit.index, order: [...new Set(order.map((step) => step.arm))], cells: {} };
    point.session.rounds.push(round);
    await alone(point, () => runSteps(point, round, order, steps));
    done(point, round);
  }
  return false;
}

/**
 * Each point's calibration, unless its plan or the caller fixed its work, while the budget lasts.
 * @param {Measurement[]} points
 * @param {{ cells: { calibrate: typeof calibrate }, interrupt?: AbortSignal, spent: () => boolean,
 *   onCalibrated?: (point: Measurement, calibration: import('./calibrate.js').Calibration) => void,
 *   alone: ReturnType<typeof isolated> }} run
 */
async function calibrateAll(points, { cells, interrupt, onCalibrated, spent, alone }) {
  for (const point of points) {
    if (point.session.work) continue;
    if (spent()) break;
    await alone(point, async () => {
      const calibration = await timed(point, () => cells.calibrate(point.plan, interrupt));
      point.session.calibration = calibration;
      point.session.work = { iterations: calibration.iterations, warmup: point.plan.warmup };
      onCalibrated?.(point, calibration);
    });
  }
}

/**
 * A point's own time: its calibration and its cells, not the other points' in between.
 * @template T
 * @param {Measurement} point
 * @param {() => Promise<T>} work
 */
async function timed(point, work) {
  const from = performance.now();
  try {
    return await work();
  } finally {
    point.session.seconds += (performance.now() - from) / 1000;
  }
}

/**
 * What runs one point's part: with `isolate`, a failure that is not Ctrl-C stops that point
 * alone.
 * @param {boolean} isolate
 * @param {AbortSignal | undefined} interrupt
 */
const isolated =
  (isolate, interrupt) => async (/** @type {Measurement} */ point, /** @type {() => Promise<void>} */ work) => {
    if (!isolate) return work();
    try {
      await work();
    } catch (caught) {
      const error = sessionError(caught);
      if (error.kind === 'interrupted' || interrupt?.aborted) throw caught;
      point.session.error = error;
      point.session.stop = 'failed';
    }
  };

/**
 * One point's round: each of its steps a cell, its work as calibrated (or fixed by the plan).
 * @param {Measurement} point
 * @param {Round} round
 * @param {Step[]} steps
 * @param {{ cells: { runCell: typeof runCell, runPlain?: typeof runPlainTree }, interrupt?: AbortSignal,
 *   skip?: (point: Measurement, index: number, step: Step) => boolean,
 *   beforeCell?: (point: Measurement, step: Step) => void,
 *   onCell?: (point: Measurement, round: Round, step: Step, cell: any) => void,
 *   clock: { lastCellEnded: number } }} run  the hooks of runRounds, and when the last cell ended
 */
async function runSteps(point, round, steps, { cells, interrupt, skip, beforeCell, onCell, clock }) {
  const { index } = round;
  const work = /** @type {import('./plan.js').Work} */ (point.session.work);
  for (const step of steps) {
    if (step.plain) {
      await plainStep(point, round, step, { cells, interrupt, clock });
      continue;
    }
    if (skip?.(point, index, step)) continue;
    beforeCell?.(point, step);
    const betweenNs = Math.round((performance.now() - clock.lastCellEnded) * 1e6);
    // a mode sized alone runs its own ops (sizeByPilot)
    const ops = work.byMode?.[step.arm];
    const cell = await timed(point, () =>
      cells.runCell(point.plan, ops ? { ...work, iterations: ops } : work, step.runs, interrupt, {
        ...(step.traced ? { trace: point.tracer } : {}),
        alone: aloneRound(point.plan, index),
        timesOps: timedRound(point, point.arms),
      }),
    );
    clock.lastCellEnded = performance.now();
    if (cell.phases) cell.phases.betweenNs = betweenNs;
    if (step.traced) (round.traced ??= {})[step.arm] = cell;
    else round.cells[step.arm] = cell;
    // before the round is reported: a pilot is shown as one
    const sized = point.pilot && point.session.calibration && point.session.sizing === null;
    const complete = point.arms.every((arm) => round.cells[arm]);
    if (sized && complete) sizeByPilot(point, round);
    else if (complete && !round.pilot) scheduleByNoise(point, round);
    onCell?.(point, round, step, cell);
  }
}

/**
 * A plain tree of a step's arm, after the round's cells and on their work, kept in the round's
 * `plain`; none in a pilot round (its cells ran the calibration's work) or where a cell failed.
 * @param {Measurement} point
 * @param {Round} round
 * @param {Step} step
 * @param {{ cells: { runPlain?: typeof runPlainTree }, interrupt?: AbortSignal, clock: { lastCellEnded: number } }} run
 */
async function plainStep(point, round, step, { cells, interrupt, clock }) {
  const cell = round.cells[step.arm];
  if (round.pilot || !cell || !cells.runPlain) return;
  const work = /** @type {import('./plan.js').Work} */ (point.session.work);
  const iterations = work.byMode?.[step.arm] ?? work.iterations;
  const run = cells.runPlain;
  const tree = await timed(point, () =>
    run(point.plan, { iterations, warmup: plainWarmup(work, cell, iterations) }, step.arm, interrupt),
  );
  // the next cell's time between cells is the CLI's own, not this tree's
  clock.lastCellEnded = performance.now();
  (round.plain ??= {})[step.arm] = tree;
}

/**
 * What ended a run early, as the error the caller reports after the rounds that finished.
 * @param {unknown} error
 */
export const sessionError = (error) =>
  error instanceof MmapbenchError
    ? error
    : new MmapbenchError(`internal error: ${/** @type {Error} */ (error).message}`, { cause: error });

/**
 * Whether a point has run its --rounds: complete rounds, a pilot's aside (an interrupted round
 * that a resumed run went on after counts for none).
 * @param {{ session: Session, arms: Mode[], plan: Readonly<import('./plan.js').Plan> }} point
 */
export const roundsRun = (point) => completeRounds(point.session, point.arms).length >= point.plan.rounds;

/**
 * Rounds in which every arm finished, a pilot's aside: the only ones a ratio may be taken from.
 * @param {{ rounds: Round[] }} session
 * @param {Mode[]} arms
 */
export const completeRounds = (session, arms) =>
  session.rounds.filter((round) => !round.pilot && arms.every((arm) => round.cells[arm]));

/**
 * The interval so far: of the workers/procs ratio with two arms; a single mode stops on count.
 * @param {{ rounds: Round[] }} session
 * @param {Mode[]} arms
 */
function widthSoFar(session, arms) {
  const complete = completeRounds(session, arms);
  if (arms.length !== 2) return { n: complete.length, ci95: null, ratios: [] };
  const ratios = complete.map(roundRatio);
  return { n: ratios.length, ci95: ratios.length ? ratioStats(ratios).ci95 : null, ratios };
}

/**
 * compare's and sweep's rule: each point stops on its own once its verdict is decided (or its
 * ratio is within its plan's --precision, or after its --rounds); when one more round would overrun the budget (the whole
 * run's, calibration included), every point still running stops.
 * @param {number} budget  seconds; Infinity with fixed rounds
 * @returns {StopRule}
 */
export const stopOnWidthOrTime =
  (budget) =>
  ({ points, visited, elapsedSeconds, roundSeconds }) => {
    for (const point of visited) {
      const { ratios, ...width } = widthSoFar(point.session, point.arms);
      point.session.stop =
        stopReason(
          { ...point.plan.stop, maxSeconds: Infinity },
          { ...width, elapsedSeconds: 0, roundSeconds: 0 },
          ratios,
        ) ?? (roundsRun(point) ? 'rounds' : null);
    }
    if (elapsedSeconds + roundSeconds > budget) for (const point of points) point.session.stop ??= 'max-time';
  };

/**
 * The order things run in within round `round` (1-based): each round starts one step further
 * along (A B C, B C A, ...; with two, A B then B A), so slow drift on a noisy machine falls on
 * every setting and mode alike instead of always on the last one.
 * @template T
 * @param {T[]} items
 * @param {number} round
 * @returns {T[]}
 */
export const roundOrder = (items, round) => items.map((_, i) => items[(i + round - 1) % items.length]);
