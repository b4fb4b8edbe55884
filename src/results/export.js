// Exports for the benchmark dashboards CI pipelines feed: github-action-benchmark's custom JSON
// (customBiggerIsBetter: an array of { name, unit, value, range, extra }) and the Bencher Metric
// Format ({ benchmark: { measure: { value, lower_value, upper_value } } }). Every figure is a
// geometric mean over the run's rounds with its 95% interval (a t interval on the logs, as the
// ratio's), one entry per point and mode, and one for the point's workers/procs ratio.
import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../errors.js';
import { ratioStats } from '../stats/ratio.js';
import { fileError, writeFileAtomic } from '../system/safe-fs.js';
import { pointsOf, roundCount } from './diff.js';
import { factsOf } from './load.js';

export const FORMATS = /** @type {const} */ (['github-action-benchmark', 'bencher']);

/** @typedef {typeof FORMATS[number]} Format */
/** @typedef {{ format: Format, file: string }} ExportRequest */
/** @typedef {{ value: number, ci95: [number, number] | null }} Figure */

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
    if (!(/** @type {readonly string[]} */ (FORMATS).includes(format)))
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
 * A point's figures: each mode's throughput and their ratio, over its complete rounds.
 * @param {import('./load.js').Saved} saved
 * @returns {Array<{ label: string, rounds: number, workers: Figure | null, procs: Figure | null, ratio: Figure | null }>}
 */
export function exportedPoints(saved) {
  if (saved.kind === 'audit')
    throw usageError(
      `${saved.path} is an audit (trace --pid or trace -- COMMAND): it has no rounds to export; export compare, sweep or reproduce results`,
    );
  /** @returns {Figure | null} */
  const figure = (/** @type {number[]} */ samples) => {
    if (!samples.length) return null;
    const stats = ratioStats(samples);
    return { value: stats.geomean, ci95: stats.ci95 };
  };
  return pointsOf(saved).map((point) => ({
    label: point.label,
    rounds: roundCount(point),
    workers: figure(point.throughput.workers),
    procs: figure(point.throughput.procs),
    ratio: figure(point.ratios),
  }));
}

/** The run's machine and Node in one line, for a dashboard's `extra`. */
const environmentLine = (/** @type {import('./load.js').Saved} */ saved) => {
  const facts = factsOf(saved);
  return [
    `Node ${facts.Node}`,
    `kernel ${facts.kernel}`,
    `glibc ${facts.glibc}`,
    `${facts.CPU} (${facts.cores})`,
    `THP ${facts.THP}`,
    facts['allocator env'] === 'none' ? null : facts['allocator env'],
    facts.protocol === 'steady' ? null : `protocol ${facts.protocol}`,
    facts['--quick'] === 'no' ? null : '--quick: not a measurement',
  ]
    .filter(Boolean)
    .join('; ');
};

const digits = (/** @type {number} */ value) => Number(value.toPrecision(4));
const rangeOf = (/** @type {Figure} */ { ci95 }) =>
  ci95 ? `95% CI ${digits(ci95[0])}-${digits(ci95[1])}` : 'one round: no interval';

/**
 * The export of one saved run in `format`, as the JSON the dashboard reads.
 * @param {import('./load.js').Saved} saved
 * @param {Format} format
 * @param {ReturnType<typeof exportedPoints>} [points]  its points, when already read
 */
export function exportOf(saved, format, points = exportedPoints(saved)) {
  /**
   * A point's series: name suffix, unit, Bencher measure, figure.
   * @param {ReturnType<typeof exportedPoints>[number]} point
   * @returns {Array<[string, string, string, Figure | null]>}
   */
  const series = (point) => [
    ['workers', 'ops/s', 'throughput', point.workers],
    ['procs', 'ops/s', 'throughput', point.procs],
    ['workers/procs', 'ratio', 'workers-procs-ratio', point.ratio],
  ];
  if (format === 'github-action-benchmark') {
    const environment = environmentLine(saved);
    return points.flatMap((point) =>
      series(point).flatMap(([suffix, unit, , figure]) =>
        figure
          ? [
              {
                name: `${point.label} ${suffix}`,
                unit,
                value: figure.value,
                range: rangeOf(figure),
                extra: `${point.rounds} round${point.rounds === 1 ? '' : 's'}; ${environment}`,
              },
            ]
          : [],
      ),
    );
  }
  /** @type {Record<string, Record<string, { value: number, lower_value?: number, upper_value?: number }>>} */
  const bencher = {};
  for (const point of points) {
    for (const [suffix, , measure, figure] of series(point)) {
      if (!figure) continue;
      // a mode's throughput is the benchmark "<point> <mode>"; the ratio is the point's own
      const name = measure === 'throughput' ? `${point.label} ${suffix}` : point.label;
      bencher[name] ??= {};
      bencher[name][measure] = {
        value: figure.value,
        ...(figure.ci95 ? { lower_value: figure.ci95[0], upper_value: figure.ci95[1] } : {}),
      };
    }
  }
  return bencher;
}

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
    const parts = read.map(({ saved, points }) => exportOf(saved, format, points));
    const merged = format === 'bencher' ? Object.assign({}, ...parts) : parts.flat();
    const data = `${JSON.stringify(merged, null, 2)}\n`;
    try {
      writeFileAtomic(file, data);
    } catch (error) {
      throw fileError(error, file, '--export');
    }
    return file;
  });
}
