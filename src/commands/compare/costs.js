// What adding the workers costs the app, in words: the trade-off's rows said as sentences, the
// app's own main thread, what it keeps over cycles, the harness's own share.
import { formatCI, contrastCell } from '../../document/sentences.js';
import { plural, fixed, ops, formatSize, MODES, percentText } from '../../words/spelling.js';
import { cpusOf } from '../../system/cpus.js';
import { sideOf, meanInterval, neutralOf, summarize } from '../../stats/ratio.js';
import { INTERVAL_ROUNDS } from '../../stats/stopping.js';
import { decision } from '../../stats/sequential.js';
import { MEASURES, addedMiB } from '../../points/measures.js';
import { percentileOf } from '../../stats/histogram.js';
import { centreOf, figureOf, furtherMeasuresOf } from '../../points/points.js';

/**
 * @typedef {import('../../document/document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {'workers'|'procs'} Mode
 */

/**
 * Which mode a workers/procs ratio of a measure favours, by its interval: null without an
 * interval (fewer than INTERVAL_ROUNDS rounds); where the interval spans no difference, `equal`,
 * or with a margin (the verdict's) `equal` only for a ratio whose interval lies within it and
 * `undecided` for any other.
 * @param {import('../../stats/ratio.js').RatioStats | null | undefined} ratio
 * @param {'higher'|'lower'} better  which way the measure improves
 * @param {number} [margin]
 * @returns {Mode | 'equal' | 'undecided' | null}
 */
export function favouredMode(ratio, better, margin) {
  if (!ratio?.ci95 || ratio.n < INTERVAL_ROUNDS) return null;
  const side = sideOf(ratio.ci95, neutralOf(ratio));
  if (side === 'spans')
    return margin === undefined || (!ratio.difference && decision(ratio.ci95, margin) === 'equal')
      ? 'equal'
      : 'undecided';
  return (side === 'above') === (better === 'higher') ? 'workers' : 'procs';
}

/**
 * The trade-off beyond throughput in one line: each measure as workers against procs, with its
 * interval and, where the interval lies off 1, whether that is better or worse for workers.
 * @param {ResultsDocument} document
 * @param {import('../../points/points.js').Point} point  its one point (measurePoints)
 * @returns {string | null}
 */
export function tradeOffText(document, point) {
  if (document.aa) return null;
  const parts = furtherMeasuresOf([point]).flatMap((measure) => {
    const { ratio } = figureOf(measure, point);
    if (!ratio) return [];
    // with the verdict's margin (a file from before it: any interval spanning no difference is equal)
    const margin = document.config?.margin;
    const favoured = favouredMode(ratio, measure.better, margin);
    if (ratio.difference) {
      // a figure a mode may have none of: workers − procs, in its unit
      const by = contrastCell(ratio, measure);
      if (!favoured || !ratio.ci95) return [`${measure.name} ${by} (${plural(ratio.n, 'round')}: no interval)`];
      if (favoured === 'equal') return [`${measure.name} equal (${by} spans 0)`];
      if (favoured === 'undecided') return [`${measure.name} undecided (${by} spans 0)`];
      return [`${measure.name} ${by} with workers (${favoured === 'procs' ? 'worse' : 'better'})`];
    }
    if (!favoured || !ratio.ci95)
      return [`${measure.name} ${fixed(ratio.median)}x (${plural(ratio.n, 'round')}: no interval)`];
    if (favoured === 'equal')
      return [
        margin === undefined
          ? `${measure.name} equal (${formatCI(ratio.ci95)} spans 1)`
          : `${measure.name} equal within ±${percentText(margin, 2)} (${formatCI(ratio.ci95)})`,
      ];
    if (favoured === 'undecided') return [`${measure.name} undecided (${formatCI(ratio.ci95)} spans 1)`];
    return [
      `${measure.name} ${fixed(ratio.geomean)}x (${formatCI(ratio.ci95)}, ${favoured === 'procs' ? 'worse' : 'better'})`,
    ];
  });
  return parts.length ? `workers against procs: ${parts.join('; ')}` : null;
}

// What adding the workers costs the app, as a person says it: each measure's words for workers
// against procs, from the ratio (or, kept memory, the difference in MiB a worker); `app` names
// the app where a part speaks of it: "your app" the first time, "it" after
/** @typedef {{ subject: string, possessive: string }} App */
/** @type {Record<string, (by: string, up: boolean, app: App) => string>} */
const COST_WORDS = {
  firstThroughput: (by, up) => `fresh ones do their first 2,000 ops ${by} ${up ? 'faster' : 'slower'}`,
  toFullSpeedMs: (by, up) => (up ? `they take ${by} longer to reach full speed` : `they reach full speed ${by} sooner`),
  addedMemory: (by, up) => `each worker takes ${by} ${up ? 'more' : 'less'} memory`,
  readyMs: (by, up) => (up ? `they take ${by} longer to start` : `they start ${by} sooner`),
  mainRequestP99Us: (by, up, app) => `${app.possessive} requests are ${by} ${up ? 'slower' : 'faster'} at p99`,
  lagP99Ms: (by, up, app) => `${app.possessive} event loop lags ${by} ${up ? 'more' : 'less'}`,
  loopDelayP99Ms: (by, up, app) => `${app.possessive} event loop lags ${by} ${up ? 'more' : 'less'}`,
  keptMemory: (by, up, app) => `${app.subject} keeps ${by} ${up ? 'more' : 'less'} a worker once they end`,
  keptLastMemory: (by, up, app) => `${app.subject} keeps ${by} ${up ? 'more' : 'less'} after the last cycle`,
  keptGrowthPerCycle: (by, up, app) => `what ${app.subject} keeps grows ${by} ${up ? 'more' : 'less'} a cycle`,
};
// the parts that name the app: the last, from its requests on (the workers' own come first)
const OF_THE_APP = Object.keys(COST_WORDS).slice(Object.keys(COST_WORDS).indexOf('mainRequestP99Us'));

/**
 * How long the workers had worked when they were ended (their warmup and window, the mean over
 * both modes' cells): what a thread leaves grows with it. Null without phases.
 * @param {ResultsDocument} document
 */
const workSeconds = (document) => {
  const modes = document.phases ? Object.values(document.phases.modes) : [];
  return modes.length
    ? modes.reduce((sum, mode) => sum + (mode.warmupNs + mode.windowNs) / 1e9, 0) / modes.length
    : null;
};
// the most the costs take: two lines of 80 columns, wrapped between words
const COSTS_CHARS = 150;

/**
 * The costs that differ, in plain words: what adding the workers does to the app beside adding
 * processes, for each cost whose interval lies off no difference (`with workers, each worker
 * takes 12% more memory, your app's requests are 15% faster at p99 and it keeps 20 MiB more a
 * worker once they end`); the intervals are the table's. Null where none differs, and in an A/A
 * run.
 * @param {ResultsDocument} document
 * @param {import('../../points/points.js').Point} point  its one point (measurePoints)
 * @returns {string | null}
 */
export function costsText(document, point) {
  if (document.aa) return null;
  // in COST_WORDS' order: the app's own rows before what it keeps
  const measures = Object.keys(COST_WORDS).flatMap((key) => MEASURES.filter((measure) => measure.key === key));
  // the parts are said in this order, and cut from the end: the first that names the app says whose
  let named = false;
  const parts = measures.flatMap((measure) => {
    const { ratio } = figureOf(measure, point);
    const favoured = favouredMode(ratio, measure.better);
    if (!ratio?.ci95 || favoured === null || favoured === 'equal' || favoured === 'undecided') return [];
    const value = ratio.geomean;
    const up = ratio.difference ? value > 0 : value > 1;
    // a rate is said as how many times slower or faster (0.59: 1.7x slower)
    const rate = measure.better === 'higher';
    const times = rate && value < 1 ? 1 / value : value;
    const by = ratio.difference
      ? measure.format(Math.abs(value)).replace(/^−/, '')
      : times >= 2 || rate
        ? `${fixed(times, 1)}x`
        : percentText(Math.abs(times - 1));
    const worked = workSeconds(document);
    const after = measure.key === 'keptMemory' && worked !== null ? ` (after ${fixed(worked, 1)} s of work)` : '';
    const app = named ? { subject: 'it', possessive: 'its' } : { subject: 'your app', possessive: "your app's" };
    named ||= OF_THE_APP.includes(measure.key);
    return [`${COST_WORDS[measure.key](by, up, app)}${after}`];
  });
  if (!parts.length) return null;
  const said = (/** @type {string[]} */ some, more = false) =>
    `with workers, ${some.length > 1 ? `${some.slice(0, -1).join(', ')} and ${some[some.length - 1]}` : some[0]}${more ? '; more in the table' : ''}`;
  for (let n = parts.length; n > 1; n--) {
    const text = said(parts.slice(0, n), n < parts.length);
    if (text.length <= COSTS_CHARS) return text;
  }
  return said(parts.slice(0, 1), parts.length > 1);
}

/** The measures of the app's main thread while the workers ran: what the verdict may name. */
const APP_MEASURES = MEASURES.filter((measure) =>
  ['mainRequestP99Us', 'lagP99Ms', 'loopDelayP99Ms'].includes(measure.key),
);

/**
 * The app alone's loop lag p99 (ns): its timer's lag, or in a file saved before that, Node's
 * loop delay monitor's p99 (the 1 ms included).
 * @param {NonNullable<ResultsDocument['appAlone']>} alone
 */
const aloneLag = (alone) => alone.lagP99Ns ?? alone.loopDelayP99Ns ?? 0;

/**
 * What the app rows measured: the load, the app alone beside it and what each mode's workers
 * added to it, and, where the app's main thread and K workers are more than the CPUs, that it
 * also waited for one; null with --main off, or for a document from before.
 * @param {ResultsDocument} document
 * @param {import('../../points/points.js').Point} [point]  its one point (measurePoints)
 * @param {{ verbose?: boolean }} [options]  verbose: the whole: what the workers added, the
 *   requests' p50 pooled over the cells, where the main thread's time went; else a short line
 * @returns {string | null}
 */
export function appText(document, point, { verbose = false } = {}) {
  const main = document.config.main;
  if (!main) return null;
  const request =
    main.request === 'task'
      ? "your task's request(context)"
      : `a ${formatSize(main.size)} Buffer allocated and filled, then a small JSON round trip`;
  const alone = document.appAlone;
  const [requestP99, ...lagMeasures] = APP_MEASURES;
  const lagAlone = alone ? aloneLag(alone) : null;
  const signed = (/** @type {number} */ value, /** @type {number} */ digits, /** @type {string} */ unit) =>
    `${value < 0 ? '−' : '+'}${fixed(Math.abs(value), digits)} ${unit}`;
  const added =
    alone && point && !document.aa
      ? MODES.flatMap((mode) => {
          const request = figureOf(requestP99, point)[mode];
          const loop = lagMeasures.map((measure) => figureOf(measure, point)[mode]).find(Boolean);
          return request && loop && lagAlone !== null
            ? [
                `${mode} ${signed(centreOf(request) - alone.p99Ns / 1e3, 0, 'µs')} and ${signed(centreOf(loop) - lagAlone / 1e6, 2, 'ms')}`,
              ]
            : [];
        })
      : [];
  const aloneText =
    alone && lagAlone !== null
      ? `; alone, before its workers started, request p99 ${fixed(alone.p99Ns / 1e3, 0)} µs and loop lag p99 ${fixed(lagAlone / 1e6, 2)} ms (${ops(alone.requests)} requests in ${alone.cells} cells, one round in 3)${added.length ? `; beside them, ${added.join(', ')}` : ''}`
      : '';
  const accounts = document.aa ? [] : mainAccounts(document);
  const why = accounts.length ? `; its main thread per request: ${accounts.join('; ')}` : '';
  const cpus = document.environment?.cpu ? cpusOf(document.environment.cpu) : undefined;
  const k = document.config.k;
  const crowded =
    typeof cpus === 'number' && k + 1 > cpus
      ? `; with k=${k} workers beside it on ${plural(cpus, 'CPU')}, the main thread also waits for a CPU (\`sweep -k\` shows how that grows)`
      : '';
  const p50s = verbose ? pooledMedians(document, alone) : [];
  const middle = p50s.length ? `; request p50, every request pooled: ${p50s.join(', ')}` : '';
  if (!verbose) {
    // the answer's: what ran, the app alone, and the CPUs; the rest is --verbose's
    const short =
      alone && lagAlone !== null
        ? ` (alone: p99 ${fixed(alone.p99Ns / 1e3, 0)} µs, loop lag p99 ${fixed(lagAlone / 1e6, 2)} ms)`
        : '';
    const few =
      typeof cpus === 'number' && k + 1 > cpus ? `; with k=${k} on ${plural(cpus, 'CPU')} it also waited for one` : '';
    return `app: the main thread served ${main.request === 'task' ? 'request(context)' : `a ${formatSize(main.size)} request`} every ${main.everyMs} ms${short}${few}; more with --verbose`;
  }
  return `app: the parent's main thread served a request every ${main.everyMs} ms while the workers ran (${request})${aloneText}${middle}${why}; --main off for none${crowded}`;
}

/**
 * Where the main thread's time went, per request it served, in each mode.
 * @param {ResultsDocument} document
 */
const mainAccounts = (document) =>
  MODES.flatMap((mode) => {
    const account = document[mode]?.mainAccount;
    if (!account || account.cpuUs === null) return [];
    const system = account.systemUs === null ? '' : ` (${fixed(account.systemUs, 0)} µs in the kernel)`;
    const waiting = account.runqUs === null ? '' : `, ${fixed(account.runqUs, 0)} µs waiting for a CPU`;
    const faults = account.minflt === null ? '' : `, ${fixed(account.minflt, 1)} page faults`;
    return [`${mode} ${fixed(account.cpuUs, 0)} µs on a CPU${system}${waiting}${faults}`];
  });

/**
 * The middle of the requests, every one of the complete cells pooled, in each mode and alone.
 * @param {ResultsDocument} document
 * @param {ResultsDocument['appAlone']} alone
 */
const pooledMedians = (document, alone) => [
  ...MODES.flatMap((mode) => {
    const histogram = document[mode]?.mainHistogram;
    const p50 = histogram ? percentileOf(histogram.ns, 50, histogram.bits) : null;
    return p50 === null ? [] : [`${mode} ${fixed(p50 / 1e3, 0)} µs`];
  }),
  ...(alone ? [`alone ${fixed(alone.p50Ns / 1e3, 0)} µs`] : []),
];

/**
 * A recycling run (--cycles N): what the app kept per worker after the first and the last cycle
 * in each mode, and its growth per cycle (the least-squares slope of each cell, their mean with
 * its interval); null with one cycle.
 * @param {ResultsDocument} document
 * @param {import('../../points/points.js').Point | undefined} point
 * @returns {string | null}
 */
export function cyclesText(document, point) {
  const cycles = document.config.end?.cycles ?? 1;
  if (cycles < 2 || !point) return null;
  const [first, last, growth] = ['keptMemory', 'keptLastMemory', 'keptGrowthPerCycle'].map(
    (key) =>
      /** @type {import('../../points/measures.js').Measure} */ (MEASURES.find((measure) => measure.key === key)),
  );
  const signed = (/** @type {number} */ value, digits = 1) =>
    `${value < 0 ? '−' : '+'}${fixed(Math.abs(value), digits)}`;
  const parts = MODES.flatMap((mode) => {
    const from = figureOf(first, point)[mode];
    const to = figureOf(last, point)[mode];
    const slopes = figureOf(growth, point).perRound[mode];
    if (!from || !to || !slopes.length) return [];
    const { mean: slope, ci95 } = meanInterval(slopes);
    const interval = ci95 ? ` (${signed(ci95[0], 2)} to ${signed(ci95[1], 2)})` : '';
    return [
      `${mode} ${fixed(centreOf(from, first), 1)} → ${last.format(centreOf(to, last))}, ${signed(slope, 2)}${interval}`,
    ];
  });
  return parts.length
    ? `recycling (${cycles} cycles a cell), kept per worker, first → last, and mean growth a cycle: ${parts.join('; ')}`
    : null;
}

/**
 * What of `memory per added worker` is the harness's own, for --verbose. Where the run had plain
 * trees, the figure is theirs, and the cells' (mmapbench's runner in each worker) is set beside
 * it. Otherwise, where the rounds that timed ops left the figure to the others
 * (memory.timedOps), what those held a worker, measured in this run beside the figure; in a file
 * from before, the ops each worker timed in a cell beside the reference figures of
 * scripts/harness-footprint.js. Null where no cell timed an op (a task with its own run(), whose
 * workers hold nothing of the harness's but its code).
 * @param {ResultsDocument} document
 * @returns {string | null}
 */
export function harnessText(document) {
  return plainMemoryText(document) ?? cellsMemoryText(document);
}

/**
 * The plain app's memory per added worker against the cells', each mode, where the run's plain
 * trees read it; null where none did.
 * @param {ResultsDocument} document
 */
function plainMemoryText(document) {
  const parts = MODES.flatMap((mode) => {
    const plain = document[mode]?.plain?.addedMemory;
    const cells = /** @type {Record<string, import('../../stats/ratio.js').Summary | undefined> | null | undefined} */ (
      /** @type {unknown} */ (document[mode])
    )?.addedMemory;
    if (!plain) return [];
    const more = cells ? cells.median - plain.median : 0;
    const beside = cells
      ? `, cells ${fixed(cells.median, 1)} (${more < 0 ? '−' : '+'}${fixed(Math.abs(more), 1)})`
      : '';
    return [`${mode} ${fixed(plain.median, 1)} MiB over ${plain.samples.length} trees${beside}`];
  });
  return parts.length
    ? `harness: memory per added worker is the plain app's, its trees beside the cells; the cells', read in the rounds that time no op, differ by mmapbench's runner in each worker (its modules, and what it compiles) and by the heap state they drew (a heap that gives its top back holds less): ${parts.join('; ')}`
    : null;
}

/**
 * The cells' memory per added worker and what of it is the harness's, where the run had no plain
 * trees to read it (harnessText).
 * @param {ResultsDocument} document
 */
function cellsMemoryText(document) {
  const held = (/** @type {'workers'|'procs'} */ mode, /** @type {boolean} */ timed) =>
    document.rounds.flatMap((round) => {
      const cell = round.complete ? round[mode] : undefined;
      const mib = cell && Boolean(cell.memory?.timedOps) === timed ? addedMiB(cell) : null;
      return mib === null ? [] : [mib];
    });
  const timedHeld = MODES.flatMap((mode) => {
    const [timed, untimed] = [held(mode, true), held(mode, false)];
    return timed.length && untimed.length
      ? [`${mode} ${fixed(summarize(timed).median, 1)} against ${fixed(summarize(untimed).median, 1)} MiB`]
      : [];
  });
  if (timedHeld.length)
    return `harness: memory per added worker is read in the rounds whose workers time no op (the first complete round, the third, ...); those that timed ops held, a worker (median): ${timedHeld.join(', ')}; for reference, on reuse-buffer a thread that timed ops held 0.6-0.8 MiB more, what compiling the sampled loop left in its allocator (2026-11-29; docs/how-it-measures.md, "Memory, start-up and tail latency")`;
  // a file saved before the cells ended their workers also timed up to 65,536 ops a window:
  // the reference figures are not its own
  if (!document.config.end) return null;
  const k = document.config.k;
  const perWorker = MODES.flatMap((mode) => {
    const timed = document.rounds.flatMap((round) => {
      const latency = round.complete ? round[mode]?.latency : undefined;
      return latency && 'ops' in latency ? [latency.ops / k] : [];
    });
    return timed.length ? [`${mode} ${ops(Math.round(summarize(timed).median))}`] : [];
  });
  if (!perWorker.length) return null;
  return `harness: memory per added worker includes mmapbench's own share of each worker: its code (within 0.2 MiB of a bare worker) and the garbage of its clock reads around the ops it timed, here (median per cell) ${perWorker.join(', ')} ops a worker (at most 4,096 a window); for reference, on reuse-buffer that came to 0.7 MiB a thread at about 1,400 timed ops and 1.1 at 4,096, at most 0.4 a process (scripts/harness-footprint.js, 2026-11-25; docs/how-it-measures.md, "Figures behind the defaults")`;
}
