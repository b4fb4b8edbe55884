import { differenceStats, ratioStats, roundRatio, summarize, verdict } from '../stats/ratio.js';
import { pooledPercentile, pooledRatioStats } from '../stats/pooled.js';
import { completeRounds } from '../run/scheduler.js';
import { traceResults } from '../trace/counts.js';
import { accountResults } from '../stats/account.js';
import { phasesSummary } from '../stats/phases.js';
import { spreadAttribution } from '../stats/spread.js';
import { MMAP_LOCK_WAITS } from '../reference/published.js';
import { FURTHER_MEASURES } from '../points/measures.js';
import { valueOf } from '../points/points.js';
import { budgetShortfall, halfWidth } from '../stats/stopping.js';
import { SCHEMA, version } from '../version.js';
import { SAVED_BITS, countOf, mergeHistograms, percentileOf } from '../stats/histogram.js';

/**
 * @typedef {import('../stats/ratio.js').Summary} Summary
 * @typedef {import('../stats/cell-summary.js').CellResult} CellResult
 * @typedef {import('../stats/histogram.js').Histogram} Histogram
 */

/**
 * @typedef {object} Config  what the run was asked and did
 * @property {{ name: string, builtin: boolean, module: string | null, metrics: Record<string, import('../tasks/index.js').TaskMetric>,
 *   parent?: boolean, readsFile?: false }} task  parent: its ops are round trips to the workers'
 *   parent (message); readsFile: false when its ops read no file (no header names one)
 * @property {Record<string, any>} params
 * @property {{ path: string, size: number, label: string }} file
 * @property {number} k
 * @property {number | null} iterations  per worker, calibrated or given
 * @property {Partial<Record<'workers'|'procs', number>>} [iterationsByMode]  a task that talks to its
 *   parent, sized mode by mode: each mode's ops per worker
 * @property {number | null} duration
 * @property {import('../run/plan.js').Warmup | null} warmup  per worker, or 'steady': until the rate stops trending
 * @property {number | null} rounds  fixed by --rounds or --quick; null: stopped on precision or time
 * @property {number | null} precision  the target relative half-width, when not fixed
 * @property {number | null} maxTime  the wall-time budget in seconds, when not fixed
 * @property {Record<string, string>} env  the --env values
 * @property {string} node
 * @property {number} timeout
 * @property {'steady'|'published'} protocol  published: 2,000 iterations and no warmup, as the investigation measured
 * @property {boolean} quick
 * @property {boolean} trace
 * @property {number} [semiSpaceMb]  MiB of V8's semi-space in each worker (--semi-space)
 * @property {{ settleMs: number, cycles: number }} [end]  how each cell's parent ended its workers
 *   (--settle, --cycles)
 * @property {{ everyMs: number, size: number, aloneMs: number, request: 'default'|'task' } | null} [main]
 *   the app's own load on the parent's main thread while the workers ran (null: --main off;
 *   absent in a document from before it was measured)
 */

/**
 * @typedef {'workers'|'procs'} Mode
 * @typedef {import('../points/points.js').ModeSummary} ModeSummary
 * @typedef {import('../points/points.js').ModeHistogram} ModeHistogram
 * @typedef {object} SavedRound  one round as saved; a mode's cell is null when it did not finish
 * @property {number} index
 * @property {Mode[]} order
 * @property {boolean} complete
 * @property {true} [pilot]  it sized the cells after it and counts in no figure
 * @property {CellResult | null} [workers]
 * @property {CellResult | null} [procs]
 * @property {number} [ratio]  workers/procs, complete rounds of a compare
 * @property {Partial<Record<Mode, CellResult | null>>} [traced]  with --trace
 * @typedef {ReturnType<typeof import('../system/environment.js').describeEnvironment>} Environment
 * @typedef {{ bpftrace: { path: string, version: string }, script: string, window: 'timed'|'cell',
 *   published: typeof MMAP_LOCK_WAITS } & ReturnType<typeof traceResults>} TraceSection
 */

/**
 * The results document: what `--json` prints and what the renderers read (docs/json.md).
 * @typedef {object} ResultsDocument
 * @property {string} mmapbench  its version
 * @property {number} schema  the layout's version (SCHEMA)
 * @property {'workers'|'procs'|'compare'} command
 * @property {'complete'|'failed'|'interrupted'|'incomplete'} status  incomplete: kept after a round
 *   of a run still going, or killed before it could finish
 * @property {import('../run/plan.js').MeasureOptions} [resume]  in a document that did not
 *   finish: the options it was started with, for --resume
 * @property {{ kind: string, message: string, worker: number | null } | null} error
 * @property {Config} config
 * @property {Environment} environment
 * @property {import('../run/calibrate.js').Calibration | null} calibration
 * @property {import('../run/scheduler.js').Sizing | null} sizing  how the first round sized the cells
 * @property {SavedRound[]} rounds
 * @property {ModeSummary | null} [workers]
 * @property {ModeSummary | null} [procs]
 * @property {'workers'|'procs'|null} aa  an A/A run: both arms ran this mode (workers = arm A, procs = arm B)
 * @property {'rounds'|'precision'|'max-time'|'interrupted'|'failed'|'dropped'|'ordered'|null} stop  why the rounds stopped (dropped, ordered: an advise candidate's race)
 * @property {number} seconds  wall time of the run, calibration included
 * @property {import('../system/machine-load.js').MachineCheck | null} machine  the machine check before the first round
 * @property {(import('../stats/ratio.js').RatioStats & { halfWidth: number | null }) | null} [ratio]  compare only
 * @property {(import('../stats/ratio.js').Verdict & { text?: string }) | null} [verdict]  compare only;
 *   text: its sentence, in files saved before the sentences were drawn when shown (commands/compare/model.js)
 * @property {AppAlone} [appAlone]  the app alone, before its workers started (appAlone)
 * @property {Record<string, import('../stats/ratio.js').RatioStats>} [measures]  compare only: each
 *   measure beyond throughput (measures.js) as a workers/procs ratio, by its key
 * @property {string | null} [next]  what to run next, in files saved before it was drawn when shown
 * @property {NonNullable<ReturnType<typeof budgetShortfall>>} [shortBudget]  compare only: the
 *   --max-time budget ran out before an interval (fewer than 3 rounds counted); with none
 *   counted the ratio is null and the command exits 6
 * @property {import('./gate.js').Gate} [gate]  with --fail-below, on a complete run
 * @property {ReturnType<typeof accountResults> & { words?: import('./account-text.js').AccountWords }} [account]
 *   where each mode's time per op went (words: what that says, in files saved before it was
 *   drawn when shown)
 * @property {import('../stats/phases.js').PhasesSummary} [phases]  where a round's time went
 * @property {Partial<Record<Mode, import('../stats/spread.js').SpreadAttribution>>} [spread]  why
 *   the cells disagree: what each mode's log throughput goes with, cell by cell
 * @property {TraceSection} [trace]  with --trace
 */

/**
 * Builds the results document. Every figure in it was measured in this run.
 * @param {import('../run/plan.js').Plan} plan
 * @param {import('../run/scheduler.js').Session} session
 * @param {Mode[]} modes
 * @param {Environment} environment
 * @param {import('../system/machine-load.js').MachineCheck | null} [machineCheck]
 * @returns {ResultsDocument}
 */
export function buildDocument(plan, session, modes, environment, machineCheck = null) {
  const complete = completeRounds(session, modes);
  const { error } = session;
  /** @type {ResultsDocument} */
  const document = {
    mmapbench: version,
    schema: SCHEMA,
    command: plan.command,
    ...endOf(error),
    config: {
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
      // what the cells did: fixed by the plan, or calibrated by the session
      iterations: session.work?.iterations ?? plan.iterations,
      // a task that talks to its parent, sized mode by mode: each mode's ops per worker
      ...(session.work?.byMode ? { iterationsByMode: session.work.byMode } : {}),
      duration: plan.duration,
      warmup: session.work?.warmup ?? plan.warmup,
      rounds: plan.stop.rounds, // null: stop on --precision or --max-time
      precision: plan.stop.rounds === null ? plan.stop.precision : null,
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
    },
    aa: plan.aa,
    stop: session.stop,
    seconds: session.seconds,
    machine: machineCheck,
    environment,
    calibration: session.calibration,
    sizing: session.sizing,
    rounds: session.rounds.map((round) => ({
      index: round.index,
      order: round.order,
      complete: !round.pilot && modes.every((mode) => round.cells[mode]),
      ...(round.pilot ? { pilot: true } : {}),
      ...Object.fromEntries(modes.map((mode) => [mode, round.cells[mode] ?? null])),
      ...(modes.length === 2 && complete.includes(round) ? { ratio: roundRatio(round) } : {}),
      ...(plan.trace ? { traced: Object.fromEntries(modes.map((mode) => [mode, round.traced?.[mode] ?? null])) } : {}),
    })),
  };
  for (const mode of modes) {
    const cells = complete.flatMap((round) => round.cells[mode] ?? []);
    document[mode] =
      cells.length === 0
        ? null
        : {
            throughput: summarize(cells.map((cell) => cell.throughput)),
            spread: summarize(cells.map((cell) => cell.spread)),
            releaseSkewNs: summarize(cells.map((cell) => cell.releaseSkewNs)),
            ...measureSummaries(cells),
            ...metricSummaries(cells, plan.task.metrics),
            ...latencyHistogram(cells),
            ...mainAccount(cells),
          };
  }
  if (modes.length === 2) {
    const stats = complete.length ? ratioStats(complete.map(roundRatio)) : null;
    const ratio = stats ? { ...stats, halfWidth: halfWidth(stats.ci95) } : null;
    document.ratio = ratio;
    // the verdict as data; its sentence is drawn when it is shown (commands/compare/model.js)
    const decided = ratio ? verdict(ratio) : null;
    document.verdict = ratio && decided ? decided : null;
  }
  if (modes.length === 2) {
    const measures = measureRatios(complete);
    if (measures) document.measures = measures;
  }
  // every cell that read it, a pilot round's too: the app alone runs before any worker, whatever
  // the workers' windows were sized to
  const alone = appAlone(session.rounds.flatMap((round) => modes.flatMap((mode) => round.cells[mode] ?? [])));
  if (alone) document.appAlone = alone;
  if (modes.length === 2) {
    const short = budgetShortfall({
      stop: session.stop,
      maxTime: plan.stop.rounds === null ? plan.stop.maxSeconds : null,
      seconds: session.seconds,
      counted: complete.length,
      rounds: document.rounds,
    });
    if (short) document.shortBudget = short;
  }
  if (complete.some((round) => modes.some((mode) => round.cells[mode]?.account))) {
    document.account = accountResults(complete, modes, plan.k);
  }
  const attribution = Object.fromEntries(
    modes.flatMap((mode) => {
      const found = spreadAttribution(complete.flatMap((round) => round.cells[mode] ?? []));
      return found ? [[mode, found]] : [];
    }),
  );
  if (Object.keys(attribution).length) document.spread = attribution;
  const phases = phasesSummary(complete, modes);
  if (phases) document.phases = phases;
  if (plan.trace) {
    document.trace = {
      bpftrace: { path: plan.trace.bpftrace, version: plan.trace.version },
      script: 'mmap-lock.bt',
      window: plan.trace.window,
      // a pilot round ran other work: in no figure, traced or not
      ...traceResults(
        session.rounds.filter((round) => !round.pilot),
        modes,
        plan.k,
      ),
      published: MMAP_LOCK_WAITS,
    };
  }
  return document;
}

/**
 * How a run ended, as its document says it: complete, or its error and whether it was stopped.
 * @param {{ kind: string, message: string, worker?: number | null } | null | undefined} error
 * @returns {Pick<ResultsDocument, 'status' | 'error'>}
 */
export const endOf = (error) => ({
  status: error ? (error.kind === 'interrupted' ? 'interrupted' : 'failed') : 'complete',
  error: error ? { kind: error.kind, message: error.message, worker: error.worker ?? null } : null,
});

/**
 * A measured point, whatever command measured it: why its rounds stopped and what they cost,
 * each mode's figures, the ratio and its verdict, the further measures, the account, the spread
 * and the phases, how its cells were sized, and its rounds. A compare's document holds one at
 * its top level, a sweep's one per point: a figure added to buildDocument reaches both.
 * @param {ResultsDocument} document
 */
export const savedPoint = (document) => ({
  stop: document.stop,
  seconds: document.seconds,
  workers: document.workers ?? null,
  procs: document.procs ?? null,
  ratio: document.ratio ?? null,
  verdict: document.verdict ?? null,
  ...(document.measures ? { measures: document.measures } : {}),
  ...(document.account ? { account: document.account } : {}),
  ...(document.spread ? { spread: document.spread } : {}),
  ...(document.phases ? { phases: document.phases } : {}),
  calibration: document.calibration,
  sizing: document.sizing,
  rounds: document.rounds,
});

/**
 * Each measure beyond throughput as a workers/procs ratio, round by round over the complete
 * rounds whose cells both have it, with its interval as the throughput ratio's; null when no
 * measure beyond throughput was had.
 * @param {import('../stats/cell-summary.js').RoundCells[]} complete
 * @returns {Record<string, import('../stats/ratio.js').RatioStats> | null}
 */
function measureRatios(complete) {
  const ratios = FURTHER_MEASURES.flatMap((measure) => {
    const difference = measure.contrast === 'difference';
    const perRound = complete.flatMap(({ cells: { workers, procs } }) => {
      const [w, p] = [workers, procs].map((cell) => valueOf(measure, cell));
      if (difference) return w !== null && p !== null ? [w - p] : [];
      return w && p ? [w / p] : [];
    });
    if (!perRound.length) return [];
    if (measure.pooled) {
      const { histogram, percentile, bits } = measure.pooled;
      const pairs = complete.flatMap(({ cells: { workers, procs } }) => {
        const [w, p] = [workers, procs].map((cell) => (cell ? histogram(cell) : null));
        return w?.length && p?.length ? [/** @type {[Histogram, Histogram]} */ ([w, p])] : [];
      });
      const pooled = pooledRatioStats(pairs, percentile, bits);
      return pooled ? [[measure.key, pooled]] : [];
    }
    return [[measure.key, difference ? differenceStats(perRound) : ratioStats(perRound)]];
  });
  return ratios.length ? Object.fromEntries(ratios) : null;
}

/**
 * A pooled measure's figure over a mode's cells (one a round) and its interval, in the measure's
 * unit; nothing when no cell timed any.
 * @param {NonNullable<import('../points/measures.js').Measure['pooled']>} pooled
 * @param {CellResult[]} cells
 * @returns {{ pooled?: number, pooledCi95?: [number, number] | null }}
 */
function pooledOf({ histogram, percentile, bits, scale }, cells) {
  const rounds = cells.flatMap((cell) => {
    const timed = histogram(cell);
    return timed?.length ? [timed] : [];
  });
  const read = pooledPercentile(rounds, percentile, bits);
  if (!read) return {};
  return {
    pooled: read.value * scale,
    pooledCi95: read.ci95 ? [read.ci95[0] * scale, read.ci95[1] * scale] : null,
  };
}

/**
 * Each measure beyond throughput over the cells that have it (FURTHER_MEASURES); one no cell has is left
 * out, and each cell says why it has none.
 * @param {CellResult[]} cells
 * @returns {Record<string, Summary>}
 */
function measureSummaries(cells) {
  return Object.fromEntries(
    FURTHER_MEASURES.flatMap((measure) => {
      const values = cells.flatMap((cell) => {
        const value = valueOf(measure, cell);
        return value === null ? [] : [value];
      });
      if (!values.length) return [];
      return [[measure.key, { ...summarize(values), ...(measure.pooled ? pooledOf(measure.pooled, cells) : {}) }]];
    }),
  );
}

/**
 * The app alone: its requests before the workers started, over every cell that read it (a
 * pilot round's too), in both modes (the same app, before either mode's workers): the requests' times pooled into one
 * histogram, whose percentiles are read, and the median over cells of the event loop's p99.
 * A cell reads only about 50 requests alone, too few for a p99 of its own.
 * @param {CellResult[]} cells
 * @returns {AppAlone | null}
 *
 * @typedef {{ cells: number, requests: number, p50Ns: number, p99Ns: number,
 *   lagP99Ns?: number, loopDelayP99Ns?: number, histogram: ModeHistogram }} AppAlone  lagP99Ns:
 *   the timer's lag, every cell's ticks pooled; loopDelayP99Ns: in a file saved before that, the
 *   median over cells of Node's loop delay monitor's p99
 */
function appAlone(cells) {
  const stretches = cells.flatMap((cell) => (cell.main?.alone ? [cell.main.alone] : []));
  if (!stretches.length) return null;
  const histogram = mergeHistograms(stretches.map((stretch) => stretch.histogram));
  return {
    cells: stretches.length,
    requests: countOf(histogram),
    p50Ns: /** @type {number} */ (percentileOf(histogram, 50, SAVED_BITS)),
    p99Ns: /** @type {number} */ (percentileOf(histogram, 99, SAVED_BITS)),
    ...aloneLagOf(stretches),
    // for the page's percentile plot, as a mode's histograms are kept
    histogram: { cells: stretches.length, ops: countOf(histogram), bits: SAVED_BITS, ns: histogram },
  };
}

/**
 * The app alone's timer lag, every stretch's ticks pooled (in a run before the timer's lag was
 * kept: the median of each stretch's loop delay p99).
 * @param {import('../stats/samples.js').MainStretch[]} stretches
 * @returns {{ lagP99Ns: number } | { loopDelayP99Ns: number } | {}}
 */
function aloneLagOf(stretches) {
  const lags = stretches.flatMap((stretch) => (stretch.lag ? [stretch.lag.histogram] : []));
  if (lags.length) return { lagP99Ns: /** @type {number} */ (percentileOf(mergeHistograms(lags), 99, SAVED_BITS)) };
  const old = stretches.flatMap((stretch) => (stretch.loopDelay ? [stretch.loopDelay.p99Ns] : []));
  return old.length ? { loopDelayP99Ns: summarize(old).median } : {};
}

/**
 * Where the app's main thread's time went while the workers ran, per request it served: its own
 * counters over the stretch (on a CPU, of that in the kernel, waiting for a CPU, page faults),
 * each the median over the cells; nothing where no cell read them.
 * @param {CellResult[]} cells
 * @returns {{ mainAccount?: MainAccount }}

 * @typedef {import('../points/points.js').MainAccount} MainAccount
 */
function mainAccount(cells) {
  const stretches = cells.flatMap((cell) =>
    cell.main?.during?.account && cell.main.during.requests ? [cell.main.during] : [],
  );
  if (!stretches.length) return {};
  /** @param {(account: import('../run/thread-counters.js').WindowAccount) => number | null} of  @param {number} scale */
  const perRequest = (of, scale) => {
    const values = stretches.flatMap((stretch) => {
      const value = of(/** @type {any} */ (stretch.account));
      return value === null ? [] : [value / scale / stretch.requests];
    });
    return values.length ? summarize(values).median : null;
  };
  return {
    mainAccount: {
      cells: stretches.length,
      cpuUs: perRequest((account) => account.cpuNs, 1e3),
      // a split into user and system from /proc's 10 ms ticks means nothing over a window of
      // tenths of a second: only Node's own per-thread CPU usage (24 and later) gives one
      systemUs: perRequest((account) => (account.split === 'thread-cpu-usage' ? account.systemNs : null), 1e3),
      runqUs: perRequest((account) => account.runqNs, 1e3),
      minflt: perRequest((account) => account.minflt, 1),
    },
  };
}

/**
 * Each task metric over the cells, as medians and ranges like throughput.
 * @param {CellResult[]} cells
 * @param {Record<string, unknown>} declared
 */
function metricSummaries(cells, declared) {
  const names = Object.keys(declared ?? {});
  if (!names.length) return {};
  return {
    metrics: Object.fromEntries(
      names.map((name) => {
        const values = cells.map((cell) => cell.metrics?.[name]).filter((v) => typeof v === 'number');
        return [name, values.length ? summarize(values) : null];
      }),
    ),
  };
}

/**
 * The ops a mode's cells timed, merged into one histogram for the distribution chart; nothing
 * where no cell timed any (a user's task, or cells saved before cells kept their histogram).
 * @param {CellResult[]} cells
 * @returns {{ latencyHistogram?: ModeHistogram }}
 */
function latencyHistogram(cells) {
  const kept = cells.flatMap(({ latency }) => (latency && 'histogram' in latency ? [latency.histogram] : []));
  const requests = cells.flatMap(({ main }) => (main?.during?.histogram ? [main.during.histogram] : []));
  const ns = kept.length ? mergeHistograms(kept) : null;
  const main = requests.length ? mergeHistograms(requests) : null;
  return {
    ...(ns ? { latencyHistogram: { cells: kept.length, ops: countOf(ns), bits: SAVED_BITS, ns } } : {}),
    // the app's requests on the main thread while the workers ran, merged likewise
    ...(main ? { mainHistogram: { cells: requests.length, ops: countOf(main), bits: SAVED_BITS, ns: main } } : {}),
  };
}
