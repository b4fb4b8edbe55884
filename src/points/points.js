// The one model of a measured point that every reader shares, built the same way from a run
// that has just finished and from its saved file: a setting measured in rounds, its per-round
// figures, and what its run concluded. A compare is one point, a sweep or advise run one per
// point, a reproduce run one per experiment and setting. The tables, the HTML page, diff, the
// exports, the gate and --verbose read a measure of a point with figureOf, and a cell's figure
// with valueOf: nowhere else is a measure applied to a cell.
import { ratioStats, summarize } from '../stats/ratio.js';
import { envText, pointLabel, poolKey } from './point-name.js';
import { FURTHER_MEASURES, MEASURES, THROUGHPUT } from './measures.js';

/**
 * @typedef {import('../stats/cell-summary.js').CellResult} CellResult
 * @typedef {ReturnType<typeof import('../stats/account.js').accountResults> & { words?: unknown }} Account
 *   where each mode's time per op went (words: a file saved before kept them, document/sentences.js)
 * @typedef {Partial<Record<'workers'|'procs', CellResult | null>> & {
 *   plain?: Partial<Record<'workers'|'procs', import('../stats/trees.js').PlainTree>> }} Round  a
 *   round's cells, and the plain trees beside them where it ran some
 * @typedef {import('../stats/ratio.js').Summary} Summary
 * @typedef {{ throughput: Summary, spread: Summary, releaseSkewNs: Summary,
 *   metrics?: Record<string, Summary | null>, latencyHistogram?: ModeHistogram,
 *   mainAccount?: MainAccount, mainHistogram?: ModeHistogram,
 *   trees?: import('../stats/trees.js').Trees | null,
 *   plain?: import('../stats/trees.js').PlainShare }} ModeSummary  a mode's figures over its
 *   rounds and, by its key, each measure beyond throughput (measures.js) some cell had: read it
 *   with figureOf; trees: its fresh trees' states (absent in files from before them); plain: the
 *   plain trees beside them, where the run had some
 * @typedef {{ cells: number, ops: number, bits: number,
 *   ns: import('../stats/histogram.js').Histogram }} ModeHistogram  the ops every complete cell
 *   of a mode timed, merged: how many cells and ops, the buckets' resolution (2^bits to a power
 *   of two), and [lower bound ns, count] pairs
 * @typedef {{ cells: number, cpuUs: number | null, systemUs: number | null, runqUs: number | null,
 *   minflt: number | null }} MainAccount  the app's main thread, per request served
 * @typedef {import('./measures.js').Measure} Measure
 */

/**
 * A cell's figure of a measure, or null where it has none (the measure could not be had, or
 * came out as no finite number).
 * @param {Measure} measure
 * @param {CellResult | null | undefined} cell
 */
export function valueOf(measure, cell) {
  const value = cell ? measure.of(cell) : null;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * One point of a saved run.
 * @typedef {object} Point
 * @property {string} id  the point's id in its document (`p1` for a compare)
 * @property {string} key  what must be equal for two runs' points to be compared
 * @property {string} label  its full name (pointLabel), the same in every output
 * @property {number[]} ratios  per-round workers/procs (empty for a workers or procs run)
 * @property {import('../stats/ratio.js').RatioStats | null} ratio  workers/procs over its
 *   rounds, as its run computed it; null without a complete round
 * @property {{ workers: number[], procs: number[] }} throughput  per-round ops/s of each mode
 * @property {Record<string, { workers: number[], procs: number[] }>} perRound  per-round figures
 *   of each mode, by measure (measures.js; throughput too)
 * @property {{ workers: ModeSummary | null, procs: ModeSummary | null }} summary  each mode's
 *   figures over its rounds, as its run summarized them (null: a mode it did not run, or a
 *   reproduce run's, which keeps none)
 * @property {Record<string, import('../stats/ratio.js').RatioStats>} measureRatios  each measure
 *   beyond throughput as workers/procs over the rounds, as its run computed it
 * @property {Account | null} account  where each mode's time per op went, when the run kept it
 * @property {import('../stats/phases.js').PhasesSummary | null} phases  where a round's time went
 * @property {number | null} seconds  what the point's rounds cost, where the run timed it
 * @property {Record<string, Figure>} plain  of each measure with a plain tree's figure, what
 *   the plain trees beside the cells read, where the run had them (figureOf)
 */

/**
 * @typedef {{ workers: Summary | null, procs: Summary | null,
 *   ratio: import('../stats/ratio.js').RatioStats | null, perRound: { workers: number[], procs: number[] } }} Figure
 */

/** @typedef {import('./point-name.js').Setting & { file?: { size: number } }} Setting */

/**
 * A point from its setting, its rounds, and what its run concluded.
 * @param {Setting} setting
 * @param {Round[]} rounds
 * @param {{ id: string, ratio?: Point['ratio'], account?: Account | null, phases?: Point['phases'], seconds?: number | null,
 *   summary?: Partial<Point['summary']>, measureRatios?: Point['measureRatios'] | null }} run
 * @returns {Point}
 */
export function pointOf(
  setting,
  rounds,
  { id, ratio, account = null, phases = null, seconds = null, summary = {}, measureRatios = null },
) {
  const { experiment, variant, task, file, k, env, params, node, cycles, pool } = setting;
  const perRound = Object.fromEntries(
    MEASURES.map((measure) => {
      const perMode = (/** @type {'workers'|'procs'} */ mode) =>
        rounds.flatMap((round) => {
          const value = valueOf(measure, round[mode]);
          return value === null ? [] : [value];
        });
      return [measure.key, { workers: perMode('workers'), procs: perMode('procs') }];
    }),
  );
  const plain = Object.fromEntries(MEASURES.flatMap((measure) => plainFigure(measure, rounds, summary)));
  const complete = rounds.flatMap(({ workers, procs }) => (workers && procs ? [{ workers, procs }] : []));
  const ratios = complete.map((round) => round.workers.throughput / round.procs.throughput);
  return {
    id,
    // a file by its size, so `med` and `64k` are one point
    key: JSON.stringify([
      experiment ? `${experiment}/${variant}` : task,
      file?.size ?? null,
      k,
      envText(env),
      envText(params),
      node ?? null,
      cycles ?? 1,
      // a run through a pool is another point than a raw one, or one through another pool
      poolKey(pool),
    ]),
    label: pointLabel(setting),
    ratios,
    ratio: ratio !== undefined ? ratio : ratios.length ? ratioStats(ratios) : null,
    throughput: perRound[THROUGHPUT.key],
    perRound,
    summary: { workers: summary.workers ?? null, procs: summary.procs ?? null },
    measureRatios: measureRatios ?? {},
    account,
    phases,
    seconds,
    plain,
  };
}

/**
 * A measure's figure from the plain trees beside a point's cells: each mode's summary as its run
 * saved it (document: `workers.plain`), the per-round values, and workers/procs over the rounds
 * whose two trees both read it; none without a plain tree's reading.
 * @param {Measure} measure
 * @param {Round[]} rounds
 * @param {Partial<Point['summary']>} summary
 * @returns {Array<[string, Figure]>}
 */
function plainFigure(measure, rounds, summary) {
  const read = measure.plain;
  if (!read) return [];
  const value = (/** @type {import('../stats/trees.js').PlainTree | undefined} */ tree) => {
    const figure = tree ? read(tree) : null;
    return typeof figure === 'number' && Number.isFinite(figure) ? figure : null;
  };
  const perMode = (/** @type {'workers'|'procs'} */ mode) =>
    rounds.flatMap((round) => value(round.plain?.[mode]) ?? []);
  const perRound = { workers: perMode('workers'), procs: perMode('procs') };
  if (!perRound.workers.length && !perRound.procs.length) return [];
  const ratios = rounds.flatMap((round) => {
    const [w, p] = [value(round.plain?.workers), value(round.plain?.procs)];
    return w && p ? [w / p] : [];
  });
  const saved = (/** @type {'workers'|'procs'} */ mode) =>
    /** @type {Record<string, Summary | undefined> | undefined} */ (/** @type {unknown} */ (summary[mode]?.plain))?.[
      measure.key
    ] ?? (perRound[mode].length ? summarize(perRound[mode]) : null);
  return [
    [
      measure.key,
      { workers: saved('workers'), procs: saved('procs'), ratio: ratios.length ? ratioStats(ratios) : null, perRound },
    ],
  ];
}

/** The rounds a point has: complete ones, or a one-mode run's. */
export const roundCount = (/** @type {Point} */ point) =>
  Math.max(point.ratios.length, point.throughput.workers.length, point.throughput.procs.length);

/**
 * What a point has of one measure: each mode's summary over its rounds (median, interval, as
 * its run saved them), their workers/procs ratio, and the per-round values; of a measure a plain
 * tree reads (memory per added worker), the plain trees' where the run had them, an app's
 * without mmapbench's runner in its workers.
 * @param {Measure} measure
 * @param {Point} point
 * @returns {Figure}
 */
export function figureOf(measure, point) {
  return point.plain?.[measure.key] ?? cellsFigureOf(measure, point);
}

/**
 * What a point's cells have of one measure, where a plain tree's figure stands in for it
 * (figureOf): the harness's, shown apart.
 * @param {Measure} measure
 * @param {Point} point
 * @returns {Figure}
 */
export function cellsFigureOf(measure, point) {
  const summary = (/** @type {'workers'|'procs'} */ mode) =>
    /** @type {Record<string, import('../stats/ratio.js').Summary | undefined> | null} */ (
      /** @type {unknown} */ (point.summary[mode])
    )?.[measure.key] ?? null;
  return {
    workers: summary('workers'),
    procs: summary('procs'),
    ratio: measure === THROUGHPUT ? point.ratio : (point.measureRatios[measure.key] ?? null),
    perRound: point.perRound[measure.key],
  };
}

/**
 * The measures beyond throughput that some mode of some point has: what the views add.
 * @param {Point[]} points
 */
export const furtherMeasuresOf = (points) =>
  FURTHER_MEASURES.filter((measure) =>
    points.some((point) => {
      const figure = figureOf(measure, point);
      return figure.workers || figure.procs;
    }),
  );

/**
 * The figure a view shows of a mode's summary: a pooled measure's percentile of every round's
 * timings pooled (stats/pooled.js); a measure read as a difference (what the app keeps) its mean
 * over the rounds, the figures whose difference the verdict gives (an app's glibc arenas end in
 * one of a few states, so a median of such rounds jumps from one state to the next); any
 * other's median over the rounds.
 * @param {import('../stats/ratio.js').Summary} summary
 * @param {Measure} [measure]
 */
export const centreOf = (summary, measure) =>
  summary.pooled ?? (measure?.contrast === 'difference' ? summary.mean : summary.median);

/**
 * A mode's figure of a measure as a table cell (centreOf), `-` where it has none.
 * @param {Measure} measure
 * @param {Point} point
 * @param {'workers'|'procs'} mode
 */
export const medianCell = (measure, point, mode) => {
  const figure = figureOf(measure, point)[mode];
  return figure ? measure.format(centreOf(figure, measure)) : '-';
};

/**
 * Why a measure has no figure in these rounds, where a cell said: `memory per worker: not
 * measured here: /proc hides other processes here (hidepid)`. Nothing when a figure was had, or
 * when the cells come from a version that did not measure it.
 * @param {Array<{ pilot?: true } & Partial<Record<'workers'|'procs', CellResult | null>>>} rounds
 * @returns {string[]}
 */
export function missingMeasures(rounds) {
  const cells = rounds.flatMap((round) => (round.pilot ? [] : [round.workers ?? null, round.procs ?? null]));
  return FURTHER_MEASURES.flatMap((measure) => {
    if (cells.some((cell) => valueOf(measure, cell) !== null)) return [];
    const reason = cells.map((cell) => (cell && measure.why ? measure.why(cell) : null)).find(Boolean);
    return reason ? [`${measure.name}: not measured here: ${reason}`] : [];
  });
}
