// A sweep's charts against k: each mode's throughput (and each other measure), the ratio, and the
// account's page faults and blocked time per op, on a log2 axis of the k measured; and the ratio
// against a numeric task parameter (a message's size), where the modes cross.
import { draw, INK, MODE_SERIES, modeColor, rangeLines } from '../../view/charts.js';
import { THROUGHPUT } from '../../points/measures.js';

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
 * The median of one measure (throughput unless told) for each mode against k, with the range
 * over the rounds.
 * @param {Array<{ k: number, mode: string, median: number, min: number, max: number }>} rows
 * @param {{ group?: string, measure?: import('../../points/measures.js').Measure }} [options]
 */
export function measureByK(rows, { group = '', measure = THROUGHPUT } = {}) {
  return rangeLines(rows, MODE_SERIES, {
    title: {
      text: `${measure.name[0].toUpperCase()}${measure.name.slice(1)} against k${group ? `: ${group}` : ''}`,
      subtitle: 'median over the rounds; the bar spans min to max',
    },
    x: kAxis(rows),
    y: { title: measure.axis.replace(/ \(.*\)$/, ''), axis: { format: `,.${measure.digits}f` } },
    width: 420,
    point: 50,
    rule: 0.5,
  });
}

/**
 * The workers/procs ratio against a numeric task parameter (the message task's --size), one line
 * for each setting of the other axes (its --shape), the 95% CI as a band, and the line of no
 * difference: where a line crosses it, the modes cross.
 * @param {Array<{ value: number, series: string, median: number, low: number | null, high: number | null }>} rows
 * @param {{ name: string, series: string }} axis  the parameter's name; what tells the lines apart
 */
export function ratioByParam(rows, { name, series }) {
  const values = [...new Set(rows.map((row) => row.value))].sort((a, b) => a - b);
  return ratioBand(rows, {
    text: `workers/procs against --${name}`,
    subtitle: 'line: the ratio; band: its 95% CI; dashed: no difference (above: threads faster)',
    x: {
      field: 'value',
      type: 'quantitative',
      title: `--${name}`,
      scale: {
        type: 'log',
        base: 2,
        domain: [values[0] / 1.25, /** @type {number} */ (values.at(-1)) * 1.25],
        nice: false,
      },
      // bytes as a user writes them: 100, 4 KiB, 1 MiB
      axis: {
        values,
        labelExpr:
          "datum.value >= 1048576 && datum.value % 1048576 == 0 ? datum.value / 1048576 + ' MiB' : datum.value >= 1024 && datum.value % 1024 == 0 ? datum.value / 1024 + ' KiB' : format(datum.value, ',')",
      },
    },
    scale: (low, high) => ({ type: 'log', domain: [low * 0.9, high * 1.1], nice: false }),
    color: { field: 'series', type: 'nominal', title: series || null },
  });
}

/**
 * The workers/procs ratio against k with its 95% CI as a band, and the line of no difference.
 * @param {Array<{ k: number, median: number, low: number | null, high: number | null }>} rows
 */
export const ratioByK = (rows, { group = '' } = {}) =>
  ratioBand(rows, {
    text: `workers/procs against k${group ? `: ${group}` : ''}`,
    subtitle: 'line: the ratio; band: its 95% CI; dashed: no difference',
    x: kAxis(rows),
    scale: (low, high) => ({ domain: [low * 0.95, high * 1.05], nice: false }),
    color: null,
  });

/**
 * The workers/procs ratio against x: a line through each row's median (one a series, where
 * `color` tells them apart), its 95% CI as a band, and the dashed line of no difference.
 * @param {Array<{ median: number, low: number | null, high: number | null }>} rows
 * @param {{ text: string, subtitle: string, x: Record<string, unknown>,
 *   scale: (low: number, high: number) => Record<string, unknown>, color: Record<string, unknown> | null }} chart
 *   scale: the y scale around the lowest and highest figure (1 among them)
 */
function ratioBand(rows, { text, subtitle, x, scale, color }) {
  const ends = rows.flatMap((row) => [row.median, row.low, row.high]).filter((v) => typeof v === 'number');
  const y = { type: 'quantitative', title: 'workers/procs', scale: scale(Math.min(1, ...ends), Math.max(1, ...ends)) };
  const band = color
    ? { mark: { type: 'area', opacity: 0.2 } }
    : { mark: { type: 'area', color: '#999', opacity: 0.3 } };
  const line = color
    ? { type: 'line', point: { filled: true, size: 50 } }
    : { type: 'line', color: INK, point: { filled: true, size: 50, color: INK } };
  const colored = color ? { color } : {};
  return draw({
    title: { text, subtitle },
    width: 420,
    height: 240,
    data: { values: rows },
    layer: [
      {
        transform: [{ filter: 'datum.low != null' }],
        ...band,
        encoding: { x, y: { field: 'low', ...y }, y2: { field: 'high' }, ...colored },
      },
      { mark: line, encoding: { x, y: { field: 'median', ...y }, ...colored } },
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
