// Op latencies as a histogram that can be saved, merged and read back: HdrHistogram's
// log-linear buckets (2^bits to a power of two: at 6 bits, the default, a bucket is at most 1/64
// of its values wide; a cell saves its histogram at 4 bits, 1/16, which is small enough to keep
// in every cell and fine enough to draw), written as [lower bound in ns, count] pairs. Node's own HdrHistogram
// (perf_hooks.createHistogram) merges with `add` but can neither be listed bucket by bucket nor
// cross a process as data, and a cell's histogram must do both: into the saved JSON, and from
// a child process over its IPC channel. Imports nothing: every measured thread loads it.

// 2^6 buckets to an octave; below 2^6 ns, one bucket per ns
const SUB_BITS = 6;
/** The resolution a cell's histogram is saved at. */
export const SAVED_BITS = 4;

/**
 * @typedef {Array<[number, number]>} Histogram  [lower bound ns, count], by lower bound,
 *   counts above 0
 */

/**
 * The lower bound of the bucket a value falls in (values under 1 ns count as 1).
 * @param {number} ns
 * @param {number} [bits]
 */
export function bucketOf(ns, bits = SUB_BITS) {
  const value = Math.max(1, Math.floor(ns));
  const octave = Math.floor(Math.log2(value));
  if (octave < bits) return value;
  const width = 2 ** (octave - bits);
  return Math.floor(value / width) * width;
}

/** The width of the bucket whose lower bound is `lower`. */
const widthOf = (/** @type {number} */ lower, bits = SUB_BITS) =>
  lower < 2 ** bits ? 1 : 2 ** (Math.floor(Math.log2(lower)) - bits);

/** The middle of the bucket whose lower bound is `lower`: the value a bucket stands for. */
export const middleOf = (/** @type {number} */ lower, bits = SUB_BITS) => lower + widthOf(lower, bits) / 2;

/**
 * @param {ArrayLike<number>} values  ns
 * @param {number} [length]  how many of `values` to count
 * @returns {Histogram}
 */
export function histogramOf(values, length = values.length) {
  const recorder = newRecorder();
  for (let i = 0; i < length; i++) count(recorder, values[i]);
  return histogramOfRecorder(recorder);
}

/**
 * An empty recorder: counts by bucket, filled by `count` as ops are timed, so that timing a
 * window's ops keeps no array of times in the measured thread and allocates nothing per op.
 * @returns {Map<number, number>}
 */
export const newRecorder = () => new Map();

/**
 * Counts one value (ns) into its bucket.
 * @param {Map<number, number>} recorder
 * @param {number} ns
 */
export function count(recorder, ns) {
  const lower = bucketOf(ns);
  recorder.set(lower, (recorder.get(lower) ?? 0) + 1);
}

/**
 * A recorder's counts as a histogram.
 * @param {Map<number, number>} recorder
 * @returns {Histogram}
 */
export const histogramOfRecorder = (recorder) => [...recorder].sort((x, y) => x[0] - y[0]);

/**
 * The same counts in wider buckets.
 * @param {Histogram} histogram
 * @param {number} bits  fewer than the histogram's
 * @returns {Histogram}
 */
export function coarsen(histogram, bits) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const [lower, count] of histogram) {
    const wider = bucketOf(lower, bits);
    counts.set(wider, (counts.get(wider) ?? 0) + count);
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

/**
 * One histogram of several: their counts added bucket by bucket.
 * @param {Histogram[]} histograms
 * @returns {Histogram}
 */
export function mergeHistograms(histograms) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const histogram of histograms)
    for (const [lower, count] of histogram) counts.set(lower, (counts.get(lower) ?? 0) + count);
  return [...counts].sort((a, b) => a[0] - b[0]);
}

/** @param {Histogram} histogram */
export const countOf = (histogram) => histogram.reduce((sum, [, count]) => sum + count, 0);

/**
 * The value at a percentile, as HdrHistogram reads it: the smallest bucket at which the
 * cumulative count reaches p% of all, given as that bucket's middle (at 6 bits, within 1/128 of
 * any value in it).
 * @param {Histogram} histogram
 * @param {number} p  0-100
 * @param {number} [bits]  the histogram's resolution
 * @returns {number | null}  null for an empty histogram
 */
export function percentileOf(histogram, p, bits = SUB_BITS) {
  const total = countOf(histogram);
  if (!total) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [lower, count] of histogram) {
    seen += count;
    if (seen >= rank) return middleOf(lower, bits);
  }
  return middleOf(histogram[histogram.length - 1][0], bits);
}
