// The figures the report page's charts draw, read from a results document: each mode's parts
// of its time per op, a measure's dots per round, each cell's throughput beside a figure of its
// account, the account's lines against k, and fresh workers' rate over their first ops.
import { mean, median } from 'simple-statistics';
import { lineOf } from '../document/account-text.js';
import { valueOf } from '../points/points.js';
import { MODES, percentText } from '../words/spelling.js';

/** @typedef {NonNullable<import('../document/document.js').ResultsDocument['account']>} Account */

/**
 * A mode's time lines from the account: the parts of its wall time per op.
 * @param {Account} account
 * @param {'workers'|'procs'} mode
 */
export const partsOf = (account, mode) =>
  Object.fromEntries(
    account.lines
      .filter(({ key }) => ['userNs', 'systemNs', 'cpuNs', 'runqNs', 'blockedNs'].includes(key))
      .filter(({ key }) => (account.split === null ? key !== 'userNs' && key !== 'systemNs' : key !== 'cpuNs'))
      .map(({ key, modes }) => [key, modes[mode]?.mean ?? null]),
  );

// the chart's own title says what it is; the SVG carries it as its accessible name too

/**
 * One measure's figure in every round that counts (a pilot ran other work), a dot per mode.
 * @param {import('../document/document.js').SavedRound[]} rounds
 * @param {Array<{ mode: 'workers'|'procs', row: string, name: string }>} modes  each mode's row
 *   and the name its dots are coloured by
 * @param {import('../points/measures.js').Measure} measure
 */
export const roundDots = (rounds, modes, measure) =>
  rounds.flatMap((round) =>
    round.pilot
      ? []
      : modes.flatMap(({ mode, row, name }) => {
          const value = valueOf(measure, round[mode]);
          return value === null ? [] : [{ row, mode: name, [measure.key]: value }];
        }),
  );

/**
 * Each counted cell's throughput and one figure of its account per op, a dot per cell.
 * @param {import('../document/document.js').SavedRound[]} rounds
 * @param {Array<'workers'|'procs'>} modes
 * @param {'minflt'} key
 */
export const perCellFigure = (rounds, modes, key) =>
  rounds.flatMap((round) =>
    round.pilot
      ? []
      : modes.flatMap((mode) => {
          const account = round[mode]?.account;
          const value = account?.[key];
          return account && typeof value === 'number' && account.ops > 0
            ? [
                {
                  mode,
                  throughput: /** @type {{ throughput: number }} */ (round[mode]).throughput,
                  figure: value / account.ops,
                },
              ]
            : [];
        }),
  );

/**
 * What each mode's spread goes with, for the chart's subtitle: `workers: 80% of the spread goes
 * with page faults per op`.
 * @param {NonNullable<import('../document/document.js').ResultsDocument['spread']>} spread
 */
export const spreadWords = (spread) =>
  MODES.flatMap((mode) => {
    const faults = spread[mode]?.figures.find((figure) => figure.key === 'minflt');
    return faults ? [`${mode}: ${percentText(faults.share)} of the spread goes with page faults per op`] : [];
  }).join('; ') || 'no mode had enough cells to say what its spread goes with';

/** The account's lines the k chart draws beside the ratio, and how it names them. */
const BY_K = /** @type {const} */ ([
  ['minflt', 'page faults per op', 1],
  ['blockedNs', 'blocked µs per op', 1e-3],
]);

/**
 * A sweep point's page faults and blocked time per op, each mode, for the k chart.
 * @param {number} k
 * @param {Account} account
 */
export const byK = (k, account) =>
  BY_K.flatMap(([key, measure, scale]) => {
    const line = lineOf(account, key);
    return MODES.flatMap((mode) => {
      const stats = line?.modes[mode];
      if (!stats) return [];
      const [low, high] = stats.ci95 ?? [null, null];
      return [
        {
          k,
          mode,
          measure,
          mean: stats.mean * scale,
          low: low === null ? null : Math.max(0, low * scale),
          high: high === null ? null : high * scale,
        },
      ];
    });
  });

/**
 * The rows of rampChart: for each mode and warmup batch, the batch's end (ms) and its rate a
 * worker, the mean over a cell's workers, then the median (and least and most) over the
 * complete rounds' cells; a batch only while at least half the cells reached it.
 * @param {Array<Partial<Record<'workers'|'procs', any>> & { complete?: boolean }>} rounds
 * @param {Array<'workers'|'procs'>} modes
 * @param {(mode: 'workers'|'procs') => string} arm  how the chart names a mode
 */
export function rampRows(rounds, modes, arm) {
  return modes.flatMap((mode) => {
    /** @type {Array<Array<{ ms: number, rate: number }>>} */
    const cells = rounds.flatMap((round) => {
      /** @type {import('../stats/samples.js').Ramp[]} */
      const ramps = (round.complete === false ? [] : (round[mode]?.workers ?? [])).flatMap(
        (/** @type {any} */ worker) => (worker.warmup?.ramp?.atUs?.length ? [worker.warmup.ramp] : []),
      );
      if (!ramps.length) return [];
      const batches = Math.min(...ramps.map((ramp) => ramp.atUs.length));
      return [
        Array.from({ length: batches }, (_, i) => {
          /** @type {Array<{ ms: number, rate: number }>} */
          const each = ramps.map((ramp) => ({
            ms: ramp.atUs[i] / 1e3,
            rate: (ramp.batch * 1e6) / Math.max(ramp.atUs[i] - (i ? ramp.atUs[i - 1] : 0), 1),
          }));
          return { ms: mean(each.map((one) => one.ms)), rate: mean(each.map((one) => one.rate)) };
        }),
      ];
    });
    const rows = [];
    for (let i = 0; cells.filter((cell) => cell.length > i).length * 2 >= cells.length && cells.length; i++) {
      const at = cells.flatMap((cell) => (cell[i] ? [cell[i]] : []));
      const rates = at.map((one) => one.rate);
      rows.push({
        mode: arm(mode),
        ms: median(at.map((one) => one.ms)),
        median: median(rates),
        min: Math.min(...rates),
        max: Math.max(...rates),
      });
    }
    return rows;
  });
}
