// compare's results document, built from its session: every figure measured in the run (a sweep
// builds each point's with it). What the document is: document/document.js.
import { ratioStats, roundRatio, summarize } from '../../stats/ratio.js';
import { MARGIN, verdictOf } from '../../stats/sequential.js';
import { completeRounds } from '../../run/scheduler.js';
import { traceResults } from '../../trace/counts.js';
import { accountResults } from '../../stats/account.js';
import { phasesSummary } from '../../stats/phases.js';
import { spreadAttribution } from '../../stats/spread.js';
import { plainShare, treesOf } from '../../stats/trees.js';
import { noiseSplit } from '../../stats/noise.js';
import { MMAP_LOCK_WAITS } from '../../reference/published.js';
import { budgetShortfall, halfWidth, INTERVAL_ROUNDS } from '../../stats/stopping.js';
import { SCHEMA, version } from '../../version.js';
import { POOLS } from '../../run/pool/resolve.js';
import { poolBatchOf } from '../../run/work.js';
import { endOf } from '../../saved/save.js';
import {
  appAlone,
  latencyHistogram,
  mainAccount,
  measureRatios,
  measureSummaries,
  metricSummaries,
} from './summaries.js';

/**
 * @typedef {import('../../document/document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../../document/document.js').MeasureDocument} MeasureDocument
 * @typedef {import('../../document/document.js').Mode} Mode
 * @typedef {import('../../document/document.js').Environment} Environment
 * @typedef {import('../../document/document.js').AppAlone} AppAlone
 * @typedef {import('../../document/document.js').CellResult} CellResult
 * @typedef {import('../../document/document.js').ModeHistogram} ModeHistogram
 * @typedef {import('../../document/document.js').Histogram} Histogram
 * @typedef {import('../../document/document.js').Summary} Summary
 */

/**
 * What the run was asked and what its cells did: the plan, with the session's calibration.
 * @param {import('../../run/plan.js').Plan} plan
 * @param {import('../../run/scheduler.js').Session} session
 * @returns {ResultsDocument['config']}
 */
function configOf(plan, session) {
  return {
    task: {
      name: plan.task.name,
      builtin: plan.task.builtin,
      module: plan.task.builtin ? null : plan.task.url,
      metrics: plan.task.metrics,
      // its ops are round trips to the workers' parent (the message task)
      ...(plan.task.parent ? { parent: true } : {}),
      // its ops read no file: no header names one
      ...(plan.task.readsFile ? {} : { readsFile: false }),
    },
    params: plan.params,
    file: plan.file,
    k: plan.k,
    // one per CPU, as no -k asked otherwise (absent when -k gave it)
    ...(plan.kDefault ? { kDefault: true } : {}),
    // what the cells did: fixed by the plan, or calibrated by the session
    iterations: session.work?.iterations ?? plan.iterations,
    // a task that talks to its parent, sized mode by mode: each mode's ops per worker
    ...(session.work?.byMode ? { iterationsByMode: session.work.byMode } : {}),
    // the window the cells ran: the schedule may have lengthened the one asked for (schedule.js)
    duration: plan.duration && plan.duration * (session.sizing?.scheduled?.scale ?? 1),
    warmup: session.work?.warmup ?? plan.warmup,
    rounds: plan.stop.rounds, // null: stop once decided, on --precision, or at --max-time
    // the width asked for; none where the rounds stop once the verdict is decided
    precision: plan.stop.rounds === null && !plan.stop.sequential ? plan.stop.precision : null,
    ...(plan.stop.sequential ? { sequential: true } : {}),
    margin: plan.stop.margin ?? MARGIN,
    maxTime: plan.stop.rounds === null ? plan.stop.maxSeconds : null,
    env: plan.envOverrides,
    node: plan.node.path,
    timeout: plan.timeout,
    protocol: plan.protocol,
    quick: plan.quick,
    // each worker's semi-space, where --semi-space set one
    ...(plan.semiSpaceMb ? { semiSpaceMb: plan.semiSpaceMb } : {}),
    trace: Boolean(plan.trace),
    main: plan.main
      ? {
          everyMs: plan.main.everyMs,
          size: plan.main.size,
          aloneMs: plan.main.aloneMs,
          request: plan.main.requestUrl ? 'task' : 'default',
        }
      : null,
    end: { settleMs: plan.end.settleMs, cycles: plan.end.cycles },
  };
}

/**
 * The kernel's waits over the traced cells, beside the published ones.
 * @param {NonNullable<import('../../run/plan.js').Plan['trace']>} trace
 * @param {import('../../run/scheduler.js').Session} session
 * @param {Mode[]} modes
 * @param {number} k
 */
const traceOf = (trace, session, modes, k) => ({
  bpftrace: { path: trace.bpftrace, version: trace.version },
  script: 'mmap-lock.bt',
  window: trace.window,
  // a pilot round ran other work: in no figure, traced or not
  ...traceResults(
    session.rounds.filter((round) => !round.pilot),
    modes,
    k,
  ),
  published: MMAP_LOCK_WAITS,
});

/**
 * Where each mode's spread between cells came from, where it was found.
 * @param {import('../../run/scheduler.js').Round[]} complete
 * @param {Mode[]} modes
 */
function spreadOf(complete, modes) {
  const attribution = Object.fromEntries(
    modes.flatMap((mode) => {
      const found = spreadAttribution(complete.flatMap((round) => round.cells[mode] ?? []));
      return found ? [[mode, found]] : [];
    }),
  );
  return Object.keys(attribution).length ? attribution : null;
}

/**
 * Every round as saved: its order, whether it is complete, each mode's cell, its ratio where it
 * counts, and the traced cells.
 * @param {import('../../run/scheduler.js').Session} session
 * @param {Mode[]} modes
 * @param {import('../../run/scheduler.js').Round[]} complete
 * @param {boolean} traced
 * @returns {ResultsDocument['rounds']}
 */
function roundsOf(session, modes, complete, traced) {
  return session.rounds.map((round) => ({
    index: round.index,
    order: round.order,
    complete: !round.pilot && modes.every((mode) => round.cells[mode]),
    ...(round.pilot ? { pilot: /** @type {const} */ (true) } : {}),
    ...Object.fromEntries(modes.map((mode) => [mode, round.cells[mode] ?? null])),
    ...(modes.length === 2 && complete.includes(round) ? { ratio: roundRatio(round) } : {}),
    ...(traced ? { traced: Object.fromEntries(modes.map((mode) => [mode, round.traced?.[mode] ?? null])) } : {}),
    ...(round.plain ? { plain: round.plain } : {}),
  }));
}

/**
 * A mode's figures over its complete rounds' cells; null with none. `others`: the other mode's
 * cells of the same rounds, in a compare, whose further measures are read from the rounds their
 * ratio is.
 * @param {any[]} cells
 * @param {import('../../run/plan.js').Plan} plan
 * @param {any[] | null} others
 */
function modeSummary(cells, plan, others) {
  return cells.length === 0
    ? null
    : {
        throughput: summarize(cells.map((cell) => cell.throughput)),
        spread: summarize(cells.map((cell) => cell.spread)),
        releaseSkewNs: summarize(cells.map((cell) => cell.releaseSkewNs)),
        ...measureSummaries(cells, others),
        ...metricSummaries(cells, plan.task.metrics),
        ...latencyHistogram(cells),
        ...mainAccount(cells),
        // each cell a fresh tree: their states, where they fall apart (stats/trees.js)
        trees: treesOf(cells),
      };
}

/**
 * The look a run's verdict is read at: a sequential run's at every round (decided, stopped or
 * still going) but the one at its budget; a run of fixed rounds, or one stopped at a width the
 * user asked for, an ordinary interval.
 * @param {import('../../stats/stopping.js').StopRule} rule
 * @param {string | null} stop
 * @returns {import('../../stats/sequential.js').Look}
 */
const lookOf = (rule, stop) => (!rule.sequential ? 'fixed' : stop === 'max-time' ? 'final' : 'sequence');

/**
 * The ratio of the complete rounds with its interval, and the verdict as data, read at the look
 * the rounds stopped at; its sentence is drawn when it is shown (commands/compare/words.js).
 * @param {import('../../run/scheduler.js').Round[]} complete
 * @param {import('../../stats/stopping.js').StopRule} rule
 * @param {string | null} stop
 */
function ratioAndVerdict(complete, rule, stop) {
  const stats = complete.length ? ratioStats(complete.map(roundRatio)) : null;
  // no half-width (a noise floor, a precision reached) from rounds too few for an interval
  const ratio = stats ? { ...stats, halfWidth: stats.n >= INTERVAL_ROUNDS ? halfWidth(stats.ci95) : null } : null;
  const verdict = ratio ? verdictOf(ratio.samples, { look: lookOf(rule, stop), margin: rule.margin ?? MARGIN }) : null;
  return { ratio, verdict };
}

/**
 * A measured point, whatever command measured it: why its rounds stopped and what they cost,
 * each mode's figures, the ratio and its verdict, the further measures, the account, the spread
 * and the phases, how its cells were sized, its rounds, and what a compare's flags added (the
 * app alone, the kernel's waits, the fault round, the pool). A compare's document holds one, a
 * sweep's one per point: a figure added here reaches both. Every figure was measured in this run.
 * @param {import('../../run/plan.js').Plan} plan
 * @param {import('../../run/scheduler.js').Session} session
 * @param {Mode[]} modes
 * @returns {{ config: ResultsDocument['config'], point: import('../../document/document.js').MeasuredPoint }}
 */
export function buildPoint(plan, session, modes) {
  const complete = completeRounds(session, modes);
  const config = configOf(plan, session);
  // each mode's figures: a run of one mode (workers, procs) has neither the other's nor a ratio
  const summaries = Object.fromEntries(
    modes.map((mode) => {
      const summary = modeSummary(
        complete.flatMap((round) => round.cells[mode] ?? []),
        plan,
        modes.length === 2 ? complete.map((round) => round.cells[mode === 'workers' ? 'procs' : 'workers']) : null,
      );
      // the plain trees beside the cells, where the run had them: of every round but a pilot
      const plain = plainShare(session.rounds.flatMap((round) => round.plain?.[mode] ?? []));
      return [mode, summary && plain ? { ...summary, plain } : summary];
    }),
  );
  /** @type {import('../../document/document.js').MeasuredPoint} */
  const point = /** @type {any} */ ({
    stop: session.stop,
    seconds: session.seconds,
    ...summaries,
    ...(modes.length === 2 ? ratioAndVerdict(complete, plan.stop, session.stop) : {}),
    calibration: session.calibration,
    sizing: session.sizing,
    rounds: roundsOf(session, modes, complete, Boolean(plan.trace)),
  });
  const measures = modes.length === 2 ? measureRatios(complete) : null;
  if (measures) point.measures = measures;
  if (complete.some((round) => modes.some((mode) => round.cells[mode]?.account)))
    point.account = accountResults(complete, modes, plan.k);
  const attribution = spreadOf(complete, modes);
  if (attribution) point.spread = attribution;
  const phases = phasesSummary(complete, modes);
  if (phases) point.phases = phases;
  const noise = modes.length === 2 ? noiseSplit({ rounds: point.rounds, config, phases: point.phases }) : null;
  if (noise) point.noise = noise;
  // every cell that read it, a pilot round's too: the app alone runs before any worker, whatever
  // the workers' windows were sized to
  const alone = appAlone(session.rounds.flatMap((round) => modes.flatMap((mode) => round.cells[mode] ?? [])));
  if (alone) point.appAlone = alone;
  if (plan.trace) point.trace = traceOf(plan.trace, session, modes, plan.k);
  if (session.fault) point.fault = session.fault;
  if (plan.pool) point.pool = poolOf(plan.pool, session, complete, modes);
  const { calibration, sizing, rounds, ...figures } = point;
  // the figures first, then how the cells were sized and the raw rounds they read
  return { config, point: { ...figures, calibration, sizing, rounds } };
}

/**
 * Builds the results document of a compare, workers or procs run: the run's header and settings,
 * its one point (buildPoint), and the rounds' order, as a sweep's document is laid out.
 * @param {import('../../run/plan.js').Plan} plan
 * @param {import('../../run/scheduler.js').Session} session
 * @param {Mode[]} modes
 * @param {Environment} environment
 * @param {import('../../system/machine-load.js').MachineCheck | null} [machineCheck]
 * @returns {MeasureDocument}
 */
export function buildDocument(plan, session, modes, environment, machineCheck = null) {
  const { config, point } = buildPoint(plan, session, modes);
  const short =
    modes.length === 2
      ? budgetShortfall({
          stop: session.stop,
          maxTime: plan.stop.rounds === null ? plan.stop.maxSeconds : null,
          seconds: session.seconds,
          counted: completeRounds(session, modes).length,
          rounds: point.rounds,
        })
      : null;
  return {
    mmapbench: version,
    schema: SCHEMA,
    command: plan.command,
    ...endOf(session.error),
    config,
    aa: plan.aa,
    seconds: session.seconds,
    machine: machineCheck,
    environment,
    order: point.rounds.map((round) => ({ index: round.index, points: ['p1'] })),
    points: [{ id: 'p1', ...point }],
    ...(short ? { shortBudget: short } : {}),
  };
}

/**
 * A pool run's pool (--pool): which, whose, its two runtimes as the arms, the ops a pool task ran,
 * and per mode the share of its workers' windows that was the pool's own (dispatch, queue,
 * messages), over the complete rounds' cells.
 * @param {import('../../run/pool/resolve.js').PoolPlan} pool
 * @param {import('../../run/scheduler.js').Session} session
 * @param {import('../../run/scheduler.js').Round[]} complete
 * @param {Mode[]} modes
 */
function poolOf(pool, session, complete, modes) {
  /** @type {Partial<Record<Mode, number | null>>} */
  const dispatch = {};
  /** @type {Partial<Record<Mode, number | null>>} */
  const perTaskUs = {};
  for (const mode of modes) {
    const cells = complete.flatMap((round) => round.cells[mode]?.pool ?? []);
    const total = (/** @type {'windowNs'|'busyNs'|'tasks'} */ key) => cells.reduce((sum, cell) => sum + cell[key], 0);
    const [windowNs, busyNs, tasks] = [total('windowNs'), total('busyNs'), total('tasks')];
    dispatch[mode] = windowNs > 0 ? Math.max(0, 1 - busyNs / windowNs) : null;
    // the gap a pool task leaves in its worker's window: its round trip and its queue
    perTaskUs[mode] = tasks > 0 ? Math.max(0, windowNs - busyNs) / tasks / 1e3 : null;
  }
  return {
    name: pool.name,
    version: pool.version,
    from: pool.from,
    runtimes: POOLS[pool.name],
    batch: pool.batch ?? (session.work ? poolBatchOf(session.work) : null),
    // --batch gave it: part of what names the point (points/point-name.js)
    batchGiven: pool.batch !== null,
    isolate: pool.isolate,
    dispatch,
    perTaskUs,
  };
}
