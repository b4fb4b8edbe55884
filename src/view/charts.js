// The report page's charts, as Vega-Lite specifications drawn to static SVG in Node by vega's
// headless renderer: declarative specs (axes, scales, legends and layout come from the
// library), no browser and no network needed to draw them, and the page needs no script.
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { MODES } from '../words/spelling.js';
import { THROUGHPUT } from '../points/measures.js';
import { middleOf } from '../stats/histogram.js';
import { wrapText } from './table.js';

const capitalized = (/** @type {string} */ text) => text[0].toUpperCase() + text.slice(1);

// Okabe–Ito blue and vermilion: told apart with every common colour-vision deficiency, and
// used for workers and procs in every chart of the page.
export const MODE_COLORS = { workers: '#0072B2', procs: '#D55E00' };

/**
 * A pooled measure's chart: its bar is every round's timings pooled, its dots each cell's own.
 * @param {import('../points/measures.js').Measure} measure  a pooled one
 */
export const pooledBar = (measure) => {
  const { timings, perCell, percentile } = /** @type {NonNullable<typeof measure.pooled>} */ (measure.pooled);
  return `the bar marks every round's ${timings} pooled, each dot a cell's own p${percentile} (of ${perCell} ${timings})`;
};

/**
 * The two series a chart compares, in the modes' colours: workers and procs, or an A/A run's
 * arms A and B (which both ran one mode, so naming them by mode would say what did not run).
 * @typedef {{ names: readonly [string, string], title: string }} Series
 * @type {Series}
 */
export const MODE_SERIES = { names: MODES, title: 'mode' };
const pairColor = (/** @type {Series} */ series) => ({
  field: 'mode',
  type: 'nominal',
  title: series.title,
  scale: { domain: series.names, range: MODES.map((mode) => MODE_COLORS[mode]) },
});
export const modeColor = pairColor(MODE_SERIES);
const ratioName = (/** @type {Series} */ series) => series.names.join('/');
export const INK = '#333';

const CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", sans-serif',
  background: 'white',
  padding: 8,
  title: { anchor: 'start', fontSize: 14, subtitleFontSize: 11, subtitleColor: '#555', offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', gridColor: '#e6e6e6' },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'top' },
  view: { stroke: null },
};

/**
 * A chart: its title (for the page's figure caption and for tests) and its SVG.
 * @typedef {{ title: string, svg: string }} Chart
 */

/**
 * @param {{ title: { text: string, subtitle?: string } } & Record<string, unknown>} spec  a Vega-Lite
 *   unit or layer spec
 * @returns {Promise<Chart>}
 */
export async function draw(spec) {
  const { spec: compiled } = compile(/** @type {any} */ ({ ...spec, title: wrapped(spec), config: CONFIG }));
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return {
    title: spec.title.text,
    svg: svg.replace('<svg ', `<svg role="img" aria-label="${escapeAttribute(spec.title.text)}" `),
  };
}

/**
 * A chart's title with its subtitle in lines no wider than the chart: a line wider draws the SVG
 * wider, and the page then shrinks the whole chart to fit (its dots and its words with it).
 * @param {{ title: { text: string, subtitle?: string }, width?: unknown }} spec
 */
function wrapped({ title, width }) {
  if (!title.subtitle || typeof width !== 'number') return title;
  // a subtitle's character at its 11 px is about 6 px wide; the axis's labels add some room
  const lines = wrapText(title.subtitle, Math.floor((width + 60) / SUBTITLE_CHAR_PX)).split('\n');
  return { ...title, subtitle: lines.length > 1 ? lines : title.subtitle };
}

const SUBTITLE_CHAR_PX = 6;

const escapeAttribute = (/** @type {string} */ text) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// a fresh tree's state on the rounds chart (stats/trees.js), and its dot's shape; a round's cell
// that is in no state (a pilot, an incomplete round) is a cross
const TREE_SHAPES = [
  ['fast state', 'circle'],
  ['slow state', 'triangle-down'],
  ['one state', 'circle'],
  ['not counted', 'cross'],
];

/**
 * Every round's figure of one measure (throughput unless told) for each mode as a dot, with a
 * tick at the median: how far apart the modes are against how much each varies.
 * @param {Array<{ row: string, mode: string } & Record<string, number | string>>} dots  one per
 *   round and mode, its figure under the measure's key
 * @param {Array<{ row: string, mode: string, median: number }>} medians
 * @param {{ subtitle?: string, series?: Series, measure?: import('../points/measures.js').Measure }} [options]
 */
export function roundsChart(dots, medians, { subtitle: asked, series = MODE_SERIES, measure = THROUGHPUT } = {}) {
  const subtitle =
    asked ?? `one dot per round; the bar marks the ${measure.contrast === 'difference' ? 'mean' : 'median'}`;
  const y = { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 260 } };
  // rows that are points hold both modes, side by side; rows that are the modes need no offset
  const byMode = dots.every((dot) => dot.row === dot.mode);
  const yOffset = byMode ? {} : { yOffset: { field: 'mode', sort: series.names } };
  const color = pairColor(series);
  return draw({
    title: { text: `${capitalized(measure.name)} in every round`, subtitle },
    width: 560,
    height: { step: byMode ? 30 : 40 },
    layer: [
      {
        data: { values: dots },
        mark: { type: 'point', filled: true, size: 55, opacity: 0.65 },
        encoding: {
          x: {
            field: measure.key,
            type: 'quantitative',
            title: measure.axis,
            axis: { format: `,.${measure.digits}f` },
          },
          y,
          ...yOffset,
          color,
          // a fresh tree's state, where the dots carry one (stats/trees.js)
          ...(dots.some((dot) => dot.state)
            ? {
                shape: {
                  field: 'state',
                  type: 'nominal',
                  title: 'fresh tree',
                  // only the states drawn, in this order, with these shapes
                  scale: Object.fromEntries(
                    ['domain', 'range'].map((key, i) => [
                      key,
                      TREE_SHAPES.filter(([state]) => dots.some((dot) => dot.state === state)).map((pair) => pair[i]),
                    ]),
                  ),
                },
              }
            : {}),
        },
      },
      {
        data: { values: medians },
        mark: { type: 'tick', thickness: 3, size: byMode ? 22 : 14 },
        encoding: {
          x: { field: 'median', type: 'quantitative' },
          y,
          ...yOffset,
          color,
        },
      },
    ],
  });
}

/**
 * Each mode's op latencies, every timed op of every complete cell merged, as a percentile plot:
 * latency against the share of ops at or under it, on a scale that gives each further nine
 * (90%, 99%, 99.9%) as much room as the one before, so the tail is as legible as the middle.
 * @param {Array<{ mode: string, histogram: { ns: Array<[number, number]>, bits: number, cells: number, ops: number } }>} modes
 * @param {{ series?: Series, text?: string, what?: string, unit?: string, alone?: boolean }} [options]  text,
 *   what, unit: the title, what was timed, and what one is called (`ops`, `requests`); alone: a
 *   line named `alone` is among them (the app before its workers started)
 */
export function latencyChart(
  modes,
  {
    series = MODE_SERIES,
    text = 'Op latency by percentile',
    what = 'ops timed across the windows of the complete rounds',
    unit = 'ops',
    alone = false,
  } = {},
) {
  const values = modes.flatMap(({ mode, histogram }) => {
    const total = histogram.ns.reduce((sum, [, count]) => sum + count, 0);
    let below = 0;
    return histogram.ns.map(([lower, count]) => {
      // the bucket's middle rank, so the last bucket is not at 100% (which the scale cannot show)
      const share = (below + count / 2) / total;
      below += count;
      return { mode, odds: 1 / (1 - share), us: middleOf(lower, histogram.bits) / 1e3 };
    });
  });
  const counted = modes.map(
    ({ mode, histogram }) => `${mode} ${histogram.ops.toLocaleString('en-US')} ${unit} of ${histogram.cells} cells`,
  );
  const color = pairColor(series);
  return draw({
    title: {
      text,
      subtitle: `${what}: ${counted.join(', ')}`,
    },
    width: 560,
    height: 260,
    data: { values },
    mark: { type: 'line', point: { size: 18 }, interpolate: 'step-after' },
    encoding: {
      x: {
        field: 'odds',
        type: 'quantitative',
        // 1 / (1 - share): 10 is the 90th percentile, 100 the 99th, 1,000 the 99.9th
        scale: { type: 'log', domainMin: 1 },
        title: `percentile (share of ${unit} at or under the latency)`,
        axis: { values: [2, 10, 100, 1000, 10000, 100000], labelExpr: "format(100 - 100 / datum.value, '.6~f') + '%'" },
      },
      y: {
        field: 'us',
        type: 'quantitative',
        scale: { type: 'log' },
        title: `µs per ${unit === 'ops' ? 'op' : 'request'} (lower is better)`,
      },
      // the app alone, beside the modes, in grey
      color: alone
        ? { ...color, scale: { domain: [...series.names, 'alone'], range: [...color.scale.range, '#999'] } }
        : color,
    },
  });
}

/**
 * The workers/procs ratio of each row with its 95% CI, on a log scale around 1 (a forest plot):
 * left of the dashed line procs are faster, right of it workers.
 * @param {Array<{ label: string, median: number, low: number | null, high: number | null }>} rows
 */
export function forestChart(rows, { series = MODE_SERIES, title = `${ratioName(series)} ratio with its 95% CI` } = {}) {
  const values = rows
    .flatMap((row) => [row.median, row.low, row.high])
    .filter(/** @returns {v is number} */ (v) => typeof v === 'number' && v > 0);
  const domain = [Math.min(1, ...values) / 1.15, Math.max(1, ...values) * 1.15];
  const [a, b] = series.names;
  const x = {
    type: 'quantitative',
    title: `${ratioName(series)} (log scale; below 1: ${b} faster, above 1: ${a} faster)`,
    scale: { type: 'log', domain, nice: false },
    axis: { format: '.2~f', tickCount: 8 },
  };
  const y = { field: 'label', type: 'nominal', title: null, sort: null, axis: { labelLimit: 320 } };
  return draw({
    title: {
      text: title,
      subtitle:
        "dot: the ratio over the rounds; line: its 95% CI, or the verdict's interval where the rounds stopped once decided (none with fewer than 3 rounds)",
    },
    width: 480,
    height: { step: 30 },
    data: { values: rows },
    layer: [
      {
        data: { values: [{ one: 1 }] },
        mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
        encoding: { x: { field: 'one', ...x } },
      },
      {
        transform: [{ filter: 'datum.low != null' }],
        mark: { type: 'rule', strokeWidth: 2, color: INK },
        encoding: { x: { field: 'low', ...x }, x2: { field: 'high' }, y },
      },
      {
        mark: { type: 'point', filled: true, size: 70, color: INK, opacity: 1 },
        encoding: { x: { field: 'median', ...x }, y },
      },
    ],
  });
}

/**
 * Each cell's throughput against one per-op figure of its account, a dot per cell in its
 * mode's colour: whether the cells that ran slow are the ones with more of it.
 * @param {Array<{ mode: string, throughput: number, figure: number }>} dots
 * @param {{ figure: string, subtitle: string }} options  figure: what the y axis is, per op
 */
export function spreadChart(dots, { figure, subtitle }) {
  return draw({
    title: { text: `Each cell's throughput against its ${figure} per op`, subtitle },
    width: 480,
    height: 260,
    data: { values: dots },
    mark: { type: 'point', filled: true, size: 50, opacity: 0.7 },
    encoding: {
      x: { field: 'throughput', type: 'quantitative', title: 'ops/s (higher is faster)', axis: { format: ',.0f' } },
      y: { field: 'figure', type: 'quantitative', title: `${figure} per op` },
      color: modeColor,
    },
  });
}

/**
 * A forest row from ratio statistics (a results document's `ratio`, or ratioStats of per-round
 * ratios): the interval only from 3 rounds up, as the tables print it.
 * @param {string} label
 * @param {import('../stats/ratio.js').RatioStats} stats
 * @param {{ interval?: [number, number] | null } | null} [verdict]  the verdict read from it
 */
export function forestRow(label, stats, verdict = null) {
  // the verdict's own interval where it has one: the one its line and table give
  const ci = stats.n >= 3 ? (verdict?.interval ?? stats.ci95) : null;
  // beside its interval, the interval's centre (see withCI)
  return { label, median: ci ? stats.geomean : stats.median, low: ci?.[0] ?? null, high: ci?.[1] ?? null };
}

/** The parts a thread's wall time per op is made of, in the order they are stacked. */
const PARTS = /** @type {const} */ ([
  ['userNs', 'user'],
  ['systemNs', 'system'],
  ['cpuNs', 'on a CPU'],
  ['runqNs', 'waiting for a CPU'],
  ['blockedNs', 'blocked'],
]);
// Okabe–Ito: told apart with every common colour-vision deficiency
const PART_COLORS = ['#009E73', '#E69F00', '#56B4E9', '#CC79A7', '#999999'];

/**
 * Where each mode's time per op went: a stacked bar per row (a mode, or a point and mode), its
 * parts the account's time lines, which add up to the wall time per op.
 * @param {Array<{ row: string, parts: Partial<Record<'userNs'|'systemNs'|'cpuNs'|'runqNs'|'blockedNs', number | null>> }>} rows
 * @param {{ subtitle?: string }} [options]
 */
export function accountChart(
  rows,
  { subtitle = 'mean over the rounds; the parts add up to the wall time per op' } = {},
) {
  const used = PARTS.filter(([key]) => rows.some((row) => typeof row.parts[key] === 'number'));
  const values = rows.flatMap((row) =>
    used.flatMap(([key, part], order) => {
      const ns = row.parts[key];
      return typeof ns === 'number' ? [{ row: row.row, part, order, us: Math.max(0, ns) / 1000 }] : [];
    }),
  );
  return draw({
    title: { text: 'Where the time per op went', subtitle },
    width: 480,
    height: { step: 26 },
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 320 } },
      x: { field: 'us', type: 'quantitative', title: 'µs per op (thread time)', stack: 'zero' },
      color: {
        field: 'part',
        type: 'nominal',
        title: null,
        scale: {
          domain: used.map(([, part]) => part),
          range: used.map(([key]) => PART_COLORS[PARTS.findIndex(([k]) => k === key)]),
        },
      },
      order: { field: 'order' },
    },
  });
}

/**
 * What the app held before its first worker (cycle 0) and after each cycle's workers ended, per
 * mode: the median over the cells, a rule from the least to the most. A line that climbs is a
 * pool that keeps more each time it recycles its workers.
 * @param {Array<{ mode: string, cycle: number, median: number, min: number, max: number }>} rows  MiB
 * @param {{ series?: Series }} [options]
 */
export const keptByCycleChart = (rows, { series = MODE_SERIES } = {}) =>
  rangeLines(rows, series, {
    title: {
      text: "The app's memory as it starts and ends its workers",
      subtitle:
        "the parent's anonymous memory, before its first worker and after each cycle's workers ended; median over the cells, the rule min to max",
    },
    x: { field: 'cycle', type: 'ordinal', title: 'cycle (0: before the first worker)', axis: { labelAngle: 0 } },
    y: { title: 'MiB anonymous', axis: { format: ',.1f' } },
    width: 420,
    point: 50,
    rule: 0.5,
  });

/**
 * A fresh worker's rate over its first ops, per mode: each batch's rate against when it ended,
 * the mean over a cell's workers and the median over the cells; the rule from the least cell to
 * the most. A thread that starts slow beside a process that does not is a gap that closes.
 * @param {Array<{ mode: string, ms: number, median: number, min: number, max: number }>} rows  ops/s a worker
 * @param {{ series?: Series }} [options]
 */
export const rampChart = (rows, { series = MODE_SERIES } = {}) =>
  rangeLines(rows, series, {
    title: {
      text: 'Fresh workers: the rate of their first ops',
      subtitle:
        "each warmup batch's ops/s a worker, at its end: the mean over a cell's workers, median over the cells, the rule min to max",
    },
    x: { field: 'ms', type: 'quantitative', title: 'ms from the first op' },
    y: { title: 'ops/s a worker (higher is faster)', axis: { format: ',.0f' } },
    width: 560,
    point: 30,
    rule: 0.35,
  });

/**
 * A line per mode through each row's median, with a rule from its min to its max.
 * @param {Array<{ mode: string, median: number, min: number, max: number }>} rows
 * @param {Series} series
 * @param {{ title: { text: string, subtitle: string }, x: Record<string, unknown>, y: Record<string, unknown>,
 *   width: number, point: number, rule: number }} chart  the x field's encoding, the y axis's
 *   title and format, the points' size and the rules' opacity
 */
export function rangeLines(rows, series, { title, x, y, width, point, rule }) {
  const color = pairColor(series);
  return draw({
    title,
    width,
    height: 240,
    data: { values: rows },
    layer: [
      {
        mark: { type: 'rule', opacity: rule },
        encoding: { x, y: { field: 'min', type: 'quantitative' }, y2: { field: 'max' }, color },
      },
      {
        mark: { type: 'line', point: { filled: true, size: point } },
        encoding: { x, y: { field: 'median', type: 'quantitative', ...y }, color },
      },
    ],
  });
}
