// `mmapbench report FILE... --html OUT`: one self-contained page. The charts are inline SVG
// drawn here, the style is inline, and there is no script and no link to fetch: the page
// opens from disk, offline, and can be mailed.
import { existsSync, lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { compareModel, tradeOffText, singleModel } from '../report/model.js';
import { startupEnvText } from '../report/sentences.js';
import { traceModel } from '../report/trace-model.js';
import { sweepModel } from '../report/sweep-model.js';
import { adviceModel } from '../report/advice-model.js';
import { pointName, varying } from '../report/point-name.js';
import { extraMeasures, summaryOf } from '../report/measures.js';
import { fileError, writeFileAtomic } from '../system/safe-fs.js';
import { factsOf } from '../results/load.js';
import { accountChart, forestChart, forestRow, latencyChart, MODE_SERIES, roundsChart, spreadChart } from './charts.js';
import { accountByK, ratioByK, ratioByParam, measureByK } from './charts-by-k.js';
import { syscallChart, waitHistogram } from './charts-trace.js';
import { auditSection, reproduceSection } from './html-reproduce-audit.js';
import { MODES } from '../words/modes.js';
import { kebab } from '../words/vocabulary.js';
import { page, section } from './html-page.js';
import { byK, partsOf, perCellFigure, roundDots, spreadWords } from './html-figures.js';

/**
 * @typedef {import('../results/load.js').Saved} Saved
 * @typedef {import('./charts.js').Chart} Chart
 * @typedef {import('../report/table.js').ReportModel} ReportModel
 * @typedef {{ charts: number, html: string }} Section
 */

const plural = (/** @type {number} */ n, /** @type {string} */ word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Checks `--html` before anything is drawn: its folder must exist, and it must not name one of
 * the results files being read.
 * @param {string} path
 * @param {Saved[]} saved
 */
function checkTarget(path, saved) {
  const folder = dirname(resolve(path));
  if (!existsSync(folder))
    throw usageError(`--html ${path}: the folder ${folder} does not exist; create it or pass another path`);
  if (saved.some((one) => resolve(one.path) === resolve(path)))
    throw usageError(`--html ${path} is one of the results files being read; pass another path for the page`);
  if (existsSync(path) && lstatSync(path).isDirectory())
    throw usageError(`--html ${path} is a folder; pass a file name, e.g. ${path}/report.html`);
}

/**
 * Draws every file's charts and writes the page atomically.
 * @param {import('../results/load.js').Saved[]} saved
 * @param {string} path
 * @returns {Promise<{ path: string, charts: number, bytes: number }>}
 */
export async function writeHtmlReport(saved, path) {
  checkTarget(path, saved);
  const sections = [];
  let charts = 0;
  for (const one of saved) {
    const section = await sectionOf(one);
    charts += section.charts;
    sections.push(section.html);
  }
  const html = page(sections.join('\n'), saved.length);
  try {
    writeFileAtomic(path, html);
  } catch (error) {
    throw fileError(error, path, '--html');
  }
  return { path, charts, bytes: Buffer.byteLength(html) };
}

/**
 * The charts and tables of one saved file, by its kind.
 * @param {Saved} saved
 * @returns {Promise<Section>}
 */
const sectionOf = (saved) =>
  /** @type {(saved: Saved, facts: Record<string, string>) => Promise<Section>} */ (SECTIONS[saved.kind])(
    saved,
    factsOf(saved),
  );

/**
 * @param {Extract<Saved, { kind: 'measure' }>} saved
 * @param {Record<string, string>} facts
 * @returns {Promise<Section>}
 */
async function measureSection({ path, document }, facts) {
  const modes = MODES.filter((mode) => document[mode] !== undefined);
  // an A/A run's arms both ran one mode: they are A and B, as in its table
  /** @type {import('./charts.js').Series} */
  const series = document.aa ? { names: /** @type {const} */ (['A', 'B']), title: 'arm' } : MODE_SERIES;
  const arm = (/** @type {'workers'|'procs'} */ mode) => series.names[MODES.indexOf(mode)];
  /** @type {Chart[]} */
  const charts = [];
  const dots = document.rounds.flatMap((round) =>
    modes.flatMap((mode) => {
      const cell = round[mode];
      return cell ? [{ row: arm(mode), mode: arm(mode), throughput: cell.throughput }] : [];
    }),
  );
  if (dots.length)
    charts.push(
      await roundsChart(
        dots,
        modes.flatMap((mode) => {
          const summary = document[mode];
          return summary ? [{ row: arm(mode), mode: arm(mode), median: summary.throughput.median }] : [];
        }),
        { series },
      ),
    );
  for (const measure of extraMeasures(modes.map((mode) => document[mode])))
    charts.push(
      await roundsChart(
        roundDots(
          document.rounds,
          modes.map((mode) => ({ mode, row: arm(mode), name: arm(mode) })),
          measure,
        ),
        modes.flatMap((mode) => {
          const summary = summaryOf(document[mode], measure);
          return summary ? [{ row: arm(mode), mode: arm(mode), median: summary.median }] : [];
        }),
        { series, measure },
      ),
    );
  const latencies = modes.flatMap((mode) => {
    const histogram = document[mode]?.latencyHistogram;
    return histogram ? [{ mode: arm(mode), histogram }] : [];
  });
  if (latencies.length) charts.push(await latencyChart(latencies, { series }));
  if (document.ratio) charts.push(await forestChart([forestRow(`k=${document.config.k}`, document.ratio)], { series }));
  const spreadDots = document.spread && !document.aa ? perCellFigure(document.rounds, modes, 'minflt') : [];
  if (spreadDots.length)
    charts.push(
      await spreadChart(spreadDots, {
        figure: 'page faults',
        subtitle: `one dot per cell; ${spreadWords(document.spread ?? {})}`,
      }),
    );
  const { trace } = document;
  const traced = trace
    ? modes.flatMap((mode) => {
        const modeTrace = trace.modes[mode];
        return modeTrace ? [{ mode, trace: modeTrace }] : [];
      })
    : [];
  if (traced.length)
    charts.push(await waitHistogram(Object.fromEntries(traced.map(({ mode, trace: t }) => [mode, t.write.histogram]))));
  // traces from before the by-syscall breakdown have none to draw
  if (traced.length && traced.every(({ trace: t }) => t.bySyscall))
    charts.push(
      await syscallChart(
        traced.flatMap(({ mode, trace: t }) =>
          (t.bySyscall?.write ?? []).map((row) => ({
            series: mode,
            name: row.name,
            // the mean per traced cell, as the terminal's table gives it
            waitNs: row.totalNs / t.cells,
            count: row.count / t.cells,
          })),
        ),
        { per: 'per cell', over: 'the mean over the traced cells' },
      ),
    );
  const { account } = document;
  if (account)
    charts.push(await accountChart(modes.map((mode) => ({ row: arm(mode), parts: partsOf(account, mode) }))));
  /** @type {ReportModel[]} */
  const models = [
    document.command === 'compare'
      ? compareModel(document)
      : singleModel(/** @type {typeof document & { command: 'workers'|'procs' }} */ (document)),
  ];
  if (trace) models.push(traceModel({ ...document, trace }));
  const { config } = document;
  return {
    charts: charts.length,
    html: section({
      heading: `${document.config.trace ? 'trace ' : ''}${document.command}: ${config.task.name}, ${config.file.label}, k=${config.k}`,
      path,
      document,
      facts: {
        ...facts,
        rounds: `${document.rounds.length} (stop: ${document.stop ?? 'n/a'})`,
        'iterations per worker': `${config.iterations ?? 'n/a'} after ${config.warmup === 'steady' ? 'a warmup until steady' : `${config.warmup ?? 0} warmup`}`,
        env:
          Object.entries(config.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ') || 'none',
      },
      answer: document.verdict
        ? [
            document.verdict.text,
            tradeOffText(document),
            startupEnvText(document),
            document.account?.words.reading,
            document.next,
          ].filter(Boolean)
        : [],
      charts,
      models,
    }),
  };
}

/**
 * @param {Extract<Saved, { kind: 'sweep' }>} saved
 * @param {Record<string, string>} facts
 * @returns {Promise<Section>}
 */
async function sweepSection({ path, document }, facts) {
  /** @type {Chart[]} */
  const charts = [];
  // a point by the axes that tell the points apart, as the sweep's table heads them; an advise
  // run's by its candidate, and its ranking first
  const columns = varying(document.axes);
  const label = (/** @type {import('../report/sweep-results.js').SweepPoint} */ point, except = '') =>
    document.advice ? point.variant.name : pointName(point, columns, { separator: ' · ', except });
  if (document.advice) charts.push(...(await adviceCharts(document.advice)));
  const dots = document.points.flatMap((point) =>
    point.rounds.flatMap((round) =>
      MODES.flatMap((mode) => {
        const cell = round[mode];
        return cell ? [{ row: label(point), mode, throughput: cell.throughput }] : [];
      }),
    ),
  );
  if (dots.length)
    charts.push(
      await roundsChart(
        dots,
        document.points.flatMap((point) =>
          MODES.flatMap((mode) => {
            const summary = point[mode];
            return summary ? [{ row: label(point), mode, median: summary.throughput.median }] : [];
          }),
        ),
        { subtitle: 'each point: one dot per round and mode; the bar marks the median' },
      ),
    );
  for (const measure of extraMeasures(document.points.flatMap((point) => [point.workers, point.procs])))
    charts.push(
      await roundsChart(
        document.points.flatMap((point) =>
          roundDots(
            point.rounds,
            MODES.map((mode) => ({ mode, row: label(point), name: mode })),
            measure,
          ),
        ),
        document.points.flatMap((point) =>
          MODES.flatMap((mode) => {
            const summary = summaryOf(point[mode], measure);
            return summary ? [{ row: label(point), mode, median: summary.median }] : [];
          }),
        ),
        { subtitle: 'each point: one dot per round and mode; the bar marks the median', measure },
      ),
    );
  const accounted = document.points.flatMap((point) =>
    point.account
      ? MODES.map((mode) => ({
          row: `${label(point)} · ${mode}`,
          parts: partsOf(/** @type {import('./html-figures.js').Account} */ (point.account), mode),
        }))
      : [],
  );
  if (accounted.length)
    charts.push(
      await accountChart(accounted, {
        subtitle: 'each point and mode, mean over its rounds; the parts add up to the wall time per op',
      }),
    );
  const measured = document.points.flatMap((point) => (point.ratio ? [{ point, ratio: point.ratio }] : []));
  if (measured.length)
    charts.push(await forestChart(measured.map(({ point, ratio }) => forestRow(label(point), ratio))));
  // a numeric task parameter swept (the message task's --size): where the modes cross, one line
  // for each setting of the other axes
  const numeric = document.advice
    ? []
    : Object.entries(document.axes.params).filter(
        ([, values]) => values.length > 1 && values.every((value) => typeof value === 'number'),
      );
  for (const [name] of numeric) {
    const others = columns.filter((column) => column.head !== kebab(name));
    const rows = document.points.flatMap((point) =>
      point.ratio
        ? [
            {
              value: Number(point.params[name]),
              series: others.length ? pointName(point, others, { separator: ' · ' }) : point.task,
              ...forestRow('', point.ratio),
            },
          ]
        : [],
    );
    if (new Set(rows.map((row) => row.value)).size > 1)
      charts.push(
        await ratioByParam(rows, { name: kebab(name), series: others.map((column) => column.head).join(' · ') }),
      );
  }
  for (const group of document.scaling) {
    const points = group.points.flatMap((id) => document.points.find((point) => point.id === id) ?? []);
    const name = document.scaling.length > 1 && points.length ? label(points[0], 'k') : '';
    const rows = points.flatMap((point) =>
      MODES.flatMap((mode) => {
        const summary = point[mode];
        if (!summary) return [];
        const { median, min, max } = summary.throughput;
        return [{ k: point.k, mode, median, min, max }];
      }),
    );
    if (rows.length) charts.push(await measureByK(rows, { group: name }));
    for (const measure of extraMeasures(points.flatMap((point) => [point.workers, point.procs]))) {
      const byK = points.flatMap((point) =>
        MODES.flatMap((mode) => {
          const summary = summaryOf(point[mode], measure);
          return summary ? [{ k: point.k, mode, median: summary.median, min: summary.min, max: summary.max }] : [];
        }),
      );
      if (new Set(byK.map((row) => row.k)).size > 1) charts.push(await measureByK(byK, { group: name, measure }));
    }
    const ratios = points.flatMap((point) => (point.ratio ? [{ k: point.k, ...forestRow('', point.ratio) }] : []));
    if (ratios.length) charts.push(await ratioByK(ratios, { group: name }));
    const accounted = points.flatMap((point) => (point.account ? byK(point.k, point.account) : []));
    if (new Set(accounted.map((row) => row.k)).size > 1) charts.push(await accountByK(accounted, { group: name }));
  }
  return {
    charts: charts.length,
    html: section({
      heading: document.advice
        ? `advise: ${document.axes.task[0]}, ${plural(document.advice.rows.length - 1, 'candidate')}`
        : `sweep: ${plural(document.points.length, 'point')}`,
      path,
      document,
      facts: {
        ...facts,
        rounds: document.config.rounds
          ? `${document.config.rounds} at every point`
          : `until ±${(document.config.precision ?? 0) * 100}% or ${document.config.maxTime} s`,
      },
      answer: [],
      charts,
      models: [
        ...(document.advice ? [adviceModel(/** @type {any} */ (document))] : []),
        sweepModel(document, { width: 100 }),
      ].map((model) => ({ ...model, blocks: [] })),
    }),
  };
}

/**
 * advise's ranking: each candidate's throughput over the baseline's, in each mode, in rank order.
 * @param {import('../report/advice.js').Advice} advice
 */
async function adviceCharts(advice) {
  const ranked = advice.rows.filter((row) => row.kind !== 'baseline');
  return Promise.all(
    MODES.flatMap((mode) => {
      const rows = ranked.flatMap((row) => {
        const gain = row.gain[mode];
        return gain
          ? [{ label: row.name, median: gain.change, low: gain.ci95?.[0] ?? null, high: gain.ci95?.[1] ?? null }]
          : [];
      });
      return rows.length
        ? [
            forestChart(rows, {
              series: { names: ['candidate', 'baseline'], title: 'candidate' },
              title: `${mode}: each candidate's throughput over the baseline's, with its 95% CI`,
            }),
          ]
        : [];
    }),
  );
}

/** @type {{ [K in Saved['kind']]: (saved: Extract<Saved, { kind: K }>, facts: Record<string, string>) => Promise<Section> }} */
const SECTIONS = { measure: measureSection, sweep: sweepSection, audit: auditSection, reproduce: reproduceSection };
