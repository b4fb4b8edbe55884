// A mode's figures over its cells, as the results document keeps them: each measure's summary
// and its workers/procs ratio, the task's metrics, the latency and the app's requests.
import { differenceStats, ratioStats, summarize } from '../../stats/ratio.js';
import { pooledPercentile, pooledRatioStats } from '../../stats/pooled.js';
import { FURTHER_MEASURES } from '../../points/measures.js';
import { valueOf } from '../../points/points.js';
import { SAVED_BITS, countOf, mergeHistograms, percentileOf } from '../../stats/histogram.js';

/**
 * @typedef {import('../../document/document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../../document/document.js').Mode} Mode
 * @typedef {import('../../document/document.js').Environment} Environment
 * @typedef {import('../../document/document.js').AppAlone} AppAlone
 * @typedef {import('../../document/document.js').CellResult} CellResult
 * @typedef {import('../../document/document.js').ModeHistogram} ModeHistogram
 * @typedef {import('../../document/document.js').Histogram} Histogram
 * @typedef {import('../../document/document.js').Summary} Summary
 */

/**
 * Whether a round's two figures of a measure make a contrast: a difference needs both, a ratio
 * both above 0. The modes' own figures are read from those rounds alone, so the ratio agrees with
 * its columns.
 * @param {import('../../points/measures.js').Measure} measure
 * @param {number | null} w
 * @param {number | null} p
 */
const paired = (measure, w, p) => (measure.contrast === 'difference' ? w !== null && p !== null : Boolean(w && p));

/**
 * Each measure beyond throughput as a workers/procs ratio, round by round over the complete
 * rounds whose cells both have it, with its interval as the throughput ratio's; null when no
 * measure beyond throughput was had.
 * @param {import('../../stats/cell-summary.js').RoundCells[]} complete
 * @returns {Record<string, import('../../stats/ratio.js').RatioStats> | null}
 */
export function measureRatios(complete) {
  const ratios = FURTHER_MEASURES.flatMap((measure) => {
    const difference = measure.contrast === 'difference';
    const perRound = complete.flatMap(({ cells: { workers, procs } }) => {
      const [w, p] = [workers, procs].map((cell) => valueOf(measure, cell));
      if (!paired(measure, w, p)) return [];
      return difference
        ? [/** @type {number} */ (w) - /** @type {number} */ (p)]
        : [/** @type {number} */ (w) / /** @type {number} */ (p)];
    });
    if (!perRound.length) return [];
    if (measure.pooled) {
      const { histogram, percentile, bits } = measure.pooled;
      const pairs = complete.flatMap(({ cells: { workers, procs } }) => {
        const [w, p] = [workers, procs].map((cell) => (cell ? histogram(cell) : null));
        return w?.length && p?.length ? [/** @type {[Histogram, Histogram]} */ ([w, p])] : [];
      });
      const pooled = pooledRatioStats(pairs, percentile, bits);
      return pooled ? [[measure.key, pooled]] : [];
    }
    return [[measure.key, difference ? differenceStats(perRound) : ratioStats(perRound)]];
  });
  return ratios.length ? Object.fromEntries(ratios) : null;
}

/**
 * A pooled measure's figure over a mode's cells (one a round) and its interval, in the measure's
 * unit; nothing when no cell timed any.
 * @param {NonNullable<import('../../points/measures.js').Measure['pooled']>} pooled
 * @param {CellResult[]} cells
 * @returns {{ pooled?: number, pooledCi95?: [number, number] | null }}
 */
function pooledOf({ histogram, percentile, bits, scale }, cells) {
  const rounds = cells.flatMap((cell) => {
    const timed = histogram(cell);
    return timed?.length ? [timed] : [];
  });
  const read = pooledPercentile(rounds, percentile, bits);
  if (!read) return {};
  return {
    pooled: read.value * scale,
    pooledCi95: read.ci95 ? [read.ci95[0] * scale, read.ci95[1] * scale] : null,
  };
}

/**
 * Each measure beyond throughput over the cells that have it (FURTHER_MEASURES); one no cell has is left
 * out, and each cell says why it has none. Beside the other mode's cells of the same rounds
 * (`others`, a compare's), only the rounds whose two cells make its contrast count, as in its
 * ratio (measureRatios).
 * @param {CellResult[]} cells
 * @param {Array<CellResult | null | undefined> | null} [others]  the other mode's cell of each cell's round
 * @returns {Record<string, Summary>}
 */
export function measureSummaries(cells, others = null) {
  return Object.fromEntries(
    FURTHER_MEASURES.flatMap((measure) => {
      const counted = cells.filter((cell, i) => {
        const value = valueOf(measure, cell);
        return others ? paired(measure, value, valueOf(measure, others[i])) : value !== null;
      });
      const values = counted.map((cell) => /** @type {number} */ (valueOf(measure, cell)));
      if (!values.length) return [];
      // a percentile of everything timed, or none where too little was: never a cell's few
      const pooled = measure.pooled ? pooledOf(measure.pooled, counted) : {};
      if (measure.pooled && pooled.pooled === undefined) return [];
      return [[measure.key, { ...summarize(values), ...pooled }]];
    }),
  );
}

/**
 * The app alone: its requests before the workers started, over every cell that read it (a
 * pilot round's too), in both modes (the same app, before either mode's workers): the requests' times pooled into one
 * histogram, whose percentiles are read, and the median over cells of the event loop's p99.
 * A cell reads only about 50 requests alone, too few for a p99 of its own.
 * @param {CellResult[]} cells
 * @returns {AppAlone | null}
 */
export function appAlone(cells) {
  const stretches = cells.flatMap((cell) => (cell.main?.alone ? [cell.main.alone] : []));
  if (!stretches.length) return null;
  const histogram = mergeHistograms(stretches.map((stretch) => stretch.histogram));
  return {
    cells: stretches.length,
    requests: countOf(histogram),
    p50Ns: /** @type {number} */ (percentileOf(histogram, 50, SAVED_BITS)),
    p99Ns: /** @type {number} */ (percentileOf(histogram, 99, SAVED_BITS)),
    ...aloneLagOf(stretches),
    // for the page's percentile plot, as a mode's histograms are kept
    histogram: { cells: stretches.length, ops: countOf(histogram), bits: SAVED_BITS, ns: histogram },
  };
}

/**
 * The app alone's timer lag, every stretch's ticks pooled (in a run before the timer's lag was
 * kept: the median of each stretch's loop delay p99).
 * @param {import('../../stats/samples.js').MainStretch[]} stretches
 * @returns {{ lagP99Ns: number } | { loopDelayP99Ns: number } | {}}
 */
function aloneLagOf(stretches) {
  const lags = stretches.flatMap((stretch) => (stretch.lag ? [stretch.lag.histogram] : []));
  if (lags.length) return { lagP99Ns: /** @type {number} */ (percentileOf(mergeHistograms(lags), 99, SAVED_BITS)) };
  const old = stretches.flatMap((stretch) => (stretch.loopDelay ? [stretch.loopDelay.p99Ns] : []));
  return old.length ? { loopDelayP99Ns: summarize(old).median } : {};
}

/**
 * Where the app's main thread's time went while the workers ran, per request it served: its own
 * counters over the stretch (on a CPU, of that in the kernel, waiting for a CPU, page faults),
 * each the median over the cells; nothing where no cell read them.
 * @param {CellResult[]} cells
 * @returns {{ mainAccount?: MainAccount }}

 * @typedef {import('../../points/points.js').MainAccount} MainAccount
 */
export function mainAccount(cells) {
  const stretches = cells.flatMap((cell) =>
    cell.main?.during?.account && cell.main.during.requests ? [cell.main.during] : [],
  );
  if (!stretches.length) return {};
  /** @param {(account: import('../../run/thread-counters.js').WindowAccount) => number | null} of  @param {number} scale */
  const perRequest = (of, scale) => {
    const values = stretches.flatMap((stretch) => {
      const value = of(/** @type {any} */ (stretch.account));
      return value === null ? [] : [value / scale / stretch.requests];
    });
    return values.length ? summarize(values).median : null;
  };
  return {
    mainAccount: {
      cells: stretches.length,
      cpuUs: perRequest((account) => account.cpuNs, 1e3),
      // a split into user and system from /proc's 10 ms ticks means nothing over a window of
      // tenths of a second: only Node's own per-thread CPU usage (24 and later) gives one
      systemUs: perRequest((account) => (account.split === 'thread-cpu-usage' ? account.systemNs : null), 1e3),
      runqUs: perRequest((account) => account.runqNs, 1e3),
      minflt: perRequest((account) => account.minflt, 1),
    },
  };
}

/**
 * Each task metric over the cells, as medians and ranges like throughput.
 * @param {CellResult[]} cells
 * @param {Record<string, unknown>} declared
 */
export function metricSummaries(cells, declared) {
  const names = Object.keys(declared ?? {});
  if (!names.length) return {};
  return {
    metrics: Object.fromEntries(
      names.map((name) => {
        const values = cells.map((cell) => cell.metrics?.[name]).filter((v) => typeof v === 'number');
        return [name, values.length ? summarize(values) : null];
      }),
    ),
  };
}

/**
 * The ops a mode's cells timed, merged into one histogram for the distribution chart; nothing
 * where no cell timed any (a user's task, or cells saved before cells kept their histogram).
 * @param {CellResult[]} cells
 * @returns {{ latencyHistogram?: ModeHistogram }}
 */
export function latencyHistogram(cells) {
  const kept = cells.flatMap(({ latency }) => (latency && 'histogram' in latency ? [latency.histogram] : []));
  const requests = cells.flatMap(({ main }) => (main?.during?.histogram ? [main.during.histogram] : []));
  const ns = kept.length ? mergeHistograms(kept) : null;
  const main = requests.length ? mergeHistograms(requests) : null;
  return {
    ...(ns ? { latencyHistogram: { cells: kept.length, ops: countOf(ns), bits: SAVED_BITS, ns } } : {}),
    // the app's requests on the main thread while the workers ran, merged likewise
    ...(main ? { mainHistogram: { cells: requests.length, ops: countOf(main), bits: SAVED_BITS, ns: main } } : {}),
  };
}
