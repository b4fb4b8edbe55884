// github-action-benchmark's custom JSON (customBiggerIsBetter): an array of
// { name, unit, value, range, extra }, an entry per point and series.
import { environmentLine, seriesOf } from './series.js';
import { plural } from '../../words/spelling.js';

const digits = (/** @type {number} */ value) => Number(value.toPrecision(4));
const rangeOf = (/** @type {import('./series.js').Figure} */ { ci95 }) =>
  ci95 ? `95% CI ${digits(ci95[0])}-${digits(ci95[1])}` : 'one round: no interval';

/** @type {import('./series.js').Exporter} */
export default {
  format: 'github-action-benchmark',
  serialize: (runs) =>
    runs.flatMap(({ saved, points }) => {
      const environment = environmentLine(saved);
      return points.flatMap((point) =>
        // a file is one direction (customBiggerIsBetter): a measure where lower is better
        // (memory) would raise its alerts the wrong way, so it goes to Bencher's export only
        seriesOf(point).flatMap(([suffix, unit, , figure, better]) =>
          figure && better === 'higher'
            ? [
                {
                  name: `${point.label} ${suffix}`,
                  unit,
                  value: figure.value,
                  range: rangeOf(figure),
                  extra: `${plural(point.rounds, 'round')}; ${environment}`,
                },
              ]
            : [],
        ),
      );
    }),
};
