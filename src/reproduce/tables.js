// The tables of the experiments that re-check the related sources (two Node PRs and an
// article): their tasks' own figures beside the published ones, one process each, so no
// workers / procs columns. The cell formats every reproduce table shares live here too.
import { TABLES } from '../reference/published.js';
import { withCI } from '../report/sentences.js';
import { duration, fixed, ops } from '../report/table.js';

export const rate = (value) => (value === null || value === undefined ? '-' : ops(value));
// the column head says "95% CI"
export const withCi = (stats) => (stats ? withCI(stats, '', { label: false }) : '-');

/** clog: reads and zips per second, measured and as published (counts over 5 s, per second). */
export function clogTable(variants, data) {
  const perSecond = (count) => (count === undefined ? '-' : ops(count / TABLES.clog.seconds));
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

/** promises: both forms' rates in the same cells, their ratio, and what the fix gained there. */
export function promisesTable(variants, data) {
  return {
    head: ['setting', 'promises/s', 'callbacks/s', 'promises / callbacks (95% CI)', 'published gain of the fix'],
    rows: variants.map((variant) => [
      variant.label,
      rate(data.median(variant.id, 'procs', 'promisesPerSec')),
      rate(data.median(variant.id, 'procs', 'callbacksPerSec')),
      withCi(data.withinCell(variant.id, 'procs', 'promisesPerSec', 'callbacksPerSec')),
      variant.published?.gain ?? '-',
    ]),
    align: ['left', 'right', 'right', 'right', 'right'],
    widths: [26, 11, 11, 18, 14],
  };
}

/** throttle: the fan-out against the queue, in the same cells: descriptors, loop delay, wall time. */
export function throttleTable(variants, data) {
  const median = (variant, name, format) => {
    const value = data.median(variant.id, 'procs', name);
    return value === null ? '-' : format(value);
  };
  const ms = (value) => `${fixed(value, 1)} ms`;
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
    `${ops(all.fds)} / -`,
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

/** locks: each mode's write waits per traced cell (medians) and their ratios, beside the published run. */
export function locksTable(variants, data) {
  const time = (ns) => (ns === null || ns === undefined ? '-' : duration(ns));
  const rows = variants.flatMap((variant) => {
    const p = variant.published ?? {};
    const figure = (label, pick, format, publishedOf) => {
      const [w, pr] = ['workers', 'procs'].map((mode) => data.lockMedian(variant.id, mode, pick));
      return [
        `${variant.id}: ${label}`,
        `${format(w)} / ${format(pr)}`,
        withCi(data.lockRatio(variant.id, pick)),
        `${format(publishedOf(p.workers))} / ${format(publishedOf(p.procs))}`,
        p.workers ? `${fixed(publishedOf(p.workers) / publishedOf(p.procs), 1)}x` : '-',
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
