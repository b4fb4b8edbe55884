// The report page's section for a sweep or an advise run.
import { plural, MODES } from '../../words/spelling.js';
import { pointName, varying } from './columns.js';
import { THROUGHPUT } from '../../points/measures.js';
import { centreOf, figureOf, furtherMeasuresOf } from '../../points/points.js';
import { sweepPoints } from '../../document/points-of.js';
import { accountChart, forestChart, forestRow, roundsChart, pooledBar } from '../../view/charts.js';
import { pooledIn } from '../compare/html.js';
import { accountByK, ratioByK, ratioByParam, measureByK } from './charts.js';
import { kebab } from '../../words/vocabulary.js';
import { section } from '../../view/html-page.js';
import { ruleText } from '../../document/sentences.js';
import { byK, partsOf, roundDots } from '../../view/html-figures.js';

/**
 * @typedef {import('../../saved/load.js').Saved} Saved
 * @typedef {import('../../view/charts.js').Chart} Chart
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {import('../../view/html-page.js').Section} Section
 */

/**
 * A sweep, or an advise run (a sweep of its candidates, its ranking first): each point's rounds,
 * the further measures, and the ratio by k and by a task parameter.
 * @param {{ path: string, document: import('./document.js').SweepDocument }} saved
 * @param {{ facts: Record<string, string>, models: ReportModel[] }} shown  its facts, and its
 *   tables as its kind draws them (each command's `kind.js`)
 * @returns {Promise<Section>}
 */
export async function sweepSection({ path, document }, { facts, models }) {
  // each point as every reader reads it, by its id
  const read = new Map(sweepPoints(document).map((point) => [point.id, point]));
  const readOf = (/** @type {{ id: string }} */ point) =>
    /** @type {import('../../points/points.js').Point} */ (read.get(point.id));
  // a point by the axes that tell the points apart, as the sweep's table heads them; an advise
  // run's by its candidate, and its ranking first
  const columns = varying(document.axes);
  const label = (/** @type {import('./document.js').SavedPoint} */ point, except = '') =>
    document.advice ? point.variant.name : pointName(point, columns, { separator: ' · ', except });
  const drawn = { document, readOf, label, columns };
  /** @type {Chart[]} */
  const charts = [
    ...(document.advice ? await adviceCharts(document.advice) : []),
    ...(await pointCharts(drawn, [...read.values()])),
    ...(await paramCharts(drawn)),
  ];
  for (const group of document.scaling) charts.push(...(await scalingCharts(drawn, group)));
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
          : `${ruleText(document.config)}, or ${document.config.maxTime} s`,
      },
      answer: [],
      charts,
      // the terminal's charts are drawn as the page's own
      models: models.map((model) => ({ ...model, blocks: [] })),
    }),
  };
}

/**
 * @typedef {{ document: import('./document.js').SweepDocument,
 *   readOf: (point: { id: string }) => import('../../points/points.js').Point,
 *   label: (point: import('./document.js').SavedPoint, except?: string) => string,
 *   columns: ReturnType<typeof varying> }} Drawn  a sweep as its charts read it
 */

/**
 * Each point's rounds, its further measures, where a round's time went, and its ratio.
 * @param {Drawn} drawn
 * @param {import('../../points/points.js').Point[]} read  every point as every reader reads it
 * @returns {Promise<Chart[]>}
 */
async function pointCharts({ document, readOf, label }, read) {
  /** @type {Chart[]} */
  const charts = [];
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
            const summary = figureOf(THROUGHPUT, readOf(point))[mode];
            return summary ? [{ row: label(point), mode, median: summary.median }] : [];
          }),
        ),
        { subtitle: 'each point: one dot per round and mode; the bar marks the median' },
      ),
    );
  for (const measure of furtherMeasuresOf(read))
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
            const summary = figureOf(measure, readOf(point))[mode];
            return summary ? [{ row: label(point), mode, median: centreOf(summary, measure) }] : [];
          }),
        ),
        {
          subtitle: document.points.some((point) => pooledIn(measure, readOf(point)))
            ? `each point: one dot per round and mode; ${pooledBar(measure)}`
            : `each point: one dot per round and mode; the bar marks the ${measure.contrast === 'difference' ? 'mean' : 'median'}`,
          measure,
        },
      ),
    );
  charts.push(...(await accountAndRatio(document, label)));
  return charts;
}

/**
 * Where each point's time went, per mode, and each point's ratio with its interval.
 * @param {import('./document.js').SweepDocument} document
 * @param {Drawn['label']} label
 * @returns {Promise<Chart[]>}
 */
async function accountAndRatio(document, label) {
  /** @type {Chart[]} */
  const charts = [];
  const accounted = document.points.flatMap((point) =>
    point.account
      ? MODES.map((mode) => ({
          row: `${label(point)} · ${mode}`,
          parts: partsOf(/** @type {import('../../view/html-figures.js').Account} */ (point.account), mode),
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
    charts.push(await forestChart(measured.map(({ point, ratio }) => forestRow(label(point), ratio, point.verdict))));
  return charts;
}

/**
 * A numeric task parameter swept (the message task's --size): where the modes cross, one line
 * for each setting of the other axes.
 * @param {Drawn} drawn
 * @returns {Promise<Chart[]>}
 */
async function paramCharts({ document, columns }) {
  /** @type {Chart[]} */
  const charts = [];
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
  return charts;
}

/**
 * One group of points that differ in k alone: each mode's throughput and further measures by
 * k, the ratio by k, and where the time went by k.
 * @param {Drawn} drawn
 * @param {import('./document.js').SweepDocument['scaling'][number]} group
 * @returns {Promise<Chart[]>}
 */
async function scalingCharts({ document, readOf, label }, group) {
  /** @type {Chart[]} */
  const charts = [];
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
  for (const measure of furtherMeasuresOf(points.map(readOf))) {
    const byK = points.flatMap((point) =>
      MODES.flatMap((mode) => {
        const summary = figureOf(measure, readOf(point))[mode];
        return summary
          ? [{ k: point.k, mode, median: centreOf(summary, measure), min: summary.min, max: summary.max }]
          : [];
      }),
    );
    if (new Set(byK.map((row) => row.k)).size > 1) charts.push(await measureByK(byK, { group: name, measure }));
  }
  const ratios = points.flatMap((point) => (point.ratio ? [{ k: point.k, ...forestRow('', point.ratio) }] : []));
  if (ratios.length) charts.push(await ratioByK(ratios, { group: name }));
  const accounted = points.flatMap((point) => (point.account ? byK(point.k, point.account) : []));
  if (new Set(accounted.map((row) => row.k)).size > 1) charts.push(await accountByK(accounted, { group: name }));
  return charts;
}

/**
 * advise's ranking: each candidate's throughput over the baseline's, in each mode, in rank order.
 * @param {import('../advise/advice.js').Advice} advice
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
