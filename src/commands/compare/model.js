import { formatCI, resumeText, stopText, withCI, contrastCell, accountWordsOf, pct } from '../../document/sentences.js';
import { plural, duration, fixed, ops, formatSize, MODES, seconds, listed } from '../../words/spelling.js';
import { cpusOf, cpusText } from '../../system/cpus.js';
import { accountTable, sourcesNote, wordsOfAccount } from '../../document/account-text.js';
import { sideOf, meanInterval, neutralOf, summarize } from '../../stats/ratio.js';
import { INTERVAL_ROUNDS } from '../../stats/stopping.js';
import { MEASURES, THROUGHPUT } from '../../points/measures.js';
import { median } from 'simple-statistics';
import { percentileOf } from '../../stats/histogram.js';
import { centreOf, figureOf, furtherMeasuresOf, medianCell, missingMeasures } from '../../points/points.js';
import { measurePoints } from '../../document/points-of.js';
import { spreadText, spreadNext } from '../../document/spread-words.js';
import { BUFFER_OPTION, hasBufferOption } from '../../reference/node-changes.js';

/**
 * @typedef {import('../../document/document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {'workers'|'procs'} Mode
 */

// a cell's tree getting less CPU than this share of what its workers asked for was competing
const LOW_CPU_SHARE = 0.5;

/**
 * What a run that did not complete says after its title: ` — INTERRUPTED after 3 of 10 rounds`.
 * @param {ResultsDocument} document
 */
export function stateText({ config, status, rounds }) {
  if (status === 'complete') return '';
  const done = rounds.filter((round) => round.complete).length;
  return ` — ${status.toUpperCase()} after ${done}${config.rounds ? ` of ${config.rounds}` : ''} round${(config.rounds ?? done) === 1 ? '' : 's'}`;
}

/** @param {ResultsDocument} document */
function header(document) {
  const { config, environment } = document;
  const work = config.iterations ? `${ops(config.iterations)} iterations per worker` : 'no iterations chosen';
  const state = stateText(document);
  // the table lists a pilot round too: the count says so, so the two agree
  const pilot = document.rounds.some((round) => round.pilot) ? ' and a pilot round that sized them' : '';
  const rounds =
    config.rounds === null
      ? `rounds until ±${(config.precision ?? 0) * 100}% or ${config.maxTime} s`
      : `${plural(config.rounds, 'round')}`;
  const quick = config.quick
    ? ' (--quick: not a measurement)'
    : config.protocol === 'published'
      ? ' (--protocol published: no warmup, as the investigation measured)'
      : '';
  const aa = document.aa ? ` (A/A: both arms ${document.aa})` : '';
  const young = config.semiSpaceMb ? `, semi-space ${config.semiSpaceMb} MiB` : '';
  const title = `mmapbench ${document.command}${aa}: task ${config.task.name}${config.task.readsFile === false ? '' : `, file ${config.file.label}`}, k=${config.k}${young}${state}`;
  const env = Object.entries(config.env)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const facts = [
    `node ${environment.node.version}`,
    environment.kernel,
    `glibc ${environment.glibc ?? 'n/a'}`,
    cpusText(environment.cpu),
    `THP ${environment.thp ?? 'n/a'}`,
    ...(environment.perVmaLock === undefined
      ? []
      : [`per-VMA locks ${environment.perVmaLock === null ? 'unknown' : environment.perVmaLock ? 'yes' : 'no'}`]),
    `libuv pool ${environment.uvThreadpoolSize ?? 4}`,
    ...(env ? [env] : []),
  ];
  // no-break spaces inside a fact, so a narrow terminal wraps between facts, not within one
  const lines = [
    `${rounds} × ${work}${pilot}${quick}`,
    facts.map((fact) => fact.replaceAll(' ', '\u00a0')).join(' · '),
  ];
  const { calibration } = document;
  if (calibration) {
    // calibration runs alone in one thread; K contended workers take longer, so say how long
    const took = medianCellSeconds(document);
    lines.push(
      `calibrated alone in one thread: one op p50 ${duration(calibration.p50Ns)}, p99 ${duration(calibration.p99Ns)}` +
        ` -> ${ops(calibration.iterations)} iterations per worker, ~${config.duration} s uncontended` +
        (took === null ? '' : `; cells took ${took.toFixed(took < 1 ? 2 : 1)} s here (median)`),
    );
  }
  return { title, lines };
}

/**
 * The median wall time of the cells measured, in seconds; null before any.
 * @param {ResultsDocument} document
 */
function medianCellSeconds(document) {
  const times = document.rounds.flatMap((round) =>
    MODES.flatMap((mode) => round[mode]?.elapsedNs ?? []).filter(Number.isFinite),
  );
  return times.length ? median(times) / 1e9 : null;
}

/**
 * How a task metric of each declared unit is printed.
 * @type {Record<string, (value: number) => string>}
 */
export const UNIT = {
  'ops/s': (v) => `${ops(v)} ops/s`,
  count: (v) => ops(v),
  ms: (v) => `${fixed(v)} ms`,
  ratio: (v) => fixed(v),
};

/**
 * The task's own figures (medians over complete rounds), when it reports any.
 * @param {ResultsDocument} document
 * @param {Mode[]} modes
 * @returns {ReportModel['tables']}
 */
function metricsTable(document, modes) {
  const declared = document.config.task.metrics ?? {};
  const names = Object.keys(declared);
  if (!names.length || !modes.every((mode) => document[mode])) return [];
  const rows = names.map((name) => {
    const format = UNIT[declared[name].unit] ?? fixed;
    const medians = modes.map((mode) => document[mode]?.metrics?.[name]?.median ?? null);
    const row = [`${name}: ${declared[name].description}`, ...medians.map((v) => (v === null ? '-' : format(v)))];
    if (modes.length === 2) row.push(medians[0] !== null && medians[1] ? fixed(medians[0] / medians[1]) : '-');
    return row;
  });
  const head = ['task metric (median over rounds)', ...modes, ...(modes.length === 2 ? ['workers/procs'] : [])];
  return [{ head, rows, align: ['left', ...head.slice(1).map(() => 'right')] }];
}

/**
 * A row a measure, after its name: each mode's median over rounds, and workers/procs with its
 * interval; the answer's trade-off (answer.js) and --verbose's alike.
 * @param {import('../../points/points.js').Point} point  the compare's one
 * @param {import('../../points/measures.js').Measure[]} measures
 */
export const tradeOffRows = (point, measures) =>
  measures.map((measure) => {
    const { ratio } = figureOf(measure, point);
    const cells = [
      ...MODES.map((mode) => medianCell(measure, point, mode)),
      ratio ? contrastCell(ratio, measure) : '-',
    ];
    return { measure, ratio, cells };
  });

/**
 * Each measure a compare had, per mode and as a workers/procs ratio with its interval: the
 * trade-off table, shown once there is more than throughput to weigh.
 * @param {import('../../points/points.js').Point} point  the compare's one
 * @param {(mode: Mode) => string} name
 * @returns {ReportModel['tables']}
 */
function tradeOffTable(point, name) {
  const measures = furtherMeasuresOf([point]);
  if (!measures.length) return [];
  const rows = tradeOffRows(point, [THROUGHPUT, ...measures]).map(({ measure, cells }) => [measure.name, ...cells]);
  const head = ['median over rounds', name('workers'), name('procs'), `${name('workers')}/${name('procs')} (95% CI)`];
  return [{ head, rows, align: ['left', 'right', 'right', 'right'] }];
}

/**
 * Which mode a workers/procs ratio of a measure favours, by its interval: `equal` where the
 * interval spans 1, null without an interval (fewer than INTERVAL_ROUNDS rounds).
 * @param {import('../../stats/ratio.js').RatioStats | null | undefined} ratio
 * @param {'higher'|'lower'} better  which way the measure improves
 * @returns {Mode | 'equal' | null}
 */
export function favouredMode(ratio, better) {
  if (!ratio?.ci95 || ratio.n < INTERVAL_ROUNDS) return null;
  const side = sideOf(ratio.ci95, neutralOf(ratio));
  if (side === 'spans') return 'equal';
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
    const favoured = favouredMode(ratio, measure.better);
    if (ratio.difference) {
      // a figure a mode may have none of: workers − procs, in its unit
      const by = contrastCell(ratio, measure);
      if (!favoured || !ratio.ci95) return [`${measure.name} ${by} (${plural(ratio.n, 'round')}: no interval)`];
      if (favoured === 'equal') return [`${measure.name} equal (${by} spans 0)`];
      return [`${measure.name} ${by} with workers (${favoured === 'procs' ? 'worse' : 'better'})`];
    }
    if (!favoured || !ratio.ci95)
      return [`${measure.name} ${fixed(ratio.median)}x (${plural(ratio.n, 'round')}: no interval)`];
    if (favoured === 'equal') return [`${measure.name} equal (${formatCI(ratio.ci95)} spans 1)`];
    return [
      `${measure.name} ${fixed(ratio.geomean)}x (${formatCI(ratio.ci95)}, ${favoured === 'procs' ? 'worse' : 'better'})`,
    ];
  });
  return parts.length ? `workers against procs: ${parts.join('; ')}` : null;
}

// What adding the workers costs the app, as a person says it: each measure's words for workers
// against procs, from the ratio (or, kept memory, the difference in MiB a worker)
/** @type {Record<string, (by: string, up: boolean) => string>} */
const COST_WORDS = {
  firstThroughput: (by, up) => `fresh ones do their first 2,000 ops ${by} ${up ? 'faster' : 'slower'}`,
  toFullSpeedMs: (by, up) => (up ? `they take ${by} longer to reach full speed` : `they reach full speed ${by} sooner`),
  addedMemory: (by, up) => `each worker takes ${by} ${up ? 'more' : 'less'} memory`,
  readyMs: (by, up) => (up ? `they take ${by} longer to start` : `they start ${by} sooner`),
  mainRequestP99Us: (by, up) => `your app's requests are ${by} ${up ? 'slower' : 'faster'} at p99`,
  lagP99Ms: (by, up) => `its event loop lags ${by} ${up ? 'more' : 'less'}`,
  loopDelayP99Ms: (by, up) => `its event loop lags ${by} ${up ? 'more' : 'less'}`,
  keptMemory: (by, up) => `it keeps ${by} ${up ? 'more' : 'less'} a worker once they end`,
  keptLastMemory: (by, up) => `${by} ${up ? 'more' : 'less'} after the last cycle`,
  keptGrowthPerCycle: (by, up) => `what it keeps grows ${by} ${up ? 'more' : 'less'} a cycle`,
};

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
  const parts = measures.flatMap((measure) => {
    const { ratio } = figureOf(measure, point);
    const favoured = favouredMode(ratio, measure.better);
    if (!ratio?.ci95 || favoured === null || favoured === 'equal') return [];
    const value = ratio.geomean;
    const up = ratio.difference ? value > 0 : value > 1;
    // a rate is said as how many times slower or faster (0.59: 1.7x slower)
    const rate = measure.better === 'higher';
    const times = rate && value < 1 ? 1 / value : value;
    const by = ratio.difference
      ? measure.format(Math.abs(value)).replace(/^−/, '')
      : times >= 2 || rate
        ? `${fixed(times, 1)}x`
        : `${Math.round(Math.abs(times - 1) * 100)}%`;
    const worked = workSeconds(document);
    const after = measure.key === 'keptMemory' && worked !== null ? ` (after ${fixed(worked, 1)} s of work)` : '';
    return [`${COST_WORDS[measure.key](by, up)}${after}`];
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
  // where the main thread's time went, per request it served, in each mode
  const accounts = document.aa
    ? []
    : MODES.flatMap((mode) => {
        const account = document[mode]?.mainAccount;
        if (!account || account.cpuUs === null) return [];
        const system = account.systemUs === null ? '' : ` (${fixed(account.systemUs, 0)} µs in the kernel)`;
        const waiting = account.runqUs === null ? '' : `, ${fixed(account.runqUs, 0)} µs waiting for a CPU`;
        const faults = account.minflt === null ? '' : `, ${fixed(account.minflt, 1)} page faults`;
        return [`${mode} ${fixed(account.cpuUs, 0)} µs on a CPU${system}${waiting}${faults}`];
      });
  const why = accounts.length ? `; its main thread per request: ${accounts.join('; ')}` : '';
  const cpus = document.environment?.cpu ? cpusOf(document.environment.cpu) : undefined;
  const k = document.config.k;
  const crowded =
    typeof cpus === 'number' && k + 1 > cpus
      ? `; with k=${k} workers beside it on ${plural(cpus, 'CPU')}, the main thread also waits for a CPU (\`sweep -k\` shows how that grows)`
      : '';
  // the middle of the requests, every one of the complete cells pooled: --verbose's
  const p50s = verbose
    ? [
        ...MODES.flatMap((mode) => {
          const histogram = document[mode]?.mainHistogram;
          const p50 = histogram ? percentileOf(histogram.ns, 50, histogram.bits) : null;
          return p50 === null ? [] : [`${mode} ${fixed(p50 / 1e3, 0)} µs`];
        }),
        ...(alone ? [`alone ${fixed(alone.p50Ns / 1e3, 0)} µs`] : []),
      ]
    : [];
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
 * What of `memory per added worker` is the harness's own, for --verbose: the ops each worker
 * timed in a cell (measured in this run; their clock reads allocate, which a thread's young
 * generation grows with), beside the reference figures of scripts/harness-footprint.js; null
 * where no cell timed an op (a task with its own run(), whose workers hold nothing of the
 * harness's but its code).
 * @param {ResultsDocument} document
 * @returns {string | null}
 */
export function harnessText(document) {
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

const rate = (/** @type {{ throughput: number } | null | undefined} */ cell) => (cell ? ops(cell.throughput) : '-');

/**
 * `compare`: one row per round, then the medians, the ratio with its CI and the verdict.
 * @param {ResultsDocument} document
 * @returns {ReportModel}
 */
export function compareModel(document) {
  // five columns, so the table fits 80; each round's spread is in --json and in workers/procs
  const name = (/** @type {Mode} */ mode) => (document.aa ? (mode === 'workers' ? 'A' : 'B') : mode);
  const rows = document.rounds.map((round) => [
    String(round.index),
    name(round.order[0]),
    rate(round.workers),
    rate(round.procs),
    round.pilot ? 'pilot' : round.ratio === undefined ? (round.complete ? '-' : 'incomplete') : fixed(round.ratio),
  ]);
  const [point] = measurePoints(document);
  const { workers, procs, ratio } = figureOf(THROUGHPUT, point);
  if (workers && procs && ratio)
    rows.push(['median', '', ops(workers.median), ops(procs.median), withCI(ratio, '', { label: false })]);
  const notes = [];
  const said = verdictWords(document);
  if (said) notes.push(said);
  const tradeOff = tradeOffText(document, point);
  if (tradeOff) notes.push(tradeOff);
  const app = appText(document, point, { verbose: true });
  const recycling = cyclesText(document, point);
  if (app) notes.push(app);
  if (recycling) notes.push(recycling);
  const harness = harnessText(document);
  if (harness) notes.push(harness);
  const startup = startupEnvText(document);
  if (startup) notes.push(startup);
  notes.push(...missingMeasures(document.rounds));
  const words = accountWordsOf(document.account, document);
  if (words?.reading) notes.push(words.reading);
  if (words?.unexplained) notes.push(words.unexplained);
  if (words?.regime) notes.push(words.regime);
  const disagree = spreadText(document);
  if (disagree) notes.push(disagree);
  const stopped = stopText(document);
  if (stopped) notes.push(stopped);
  const resume = resumeText(document);
  if (resume) notes.push(resume);
  const sized = sizingText(document);
  if (sized) notes.push(sized);
  const next = nextWords(document);
  if (next) notes.push(next);
  // a task that talks to its parent waits on it by design: its cells' CPU share says nothing of
  // the machine
  const short = (document.config?.task?.parent ? [] : (document.rounds ?? []))
    .flatMap((round) => MODES.map((mode) => round[mode]?.machine?.cpuShare))
    .filter((share) => typeof share === 'number' && Number.isFinite(share) && share < LOW_CPU_SHARE).length;
  if (short)
    notes.push(
      `machine: ${plural(short, 'cell')} got less than half the CPU ${short === 1 ? 'its' : 'their'} workers asked for: something else was running (kept: see machine in --json)`,
    );
  const measured = MODES.flatMap((mode) => {
    const summary = document[mode];
    return summary ? [{ mode, summary }] : [];
  });
  if (measured.length) {
    const spreads = measured.map(({ mode, summary }) => `${name(mode)} ${fixed(summary.spread.median)}`).join(', ');
    const skews = measured
      .map(({ mode, summary }) => `${name(mode)} ${duration(summary.releaseSkewNs.max)}`)
      .join(', ');
    notes.push(`spread (slowest / fastest worker, median): ${spreads}; barrier release skew (max): ${skews}`);
  }
  return {
    ...header(document),
    tables: [
      {
        head: [
          'round',
          'first',
          `${name('workers')} ops/s`,
          `${name('procs')} ops/s`,
          `${name('workers')}/${name('procs')} (95% CI)`,
        ],
        rows,
        align: ['left', 'left', 'right', 'right', 'right'],
      },
      ...tradeOffTable(point, name),
      ...metricsTable(document, MODES),
      ...(document.account ? [accountTable(document.account, MODES, name)] : []),
    ],
    notes: [...notes, ...(document.account ? [sourcesNote(document.account)] : [])],
  };
}

/**
 * `workers` / `procs`: each round's aggregate and every worker in it, so stragglers show.
 * @param {ResultsDocument & { command: Mode }} document
 * @returns {ReportModel}
 */
export function singleModel(document) {
  const mode = document.command;
  const rows = [];
  for (const round of document.rounds) {
    const cell = round[mode];
    if (!cell) continue;
    // as compare's table marks it: its cells ran the calibration's work, and count in no figure
    const label = round.pilot ? `${round.index} (pilot)` : String(round.index);
    for (const worker of cell.workers) {
      rows.push([
        label,
        `${worker.index} (pid ${worker.pid})`,
        ops(worker.ops),
        duration(worker.startNs),
        duration(worker.endNs),
        ops(worker.opsPerSec),
      ]);
    }
    rows.push([label, 'all', ops(cell.totalOps), '', duration(cell.elapsedNs), ops(cell.throughput)]);
  }
  const notes = [];
  const summary = document[mode];
  if (summary) {
    const { throughput } = summary;
    const range =
      throughput.samples.length > 1
        ? ` (min ${ops(throughput.min)}, max ${ops(throughput.max)} over ${throughput.samples.length} rounds)`
        : '';
    notes.push(
      `${mode}: ${ops(throughput.median)} ops/s${range}; slowest/fastest worker ${fixed(summary.spread.median)}; barrier release skew ${duration(summary.releaseSkewNs.max)}`,
    );
    const [point] = measurePoints(document);
    for (const measure of furtherMeasuresOf([point])) {
      const figures = /** @type {import('../../stats/ratio.js').Summary} */ (figureOf(measure, point)[mode]);
      const over =
        figures.pooled !== undefined
          ? `every round's pooled, ${figures.samples.length} rounds`
          : `${measure.contrast === 'difference' ? 'mean' : 'median'} over ${figures.samples.length} rounds`;
      notes.push(`${measure.name}: ${measure.format(centreOf(figures, measure))} (${over})`);
    }
  }
  notes.push(...missingMeasures(document.rounds));
  const sized = sizingText(document);
  if (sized) notes.push(sized);
  return {
    ...header(document),
    tables: [
      { head: ['round', mode === 'workers' ? 'worker' : 'process', 'ops', 'start', 'end', 'ops/s'], rows },
      ...metricsTable(document, [mode]),
    ],
    notes,
  };
}

// compare's sentences, drawn when a document is shown (a live run and a saved file alike): the
// verdict, what start-up ran with, how the cells were sized, and what to run next. A file saved
// before kept its verdict and `next`, which are read as they were saved (verdictWords, nextWords).

/** A ratio as printed: two decimals, but never a wall of digits from a 2-round interval. */
const r = (/** @type {number} */ value) => (value >= 100 ? '>100' : value < 0.01 ? '<0.01' : fixed(value));

/** The arms' names: workers and procs, or A and B in an A/A run. */
const arms = (/** @type {{ aa?: string | null } | undefined} */ document) =>
  document?.aa ? ['A', 'B'] : ['workers', 'procs'];

/**
 * One sentence a person can act on, from the ratio and its verdict; `results` adds why the run
 * stopped and which option would tighten the interval (only options that apply).
 * @param {import('../../stats/ratio.js').RatioStats} ratio
 * @param {import('../../stats/ratio.js').Verdict} verdict
 * @param {Pick<ResultsDocument, 'aa' | 'config' | 'stop' | 'ratio' | 'calibration'>} [document]  the
 *   results document, for its stop, config and A/A arms
 */
export function verdictText(ratio, verdict, document) {
  const { median, ci95, n } = ratio;
  const [a, b] = arms(document);
  if (!ci95 || n < 3) {
    return `${a}/${b} ratio ${r(median)} from ${plural(n, 'round')}: too few for a meaningful interval (3 or more)`;
  }
  const ci = `95% CI ${r(ci95[0])}-${r(ci95[1])}`;
  // the interval's centre, as withCI prints it
  const centre = ratio.geomean ?? median;
  if (verdict.faster === 'procs')
    return `${b} ${document?.aa ? 'is' : 'are'} ${fixed(1 / centre)}x faster than ${a} (95% CI ${r(1 / ci95[1])}-${r(1 / ci95[0])})`;
  if (verdict.faster === 'workers')
    return `${a} ${document?.aa ? 'is' : 'are'} ${fixed(centre)}x faster than ${b} (${ci})`;
  return `no significant difference: ${a}/${b} ratio ${r(centre)} (${ci} spans 1)${tighten(document)}`;
}

/**
 * What would tighten an interval that spans 1, naming only options that apply to this run.
 * @param {Pick<ResultsDocument, 'config' | 'stop' | 'ratio' | 'calibration'>} [document]
 */
function tighten(document) {
  const config = document?.config;
  if (!document || !config) return '';
  if (config.quick) return '; --quick measures nothing: run without it';
  if (document.stop === 'precision' && typeof document.ratio?.halfWidth === 'number')
    return `; known to ${pct(document.ratio.halfWidth)}, so any difference is smaller than that`;
  if (document.stop === 'max-time') return ''; // stopText says what would decide it
  return config.iterations && document.calibration
    ? '; more --rounds or a longer --duration would tighten it'
    : '; more --rounds would tighten it';
}

/**
 * What of the user's environment changes a Node start, as start-up was measured: a child
 * process pays it at every start, a thread does not. Null when the shell sets none of it, or
 * the run measured no start-up.
 * @param {{ environment?: { startupEnv?: { given: string[], withheld: string[] } }, workers?: any, procs?: any }} document
 * @returns {string | null}
 */
export function startupEnvText({ environment, workers, procs }) {
  const env = environment?.startupEnv;
  if (!env || !(workers?.readyMs || procs?.readyMs)) return null;
  const parts = [];
  if (env.given.length)
    parts.push(
      `with ${listed(env.given, 'and')} from your environment, which each child process pays at its start and a thread does not`,
    );
  if (env.withheld.length)
    parts.push(
      `without ${listed(env.withheld, 'and')} from your environment, which each child process would pay at its start and a thread would not: --inherit-env measures with ${env.withheld.length === 1 ? 'it' : 'them'}`,
    );
  return parts.length ? `start-up ran ${parts.join('; and ')}` : null;
}

/**
 * How long the cells were, and how the first round sized them: the calibration's work, kept or
 * resized. Null when the work was fixed (--iterations, --quick) or no round finished.
 * @param {Pick<ResultsDocument, 'sizing'>} document
 * @returns {string | null}
 */
export function sizingText({ sizing }) {
  if (!sizing) return null;
  const ran = `the calibration's ${ops(sizing.calibrated)} ops per worker ran ${seconds(sizing.pilotWindowNs)} in the first round`;
  if (sizing.byMode)
    return `cells of ${seconds(sizing.targetNs)}: ${ran}, its modes' windows far apart, so each mode's rounds after it ran their own: ${Object.entries(
      sizing.byMode,
    )
      .map(([mode, n]) => `${mode} ${ops(/** @type {number} */ (n))}`)
      .join(', ')} (the first counts in no figure)`;
  return sizing.resized
    ? `cells of ${seconds(sizing.targetNs)}: ${ran}, so the rounds after it ran ${ops(sizing.iterations)} (the first counts in no figure)`
    : `cells of ${seconds(sizing.targetNs)}: ${ran}`;
}

/** The tasks a fresh Buffer per readFileSync is what they measure. */
const READS_A_NEW_BUFFER = ['readfilesync', 'pool-size'];

/**
 * Node's own fix, first, for a task that reads into a new Buffer: on a Node with readFileSync's
 * buffer option, the task that uses it; on one without, the releases that have it.
 * @param {{ config?: { task?: { name: string } }, environment?: { node: { version: string } } }} document
 */
function nodeFix({ config, environment }) {
  if (!config?.task || !environment || !READS_A_NEW_BUFFER.includes(config.task.name)) return '';
  return hasBufferOption(environment.node.version)
    ? "; Node's own fix first: `--task readfilesync-into` (readFileSync into one buffer, which this Node can)"
    : `; Node's own fix, readFileSync into one buffer, needs Node ${BUFFER_OPTION.since.join(' or ')} and up: \`--task readfilesync-into --node 26\``;
}

/** The published mitigations, as the options that measure them. */
const MITIGATIONS = ['--task reuse-buffer', '--task pool-size', '--env MALLOC_ARENA_MAX=1'];

/**
 * What to run next, after the verdict.
 * @param {Pick<ResultsDocument, 'verdict' | 'ratio' | 'aa' | 'account'> &
 *   Partial<Pick<ResultsDocument, 'config' | 'environment' | 'stop' | 'spread'>>} document
 * @returns {string | null}
 */
export function nextStep(document) {
  const next = steadyNext(document);
  // fresh workers slower than fresh processes: what a user who spawns one per job can do
  const fresh = /** @type {any} */ (document).measures?.firstThroughput?.ci95;
  if (document.aa || !fresh || fresh[1] >= 1) return next;
  const pool = 'fresh workers are slow: keep them in a pool, or use processes for per-job work';
  return next ? `next: ${pool}; ${next.replace(/^next: /, '')}` : `next: ${pool}`;
}

/**
 * What to run next, from the steady verdict and the account.
 * @param {Parameters<typeof nextStep>[0]} document
 * @returns {string | null}
 */
function steadyNext(document) {
  const { verdict, ratio, aa } = document;
  if (aa) {
    return ratio?.halfWidth
      ? `A/A: both arms ran ${aa}; this interval is the noise floor here: a workers/procs difference within ${pct(ratio.halfWidth)} cannot be told apart`
      : null;
  }
  if (document.config?.task?.parent) return messageNext(document);
  // the account says where the difference went: what to try follows from it
  const advice = document.account ? wordsOfAccount(document.account, document).advice : null;
  const fix = verdict?.faster === 'procs' ? nodeFix(document) : '';
  if (verdict?.significant && advice) return `next: ${advice}${fix}`;
  if (verdict?.faster === 'procs') {
    // not the task that was measured: a run of reuse-buffer is told of the others
    const others = MITIGATIONS.filter((flag) => flag !== `--task ${document.config?.task?.name}`);
    return fix
      ? `next: \`mmapbench trace compare\` shows whether mmap_lock waits explain it${fix}; or ${others.join(', ')}`
      : `next: \`mmapbench trace compare\` shows whether mmap_lock waits explain it; measure the mitigations with ${listed(others, 'or')}`;
  }
  if (verdict?.faster === 'workers')
    return 'next: threads lose nothing here at this k; try the k you deploy (-k) and your own task (--task)';
  return spreadNext(document);
}

/**
 * What to try after a run of the message task: the other ways its message could cross.
 * @param {{ config?: { params?: Record<string, any> } }} document
 */
function messageNext({ config }) {
  const params = config?.params ?? {};
  const sweep =
    '`mmapbench sweep --task message --size 100,4k,64k,1m --shape object,buffer` shows where the modes cross';
  if (params.message !== undefined)
    return `next: ${params.serialization === 'advanced' ? '' : '--serialization advanced sends them to processes as the structured clone threads use; '}${sweep}`;
  if (params.shape === 'buffer' && params.serialization !== 'advanced')
    return `next: a Buffer crosses a process's json channel as an array of numbers: --serialization advanced sends its bytes; to a thread, --shape transfer moves it without a copy; ${sweep}`;
  if (params.shape === 'object' || params.shape === 'json')
    return `next: --shape ${params.shape === 'object' ? 'json' : 'object'} sends it the other way${params.serialization === 'advanced' ? '' : ', --serialization advanced as the structured clone'}; ${sweep}`;
  return `next: ${sweep}`;
}

/**
 * The verdict in a sentence: `procs are 1.16x faster than workers (95% CI 1.08-1.26)`.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function verdictWords(document) {
  const { verdict, ratio } = document;
  if (!verdict || !ratio) return null;
  return typeof verdict.text === 'string' ? verdict.text : verdictText(ratio, verdict, document);
}

/**
 * What to run next, after the verdict: null for a run of one mode, or without a ratio.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function nextWords(document) {
  if ('next' in document) return document.next ?? null;
  return document.ratio ? nextStep(document) : null;
}
