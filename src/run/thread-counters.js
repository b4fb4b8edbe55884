// What the kernel and V8 count for the calling thread, read inside every measured worker thread
// and process around its timed window: time on a CPU and waiting for one, page faults, context
// switches, GC. No root: /proc/thread-self is the thread's own, in a Worker as in a process.
// Runs inside the cells, so it imports nothing from node_modules (see task-runner.js).
import { openSync, readSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const SELF = '/proc/thread-self';
const TICK_NS = 1e7; // USER_HZ is 100 on Linux: /proc's utime and stime count 10 ms ticks

/**
 * What has been counted for this thread so far; null where this machine does not say.
 * @typedef {object} Counters
 * @property {number} atNs          process.hrtime when read
 * @property {number | null} cpuNs  on a CPU (schedstat)
 * @property {number | null} runqNs runnable but waiting for a CPU (schedstat)
 * @property {number | null} minflt page faults served without I/O
 * @property {number | null} majflt page faults that read from disk
 * @property {number | null} utimeTicks  user time, 10 ms ticks (/proc/thread-self/stat)
 * @property {number | null} stimeTicks  system time, 10 ms ticks
 * @property {number | null} userUs      process.threadCpuUsage(), where Node has it
 * @property {number | null} systemUs
 * @property {number | null} voluntary   context switches: the thread blocked
 * @property {number | null} involuntary context switches: the thread was preempted
 */

/**
 * @typedef {import('../stats/samples.js').WindowAccount} WindowAccount
 * @typedef {import('../stats/samples.js').Slice} Slice
 */

const threadCpuUsage = /** @type {(() => { user: number, system: number }) | undefined} */ (
  /** @type {any} */ (process).threadCpuUsage
);

// The /proc files stay open, one descriptor each per thread (each Worker loads this module
// anew, and /proc/thread-self names the thread that opened it), and are read into one buffer
// allocated when the module loads: no path lookup, no allocation, right beside the window.
const scratch = Buffer.allocUnsafeSlow(4096);
/** @type {Map<string, number | null>} */
const descriptors = new Map();

/** @param {string} path */
function read(path) {
  if (!descriptors.has(path)) {
    try {
      descriptors.set(path, openSync(path, 'r'));
    } catch {
      descriptors.set(path, null);
    }
  }
  const fd = descriptors.get(path);
  if (fd === null || fd === undefined) return null;
  try {
    let length = 0;
    for (let got; length < scratch.length && (got = readSync(fd, scratch, length, scratch.length - length, length));)
      length += got;
    return scratch.toString('latin1', 0, length);
  } catch {
    return null;
  }
}

/**
 * The fields of /proc/thread-self/stat after the command name (which may hold spaces and
 * parentheses, so the fields are counted from its closing one): state is field 0.
 * @param {string} text
 */
const statFields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ');

/** @param {string | null} status @param {string} name */
function statusField(status, name) {
  const at = status ? status.indexOf(`\n${name}:`) : -1;
  return status && at >= 0 ? Number.parseInt(status.slice(at + name.length + 2), 10) : null;
}

/**
 * @param {string} [thread]  the thread's /proc folder: the calling thread's, or another's of this
 *   machine (a pool's worker, read by its host: `/proc/PID/task/TID`), whose CPU time is then
 *   split by /proc's ticks alone
 * @returns {Counters}
 */
export function readCounters(thread = SELF) {
  const stat = read(`${thread}/stat`);
  const schedstat = read(`${thread}/schedstat`);
  const status = read(`${thread}/status`);
  const fields = stat ? statFields(stat) : null;
  const [cpuNs, runqNs] = schedstat ? schedstat.trim().split(' ').map(Number) : [null, null];
  const usage = thread === SELF ? threadCpuUsage?.call(process) : undefined;
  return {
    atNs: Number(process.hrtime.bigint()),
    cpuNs: Number.isFinite(cpuNs) ? cpuNs : null,
    runqNs: Number.isFinite(runqNs) ? runqNs : null,
    minflt: fields ? Number(fields[7]) : null,
    majflt: fields ? Number(fields[9]) : null,
    utimeTicks: fields ? Number(fields[11]) : null,
    stimeTicks: fields ? Number(fields[12]) : null,
    userUs: usage ? usage.user : null,
    systemUs: usage ? usage.system : null,
    voluntary: statusField(status, 'voluntary_ctxt_switches'),
    involuntary: statusField(status, 'nonvoluntary_ctxt_switches'),
  };
}

/**
 * @param {number | null} a
 * @param {number | null} b
 */
const delta = (a, b) => (a === null || b === null ? null : b - a);

/**
 * The account of the window between two readings. On-CPU time is schedstat's (ns); its split
 * into user and system is Node's per-thread CPU usage where Node has it (24 and later), else the
 * share of the 10 ms ticks /proc counted, which over a short window may be none.
 * @param {Counters} before
 * @param {Counters} after
 * @param {{ gcNs: number, gcCount: number } | null} gc
 * @returns {WindowAccount}
 */
export function windowAccount(before, after, gc) {
  /** @type {Record<string, string>} */
  const missing = {};
  const wallNs = after.atNs - before.atNs;
  let cpuNs = delta(before.cpuNs, after.cpuNs);
  const runqNs = delta(before.runqNs, after.runqNs);
  let userNs = null;
  let systemNs = null;
  /** @type {WindowAccount['split']} */
  let split = null;
  const userUs = delta(before.userUs, after.userUs);
  const systemUs = delta(before.systemUs, after.systemUs);
  const utime = delta(before.utimeTicks, after.utimeTicks);
  const stime = delta(before.stimeTicks, after.stimeTicks);
  if (cpuNs === null) {
    missing.cpuNs = missing.runqNs = 'no /proc/thread-self/schedstat (a kernel without CONFIG_SCHED_INFO)';
    if (userUs !== null && systemUs !== null) cpuNs = (userUs + systemUs) * 1000;
  }
  if (userUs !== null && systemUs !== null) {
    userNs = userUs * 1000;
    systemNs = systemUs * 1000;
    split = 'thread-cpu-usage';
  } else if (cpuNs !== null && utime !== null && stime !== null && utime + stime > 0) {
    userNs = (cpuNs * utime) / (utime + stime);
    systemNs = cpuNs - userNs;
    split = 'ticks';
  } else {
    missing.userNs = missing.systemNs =
      utime === null
        ? 'no /proc/thread-self/stat'
        : 'the window was shorter than one 10 ms tick of user or system time';
  }
  if (cpuNs === null && utime !== null && stime !== null) cpuNs = (utime + stime) * TICK_NS;
  const minflt = delta(before.minflt, after.minflt);
  if (minflt === null) missing.minflt = missing.majflt = 'no /proc/thread-self/stat';
  const voluntary = delta(before.voluntary, after.voluntary);
  if (voluntary === null) missing.voluntary = missing.involuntary = 'no /proc/thread-self/status';
  if (!gc) missing.gcNs = missing.gcCount = 'no gc entries from perf_hooks here';
  return {
    wallNs,
    cpuNs,
    runqNs,
    userNs,
    systemNs,
    split,
    minflt,
    majflt: delta(before.majflt, after.majflt),
    voluntary,
    involuntary: delta(before.involuntary, after.involuntary),
    gcNs: gc ? gc.gcNs : null,
    gcCount: gc ? gc.gcCount : null,
    missing,
  };
}

/**
 * This isolate's GC pauses, as perf_hooks reports them: started before the timed window, so
 * the window pays nothing for it; entries arrive on the event loop, after a synchronous loop.
 */
export function watchGc() {
  /** @type {Array<[number, number]>} */
  const pauses = [];
  /** @type {PerformanceObserver | null} */
  let observer = null;
  try {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.duration]);
    });
    observer.observe({ entryTypes: ['gc'] });
  } catch {
    observer = null;
  }
  return {
    /**
     * The pauses that began between `from` and `to` (performance.now()), once the event loop
     * has delivered them (two turns: perf_hooks queues them with setImmediate).
     * @param {number} from
     * @param {number} to
     */
    async between(from, to) {
      if (!observer) return null;
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      const inside = pauses.filter(([start]) => start >= from && start <= to);
      return { gcNs: inside.reduce((sum, [, ms]) => sum + ms * 1e6, 0), gcCount: inside.length };
    },
    stop() {
      observer?.disconnect();
    },
  };
}

/**
 * The thread's minor page faults so far, cheaply enough to read inside a timed window: one read
 * of the descriptor that stays open, into the buffer allocated at load, nothing malloc'd.
 * @returns {number | null}
 */
export function minorFaults() {
  const stat = read('/proc/thread-self/stat');
  return stat ? Number(statFields(stat)[7]) : null;
}
