// The Bencher Metric Format: { benchmark: { measure: { value, lower_value, upper_value } } }. A
// mode's throughput is the benchmark "<point> <mode>"; the ratio is a measure of the point's own.
import { seriesOf } from './series.js';

/** @type {import('./series.js').Exporter} */
export default {
  format: 'bencher',
  serialize(runs) {
    /** @type {Record<string, Record<string, { value: number, lower_value?: number, upper_value?: number }>>} */
    const bencher = {};
    for (const point of runs.flatMap((run) => run.points)) {
      for (const [suffix, , measure, figure] of seriesOf(point)) {
        if (!figure) continue;
        // a mode's figures are measures of the benchmark "<point> <mode>"; the ratio is the point's
        const name = measure === 'workers-procs-ratio' ? point.label : `${point.label} ${suffix.split(' ')[0]}`;
        bencher[name] ??= {};
        bencher[name][measure] = {
          value: figure.value,
          ...(figure.ci95 ? { lower_value: figure.ci95[0], upper_value: figure.ci95[1] } : {}),
        };
      }
    }
    return bencher;
  },
};
