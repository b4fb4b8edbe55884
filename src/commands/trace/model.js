import { formatCI, withCI } from '../../document/sentences.js';
import { sideOf } from '../../stats/ratio.js';
import { syscallMeaning } from '../../trace/syscalls.js';
import { duration, fixed, ops, percentText } from '../../words/spelling.js';

/**
 * @typedef {import('../../document/document.js').TraceSection} TraceSection
 * @typedef {'workers'|'procs'} Mode
 * @typedef {NonNullable<TraceSection['modes']['workers']>} ModeTrace
 * @typedef {import('../../trace/parse.js').Bucket} Bucket
 */

const BAR_WIDTH = 24;
/** @type {Record<TraceSection['window'], string>} */
const WINDOWS = {
  timed:
    'from the barrier release until the cell processes exited (not startup or warmup; --trace-window cell includes them)',
  cell: 'each cell whole: process and thread startup, warmup, the timed loops and exit (--trace-window cell)',
};

/**
 * The kernel evidence as a report model: the wait figures per traced cell beside the published
 * ones, the write-wait histogram drawn as bars, writes per process, and traced vs untraced
 * throughput.
 * @param {import('../../document/document.js').ResultsDocument & { trace: TraceSection }} document
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function traceModel(document) {
  const { trace } = document;
  const modes = /** @type {Mode[]} */ (Object.keys(trace.modes)).filter((mode) => trace.modes[mode]);
  const compare = modes.length === 2 && trace.ratios;
  const cells = modes.map((mode) => `${mode} ${modeOf(trace, mode).cells}`).join(', ');
  const title = `mmap_lock waits (bpftrace ${trace.bpftrace.version}, ${trace.script}): per traced cell, median over cells (${cells})`;
  const lines = [`traced: ${WINDOWS[trace.window]}`];
  if (!modes.length) return { title, lines, tables: [], notes: ['no traced cell finished'] };

  const tables = [
    waitsTable(trace, modes, compare),
    ...syscallTables(trace, modes),
    histogramTable(trace, modes),
    processTable(trace, modes),
    observerTable(trace, modes),
  ];
  const notes = [];
  if (trace.ratios && compare) notes.push(traceReading(trace.ratios));
  for (const mode of modes) {
    const line = syscallReading(mode, modeOf(trace, mode).bySyscall?.write ?? []);
    if (line) notes.push(line);
  }
  const shares = timeShareReading(trace, modes, document.ratio);
  if (shares) notes.push(shares);
  const main = mainThreadReading(trace, modes);
  if (main) notes.push(main);
  notes.push(
    `published: ${trace.published.source}; their machine, their k, their run length: compare ratios, not counts`,
  );
  return { title, lines, tables, notes };
}

/**
 * The app's main thread's share of the waits, apart from the workers' (by thread id): what the
 * workers' lock cost the app itself. Null where no mode counted it.
 * @param {TraceSection} trace
 * @param {Mode[]} modes
 */
function mainThreadReading(trace, modes) {
  const parts = modes.flatMap((mode) => {
    const main = modeOf(trace, mode).mainThread;
    if (!main) return [];
    return [
      `${mode} ${ops(main.writes)} write${main.writes === 1 ? '' : 's'} waiting ${duration(main.writeNs)}, ${ops(main.reads)} read${main.reads === 1 ? '' : 's'} waiting ${duration(main.readNs)}`,
    ];
  });
  return parts.length
    ? `the app's main thread (the parent's, by thread id), per traced cell: ${parts.join('; ')}; the workers' are the rest of the waits above`
    : null;
}

/**
 * A mode's traced cells, combined; only modes that have them are listed.
 * @param {Pick<TraceSection, 'modes'>} trace
 * @param {Mode} mode
 * @returns {ModeTrace}
 */
function modeOf(trace, mode) {
  const found = trace.modes[mode];
  if (!found) throw new Error(`trace-model: no traced ${mode} cells`);
  return found;
}

/**
 * @param {TraceSection} trace
 * @param {Mode[]} modes
 * @param {unknown} compare
 */
function waitsTable(trace, modes, compare) {
  const m = (/** @type {Mode} */ mode) => modeOf(trace, mode);
  /** @typedef {(mode: Mode) => string} Cell */
  const { published } = trace;
  /** @type {Array<[string, Cell, string | (() => string), string]>} */
  const rows = [
    [
      'write acquisitions',
      (mode) => ops(m(mode).write.count),
      plainRatio((mode) => m(mode).write.count),
      `${ops(published.workers.writeCount)} / ${ops(published.procs.writeCount)}`,
    ],
    [
      'total write wait',
      (mode) => duration(m(mode).write.totalNs),
      ciRatio(trace.ratios?.totalWrite),
      `${duration(published.workers.writeTotalNs)} / ${duration(published.procs.writeTotalNs)}, ${published.ratios.totalWrite.text}`,
    ],
    [
      'avg write wait',
      (mode) => maybe(m(mode).write.avgNs, duration),
      ciRatio(trace.ratios?.avgWrite),
      `${duration(published.workers.writeAvgNs)} / ${duration(published.procs.writeAvgNs)}, ${published.ratios.avgWrite.text}`,
    ],
    [
      'max write wait',
      (mode) => maybe(m(mode).write.maxNs, duration),
      '',
      `${published.workers.writeMax} / ${published.procs.writeMax}`,
    ],
    ['write lock held (total)', (mode) => duration(m(mode).writeHoldNs), plainRatio((mode) => m(mode).writeHoldNs), ''],
    ['read acquisitions', (mode) => ops(m(mode).read.count), plainRatio((mode) => m(mode).read.count), ''],
    ['total read wait', (mode) => duration(m(mode).read.totalNs), plainRatio((mode) => m(mode).read.totalNs), ''],
    ['avg read wait', (mode) => maybe(m(mode).read.avgNs, duration), plainRatio((mode) => m(mode).read.avgNs), ''],
    [
      'total wait, write + read',
      (mode) => duration(m(mode).write.totalNs + m(mode).read.totalNs),
      plainRatio((mode) => m(mode).write.totalNs + m(mode).read.totalNs),
      '',
    ],
    ['failed trylocks', (mode) => ops(m(mode).trylockFailed), '', ''],
  ];
  const head = ['per cell', ...modes];
  if (compare) head.push('workers/procs', 'published workers / procs (k=8)');
  return {
    head,
    rows: rows.map(([label, value, ratio, reference]) => {
      const row = [label, ...modes.map(value)];
      if (compare) row.push(typeof ratio === 'function' ? ratio() : ratio, reference);
      return row;
    }),
  };
}

/**
 * @param {number | null | undefined} value
 * @param {(value: number) => string} format
 */
const maybe = (value, format) => (value === null || value === undefined ? '-' : format(value));

/** @param {(mode: Mode) => number | null} pick */
const plainRatio = (pick) => () => {
  const [w, p] = [pick('workers'), pick('procs')];
  return w !== null && p ? `${fixed(w / p)}x` : '-';
};

const ciRatio = (/** @type {import('../../stats/ratio.js').RatioStats | null | undefined} */ stats) =>
  stats ? withCI(stats, 'x') : '-';

/**
 * Write and read acquisitions by the system call in flight, per cell (the sums over all traced
 * cells divided by their number, so every column adds up to the totals above), with the
 * workers/procs ratio where both modes have counts.
 * @param {TraceSection} trace
 * @param {Mode[]} modes
 */
function syscallTables(trace, modes) {
  // traced before the breakdown existed
  if (!modes.every((mode) => modeOf(trace, mode).bySyscall)) return [];
  return /** @type {const} */ (['write', 'read']).map((kind) => {
    const rowsOf = (/** @type {Mode} */ mode) => modeOf(trace, mode).bySyscall?.[kind] ?? [];
    const names = [...new Set(modes.flatMap((mode) => rowsOf(mode).map((row) => row.name)))];
    // a call's sum over the traced cells, per cell; null where the mode never made it
    const perCell = (/** @type {Mode} */ mode, /** @type {string} */ name, /** @type {'count'|'totalNs'} */ field) => {
      const found = rowsOf(mode).find((row) => row.name === name);
      return found ? found[field] / modeOf(trace, mode).cells : null;
    };
    const rows = names.map((name) => {
      const row = [name];
      for (const mode of modes) {
        const [count, wait] = [perCell(mode, name, 'count'), perCell(mode, name, 'totalNs')];
        row.push(count === null ? '-' : ops(count), wait === null ? '-' : duration(wait));
      }
      if (modes.length === 2) {
        const [w, p] = modes.map((mode) => perCell(mode, name, 'count'));
        row.push(w && p ? `${fixed(w / p)}x` : '-');
      }
      return row;
    });
    const head = [
      `${kind}s by syscall in flight (mean per cell)`,
      ...modes.flatMap((mode) => [mode, 'wait']),
      ...(modes.length === 2 ? ['w/p'] : []),
    ];
    return { head, rows, align: ['left', ...head.slice(1).map(() => 'right')] };
  });
}

/**
 * Both modes' write-wait histograms on one set of power-of-two buckets, bars scaled per mode.
 * @param {{ modes: Partial<Record<string, { write: { histogram: Bucket[] } } | null>> }} trace
 * @param {string[]} modes  ones the trace has
 */
export function histogramTable(trace, modes, { suffix = ' (all cells)' } = {}) {
  const histogramOf = (/** @type {string} */ mode) => trace.modes[mode]?.write.histogram ?? [];
  /** @type {Set<number>} */
  const lows = new Set();
  for (const mode of modes) for (const bucket of histogramOf(mode)) lows.add(bucket.lowNs ?? -Infinity);
  const sorted = [...lows].sort((a, b) => a - b);
  const byMode = Object.fromEntries(
    modes.map((mode) => {
      const buckets = new Map(histogramOf(mode).map((b) => [b.lowNs ?? -Infinity, b]));
      const peak = Math.max(1, ...histogramOf(mode).map((b) => b.count));
      return [mode, { buckets, peak }];
    }),
  );
  const rows = sorted.map((low) => {
    const any = modes.map((mode) => byMode[mode].buckets.get(low)).find(Boolean);
    const row = [any ? bucketLabel(any) : String(low)]; // every low came from some mode's bucket
    for (const mode of modes) {
      const count = byMode[mode].buckets.get(low)?.count ?? 0;
      // two modes' bars side by side get half the width each, so the table fits 80 columns
      row.push(ops(count), bar(count, byMode[mode].peak, BAR_WIDTH / modes.length));
    }
    return row;
  });
  return {
    head: [`write wait${suffix}`, ...modes.flatMap((mode) => [mode, ''])],
    rows,
    align: ['left', ...modes.flatMap(() => ['right', 'left'])],
  };
}

const bar = (/** @type {number} */ count, /** @type {number} */ peak, /** @type {number} */ width) =>
  count ? '█'.repeat(Math.max(1, Math.round((count / peak) * width))) : '';

const short = (/** @type {number} */ ns) => {
  if (ns >= 2 ** 30) return `${ns / 2 ** 30}G`;
  if (ns >= 2 ** 20) return `${ns / 2 ** 20}M`;
  if (ns >= 2 ** 10) return `${ns / 2 ** 10}K`;
  return String(ns);
};

/**
 * `[1K, 2K)` in ns, as bpftrace prints its log2 buckets.
 * @param {import('../../trace/parse.js').Bucket} bucket
 */
export function bucketLabel({ lowNs, highNs }) {
  if (lowNs === null) return `< 0`;
  if (lowNs === highNs) return String(lowNs);
  return `[${short(lowNs)}, ${short(highNs + 1)})`;
}

/**
 * @param {TraceSection} trace
 * @param {Mode[]} modes
 */
function processTable(trace, modes) {
  const rows = [];
  for (const mode of modes) {
    const { round, list } = modeOf(trace, mode).processes;
    for (const { pid, comm, writes } of list) rows.push([`${mode} (round ${round})`, String(pid), comm, ops(writes)]);
  }
  return {
    head: ['write acquisitions per process', 'pid', 'comm', 'writes'],
    rows,
    align: ['left', 'right', 'left', 'right'],
  };
}

/**
 * @param {TraceSection} trace
 * @param {Mode[]} modes
 */
function observerTable(trace, modes) {
  return {
    head: ['observer effect', 'traced ops/s (median)', 'traced / untraced'],
    rows: modes.map((mode) => {
      const { throughput, observer } = modeOf(trace, mode);
      return [mode, ops(throughput.median), observer === null ? '-' : fixed(observer)];
    }),
  };
}

/**
 * A traced compare's kernel evidence in a few lines: what the waits say, where the time on the
 * lock went; the tables are --verbose's.
 * @param {import('../../document/document.js').ResultsDocument & { trace: TraceSection }} document
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function traceAnswer(document) {
  const full = traceModel(document);
  return { title: full.title, lines: [], tables: [], notes: full.notes };
}

// The trace's sentences, beside the tables they head.

/**
 * One sentence on the per-acquisition wait, the figure that tells contention from volume.
 * @param {NonNullable<import('../../document/document.js').TraceSection['ratios']>} ratios
 */
export function traceReading({ avgWrite, totalWrite }) {
  if (!avgWrite) return 'no write acquisitions in one of the modes: nothing to compare';
  // beside an interval, its centre (see withCI)
  const centre = (/** @type {import('../../stats/ratio.js').RatioStats} */ stats) =>
    stats.ci95 ? stats.geomean : stats.median;
  const total = totalWrite ? `; in total ${fixed(centre(totalWrite))}x` : '';
  const side = sideOf(avgWrite.ci95, 1);
  const avg = fixed(centre(avgWrite));
  if (side === null || !avgWrite.ci95)
    return `workers waited ${avg}x as long as procs per write acquisition${total} (one round: run --rounds 3 or more for an interval)`;
  if (side === 'above')
    return `workers waited ${avg}x longer than procs per write acquisition (${formatCI(avgWrite.ci95)})${total}: they queue on one shared mmap_lock`;
  if (side === 'below')
    return `workers waited less than procs per write acquisition (${avg}x, ${formatCI(avgWrite.ci95)})${total}: no sign of a contended mmap_lock`;
  return `no significant difference in wait per write acquisition: ${avg}x (${formatCI(avgWrite.ci95)} spans 1)${total}; more --rounds would tighten it`;
}

/**
 * Which system call most of a mode's write waits came under, and what it means:
 * `workers: 71% of write waits are under mprotect (glibc growing a thread arena's heap)`.
 * @param {string} mode
 * @param {Array<{ name: string, count: number, totalNs: number }>} rows  by syscall, summed
 */
export function syscallReading(mode, rows) {
  const total = rows.reduce((sum, row) => sum + row.totalNs, 0);
  if (!total) return null;
  const top = rows.reduce((a, b) => (b.totalNs > a.totalNs ? b : a));
  const meaning = syscallMeaning(top.name);
  const acquisitions = rows.reduce((sum, row) => sum + row.count, 0);
  return `${mode}: ${percentText(top.totalNs / total)} of the write wait (${percentText(top.count / acquisitions)} of write acquisitions) is under ${top.name}${meaning ? ` (${meaning})` : ''}`;
}

const share = (/** @type {number} */ fraction) =>
  `${fraction < 0.001 ? (fraction * 100).toFixed(3) : (fraction * 100).toFixed(2)}%`;

/**
 * How much of the threads' time the lock took, beside the throughput gap it might explain: an
 * upper bound, since a thread that stops waiting may still not run.
 * @param {Pick<import('../../document/document.js').TraceSection, 'modes'>} trace  the results' trace section
 * @param {Array<'workers'|'procs'>} modes
 * @param {{ geomean: number } | null | undefined} ratio  the untraced workers/procs ratio
 */
export function timeShareReading(trace, modes, ratio) {
  const shares = modes.flatMap((mode) => {
    const timeShare = trace.modes[mode]?.timeShare;
    return timeShare ? [{ mode, ...timeShare }] : [];
  });
  if (!shares.length) return null;
  const parts = shares.map(
    ({ mode, write, read }) =>
      `${mode} waited ${share(write)} of their time on mmap_lock for write, ${share(read)} for read`,
  );
  let gap = '';
  if (ratio && trace.modes.workers?.timeShare) {
    const { write, read } = trace.modes.workers.timeShare;
    const points = (write + read) * 100;
    gap =
      ratio.geomean < 1
        ? `; throughput gap ${((1 - ratio.geomean) * 100).toFixed(1)}% (workers/procs ${fixed(ratio.geomean)}): removing every wait could win the workers at most ~${points < 0.1 ? points.toFixed(3) : points.toFixed(1)} points of it`
        : `; workers were not slower (workers/procs ${fixed(ratio.geomean)}), so the waits explain no gap`;
  }
  return `time on the lock (total wait / (k × traced window), median over cells): ${parts.join('; ')}${gap}; an upper bound on what the lock costs`;
}
