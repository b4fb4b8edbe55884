// Exports for the benchmark dashboards CI pipelines feed, one module per format in exporters/
// (each a `format` and a `serialize(runs)`): a new format is one file there and one line below.
// Every figure is a geometric mean over the run's rounds with its 95% interval (a t interval on
// the logs, as the ratio's), one entry per point and mode, and one for the point's ratio; what the
// app keeps, which can be below 0, is the arithmetic mean with a t interval on the values.
import { usageError } from '../errors.js';
import { meanInterval, ratioStats } from '../stats/ratio.js';
import { fileError, writeFileAtomic } from '../system/safe-fs.js';
import { figureOf, roundCount } from '../points/points.js';
import { pointsOf } from './load.js';
import { FURTHER_MEASURES } from '../points/measures.js';
import bencher from './exporters/bencher.js';
import githubActionBenchmark from './exporters/github-action-benchmark.js';

/** @type {import('./exporters/series.js').Exporter[]} */
const EXPORTERS = [githubActionBenchmark, bencher];

export { FORMATS, readExports } from './export-request.js';

/** @typedef {import('./export-request.js').Format} Format */
/** @typedef {import('./export-request.js').ExportRequest} ExportRequest */
/** @typedef {import('./exporters/series.js').Figure} Figure */

/** @param {Format} format */
const exporter = (format) =>
  /** @type {import('./exporters/series.js').Exporter} */ (EXPORTERS.find((one) => one.format === format));

/**
 * A point's figures: each mode's throughput and their ratio, over its complete rounds, and each
 * mode's other measures.
 * @param {import('./load.js').Saved} saved
 * @returns {import('./exporters/series.js').ExportedPoint[]}
 */
function exportedPoints(saved) {
  /** @returns {Figure | null} */
  const figure = (/** @type {number[]} */ samples, signed = false) => {
    if (!samples.length) return null;
    // a logarithm has nothing to say of 0 or less: a measure that may be there (a difference of
    // memory) is averaged as it is
    if (signed || samples.some((value) => value <= 0)) {
      const { mean, ci95 } = meanInterval(samples);
      return { value: mean, ci95 };
    }
    const stats = ratioStats(samples);
    return { value: stats.geomean, ci95: stats.ci95 };
  };
  return pointsOf(saved, 'export').map((point) => ({
    label: point.label,
    rounds: roundCount(point),
    workers: figure(point.throughput.workers),
    procs: figure(point.throughput.procs),
    ratio: figure(point.ratios),
    // each measure beyond throughput the run had
    measures: FURTHER_MEASURES.flatMap((measure) => {
      const summaries = figureOf(measure, point);
      const { workers, procs } = summaries.perRound;
      // a pooled measure's figure is its run's pooled percentile, with its bootstrap interval
      const of = (/** @type {'workers'|'procs'} */ mode, /** @type {number[]} */ samples) => {
        const pooled = summaries[mode]?.pooled;
        return pooled === undefined
          ? figure(samples, measure.contrast === 'difference')
          : { value: pooled, ci95: summaries[mode]?.pooledCi95 ?? null };
      };
      return workers.length || procs.length
        ? [{ measure, workers: of('workers', workers), procs: of('procs', procs) }]
        : [];
    }),
  }));
}

/**
 * The export of one saved run in `format`, as the JSON the dashboard reads.
 * @param {import('./load.js').Saved} saved
 * @param {Format} format
 */
export const exportOf = (saved, format) => exporter(format).serialize([{ saved, points: exportedPoints(saved) }]);

/**
 * Writes every requested export of the runs, each file all at once (a reader never sees half of
 * one); several runs (`report a.json b.json --export ...`) go into one file.
 * @param {import('./load.js').Saved[]} runs
 * @param {ExportRequest[]} requests
 * @returns {string[]} the files written
 */
export function writeExports(runs, requests) {
  if (!requests.length) return [];
  // one point in two runs would be two figures under one name, which a dashboard cannot tell apart
  const read = runs.map((saved) => ({ saved, points: exportedPoints(saved) }));
  /** @type {Map<string, string>} */
  const owner = new Map();
  for (const { saved, points } of read) {
    for (const { label } of points) {
      const other = owner.get(label);
      if (other !== undefined && other !== saved.path)
        throw usageError(
          `${other} and ${saved.path} both measured ${label}; export them one at a time, to separate files`,
        );
      owner.set(label, saved.path);
    }
  }
  return requests.map(({ format, file }) => {
    const data = `${JSON.stringify(exporter(format).serialize(read), null, 2)}\n`;
    try {
      writeFileAtomic(file, data);
    } catch (error) {
      throw fileError(error, file, '--export');
    }
    return file;
  });
}
