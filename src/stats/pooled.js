// A percentile of everything a run's cells timed, pooled, with an interval from resampling its
// rounds. A cell's window holds about 50 of the app's requests: its own p99 is its largest or
// second largest, and the median of those over the rounds is not the p99 an app meets over its
// life, which the requests of every round, pooled, estimate. The rounds stay the unit of
// independence: a bootstrap draws whole rounds (both modes' cells of a round together, so a ratio
// keeps its pairing) and reads the pooled percentile of each draw.
import { countOf, mergeHistograms, middleOf, percentileOf } from './histogram.js';

/** @typedef {import('./histogram.js').Histogram} Histogram */

const RESAMPLES = 2000;
// below this many rounds a percentile bootstrap's interval is too narrow to stand for one
export const POOLED_MIN_ROUNDS = 5;

/**
 * The fewest timings pooled that a percentile is read from: one beyond it at least (a p99 needs
 * 100, else it is the largest of a few, a short run's one or two timer ticks).
 * @param {number} p
 */
export const timingsFor = (p) => Math.ceil(100 / (100 - p) - 1e-9);

/** The pooled percentile of some histograms, or null where they hold too few timings for it. */
function pooledOf(/** @type {Histogram[]} */ rounds, /** @type {number} */ p, /** @type {number} */ bits) {
  const merged = mergeHistograms(rounds);
  return countOf(merged) < timingsFor(p) ? null : percentileOf(merged, p, bits);
}

/**
 * A fixed-seed generator of uniform numbers in [0, 1) (mulberry32): the same rounds give the same
 * interval every time the document is built, from the run or from its resumed file.
 * @param {number} seed
 */
function uniform(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The histograms' counts over one shared list of buckets, bucket by bucket (`columns[i][r]`: round
 * r's count in bucket i), with each round's total.
 * @param {Histogram[]} histograms
 */
function byBucket(histograms) {
  const lowers = [...new Set(histograms.flatMap((histogram) => histogram.map(([lower]) => lower)))].sort(
    (a, b) => a - b,
  );
  const index = new Map(lowers.map((lower, i) => [lower, i]));
  const columns = lowers.map(() => new Float64Array(histograms.length));
  const totals = new Float64Array(histograms.length);
  histograms.forEach((histogram, r) => {
    for (const [lower, count] of histogram) {
      columns[/** @type {number} */ (index.get(lower))][r] += count;
      totals[r] += count;
    }
  });
  return { lowers, columns, totals };
}

/**
 * Each draw's pooled percentile, per arm: `arms[a][r]` is arm a's histogram in round r. A draw
 * counts how often it took each round, and reads the percentile as percentileOf reads a
 * histogram (the smallest bucket whose cumulative count reaches the rank, at its middle), from
 * the top bucket down: a p99 lies in the top few buckets, so a draw adds up a few buckets, not
 * all of them. The document, and so its bootstrap, is rebuilt after every round.
 * @param {Histogram[][]} arms  one list per arm, each one histogram a round, rounds aligned
 * @param {number} p
 * @param {number} bits
 * @param {number} [seed]  added to the generator's seed: two draws of unrelated rounds differ
 * @returns {number[][]}  per draw, the percentile of each arm (draws where an arm timed nothing dropped)
 */
function draws(arms, p, bits, seed = 0) {
  const rounds = arms[0].length;
  const tables = arms.map(byBucket);
  const times = new Float64Array(rounds);
  const random = uniform(rounds * 7919 + p + seed);
  /** @type {(column: Float64Array) => number} */
  const drawn = (column) => {
    let sum = 0;
    for (let r = 0; r < rounds; r++) sum += times[r] * column[r];
    return sum;
  };
  /** @type {number[][]} */
  const out = [];
  for (let draw = 0; draw < RESAMPLES; draw++) {
    times.fill(0);
    for (let r = 0; r < rounds; r++) times[Math.floor(random() * rounds)]++;
    const values = tables.map(({ lowers, columns, totals }) => {
      const total = drawn(totals);
      if (!total) return null;
      const rank = Math.max(1, Math.ceil((p / 100) * total));
      // the counts above bucket i; step down while the next bucket's cumulative count still
      // reaches the rank
      let i = lowers.length - 1;
      let above = 0;
      while (i > 0) {
        const next = above + drawn(columns[i]);
        if (next > total - rank) break;
        above = next;
        i--;
      }
      return middleOf(lowers[i], bits);
    });
    if (values.every((value) => value !== null)) out.push(/** @type {number[]} */ (values));
  }
  return out;
}

/** The 2.5th and 97.5th percentiles of some values. */
function percentileInterval(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return /** @type {[number, number]} */ ([at(0.025), at(0.975)]);
}

/**
 * One arm's pooled percentile over its rounds, with a 95% percentile-bootstrap interval over the
 * rounds (null with fewer than POOLED_MIN_ROUNDS).
 * @param {Histogram[]} rounds  one histogram a round
 * @param {number} p
 * @param {number} bits
 * @returns {{ value: number, ci95: [number, number] | null } | null}  null when too little was timed
 *   for the percentile (timingsFor)
 */
export function pooledPercentile(rounds, p, bits) {
  const value = pooledOf(rounds, p, bits);
  if (value === null) return null;
  if (rounds.length < POOLED_MIN_ROUNDS) return { value, ci95: null };
  return { value, ci95: percentileInterval(draws([rounds], p, bits).map(([one]) => one)) };
}

/**
 * The ratio of two arms' pooled percentiles over paired rounds, in the shape a per-round ratio's
 * stats have (ratio.js), with a 95% percentile-bootstrap interval over the rounds, each draw
 * taking both arms' cells of a round.
 * @param {Array<[Histogram, Histogram]>} pairs  per complete round: arm A's, arm B's
 * @param {number} p
 * @param {number} bits
 * @returns {import('./ratio.js').RatioStats | null}  null when an arm timed too little for the percentile
 */
export function pooledRatioStats(pairs, p, bits) {
  const [a, b] = [0, 1].map((arm) => pairs.map((pair) => pair[arm]));
  const [top, bottom] = [a, b].map((rounds) => pooledOf(rounds, p, bits));
  if (!top || !bottom) return null;
  const ratio = top / bottom;
  const n = pairs.length;
  const perRound = pairs.flatMap(([x, y]) => {
    const [px, py] = [percentileOf(x, p, bits), percentileOf(y, p, bits)];
    return px && py ? [px / py] : [];
  });
  return {
    median: ratio,
    geomean: ratio,
    ci95: n >= POOLED_MIN_ROUNDS ? percentileInterval(draws([a, b], p, bits).map(([x, y]) => x / y)) : null,
    n,
    method: `percentile bootstrap over rounds of the pooled p${p} (${RESAMPLES} draws)`,
    samples: perRound,
    pooled: true,
  };
}

/**
 * How a pooled percentile changed between two runs of unrelated rounds (advise's candidates
 * against their baseline), new / base, in the shape changeBetween gives (ratio.js): each run's
 * rounds drawn on their own, the draws paired by number; `p` two-sided, of no change, from the
 * share of draws on either side of 1.
 * @param {Histogram[]} base  one histogram a round
 * @param {Histogram[]} next
 * @param {number} p  the percentile
 * @param {number} bits
 * @returns {{ change: number, ci95: [number, number] | null, df: null, method: string, p: number | null } | null}
 *   null when either timed nothing
 */
export function pooledChange(base, next, p, bits) {
  const [before, after] = [base, next].map((rounds) => percentileOf(mergeHistograms(rounds), p, bits));
  if (!before || !after) return null;
  const change = after / before;
  const method = `percentile bootstrap over each run's rounds of the pooled p${p}, new / base (${RESAMPLES} draws)`;
  if (Math.min(base.length, next.length) < POOLED_MIN_ROUNDS) return { change, ci95: null, df: null, method, p: null };
  const [a, b] = [draws([base], p, bits, 1), draws([next], p, bits, 2)];
  const ratios = a.slice(0, b.length).map(([x], i) => b[i][0] / x);
  const below = ratios.filter((ratio) => ratio <= 1).length / ratios.length;
  const above = ratios.filter((ratio) => ratio >= 1).length / ratios.length;
  return { change, ci95: percentileInterval(ratios), df: null, method, p: Math.min(1, 2 * Math.min(below, above)) };
}
