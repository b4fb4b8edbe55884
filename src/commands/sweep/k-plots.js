// A sweep's terminal charts against k, drawn by simple-ascii-chart: each mode's throughput and
// the ratio with its interval (the page draws its own, charts.js).
import { plot } from 'simple-ascii-chart';
import { fixed } from '../../words/spelling.js';
import { varying } from './columns.js';

/**
 * @typedef {import('./document.js').SweepDocument} SweepDocument
 * @typedef {import('./document.js').SavedPoint} SavedPoint
 * @typedef {SweepDocument['scaling'][number]} ScalingGroup
 */

/**
 * What the other axes are set to in a group of points that differ only in k.
 * @param {ScalingGroup} group
 * @param {SweepDocument} document
 */
export function groupName(group, document) {
  const first = document.points.find((point) => point.id === group.points[0]);
  const columns = varying(document.axes).filter((column) => column.head !== 'k');
  return first && columns.length ? columns.map((column) => `${column.head} ${column.cell(first)}`).join(', ') : '';
}

/**
 * Throughput against k for both modes, and the ratio with its interval: terminal charts drawn
 * by simple-ascii-chart, k evenly spaced (1, 2, 4, 8 are steps, not distances).
 * @param {ScalingGroup} group
 * @param {SweepDocument} document
 * @param {number} width
 */
export function charts(group, document, width) {
  const name = groupName(group, document);
  const ks = group.workers.steps.map((step) => step.k);
  if (ks.length < 2) return [];
  const plotWidth = Math.max(20, Math.min(60, width - 16));
  const xTicks = ks.map((_, i) => i);
  const format = (/** @type {number} */ y) =>
    y >= 1e6 ? `${fixed(y / 1e6, 1)}M` : y >= 1e3 ? `${Math.round(y / 1e3)}k` : String(Math.round(y));
  const axis =
    (/** @type {(y: number) => string} */ formatY) =>
    (/** @type {number} */ value, /** @type {{ axis: 'x' | 'y' }} */ { axis: which }) =>
      which === 'x' ? String(ks[Math.round(value)] ?? '') : formatY(value);
  const workers = group.workers.steps.map((step, i) => /** @type {[number, number]} */ ([i, step.throughput]));
  const procs = group.procs.steps.map((step, i) => ({ x: i, y: step.throughput }));
  const all = [...workers.map(([, y]) => y), ...procs.map(({ y }) => y)];
  const throughput = plot([workers], {
    width: plotWidth,
    height: 10,
    title: `ops/s against k${name ? ` (${name})` : ''}`,
    mode: 'point',
    lineFormatter: ({ plotX, plotY }) => ({ x: plotX, y: plotY, symbol: 'W' }),
    points: procs,
    symbols: { point: 'P' },
    // from just below the lowest: the axis is labelled, and from 0 a 10% difference is one row
    yRange: [Math.min(...all) * 0.95, Math.max(...all) * 1.05],
    customYAxisTicks: [Math.min(...all), Math.max(...all)],
    customXAxisTicks: xTicks,
    formatter: axis(format),
    xLabel: 'k     W workers, P procs (P drawn over W where they meet)',
  });
  const ratio = ratioChart(group, document, {
    title: `workers/procs against k${name ? ` (${name})` : ''}`,
    ks,
    plotWidth,
    axis,
  });
  return [throughput, ratio];
}

/**
 * The ratio against k: each point's interval ends, its centre drawn over them.
 * @param {ScalingGroup} group
 * @param {SweepDocument} document
 * @param {{ title: string, ks: number[], plotWidth: number,
 *   axis: (formatY: (y: number) => string) => (value: number, options: { axis: 'x' | 'y' }) => string }} how
 */
function ratioChart(group, document, { title, ks, plotWidth, axis }) {
  const ratioSteps = document.points
    .flatMap(({ id, k, ratio }) => (group.points.includes(id) && ratio ? [{ k, ratio }] : []))
    .sort((a, b) => a.k - b.k);
  // beside its interval ends, the interval's centre (see withCI)
  const centre = (/** @type {NonNullable<SavedPoint['ratio']>} */ ratio) =>
    ratio.ci95 && ratio.n >= 3 ? ratio.geomean : ratio.median;
  const medians = ratioSteps.map((point) => ({ x: ks.indexOf(point.k), y: centre(point.ratio) }));
  const ends = ratioSteps.flatMap((point) =>
    point.ratio.ci95 && point.ratio.n >= 3
      ? point.ratio.ci95.map((y) => /** @type {[number, number]} */ ([ks.indexOf(point.k), y]))
      : [],
  );
  const ys = [1, ...medians.map(({ y }) => y), ...ends.map(([, y]) => y)];
  const low = Math.min(...ys);
  const high = Math.max(...ys);
  const pad = (high - low) * 0.1 || 0.1;
  // the interval's ends are the series and the medians are drawn over them, so a median is never hidden
  const ratio = plot([ends.length ? ends : medians.map(({ x, y }) => /** @type {[number, number]} */ ([x, y]))], {
    width: plotWidth,
    height: 10,
    title,
    mode: 'point',
    lineFormatter: ({ plotX, plotY }) => ({ x: plotX, y: plotY, symbol: ends.length ? '-' : '●' }),
    points: ends.length ? medians : [],
    symbols: { point: '●' },
    yRange: [Math.max(0, low - pad), high + pad],
    customXAxisTicks: ks.map((_, i) => i),
    customYAxisTicks: [low, 1, high].filter((y, i, list) => list.indexOf(y) === i),
    formatter: axis((y) => fixed(y)),
    xLabel: `k   ● median, - its 95% CI${ends.length ? '' : ' (none: under 3 rounds)'}; 1 = as fast`,
  });
  return ratio;
}
