// The account of where each mode's time per op went, in words and as a table: the lines of
// stats/account.js for each mode with their intervals, the difference between the modes, a
// sentence that names what differs and what to try, and each mode's regime.
import { STEADY_CAP } from '../run/work.js';
import { fixed, listed, plural, MODES, percentText } from '../words/spelling.js';

/**
 * @typedef {ReturnType<typeof import('../stats/account.js').accountResults>} AccountData
 * @typedef {import('../stats/account.js').LineKey} LineKey
 * @typedef {import('../stats/account.js').MeanStats} MeanStats
 * @typedef {'workers'|'procs'} Mode
 * @typedef {{ reading: string | null, advice: string | null, unexplained: string | null,
 *   regime: string | null }} AccountWords
 */

/** @type {Record<LineKey, { label: string, time: boolean }>} */
const LINES = {
  wallNs: { label: 'wall, µs', time: true },
  userNs: { label: '\u00a0\u00a0user, µs', time: true },
  systemNs: { label: '\u00a0\u00a0system, µs', time: true },
  cpuNs: { label: '\u00a0\u00a0on a CPU, µs', time: true },
  runqNs: { label: '\u00a0\u00a0waiting for a CPU, µs', time: true },
  blockedNs: { label: '\u00a0\u00a0blocked, µs', time: true },
  minflt: { label: 'minor page faults', time: false },
  majflt: { label: 'major page faults', time: false },
  voluntary: { label: 'voluntary switches', time: false },
  involuntary: { label: 'involuntary switches', time: false },
  gcNs: { label: 'GC pauses, µs', time: true },
  gcCount: { label: 'GC pauses', time: false },
  lockWriteNs: { label: 'mmap_lock write wait, µs', time: true },
  lockReadNs: { label: 'mmap_lock read wait, µs', time: true },
  restNs: { label: "process's other CPU, µs", time: true },
  parentNs: { label: "parent's main thread CPU, µs", time: true },
};

/** A time per op as printed: µs, with the digits that mean something. */
const us = (/** @type {number} */ ns) => {
  const value = ns / 1000;
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 10 ? value.toFixed(1) : value.toFixed(2);
};
/** A count per op as printed. */
const count = (/** @type {number} */ value) => {
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 1 ? value.toFixed(2) : value.toFixed(3);
};
const signed = (/** @type {string} */ text) => (text.startsWith('-') ? `−${text.slice(1)}` : `+${text}`);

/**
 * A line's figure: the mean over the rounds ± the half-width of its 95% interval (a t interval
 * on the mean, so symmetric).
 * @param {MeanStats | null | undefined} stats
 * @param {boolean} time
 * @param {boolean} [difference]
 */
function figure(stats, time, difference = false) {
  if (!stats) return '-';
  const format = time ? us : count;
  const centre = difference ? signed(format(stats.mean)) : format(stats.mean);
  return stats.ci95 ? `${centre} ± ${format((stats.ci95[1] - stats.ci95[0]) / 2)}` : centre;
}

/** Whether a difference's interval lies wholly on one side of 0. */
const decided = (/** @type {MeanStats | null | undefined} */ stats) =>
  Boolean(stats?.ci95 && (stats.ci95[0] > 0 || stats.ci95[1] < 0));

/**
 * One line of the account, by its key.
 * @param {AccountData} account
 * @param {LineKey} key
 */
export const lineOf = (account, key) => account.lines.find((line) => line.key === key);

/**
 * The lines worth a row: time lines and faults always; the rest when some mode has any.
 * @param {AccountData} account
 * @param {Mode[]} modes
 */
function shownLines(account, modes) {
  const restBusy = modes.some((mode) => {
    const rest = lineOf(account, 'restNs')?.modes[mode]?.mean ?? 0;
    const wall = lineOf(account, 'wallNs')?.modes[mode]?.mean ?? 0;
    return wall > 0 && rest > 0.05 * wall;
  });
  return account.lines.filter(({ key, modes: byMode }) => {
    if (key === 'cpuNs') return account.split === null;
    if (key === 'userNs' || key === 'systemNs') return account.split !== null;
    if (key === 'restNs') return restBusy;
    if (key === 'majflt' || key === 'gcCount' || key === 'lockWriteNs' || key === 'lockReadNs')
      return modes.some((mode) => (byMode[mode]?.mean ?? 0) > 0);
    return true;
  });
}

/**
 * The account as a table: a row per line, a column per mode, and workers − procs.
 * @param {AccountData} account
 * @param {Mode[]} modes
 * @param {(mode: Mode) => string} name  an arm's name (A and B in an A/A run)
 * @returns {import('../words/report-model.js').ReportModel['tables'][number]}
 */
export function accountTable(account, modes, name) {
  const rows = shownLines(account, modes).map((line) => {
    const { label, time } = LINES[line.key];
    return [
      label,
      ...modes.map((mode) => figure(line.modes[mode], time)),
      ...(modes.length === 2 ? [figure(line.diff, time, true)] : []),
    ];
  });
  return {
    head: [
      `per op: mean ± 95% CI, ${plural(account.rounds, 'round')}`,
      ...modes.map(name),
      ...(modes.length === 2 ? [`${name(modes[0])} − ${name(modes[1])}`] : []),
    ],
    rows,
    align: ['left', ...modes.map(() => 'right'), ...(modes.length === 2 ? ['right'] : [])],
  };
}

/**
 * The account in words of a run's document, as its arms were named and as it ran: A and B for an
 * A/A run, whether it was traced, its protocol, whether it was a --quick one.
 * @param {AccountData} account
 * @param {{ aa?: string | null, config?: { trace?: unknown, protocol?: string, quick?: boolean } }} document
 * @returns {AccountWords}
 */
export const wordsOfAccount = (account, { aa = null, config = {} }) =>
  accountWords(account, {
    names: aa ? ['A', 'B'] : ['workers', 'procs'],
    traced: Boolean(config.trace),
    protocol: config.protocol ?? 'steady',
    quick: Boolean(config.quick),
  });

/**
 * The account in words: what differs between the modes' time per op and by how much, what
 * goes with it (page faults, switches, GC, lock waits), what is equal; what to try; how much
 * the account leaves unexplained; and whether the cells were still warming up.
 * @param {AccountData} account
 * @param {{ names: [string, string], traced: boolean, protocol: string, quick?: boolean }} run
 *   quick: cells of a few milliseconds, shorter than the counters' resolution: no reading
 * @returns {AccountWords}
 */
export function accountWords(account, { names, traced, protocol, quick = false }) {
  if (quick)
    return {
      reading:
        '--quick: cells of a few milliseconds, shorter than the counters resolve; the account above shows its lines, not a measurement',
      advice: null,
      unexplained: null,
      regime: null,
    };
  return {
    ...difference(account, names, traced),
    unexplained: unexplained(account),
    regime: regimeWords(account, names, protocol),
  };
}

/** A part of the time per op, in words: what the account's readings and diff's name. */
export const PART_WORDS = /** @type {Record<string, string>} */ ({
  userNs: 'user time',
  systemNs: 'system time',
  cpuNs: 'time on a CPU',
  runqNs: 'time waiting for a CPU',
  blockedNs: 'blocked time',
});

/**
 * @param {AccountData} account
 * @param {[string, string]} names
 * @param {boolean} traced
 * @returns {{ reading: string | null, advice: string | null }}
 */
function difference(account, [a, b], traced) {
  const wall = lineOf(account, 'wallNs')?.diff;
  if (!wall) return { reading: null, advice: null };
  if (!wall.ci95)
    return {
      reading: `${a} − ${b}: ${us(wall.mean)} µs per op from one round; 2 or more give an interval`,
      advice: null,
    };
  if (!decided(wall)) {
    const half = (wall.ci95[1] - wall.ci95[0]) / 2;
    return {
      reading: `${a} and ${b} spend the same time per op, within ±${us(half)} µs (the difference's 95% CI spans 0)`,
      advice: null,
    };
  }
  const sign = Math.sign(wall.mean);
  const [more, less] = sign > 0 ? [a, b] : [b, a];
  const parts = /** @type {LineKey[]} */ (
    account.split === null ? ['cpuNs', 'runqNs', 'blockedNs'] : ['userNs', 'systemNs', 'runqNs', 'blockedNs']
  );
  const words = PART_WORDS;
  const named = parts
    .map((key) => ({ key, stats: lineOf(account, key)?.diff }))
    .filter(({ stats }) => decided(stats) && Math.sign(/** @type {MeanStats} */ (stats).mean) === sign)
    .map(({ key, stats }) => ({ key, amount: Math.abs(/** @type {MeanStats} */ (stats).mean) }))
    .filter(({ amount }) => amount >= 0.1 * Math.abs(wall.mean))
    .sort((x, y) => y.amount - x.amount);
  const equal = [...parts, 'gcNs']
    .filter((key) => {
      const stats = lineOf(account, /** @type {LineKey} */ (key))?.diff;
      return stats?.ci95 && !decided(stats);
    })
    .map((key) => (key === 'gcNs' ? 'GC' : /** @type {Record<string, string>} */ (words)[key]));
  const withIt = [];
  const faults = lineOf(account, 'minflt')?.diff;
  if (faults && decided(faults) && Math.abs(faults.mean) >= 0.1)
    withIt.push(
      `${count(Math.abs(faults.mean))} ${Math.sign(faults.mean) === sign ? 'more' : 'fewer'} page faults per op`,
    );
  const switches = lineOf(account, 'voluntary')?.diff;
  if (switches && decided(switches) && Math.abs(switches.mean) >= 0.01)
    withIt.push(
      `${count(Math.abs(switches.mean))} ${Math.sign(switches.mean) === sign ? 'more' : 'fewer'} voluntary switches per op`,
    );
  const of = named.map(
    // "more", not "of it": a part may exceed the whole when another part differs the other way
    ({ key, amount }) => `${us(amount)} µs more ${/** @type {Record<string, string>} */ (words)[key]}`,
  );
  const reading =
    `${more} spend ${us(Math.abs(wall.mean))} µs more per op than ${less}` +
    (of.length ? `: ${of.join(', ')}` : '') +
    (withIt.length ? `, with ${withIt.join(' and ')}` : '') +
    (equal.length ? `; ${listed(equal)} ${equal.length === 1 ? 'is' : 'are'} equal` : '');
  return { reading, advice: advice(account, named[0]?.key ?? null, { sign, faults, traced }) };
}

/**
 * What to try, from the line that differs most.
 * @param {AccountData} account
 * @param {LineKey | null} top
 * @param {{ sign: number, faults: MeanStats | null | undefined, traced: boolean }} context
 */
function advice(account, top, { sign, faults, traced }) {
  const moreFaults = faults && decided(faults) && Math.sign(faults.mean) === sign && Math.abs(faults.mean) >= 0.1;
  if ((top === 'systemNs' || top === 'cpuNs') && moreFaults)
    return 'page faults, not lock waits: try `--env MALLOC_TOP_PAD_=67108864` (glibc keeps the top of a heap instead of returning it), or a longer `--warmup` to see the steady state';
  const lock = lineOf(account, 'lockWriteNs')?.diff;
  if (top === 'blockedNs') {
    if (!traced) return 'blocked, off the CPU: run `mmapbench trace compare` to see whether it is mmap_lock';
    const blocked = lineOf(account, 'blockedNs')?.diff;
    return lock && blocked && decided(lock) && Math.abs(lock.mean) >= 0.5 * Math.abs(blocked.mean)
      ? `mmap_lock: ${us(Math.abs(lock.mean))} µs per op of the blocked time is waiting for it for write; see the trace tables below`
      : 'blocked, but not on mmap_lock for write (its wait differs by less than half as much): look for I/O or a futex (`mmapbench trace -- COMMAND` shows the system calls)';
  }
  if (top === 'runqNs')
    return 'waiting for a CPU: more threads than CPUs, or other work on the machine; try the k you deploy with no other load';
  if (top === 'userNs')
    return 'user time: in JavaScript, V8 or the allocator in user space; compare GC pauses above, and try your own task (`--task`)';
  if (top === 'systemNs' || top === 'cpuNs')
    return 'system time without more page faults: the system calls themselves cost more; `mmapbench trace compare` shows which take mmap_lock';
  return null;
}

/**
 * Where the difference in time per op the ratio saw (k workers' elapsed time, from throughput)
 * and the threads' own wall time disagree: barrier edges, stragglers, the rest of the tree.
 * @param {AccountData} account
 */
function unexplained(account) {
  const seen = account.seen.diff;
  const wall = lineOf(account, 'wallNs')?.diff;
  if (!seen || !wall || !decided(seen)) return null;
  const left = seen.mean - wall.mean;
  const share = Math.abs(left) / Math.abs(seen.mean);
  return (
    `the ratio saw ${signed(us(seen.mean))} µs per op (k × elapsed / ops); the threads' own windows account for ` +
    `${signed(us(wall.mean))}, leaving ${us(Math.abs(left))} µs (${percentText(share)}) unexplained` +
    (share > 0.2 ? ': more than a fifth, so read the account with care (stragglers, barrier edges)' : '')
  );
}

/**
 * @param {AccountData} account
 * @param {[string, string]} names
 * @param {string} protocol
 */
function regimeWords(account, names, protocol) {
  const modes = MODES;
  const parts = modes.flatMap((mode, i) => {
    const regime = account.regime[mode];
    if (!regime) return [];
    const faults =
      regime.firstFaults !== null && regime.lastFaults !== null
        ? `, page faults per op ${count(regime.firstFaults)} → ${count(regime.lastFaults)}`
        : '';
    const name = names[i];
    // a first tenth that took at least one more page fault per op than the last: the heap was
    // still being faulted in, a cold heap; otherwise only the rate says it was warming up
    const coldHeap =
      regime.firstFaults !== null && regime.lastFaults !== null && regime.firstFaults - regime.lastFaults >= 1;
    if (regime.state === 'warming')
      return [
        `${name} still warming up${coldHeap ? ' (a cold heap)' : ''}: last tenth ${fixed(regime.speedup)}× faster than the first${faults}`,
      ];
    if (regime.state === 'slowing')
      return [`${name} slowing down: last tenth ${fixed(1 / regime.speedup)}× slower than the first${faults}`];
    return [`${name} steady: last tenth within 15% of the first${faults}`];
  });
  const warmed = warmupWords(account, names);
  if (!parts.length) return warmed ? `regime: ${warmed}` : null;
  const cold = protocol === 'published' ? ' — cold by design: --protocol published runs no warmup' : '';
  const cells = Math.max(...modes.map((mode) => account.regime[mode]?.cells ?? 0));
  return `regime (median over ${cells} cells): ${parts.join('; ')}${cold}${warmed ? `; ${warmed}` : ''}`;
}

/**
 * How long the workers warmed up until steady, and whether the cap stopped any still getting
 * faster (then the window may not be steady, and the regime above says so).
 * @param {AccountData} account
 * @param {[string, string]} names
 */
function warmupWords(account, names) {
  const modes = MODES;
  const warmed = modes.flatMap((mode, i) => {
    const warmup = account.warmup?.[mode];
    return warmup ? [{ name: names[i], ...warmup }] : [];
  });
  if (!warmed.length) return null;
  const each = warmed
    .map(({ name, ops, seconds }) => `${name} ${Math.round(ops).toLocaleString('en-US')} ops (${seconds.toFixed(2)} s)`)
    .join(', ');
  const capped = warmed.filter(({ capped }) => capped > 0);
  const cap = capped.length
    ? `; the cap (ten timed windows or ${STEADY_CAP.seconds} s) ended the warmup of ${capped.map(({ name, capped: n, workers }) => `${n} of ${workers} in ${name}`).join(' and ')} while they were still getting faster`
    : '';
  return `warmed up until the rate stopped trending, median per worker: ${each}${cap}`;
}

/**
 * Where the counters came from, and what this machine did not count.
 * @param {AccountData} account
 * @param {boolean} [pooled]  the cells ran through a pool (compare --pool): its workers' counters
 *   are read by their host around the window
 */
export function sourcesNote(account, pooled = false) {
  const split =
    account.split === 'thread-cpu-usage'
      ? "user and system from Node's per-thread CPU usage"
      : account.split === 'ticks'
        ? 'user and system split by the share of 10 ms ticks /proc counted'
        : null;
  const missing = [...new Set(Object.values(account.missing))];
  const read = pooled
    ? "account: each pool worker's thread's counters (/proc/PID/task/TID schedstat, stat, status) read by the " +
      "app's main thread before the window's first pool task and after its last (a fresh worker a task: its " +
      'own, around its ops), summed over the workers, per op (the time between two tasks, waiting for the ' +
      'pool, is blocked); '
    : "account: each worker thread's own counters (/proc/thread-self schedstat, stat, status; GC from perf_hooks) " +
      'read at its barrier release and at the end of its timed window, summed over the workers, per op; ';
  const noRegime = pooled
    ? "; no regime: through a pool a worker's window is its pool tasks, not cut in tenths"
    : "; no regime: only a built-in task's window is run in tenths (your task's run() is called once per cell)";
  return (
    read +
    "wall = on a CPU + waiting for a CPU + blocked; the process's other CPU is its other threads' (V8's helpers, " +
    "the libuv pool, the workers' main thread) and its work outside the timed windows" +
    (lineOf(account, 'parentNs')
      ? "; the parent's main thread CPU is what answering the workers took the thread they share, from the release to the last result"
      : '') +
    (split ? `; ${split}` : '') +
    (Object.values(account.regime).some(Boolean) ? '' : noRegime) +
    (missing.length ? `; not available here: ${missing.join('; ')}` : '')
  );
}
