// The tables of the experiments that re-check the related sources (two Node PRs and an
// article): their tasks' own figures beside the published ones, one process each, so no
// workers / procs columns. The cell formats every reproduce table shares live here too.
import { TABLES } from '../../reference/published.js';
import { withCI } from '../../document/sentences.js';
import { duration, fixed, ops, rate, MODES } from '../../words/spelling.js';

/**
 * @typedef {import('./variant.js').Variant} Variant
 * @typedef {import('./data.js').ExperimentData} ExperimentData
 * @typedef {import('./variant.js').ExperimentTable} ExperimentTable
 * @typedef {{ writeCount: number, writeTotalNs: number, writeAvgNs: number }} PublishedLocks
 */

// the column head says "95% CI"
export const withCi = (/** @type {import('../../stats/ratio.js').RatioStats | null} */ stats) =>
  stats ? withCI(stats, '', { label: false }) : '-';
/** A published figure that is a number, else undefined (the rows are quoted data). */
export const num = (/** @type {unknown} */ value) => (typeof value === 'number' ? value : undefined);

/**
 * clog: reads and zips per second, measured and as published (counts over 5 s, per second).
 * @param {Variant[]} variants
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
export function clogTable(variants, data) {
  const perSecond = (/** @type {unknown} */ count) => {
    const value = num(count);
    return value === undefined ? '-' : ops(value / TABLES.clog.seconds);
  };
  return {
    head: ['setting', 'reads/s', 'zips/s', 'published reads/s', 'published zips/s'],
    rows: variants.map((variant) => [
      variant.label,
      rate(data.median(variant.id, 'procs')),
      rate(data.median(variant.id, 'procs', 'zipsPerSec')),
      perSecond(variant.published?.reads),
      perSecond(variant.published?.zips),
    ]),
    align: ['left', 'right', 'right', 'right', 'right'],
    widths: [34, 10, 10, 12, 12],
  };
}

/**
 * promises: both forms' rates in the same cells, their ratio, and what the fix gained there.
 * @param {Variant[]} variants
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
export function promisesTable(variants, data) {
  return {
    head: ['setting', 'promises/s', 'callbacks/s', 'promises / callbacks (95% CI)', 'published gain of the fix'],
    rows: variants.map((variant) => [
      variant.label,
      rate(data.median(variant.id, 'procs', 'promisesPerSec')),
      rate(data.median(variant.id, 'procs', 'callbacksPerSec')),
      withCi(data.withinCell(variant.id, 'procs', 'promisesPerSec', 'callbacksPerSec')),
      String(variant.published?.gain ?? '-'),
    ]),
    align: ['left', 'right', 'right', 'right', 'right'],
    widths: [26, 11, 11, 18, 14],
  };
}

/**
 * throttle: the fan-out against the queue, in the same cells: descriptors, loop delay, wall time.
 * @param {Variant[]} variants
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
export function throttleTable(variants, data) {
  const median = (
    /** @type {Variant} */ variant,
    /** @type {string} */ name,
    /** @type {(value: number) => string} */ format,
  ) => {
    const value = data.median(variant.id, 'procs', name);
    return value === null ? '-' : format(value);
  };
  const ms = (/** @type {number} */ value) => `${fixed(value, 1)} ms`;
  const rows = variants.map((variant) => [
    variant.label,
    `${median(variant, 'allPeakFds', ops)} / ${median(variant, 'limitPeakFds', ops)}`,
    `${median(variant, 'allLoopDelayMaxMs', ms)} / ${median(variant, 'limitLoopDelayMaxMs', ms)}`,
    `${median(variant, 'allWallMs', ms)} / ${median(variant, 'limitWallMs', ms)}`,
    withCi(data.withinCell(variant.id, 'procs', 'allWallMs', 'limitWallMs')),
  ]);
  const [all, queue] = TABLES.throttle.rows;
  rows.push([
    'published (one run each way)',
    `${all.fds === null ? '-' : ops(all.fds)} / -`,
    '- / -',
    `${all.seconds} s / ${queue.seconds} s`,
    fixed(all.seconds / queue.seconds, 1),
  ]);
  return {
    head: [
      'jobs',
      'peak open fds: Promise.all / p-limit',
      'worst loop delay: Promise.all / p-limit',
      'wall time: Promise.all / p-limit',
      'Promise.all / p-limit wall (95% CI)',
    ],
    rows,
    align: ['left', 'right', 'right', 'right', 'right'],
    widths: [22, 14, 16, 16, 16],
  };
}

/**
 * locks: each mode's write waits per traced cell (medians) and their ratios, beside the published run.
 * @param {Variant[]} variants
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
export function locksTable(variants, data) {
  const time = (/** @type {number | null | undefined} */ ns) => (ns === null || ns === undefined ? '-' : duration(ns));
  const rows = variants.flatMap((variant) => {
    // the locks experiment's settings carry the published run's write waits per mode
    const p = /** @type {{ workers?: PublishedLocks, procs?: PublishedLocks }} */ (variant.published ?? {});
    /**
     * @param {string} label
     * @param {(write: import('../../trace/parse.js').LockWaits) => number | null} pick
     * @param {(value: number | null | undefined) => string} format
     * @param {(locks: PublishedLocks | undefined) => number | undefined} publishedOf
     */
    const figure = (label, pick, format, publishedOf) => {
      const [w, pr] = MODES.map((mode) => data.lockMedian(variant.id, mode, pick));
      const [pw, pp] = [publishedOf(p.workers), publishedOf(p.procs)];
      return [
        `${variant.id}: ${label}`,
        `${format(w)} / ${format(pr)}`,
        withCi(data.lockRatio(variant.id, pick)),
        `${format(pw)} / ${format(pp)}`,
        pw !== undefined && pp !== undefined ? `${fixed(pw / pp, 1)}x` : '-',
      ];
    };
    return [
      figure(
        'write acquisitions',
        (w) => w.count,
        rate,
        (m) => m?.writeCount,
      ),
      figure(
        'total write wait',
        (w) => w.totalNs,
        time,
        (m) => m?.writeTotalNs,
      ),
      figure(
        'avg write wait',
        (w) => w.avgNs,
        time,
        (m) => m?.writeAvgNs,
      ),
    ];
  });
  return {
    head: [
      'per traced cell (median)',
      'workers / procs',
      'workers/procs (95% CI)',
      'published workers / procs',
      'published ratio',
    ],
    rows,
    align: ['left', 'right', 'right', 'right', 'right'],
    widths: [40, 22, 22, 26, 10],
  };
}

/** node-fix's settings: plain readFileSync, the buffer option, reuse-buffer, at two sizes. */
export const FIX_TASKS = [
  ['plain', 'readfilesync', 'readFileSync'],
  ['into', 'readfilesync-into', 'buffer option'],
  ['reuse', 'reuse-buffer', 'reuse-buffer'],
];
export const FIX_SIZES = [
  ['64k', 'med', '64 KiB'],
  ['1m', 'large', '1 MiB'],
];
/** The Node versions node-fix measured the buffer option on. */
export const fixVersions = (/** @type {import('./data.js').ExperimentData} */ d) => [
  ...new Set(d.variants.flatMap((id) => (/:into:/.test(id) ? [id.split(':')[0]] : []))),
];

/**
 * node-fix: per Node and file size, workers/procs of plain readFileSync, of the buffer option and
 * of reuse-buffer, then what the option gives workers against each of the other two.
 * @param {Variant[]} variants
 * @param {ExperimentData} data
 * @returns {ExperimentTable}
 */
export function nodeFixTable(variants, data) {
  const versions = [...new Set(variants.map((variant) => variant.id.split(':')[0]))];
  const has = (/** @type {string} */ id) => variants.some((variant) => variant.id === id);
  const rows = versions.flatMap((version) =>
    FIX_SIZES.map(([size, , sizeLabel]) => {
      const id = (/** @type {string} */ short) => `${version}:${short}:${size}`;
      const option = has(id('into'));
      const notHere = 'not on this Node';
      return [
        `Node ${version}, ${sizeLabel}`,
        withCi(data.ratio(id('plain'))),
        option ? withCi(data.ratio(id('into'))) : notHere,
        withCi(data.ratio(id('reuse'))),
        option ? withCi(data.relative(id('into'), id('plain'), 'workers')) : '-',
        option ? withCi(data.relative(id('into'), id('reuse'), 'workers')) : '-',
      ];
    }),
  );
  return {
    head: [
      'setting',
      'workers/procs: readFileSync',
      'buffer option',
      'reuse-buffer',
      'workers: option / readFileSync',
      'option / reuse-buffer',
    ],
    rows,
    align: ['left', 'right', 'right', 'right', 'right', 'right'],
    widths: [22, 15, 15, 15, 15, 15],
  };
}
