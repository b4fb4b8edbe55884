// The report page's charts, as Vega-Lite specifications drawn to static SVG in Node by vega's
// headless renderer: declarative specs (axes, scales, legends and layout come from the
// library), no browser and no network needed to draw them, and the page needs no script.
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { duration, ops } from '../report/table.js';
import { MODES } from '../words/modes.js';

// Okabe–Ito blue and vermilion: told apart with every common colour-vision deficiency, and
// used for workers and procs in every chart of the page.
export const MODE_COLORS = { workers: '#0072B2', procs: '#D55E00' };
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
const modeColor = pairColor(MODE_SERIES);
const ratioName = (/** @type {Series} */ series) => series.names.join('/');
const INK = '#333';

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
async function draw(spec) {
  const { spec: compiled } = compile(/** @type {any} */ ({ ...spec, config: CONFIG }));
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return {
    title: spec.title.text,
    svg: svg.replace('<svg ', `<svg role="img" aria-label="${escapeAttribute(spec.title.text)}" `),
  };
}

const escapeAttribute = (/** @type {string} */ text) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Every round's throughput of each mode as a dot, with a tick at the median: how far apart the
 * modes are against how much each varies.
 * @param {Array<{ row: string, mode: string, throughput: number }>} dots  one per round and mode
 * @param {Array<{ row: string, mode: string, median: number }>} medians
 */
export function roundsChart(
  dots,
  medians,
  { subtitle = 'one dot per round; the bar marks the median', series = MODE_SERIES } = {},
) {
  const y = { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 260 } };
  // rows that are points hold both modes, side by side; rows that are the modes need no offset
  const byMode = dots.every((dot) => dot.row === dot.mode);
  const yOffset = byMode ? {} : { yOffset: { field: 'mode', sort: series.names } };
  const color = pairColor(series);
  return draw({
    title: { text: 'Throughput in every round', subtitle },
    width: 560,
    height: { step: byMode ? 30 : 40 },
    layer: [
      {
        data: { values: dots },
        mark: { type: 'point', filled: true, size: 55, opacity: 0.65 },
        encoding: {
          x: { field: 'throughput', type: 'quantitative', title: 'ops/s (higher is faster)', axis: { format: ',.0f' } },
          y,
          ...yOffset,
          color,
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
      subtitle: 'dot: the ratio over the rounds; line: its 95% CI (none with fewer than 3 rounds)',
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
 * k on a log2 axis, ticks at the measured k only, padded so the end points are not clipped.
 * @param {Array<{ k: number }>} rows
 */
function kAxis(rows) {
  const ks = [...new Set(rows.map((row) => row.k))];
  return {
    field: 'k',
    type: 'quantitative',
    title: 'k (workers side by side)',
    scale: { type: 'log', base: 2, domain: [Math.min(...ks) / 1.25, Math.max(...ks) * 1.25], nice: false },
    axis: { values: ks, format: 'd' },
  };
}

/**
 * Median throughput of each mode against k, with the range over the rounds.
 * @param {Array<{ k: number, mode: string, median: number, min: number, max: number }>} rows
 */
export function throughputByK(rows, { group = '' } = {}) {
  const x = kAxis(rows);
  return draw({
    title: {
      text: `Throughput against k${group ? `: ${group}` : ''}`,
      subtitle: 'median over the rounds; the bar spans min to max',
    },
    width: 420,
    height: 240,
    data: { values: rows },
    layer: [
      {
        mark: { type: 'rule', opacity: 0.5 },
        encoding: { x, y: { field: 'min', type: 'quantitative' }, y2: { field: 'max' }, color: modeColor },
      },
      {
        mark: { type: 'line', point: { filled: true, size: 50 } },
        encoding: {
          x,
          y: { field: 'median', type: 'quantitative', title: 'ops/s', axis: { format: ',.0f' } },
          color: modeColor,
        },
      },
    ],
  });
}

/**
 * The workers/procs ratio against k with its 95% CI as a band, and the line of no difference.
 * @param {Array<{ k: number, median: number, low: number | null, high: number | null }>} rows
 */
export function ratioByK(rows, { group = '' } = {}) {
  const x = kAxis(rows);
  const values = rows.flatMap((row) => [row.median, row.low, row.high]).filter((v) => typeof v === 'number');
  const y = {
    type: 'quantitative',
    title: 'workers/procs',
    scale: { domain: [Math.min(1, ...values) * 0.95, Math.max(1, ...values) * 1.05], nice: false },
  };
  return draw({
    title: {
      text: `workers/procs against k${group ? `: ${group}` : ''}`,
      subtitle: 'line: the ratio; band: its 95% CI; dashed: no difference',
    },
    width: 420,
    height: 240,
    data: { values: rows },
    layer: [
      {
        transform: [{ filter: 'datum.low != null' }],
        mark: { type: 'area', color: '#999', opacity: 0.3 },
        encoding: { x, y: { field: 'low', ...y }, y2: { field: 'high' } },
      },
      {
        mark: { type: 'line', color: INK, point: { filled: true, size: 50, color: INK } },
        encoding: { x, y: { field: 'median', ...y } },
      },
      {
        data: { values: [{ one: 1 }] },
        mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
        encoding: { y: { field: 'one', ...y } },
      },
    ],
  });
}

/**
 * What the account says changes with k, beside the ratio: each mode's page faults and blocked
 * time per op against k, one panel each, the bar the 95% CI over the rounds.
 * @param {Array<{ k: number, mode: string, measure: string, mean: number, low: number | null, high: number | null }>} rows
 */
export function accountByK(rows, { group = '' } = {}) {
  const x = kAxis(rows);
  return draw({
    title: {
      text: `Page faults and blocked time against k${group ? `: ${group}` : ''}`,
      subtitle: "per op, each worker thread's own counters; mean over the rounds, the bar its 95% CI",
    },
    data: { values: rows },
    // the panels in the order the rows name their measures
    facet: {
      column: { field: 'measure', type: 'nominal', title: null, sort: [...new Set(rows.map((row) => row.measure))] },
    },
    spec: {
      width: 240,
      height: 200,
      layer: [
        {
          transform: [{ filter: 'datum.low != null' }],
          mark: { type: 'rule', opacity: 0.5 },
          encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color: modeColor },
        },
        {
          mark: { type: 'line', point: { filled: true, size: 50 } },
          encoding: { x, y: { field: 'mean', type: 'quantitative', title: null }, color: modeColor },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  });
}

/**
 * The series' colours: workers and procs as in every chart; anything else (an audited process)
 * in ink, on its own, without a legend.
 * @param {string[]} series
 */
const seriesColor = (series) =>
  series.every((one) => one in MODE_COLORS) ? { color: modeColor } : { color: { value: INK } };

/**
 * mmap_lock write waits per acquisition on the same power-of-two buckets, each as its share of
 * that series' acquisitions, so series with different counts compare by shape: both modes of a
 * traced compare overlaid, or one audited process.
 * @param {Partial<Record<string, Array<{ lowNs: number | null, count: number }>>>} histograms  by series
 */
export function waitHistogram(histograms) {
  const series = Object.keys(histograms).filter((one) => histograms[one]);
  const rows = [];
  for (const one of series) {
    const buckets = histograms[one] ?? [];
    const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
    for (const bucket of buckets)
      rows.push({
        mode: one,
        order: bucket.lowNs ?? -1,
        bucket: bucket.lowNs ? `≥ ${duration(bucket.lowNs)}` : '< 1 ns',
        share: total ? bucket.count / total : 0,
        count: bucket.count,
      });
  }
  return draw({
    title: {
      text: 'mmap_lock write waits per acquisition',
      subtitle: `log2 buckets; each bar is its share of ${series.length > 1 ? 'that mode\u2019s' : 'the'} write acquisitions${series.every((one) => one in MODE_COLORS) ? ' (all traced cells)' : ''}`,
    },
    width: 560,
    height: 240,
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      x: {
        field: 'bucket',
        type: 'ordinal',
        sort: { field: 'order' },
        title: 'wait per acquisition (bucket lower bound)',
        axis: { labelAngle: -40 },
      },
      ...(series.length > 1 ? { xOffset: { field: 'mode', sort: series } } : {}),
      y: { field: 'share', type: 'quantitative', title: 'share of write acquisitions', axis: { format: '%' } },
      ...seriesColor(series),
    },
  });
}

/**
 * Which system calls the write waits came under (the call in flight on the waiting thread), as
 * bars of total wait, longest first; beside each, its acquisitions.
 * @param {Array<{ series: string, name: string, waitNs: number, count: number }>} rows  one per series and call
 * @param {{ per: string, over: string }} options  what a bar's wait is per ("per cell", or "") and how it
 *   was taken ("the mean over the traced cells")
 */
export function syscallChart(rows, { per, over }) {
  const series = [...new Set(rows.map((row) => row.series))];
  const order = [...new Set(rows.map((row) => row.name))].sort((a, b) => total(rows, b) - total(rows, a));
  const values = rows.map((row) => ({
    ...row,
    mode: row.series,
    waitMs: row.waitNs / 1e6,
    label: `${ops(row.count)}×`,
  }));
  const y = { field: 'name', type: 'nominal', title: 'system call in flight', sort: order };
  const offset = series.length > 1 ? { yOffset: { field: 'mode', sort: series } } : {};
  return draw({
    title: {
      text: 'mmap_lock write waits by system call',
      subtitle: `${over}; the label is how many write acquisitions (none: no system call in flight)`,
    },
    width: 480,
    height: { step: series.length > 1 ? 30 : 22 },
    data: { values },
    encoding: { y, ...offset },
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          x: {
            field: 'waitMs',
            type: 'quantitative',
            title: `write wait${per ? ` ${per}` : ''} (ms)`,
            axis: { format: ',.3~f' },
          },
          ...seriesColor(series),
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 10, color: '#555' },
        encoding: { x: { field: 'waitMs', type: 'quantitative' }, text: { field: 'label' } },
      },
    ],
  });
}

const total = (/** @type {Array<{ name: string, waitNs: number }>} */ rows, /** @type {string} */ name) =>
  rows.filter((row) => row.name === name).reduce((sum, row) => sum + row.waitNs, 0);

/**
 * A forest row from ratio statistics (a results document's `ratio`, or ratioStats of per-round
 * ratios): the interval only from 3 rounds up, as the tables print it.
 * @param {string} label
 * @param {import('../stats/ratio.js').RatioStats} stats
 */
export function forestRow(label, stats) {
  const ci = stats.n >= 3 ? stats.ci95 : null;
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
