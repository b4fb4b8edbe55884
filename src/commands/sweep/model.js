import { poolText } from '../../document/pool-words.js';
import { plural, fixed, ops, MODES, percentText } from '../../words/spelling.js';
import { cpusOf, cpusText } from '../../system/cpus.js';
import { factsLine } from '../../document/machine-facts.js';
import { titleState } from '../../document/status-words.js';
import { lineOf } from '../../document/account-text.js';
import { about, pct, resumeText, ruleText, withCI, contrastCell, accountWordsOf } from '../../document/sentences.js';
import { UNIT } from '../compare/model.js';
import { nodeLabel, pointName, varying } from './columns.js';
import { figureOf, furtherMeasuresOf, medianCell } from '../../points/points.js';
import { sweepPoints } from '../../document/points-of.js';
import { THROUGHPUT } from '../../points/measures.js';
import { MORE } from '../../view/table.js';
import { INTERVAL_ROUNDS } from '../../stats/stopping.js';
import { charts } from './k-plots.js';
import { scalingNotes } from './scaling-text.js';

/**
 * @typedef {import('./document.js').SweepDocument} SweepDocument
 * @typedef {import('./document.js').SavedPoint} SavedPoint
 * @typedef {SweepDocument['scaling'][number]} ScalingGroup
 */

/**
 * A point's verdict in a few words, for its table cell.
 * @param {SavedPoint} point
 */
function verdictCell(point) {
  const { ratio, verdict } = point;
  if (point.unavailable) return 'not available';
  if (!ratio || !verdict) return '-';
  if (ratio.n < 3) return 'too few rounds';
  if (verdict.faster === 'procs') return `procs ${fixed(1 / ratio.geomean)}x faster`;
  if (verdict.faster === 'workers') return `workers ${fixed(ratio.geomean)}x faster`;
  if (verdict.outcome === 'equal') return `equal within ±${percentText(verdict.margin ?? 0, 2)}`;
  // a file saved before verdicts had outcomes: its interval spanned 1
  return verdict.outcome ? 'inconclusive' : 'no difference';
}

/**
 * Why a point stopped, in a few words.
 * @param {SavedPoint} point
 */
function stopCell(point) {
  if (point.unavailable) return '-';
  const n = point.ratio?.n ?? 0;
  const width = point.ratio?.halfWidth;
  // the budget's figure under it, as a figure's interval is: never split at a comma
  const reached = width === null || width === undefined ? '' : `\n${pct(width)}`;
  if (point.stop === 'precision') return `${pct(width ?? 0)} in ${n}`;
  if (point.stop === 'decided') return `decided in ${n}`;
  if (point.stop === 'max-time') return `budget${reached}`;
  if (point.stop === 'rounds') return `${plural(n, 'round')}`;
  // advise's race: out below the leader, or its place known
  if (point.stop === 'dropped') return `raced out, ${n}`;
  if (point.stop === 'ordered') return `placed in ${n}`;
  return point.stop ?? '-';
}

/**
 * `sweep`: a row per point, then the scaling reading and the charts of a k axis.
 * @param {SweepDocument} document  from buildSweepDocument
 * @param {{ width?: number, color?: boolean, answer?: boolean }} [options]  answer: the points' table
 *   and the scaling reading alone (answer-model.js)
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function sweepModel(document, { width = 80, answer = false } = {}) {
  const { axes, points, environment } = document;
  // an advise run's points are its candidates: their names say what varies
  const columns = document.advice
    ? [{ head: 'candidate', cell: (/** @type {SavedPoint} */ point) => point.variant.name }]
    : varying(axes);
  const cores = cpusOf(environment.cpu);
  const read = sweepPoints(document);
  const { title, lines } = headerOf(document);
  const notes = sweepNotes(document, columns, cores, answer);
  const metrics = answer ? [] : metricsTable(points, columns);
  const accounted = answer ? [] : accountTable(points, columns);
  // the answer shows, beside the steady ratio, what fresh workers do at each point: their first
  // 2,000 ops (docs/how-it-measures.md, "Fresh and warm"); --verbose every measure
  const measured = measuresTable(document, read, columns, answer ? ['firstThroughput'] : null);
  const blocks = answer ? [] : document.scaling.flatMap((group) => charts(group, document, width));
  return {
    title,
    lines,
    tables: [pointsTable(points, read, columns), ...measured, ...accounted, ...metrics],
    notes,
    blocks,
  };
}

/**
 * The points' table: a row per point, by the axes that tell them apart, with each mode's ops/s,
 * the ratio with its interval, the verdict and why it stopped.
 * @param {SavedPoint[]} points
 * @param {import('../../points/points.js').Point[]} read  the same, as every reader reads them
 * @param {ReturnType<typeof varying>} columns
 */
function pointsTable(points, read, columns) {
  const rows = points.map((point, i) => {
    const { workers, procs, ratio } = figureOf(THROUGHPUT, read[i]);
    return [
      ...columns.map((column) => column.cell(point) + (column.head === 'k' && point.oversubscribed ? '*' : '')),
      workers ? ops(workers.median) : '-',
      procs ? ops(procs.median) : '-',
      ratio ? withCI(ratio, '', { label: false }) : '-',
      verdictCell(point),
      stopCell(point),
    ];
  });
  if (!columns.length) rows.forEach((row, i) => row.unshift(points[i].id));
  const head = [
    ...(columns.length ? columns.map((column) => column.head) : ['point']),
    'workers ops/s',
    'procs ops/s',
    'workers/procs (95% CI)',
    'verdict',
    'stop',
  ];
  return {
    head,
    rows,
    align: head.map((_, i) => (i < Math.max(columns.length, 1) ? 'left' : 'right')),
    // long cells (a path, a verdict) wrap at words rather than push the table past the terminal
    widths: [
      ...head
        .slice(0, -5)
        .map((name, i) => Math.min(19, Math.max(name.length, ...rows.map((row) => row[i].length)) + 2)),
      ...[10, 10, 18, 14, 13],
    ],
  };
}

/**
 * A sweep's title (what every point shares) and the lines under it: how it stopped, the
 * machine, each variant's environment and each Node's path.
 * @param {SweepDocument} document
 */
function headerOf(document) {
  const { axes, points, config, environment } = document;
  const state = titleState(document.status);
  const fixedAxes = [
    axes.node.length === 1 ? `node ${axes.node[0].version}` : null,
    axes.task.length === 1 ? `task ${axes.task[0]}` : null,
    axes.variant.length === 1 && axes.variant[0].name !== 'default' ? `variant ${axes.variant[0].name}` : null,
    axes.file.length === 1 && axes.readsFile !== false ? `file ${axes.file[0]}` : null,
    axes.k.length === 1 ? `k=${axes.k[0]}` : null,
    // --semi-space is the whole sweep's (an advise candidate's is in its name)
    document.command === 'sweep' && points[0]?.config.semiSpaceMb
      ? `semi-space ${points[0].config.semiSpaceMb} MiB`
      : null,
  ].filter((fact) => fact !== null);
  const title = `mmapbench ${document.command}: ${plural(points.length, 'point')}${fixedAxes.length ? `, ${fixedAxes.join(', ')}` : ''}${state}`;
  const stopRule =
    config.rounds === null
      ? `each point: rounds ${ruleText(config)}; the whole sweep: a ${about(config.maxTime ?? 0)} budget, interleaved`
      : `${config.rounds} interleaved round${config.rounds === 1 ? '' : 's'} at every point`;
  const facts = factsLine(environment);
  const lines = [
    `${stopRule}${config.quick ? ' (--quick: not a measurement)' : ''}; took ${about(document.seconds)}`,
    facts.map((fact) => fact.replaceAll(' ', '\u00a0')).join(' · '),
  ];
  for (const variant of axes.variant)
    if (Object.keys(variant.env).length)
      lines.push(
        `variant ${variant.name}: ${Object.entries(variant.env)
          .map(([key, value]) => `${key}=${value}`)
          .join(' ')}`,
      );
  if (axes.node.length > 1) for (const node of axes.node) lines.push(`node ${nodeLabel(axes, node)}: ${node.path}`);
  // a sweep through a pool (--pool): which, and its runtimes as the arms; each point's dispatch
  // share is in the JSON
  const pooled = document.points.find((point) => point.pool)?.pool;
  const pool = pooled ? poolText({ pool: { ...pooled, batch: null, dispatch: {} } }) : null;
  if (pool) lines.push(pool);
  return { title, lines };
}

/**
 * The notes under a sweep's tables: oversubscribed points, points out of budget or not run,
 * where the time went, how the ratio scales with k, and how to go on.
 * @param {SweepDocument} document
 * @param {ReturnType<typeof varying>} columns
 * @param {number} cores
 * @param {boolean} answer  the answer alone, without the account's readings
 */
function sweepNotes(document, columns, cores, answer) {
  const { points, config } = document;
  const notes = [];
  if (points.some((point) => point.oversubscribed))
    notes.push(
      `* k above the ${plural(cores, 'CPU')} here: workers and processes also compete for CPU time, not only for the kernel lock`,
    );
  const outOfTime = points.filter((point) => point.stop === 'max-time').length;
  if (outOfTime)
    notes.push(
      `${outOfTime} of ${points.length} points ran out of the budget before ${config.sequential ? 'their verdict was decided' : pct(config.precision ?? 0)}: a larger --max-time would narrow them`,
    );
  for (const point of points)
    if (point.unavailable) notes.push(`${pointName(point, columns)}: not run: ${point.unavailable}`);
  // where the time went at each point whose modes differ: the account's reading
  for (const point of points) {
    const reading = accountWordsOf(point.account, document)?.reading;
    if (reading && point.verdict?.significant && !answer) notes.push(`${pointName(point, columns)}: ${reading}`);
  }
  for (const group of document.scaling) notes.push(...scalingNotes(group, document));
  const resume = resumeText(document);
  if (resume) notes.push(resume);
  return notes;
}

/**
 * Each measure beyond throughput (measures.js) at every point: each mode's median over its
 * rounds and their ratio with its interval, a table per measure.
 * @param {import('./document.js').SweepDocument} document
 * @param {import('../../points/points.js').Point[]} read  its points, as every reader reads them
 * @param {ReturnType<typeof varying>} columns
 * @param {string[] | null} only  these measures' keys alone; null: every one
 * @returns {import('../../words/report-model.js').ReportModel['tables']}
 */
function measuresTable(document, read, columns, only) {
  const measures = furtherMeasuresOf(read).filter((measure) => !only || only.includes(measure.key));
  return measures.flatMap((measure) =>
    figuresTable(
      columns,
      [`${measure.name}: workers`, 'procs', 'workers/procs (95% CI)'],
      document.points.map((saved, i) => {
        const { ratio } = figureOf(measure, read[i]);
        return [
          ...leadCells(saved, columns),
          ...MODES.map((mode) => medianCell(measure, read[i], mode)),
          ratio ? contrastCell(ratio, measure) : '-',
        ];
      }),
    ),
  );
}

/**
 * What the account says at every point, the figures the k chart draws beside the ratio: page
 * faults and blocked time per op, each mode's mean over its rounds.
 * @param {SavedPoint[]} points
 * @param {ReturnType<typeof varying>} columns
 * @returns {import('../../words/report-model.js').ReportModel['tables']}
 */
function accountTable(points, columns) {
  const rows = points.flatMap((point) => {
    const { account } = point;
    if (!account) return [];
    const cell = (
      /** @type {import('../../stats/account.js').LineKey} */ key,
      /** @type {(value: number) => string} */ format,
    ) =>
      MODES.map((mode) => {
        const stats = lineOf(account, key)?.modes[mode];
        return stats ? format(stats.mean) : '-';
      });
    return [
      [
        ...leadCells(point, columns),
        ...cell('minflt', (faults) => fixed(faults, faults < 10 ? 2 : 1)),
        ...cell('blockedNs', (ns) => fixed(Math.max(0, ns) / 1000, 1)),
      ],
    ];
  });
  return figuresTable(columns, ['page faults per op: workers', 'procs', 'blocked µs per op: workers', 'procs'], rows);
}

/**
 * A point's own cells, as the sweep's table heads them (its id when no axis varies).
 * @param {SavedPoint} point
 * @param {ReturnType<typeof varying>} columns
 */
const leadCells = (point, columns) => (columns.length ? columns.map((column) => column.cell(point)) : [point.id]);

/**
 * A table of figures per point: the point's own cells on the left, then `heads`, of which the
 * last `figures` are numbers, aligned right.
 * @param {ReturnType<typeof varying>} columns
 * @param {string[]} heads
 * @param {string[][]} rows
 * @returns {import('../../words/report-model.js').ReportModel['tables']}
 */
function figuresTable(columns, heads, rows, figures = heads.length) {
  if (!rows.length) return [];
  const head = [...(columns.length ? columns.map((column) => column.head) : ['point']), ...heads];
  return [{ head, rows, align: head.map((_, i) => (i < head.length - figures ? 'left' : 'right')) }];
}

/**
 * The tasks' own figures at every point (medians over its complete rounds), a row per metric.
 * @param {SavedPoint[]} points
 * @param {ReturnType<typeof varying>} columns
 * @returns {import('../../words/report-model.js').ReportModel['tables']}
 */
function metricsTable(points, columns) {
  const rows = points.flatMap((point) =>
    Object.entries(point.metrics).map(([name, declared]) => {
      const format = UNIT[declared.unit] ?? fixed;
      const median = (/** @type {'workers'|'procs'} */ mode) => point[mode]?.metrics?.[name]?.median;
      return [
        ...leadCells(point, columns),
        name,
        ...MODES.map((mode) => {
          const value = median(mode);
          return value === undefined ? '-' : format(value);
        }),
      ];
    }),
  );
  return figuresTable(columns, ['task metric (median)', 'workers', 'procs'], rows, 2);
}

/**
 * The verdicts of a sweep's points, counted: `workers faster at 2 of 8 points, procs at 1, no
 * difference at 5`.
 * @param {import('./document.js').SavedPoint[]} points
 */
function sweepVerdicts(points) {
  const count = (/** @type {(point: import('./document.js').SavedPoint) => boolean} */ test) =>
    points.filter(test).length;
  const decided = (/** @type {'workers'|'procs'} */ mode) =>
    count((point) => (point.ratio?.n ?? 0) >= INTERVAL_ROUNDS && point.verdict?.faster === mode);
  const counted = (/** @type {import('./document.js').SavedPoint} */ point) =>
    (point.ratio?.n ?? 0) >= INTERVAL_ROUNDS && !point.verdict?.faster;
  const equal = count((point) => counted(point) && point.verdict?.outcome === 'equal');
  const parts = [
    `workers faster at ${decided('workers')} of ${plural(points.length, 'point')}`,
    `procs at ${decided('procs')}`,
    ...(equal ? [`equal at ${equal}`] : []),
    // a file saved before verdicts had outcomes said no more than "no difference"
    `${points.some((point) => point.verdict?.outcome) ? 'inconclusive' : 'no difference'} at ${count(
      (point) => counted(point) && point.verdict?.outcome !== 'equal',
    )}`,
  ];
  const undecided = count((point) => (point.ratio?.n ?? 0) < INTERVAL_ROUNDS);
  if (undecided) parts.push(`too few rounds or not run at ${undecided}`);
  return parts.join(', ');
}

/**
 * sweep's answer: the verdicts counted, the points' table, the scaling reading.
 * @param {import('./document.js').SweepDocument} document
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function sweepAnswer(document) {
  const full = sweepModel(document, { answer: true });
  return {
    title: `${full.title} · ${cpusText(document.environment.cpu)}`,
    // the verdicts counted and how the points stopped; then what names the rows (a variant's
    // settings, a Node's binary), the machine's facts left to --verbose
    lines: [
      `${sweepVerdicts(document.points)}; ${/** @type {string[]} */ (full.lines)[0]}`,
      ...(full.lines ?? []).slice(2),
    ],
    tables: full.tables,
    notes: [...full.notes, MORE],
  };
}
