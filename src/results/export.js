// Exports for the benchmark dashboards CI pipelines feed, one module per format in exporters/
// (each a `format` and a `serialize(runs)`): a new format is one file there and one line below.
// Every figure is a geometric mean over the run's rounds with its 95% interval (a t interval on
// the logs, as the ratio's), one entry per point and mode, and one for the point's ratio.
import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../errors.js';
import { ratioStats } from '../stats/ratio.js';
import { fileError, writeFileAtomic } from '../system/safe-fs.js';
import { pointsOf, roundCount } from './points.js';
import { FURTHER_MEASURES } from '../report/measures.js';
import bencher from './exporters/bencher.js';
import githubActionBenchmark from './exporters/github-action-benchmark.js';

/** @type {import('./exporters/series.js').Exporter[]} */
const EXPORTERS = [githubActionBenchmark, bencher];

export const FORMATS = EXPORTERS.map((one) => one.format);

/** @typedef {string} Format  one of FORMATS, checked by readExports */
/** @typedef {{ format: Format, file: string }} ExportRequest */
/** @typedef {import('./exporters/series.js').Figure} Figure */

/** @param {Format} format */
const exporter = (format) =>
  /** @type {import('./exporters/series.js').Exporter} */ (EXPORTERS.find((one) => one.format === format));

/**
 * `--export FORMAT=FILE`, checked before anything is measured: a known format, and a file whose
 * folder exists and which is not itself a folder.
 * @param {string[]} values  as typed, in order
 * @returns {ExportRequest[]}
 */
export function readExports(values) {
  return values.map((typed) => {
    const at = typed.indexOf('=');
    const format = at > 0 ? typed.slice(0, at) : '';
    const file = at > 0 ? typed.slice(at + 1) : '';
    if (!file) throw usageError(`--export ${typed} is invalid: it must be FORMAT=FILE, such as bencher=bench.json`);
    if (!FORMATS.includes(format))
      throw usageError(`--export ${typed}: unknown format '${format}'; it must be one of ${FORMATS.join(', ')}`);
    const folder = dirname(file);
    let folderStats;
    try {
      folderStats = statSync(folder);
    } catch {
      throw usageError(`--export ${typed}: the folder ${folder} does not exist; create it or export elsewhere`);
    }
    if (!folderStats.isDirectory())
      throw usageError(`--export ${typed}: ${folder} is not a folder; export into a folder`);
    let fileStats = null;
    try {
      fileStats = lstatSync(file);
    } catch {
      // not there yet: written at the end
    }
    if (fileStats?.isDirectory()) throw usageError(`--export ${typed}: ${file} is a folder; name a file in it`);
    return { format: /** @type {Format} */ (format), file };
  });
}

/**
 * A point's figures: each mode's throughput and their ratio, over its complete rounds, and each
 * mode's other measures.
 * @param {import('./load.js').Saved} saved
 * @returns {import('./exporters/series.js').ExportedPoint[]}
 */
export function exportedPoints(saved) {
  /** @returns {Figure | null} */
  const figure = (/** @type {number[]} */ samples) => {
    if (!samples.length) return null;
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
      const { workers, procs } = point.measures[measure.key];
      return workers.length || procs.length ? [{ measure, workers: figure(workers), procs: figure(procs) }] : [];
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
