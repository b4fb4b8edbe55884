// The charts of a traced run or an audit: mmap_lock write waits per acquisition as a histogram,
// and the waits by system call.
import { duration, ops } from '../../words/spelling.js';
import { draw, INK, MODE_COLORS, modeColor } from '../../view/charts.js';

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
