import { syscallNumber, syscallOfKernelStack } from './syscalls.js';

/**
 * Reads what `bpftrace -f json` prints: one JSON object per line, `{"type": ..., "data": ...}`.
 * Maps (count, sum, max) and stats (avg) come as `{"@name": value}` or, keyed,
 * `{"@name": {"k1,k2": value}}`; histograms as a list of `{min, max, count}` buckets with empty
 * buckets left out (the lowest, negative bucket has no `min`). A map that was never written is
 * absent, except count maps, which bpftrace 0.17 prints as 0.
 *
 * @typedef {import('../stats/samples.js').Bucket} Bucket
 * @typedef {object} BpftraceOutput
 * @property {number | null} attachedProbes
 * @property {string[]} printf   lines the script printed
 * @property {Record<string, number | Record<string, unknown>>} maps  by name without `@`; a keyed
 *   count or sum holds numbers, a keyed stats map `{count, average, total}` objects
 * @property {Record<string, Bucket[]>} hists  buckets ascending, empty ones filled in
 * @property {string[]} errors   bpftrace's own error lines
 * @property {string[]} other    lines that were not bpftrace's (a -c command's own output)
 */

/**
 * @param {string} text
 * @returns {BpftraceOutput}
 */
export function parseBpftraceJson(text) {
  /** @type {BpftraceOutput} */
  const out = { attachedProbes: null, printf: [], maps: {}, hists: {}, errors: [], other: [] };
  for (const line of text.split('\n')) {
    const record = jsonRecord(line);
    if (!record) {
      if (line.trim()) out.other.push(line);
      continue;
    }
    const { type, data } = record;
    if (type === 'attached_probes') out.attachedProbes = data.probes;
    else if (type === 'printf') out.printf.push(...String(data).split('\n').filter(Boolean));
    else if (type === 'map' || type === 'stats') Object.assign(out.maps, unprefixed(data));
    else if (type === 'hist' || type === 'lhist') {
      for (const [name, buckets] of Object.entries(unprefixed(data))) out.hists[name] = histogram(buckets, type);
    } else if (type === 'error') out.errors.push(String(data));
    // other record types (time, join, syscall) carry nothing this script prints
  }
  return out;
}

/**
 * @param {string} line
 * @returns {{ type: string, data: any } | null}  data: as bpftrace printed it, checked where read
 */
function jsonRecord(line) {
  if (!line.startsWith('{')) return null;
  try {
    const record = JSON.parse(line);
    return record && typeof record.type === 'string' && 'data' in record ? record : null;
  } catch {
    return null;
  }
}

const unprefixed = (/** @type {Record<string, any>} */ data) =>
  Object.fromEntries(Object.entries(data).map(([name, value]) => [name.replace(/^@/, ''), value]));

/**
 * Buckets in ascending order, with the empty power-of-two buckets between them put back.
 * @param {Array<{ min?: number, max: number, count: number }>} raw
 * @param {string} type
 * @returns {Bucket[]}
 */
function histogram(raw, type) {
  const buckets = raw.map(({ min, max, count }) => ({ lowNs: min ?? null, highNs: max, count }));
  if (type !== 'hist') return buckets;
  /** @type {Bucket[]} */
  const filled = [];
  for (const bucket of buckets) {
    const previous = filled.at(-1);
    if (previous && previous.highNs >= 1) {
      for (let low = previous.highNs + 1; low < (bucket.lowNs ?? 0); low *= 2) {
        filled.push({ lowNs: low, highNs: low * 2 - 1, count: 0 });
      }
    }
    filled.push(bucket);
  }
  return filled;
}

/**
 * @typedef {import('../stats/samples.js').LockWaits} LockWaits
 * @typedef {import('../stats/samples.js').TraceSummary} TraceSummary
 * @typedef {import('../stats/samples.js').ThreadWaits} ThreadWaits
 * @typedef {import('../stats/samples.js').BySyscall} BySyscall
 */

/** @param {BpftraceOutput} output  of mmap-lock.bt @returns {TraceSummary} */
export function summarizeTrace({ maps, hists }) {
  const waits = (/** @type {'write' | 'read'} */ kind) => {
    const count = number(maps[`cnt_${kind}`]);
    const totalNs = number(maps[`sum_${kind}_ns`]);
    return {
      count,
      totalNs,
      avgNs: count ? totalNs / count : null,
      maxNs: count ? number(maps[`max_${kind}_ns`]) : null,
      histogram: hists[`wait_${kind}_ns`] ?? [],
    };
  };
  const perProcess = keyed(maps.cnt_per_pid_write);
  // the waits of a process's main thread (thread id = pid), where the script counted them
  const mainThreadOf = (/** @type {number} */ pid) => ({
    writes: byPid('main_write_cnt', pid),
    writeNs: byPid('main_write_ns', pid),
    reads: byPid('main_read_cnt', pid),
    readNs: byPid('main_read_ns', pid),
  });
  const byPid = (/** @type {string} */ name, /** @type {number} */ pid) => number(keyed(maps[name])[pid]);
  // a process that execs keeps its pid under a new name (setpriv, then node): its writes are
  // counted per name but its waits per pid, so the names are one row
  /** @type {Map<number, Array<{ comm: string, writes: number }>>} */
  const names = new Map();
  for (const [key, writes] of Object.entries(perProcess)) {
    const comma = key.indexOf(',');
    const pid = Number(key.slice(0, comma));
    names.set(pid, [...(names.get(pid) ?? []), { comm: key.slice(comma + 1), writes: number(writes) }]);
  }
  const processes = [...names]
    .map(([pid, list]) => ({
      pid,
      comm: list
        .sort((a, b) => b.writes - a.writes)
        .map(({ comm }) => comm)
        .join(', '),
      writes: list.reduce((sum, { writes }) => sum + writes, 0),
      writeNs: byPid('pid_write_ns', pid),
      writeMaxNs: byPid('pid_write_max_ns', pid),
      reads: byPid('pid_read_cnt', pid),
      readNs: byPid('pid_read_ns', pid),
      main: mainThreadOf(pid),
    }))
    .sort((a, b) => b.writes - a.writes || a.pid - b.pid);
  // bpftrace 0.17 now and then keys a write's user stack as empty text, for every write of one
  // stack in a run: those writes are counted apart, not shown as a chain of no frames
  const users = userStacks(maps.write_ustack);
  return {
    write: waits('write'),
    read: waits('read'),
    trylockFailed: number(maps.cnt_trylock_failed),
    writeHoldNs: number(maps.sum_hold_write_ns),
    processes,
    bySyscall: { write: bySyscall(maps, 'write'), read: bySyscall(maps, 'read') },
    writeStacks: kernelStacks(maps.write_kstack),
    writeUserStacks: users.filter(({ frames }) => frames.length),
    writeUserStacksMissing: users.filter(({ frames }) => !frames.length).reduce((sum, { count }) => sum + count, 0),
  };
}

const number = (/** @type {unknown} */ value) => (typeof value === 'number' ? value : 0);
/** @returns {Record<string, unknown>} */
const keyed = (/** @type {unknown} */ value) =>
  value && typeof value === 'object' ? /** @type {Record<string, unknown>} */ (value) : {};

/**
 * bpftrace keys a kstack map by the stack as text, one `function+offset` per line, innermost
 * first. The tracepoint's own frame is dropped and offsets go: chains that differ only in an
 * offset are one chain.
 * @param {unknown} map
 */
function kernelStacks(map) {
  /** @type {Map<string, { frames: string[], count: number }>} */
  const chains = new Map();
  for (const [text, count] of Object.entries(keyed(map))) {
    const frames = kernelFrames(text);
    const key = frames.join(' < ');
    chains.set(key, { frames, count: (chains.get(key)?.count ?? 0) + number(count) });
  }
  return [...chains.values()].sort((a, b) => b.count - a.count);
}

/** A kstack key's frames, innermost first, without offsets or the tracepoint's own frame. */
const kernelFrames = (/** @type {string} */ text) =>
  text
    .split('\n')
    .map((line) => line.trim().replace(/\+\d+$/, ''))
    .filter((frame) => frame && !frame.startsWith('__mmap_lock_do_trace'));

/**
 * bpftrace keys a `ustack(perf)` map by lines of `\tADDRESS SYMBOL+OFFSET (OBJECT)`, innermost
 * first; what it could not resolve (the process gone when it printed) reads `0xADDRESS ([unknown])`.
 * @param {unknown} map
 */
function userStacks(map) {
  /** @type {Map<string, { frames: Array<{ symbol: string | null, object: string | null }>, count: number }>} */
  const chains = new Map();
  for (const [text, count] of Object.entries(keyed(map))) {
    const frames = text
      .split('\n')
      .map((line) => line.trim().match(/^[0-9a-f]+ (.+?) \((.*)\)$/))
      .filter((match) => match !== null)
      .map(([, symbol, object]) => ({
        // unresolved, bpftrace prints the address again as the symbol
        symbol: symbol === '[unknown]' || /^0x[0-9a-f]+$/.test(symbol) ? null : symbol.replace(/\+\d+$/, ''),
        object: object === '[unknown]' ? null : object,
      }));
    const key = JSON.stringify(frames);
    chains.set(key, { frames, count: (chains.get(key)?.count ?? 0) + number(count) });
  }
  return [...chains.values()].sort((a, b) => b.count - a.count);
}

/**
 * The script keys by system call number + 1, so 0 is "none in flight". A write with none in
 * flight whose sys_enter the kernel lost goes back under its call, named by the syscall frame of
 * its kernel stack (`@write_nosys_kstack`); what no frame names, or a call without a number
 * here, stays under none.
 * @param {BpftraceOutput['maps']} maps
 * @param {'write' | 'read'} kind
 * @returns {BySyscall[]}
 */
function bySyscall(maps, kind) {
  const counts = keyed(maps[`cnt_${kind}_sys`]);
  const sums = keyed(maps[`sum_${kind}_sys_ns`]);
  const rows = new Map(
    Object.entries(counts).map(([key, count]) => {
      const syscall = Number(key) === 0 ? null : Number(key) - 1;
      return [syscall, { syscall, count: number(count), totalNs: number(sums[key]) }];
    }),
  );
  const none = rows.get(null);
  if (kind === 'write' && none) {
    // a stats map: count, average and total per stack
    for (const [text, stats] of Object.entries(keyed(maps.write_nosys_kstack))) {
      const { count, total } = /** @type {{ count?: number, total?: number }} */ (stats);
      const name = syscallOfKernelStack(kernelFrames(text));
      const syscall = name === null ? null : syscallNumber(name);
      if (syscall === null) continue;
      const row = rows.get(syscall) ?? { syscall, count: 0, totalNs: 0 };
      row.count += number(count);
      row.totalNs += number(total);
      rows.set(syscall, row);
      none.count -= number(count);
      none.totalNs -= number(total);
    }
  }
  return [...rows.values()]
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || (a.syscall ?? -1) - (b.syscall ?? -1));
}
