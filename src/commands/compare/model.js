// compare's whole text, as --verbose and a saved file's report print it: the run's header, every
// round, the trade-off table, the task's metrics and the account; its words are costs.js's (what the
// workers cost the app) and words.js's (the verdict, what next).
import {
  noiseText,
  resumeText,
  ruleText,
  stopText,
  withCI,
  contrastCell,
  accountWordsOf,
} from '../../document/sentences.js';
import { plural, duration, fixed, ops, rate, MODES } from '../../words/spelling.js';
import { factsLine } from '../../document/machine-facts.js';
import { titleState } from '../../document/status-words.js';
import { accountTable, sourcesNote } from '../../document/account-text.js';
import { THROUGHPUT } from '../../points/measures.js';
import { median } from 'simple-statistics';
import { centreOf, figureOf, furtherMeasuresOf, medianCell, missingMeasures } from '../../points/points.js';
import { viewPoints } from '../../document/points-of.js';
import { spreadText, treesText } from '../../document/spread-words.js';
import { nextWords, sizingText, startupEnvText, verdictWords } from './words.js';
import { appText, cyclesText, harnessText, tradeOffText } from './costs.js';

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
export const stateText = ({ config, status, rounds }) =>
  titleState(status, { done: rounds.filter((round) => round.complete).length, of: config.rounds });

/** @param {ResultsDocument} document */
function header(document) {
  const { config, environment } = document;
  const work = config.iterations ? `${ops(config.iterations)} iterations per worker` : 'no iterations chosen';
  const state = stateText(document);
  // the table lists a pilot round too: the count says so, so the two agree
  const pilot = document.rounds.some((round) => round.pilot) ? ' and a pilot round that sized them' : '';
  const rounds = config.rounds === null ? `rounds ${ruleText(config)}, or ${config.maxTime} s` : ruleText(config);
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
  const facts = [`node ${environment.node.version}`, ...factsLine(environment), ...(env ? [env] : [])];
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
 * Cells that got less than half the CPU their workers asked for: something else ran. A task that
 * talks to its parent waits on it by design: its cells' CPU share says nothing of the machine.
 * @param {ResultsDocument} document
 */
function machineNote(document) {
  const short = (document.config?.task?.parent ? [] : (document.rounds ?? []))
    .flatMap((round) => MODES.map((mode) => round[mode]?.machine?.cpuShare))
    .filter((share) => typeof share === 'number' && Number.isFinite(share) && share < LOW_CPU_SHARE).length;
  return short
    ? `machine: ${plural(short, 'cell')} got less than half the CPU ${short === 1 ? 'its' : 'their'} workers asked for: something else was running (kept: see machine in --json)`
    : null;
}

/**
 * How far each mode's slowest worker lay from its fastest, and the barrier's release skew.
 * @param {ResultsDocument} document
 * @param {(mode: Mode) => string} name
 */
function workersNote(document, name) {
  const measured = MODES.flatMap((mode) => {
    const summary = document[mode];
    return summary ? [{ mode, summary }] : [];
  });
  if (!measured.length) return null;
  const spreads = measured.map(({ mode, summary }) => `${name(mode)} ${fixed(summary.spread.median)}`).join(', ');
  const skews = measured.map(({ mode, summary }) => `${name(mode)} ${duration(summary.releaseSkewNs.max)}`).join(', ');
  return `spread (slowest / fastest worker, median): ${spreads}; barrier release skew (max): ${skews}`;
}

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
    rate(round.workers?.throughput),
    rate(round.procs?.throughput),
    round.pilot ? 'pilot' : round.ratio === undefined ? (round.complete ? '-' : 'incomplete') : fixed(round.ratio),
  ]);
  const [point] = viewPoints(document);
  const { workers, procs, ratio } = figureOf(THROUGHPUT, point);
  if (workers && procs && ratio)
    rows.push(['median', '', ops(workers.median), ops(procs.median), withCI(ratio, '', { label: false })]);
  const words = accountWordsOf(document.account, document);
  const notes = /** @type {string[]} */ (
    [
      verdictWords(document),
      tradeOffText(document, point),
      appText(document, point, { verbose: true }),
      cyclesText(document, point),
      harnessText(document),
      startupEnvText(document),
      ...missingMeasures(document.rounds),
      words?.reading,
      words?.unexplained,
      words?.regime,
      spreadText(document),
      // the trees' states in full (the answer's is at most two lines)
      treesText(document),
      noiseText(document),
      stopText(document),
      resumeText(document),
      sizingText(document),
      nextWords(document),
      machineNote(document),
      workersNote(document, name),
    ].filter(Boolean)
  );
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
    notes: [...notes, ...(document.account ? [sourcesNote(document.account, Boolean(document.pool))] : [])],
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
    const [point] = viewPoints(document);
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
