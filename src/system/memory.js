// What a process tree holds in memory, from the kernel's own accounts: the proportional set size
// (each shared page divided among the processes that map it, so the sum over a tree counts it
// once, where a sum of RSS counts it once per process) and each process's peak RSS.
import { readFileSync } from 'node:fs';

const KIB = 1024;

/**
 * @typedef {{ pid: number, pssBytes: number, anonBytes: number | null, fileBytes: number | null,
 *   peakRssBytes: number | null }} ProcessMemory  anonBytes: Pss_Anon; fileBytes: Pss_File
 * @typedef {{ pssBytes: number | null, anonBytes?: number | null, fileBytes?: number | null,
 *   processes: ProcessMemory[], unavailable?: string, anonymousBefore?: number | null,
 *   timedOps?: true }} TreeMemory
 *   pssBytes, anonBytes, fileBytes: the sums over the processes; null, with the reason in a few
 *   words, where the kernel did not say; anonymousBefore: the parent's anonymous memory before
 *   it started any worker, the baseline of what the workers add; timedOps: the workers timed ops
 *   in this round, so the memory figure is read in the others (points/measures.js, addedMemory)
 */

/**
 * A `Name:   123 kB` field of a /proc file, in bytes.
 * @param {string} text
 * @param {string} field
 */
const kbField = (text, field) => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
  return match ? Number(match[1]) * KIB : null;
};

/**
 * Why a /proc file of another process could not be read, in a few words.
 * @param {NodeJS.ErrnoException} error
 */
function whyNot(error) {
  if (error.code === 'ENOENT') return 'no /proc/PID/smaps_rollup on this kernel (4.14 or later has it)';
  if (error.code === 'EACCES' || error.code === 'EPERM') return '/proc hides other processes here (hidepid)';
  return `/proc/PID/smaps_rollup: ${error.code ?? error.message}`;
}

/**
 * The memory of the processes `pids`, read one after another while all are alive.
 * @param {number[]} pids
 * @param {(path: string) => string} [read]  for tests
 * @returns {TreeMemory}
 */
export function treeMemory(pids, read = (path) => readFileSync(path, 'utf8')) {
  /** @type {ProcessMemory[]} */
  const processes = [];
  for (const pid of pids) {
    let rollup;
    try {
      rollup = read(`/proc/${pid}/smaps_rollup`);
    } catch (error) {
      return { pssBytes: null, processes: [], unavailable: whyNot(/** @type {NodeJS.ErrnoException} */ (error)) };
    }
    const pssBytes = kbField(rollup, 'Pss');
    if (pssBytes === null) return { pssBytes: null, processes: [], unavailable: 'smaps_rollup has no Pss line' };
    let peakRssBytes = null;
    try {
      peakRssBytes = kbField(read(`/proc/${pid}/status`), 'VmHWM');
    } catch {
      // the peak is a detail: PSS stands without it
    }
    processes.push({
      pid,
      pssBytes,
      anonBytes: anonymousOf(rollup),
      fileBytes: kbField(rollup, 'Pss_File'),
      peakRssBytes,
    });
  }
  const total = (/** @type {(one: ProcessMemory) => number | null} */ of) =>
    processes.some((one) => of(one) === null)
      ? null
      : processes.reduce((sum, one) => sum + /** @type {number} */ (of(one)), 0);
  return {
    pssBytes: total((one) => one.pssBytes),
    anonBytes: total((one) => one.anonBytes),
    fileBytes: total((one) => one.fileBytes),
    processes,
  };
}

/**
 * The anonymous memory of a process's main malloc heap (glibc's main arena, `[heap]` in smaps,
 * grown with brk): where its main thread's mallocs go, an app's request Buffers among them; a
 * thread's go to an arena of its own (up to 8 per CPU). Null where /proc does not say; 0 where the
 * process has none (an allocator that maps all it uses).
 * @param {number} pid
 * @param {(path: string) => string} [read]  for tests
 * @returns {number | null}
 */
export function mainHeapBytes(pid, read = (path) => readFileSync(path, 'utf8')) {
  let smaps;
  try {
    smaps = read(`/proc/${pid}/smaps`);
  } catch {
    return null;
  }
  const at = smaps.search(/ \[heap\]\n/);
  if (at < 0) return 0;
  return kbField(smaps.slice(at, smaps.indexOf('VmFlags:', at)), 'Anonymous');
}

/**
 * A process's anonymous memory (its heaps, stacks, the allocator's arenas), proportional:
 * what it adds to the machine, whatever else maps the same files. Older kernels without
 * `Pss_Anon` give `Anonymous`.
 * @param {string} rollup  its smaps_rollup
 */
const anonymousOf = (rollup) => kbField(rollup, 'Pss_Anon') ?? kbField(rollup, 'Anonymous');

/**
 * The anonymous memory of one process now, or null where /proc does not say.
 * @param {number} pid
 * @param {(path: string) => string} [read]  for tests
 * @returns {number | null}
 */
export function anonymousBytes(pid, read = (path) => readFileSync(path, 'utf8')) {
  try {
    return anonymousOf(read(`/proc/${pid}/smaps_rollup`));
  } catch {
    return null;
  }
}
