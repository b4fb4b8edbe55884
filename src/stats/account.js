// Where each mode's time per op went: the threads' own counters (run/thread-counters.js), summed
// over a cell's workers, then per op and per round, with a 95% interval over the rounds, and the
// workers − procs difference round by round. Data only; report/ words it.
import { median } from 'simple-statistics';
import { meanInterval } from './ratio.js';

/**
 * @typedef {import('./samples.js').WindowAccount} WindowAccount
 * @typedef {import('./samples.js').Slice} Slice
 * @typedef {'workers'|'procs'} Mode
 */

/**
 * A cell's account: its workers' windows summed, with their ops; a field is null when any
 * worker lacks it. The tenths are summed across workers, tenth by tenth.
 * @typedef {object} CellAccount
 * @property {number} ops
 * @property {number} wallNs  the workers' timed windows, summed
 * @property {number | null} cpuNs
 * @property {number | null} runqNs
 * @property {number | null} userNs
 * @property {number | null} systemNs
 * @property {WindowAccount['split']} split
 * @property {number | null} minflt
 * @property {number | null} majflt
 * @property {number | null} voluntary
 * @property {number | null} involuntary
 * @property {number | null} gcNs
 * @property {number | null} gcCount
 * @property {Record<string, string>} missing
 * @property {Slice[] | null} slices
 */

const SUMMED = /** @type {const} */ ([
  'cpuNs',
  'runqNs',
  'userNs',
  'systemNs',
  'minflt',
  'majflt',
  'voluntary',
  'involuntary',
  'gcNs',
  'gcCount',
]);

/**
 * Sums the workers' accounts of one cell; null when a worker sent none (a host from before the
 * account, or a task that failed to report).
 * @param {Array<{ ops: number, account?: WindowAccount, slices?: Slice[] }>} samples
 * @returns {CellAccount | null}
 */
export function cellAccount(samples) {
  if (!samples.length || samples.some((sample) => !sample.account)) return null;
  const accounts = samples.map((sample) => /** @type {WindowAccount} */ (sample.account));
  /** @type {Record<string, number | null>} */
  const sums = {};
  for (const field of SUMMED) {
    const values = accounts.map((account) => account[field]);
    sums[field] = values.every((value) => value !== null)
      ? values.reduce((sum, value) => sum + /** @type {number} */ (value), 0)
      : null;
  }
  const tenths = samples.every((sample) => sample.slices?.length) ? sumSlices(samples) : null;
  return {
    ops: samples.reduce((sum, sample) => sum + sample.ops, 0),
    wallNs: accounts.reduce((sum, account) => sum + account.wallNs, 0),
    cpuNs: sums.cpuNs,
    runqNs: sums.runqNs,
    userNs: sums.userNs,
    systemNs: sums.systemNs,
    split: accounts.every((account) => account.split === accounts[0].split) ? accounts[0].split : null,
    minflt: sums.minflt,
    majflt: sums.majflt,
    voluntary: sums.voluntary,
    involuntary: sums.involuntary,
    gcNs: sums.gcNs,
    gcCount: sums.gcCount,
    missing: Object.assign({}, ...accounts.map((account) => account.missing)),
    slices: tenths,
  };
}

/**
 * @param {Array<{ slices?: Slice[] }>} samples  each with its tenths
 * @returns {Slice[]}
 */
function sumSlices(samples) {
  const count = Math.min(...samples.map((sample) => sample.slices?.length ?? 0));
  return Array.from({ length: count }, (_, i) => {
    const tenth = samples.map((sample) => /** @type {Slice[]} */ (sample.slices)[i]);
    const faults = tenth.map((slice) => slice.minflt);
    return {
      ns: tenth.reduce((sum, slice) => sum + slice.ns, 0),
      ops: tenth.reduce((sum, slice) => sum + slice.ops, 0),
      minflt: faults.every((f) => f !== null) ? faults.reduce((sum, f) => sum + /** @type {number} */ (f), 0) : null,
    };
  });
}

/**
 * The lines of the account, per op. Time lines add up: wall = user + system + run queue +
 * blocked (or on-CPU + run queue + blocked, when the split is not known). The rest are what
 * explains them, and are not part of the sum.
 * @typedef {'wallNs'|'userNs'|'systemNs'|'cpuNs'|'runqNs'|'blockedNs'|'minflt'|'majflt'|'voluntary'|'involuntary'|'gcNs'|'gcCount'|'restNs'|'parentNs'|'lockWriteNs'|'lockReadNs'} LineKey
 */

/**
 * Per op values of one cell, by line; null where not counted. `restNs` is the CPU time of the
 * cell's processes outside its workers' windows and threads (the workers' process's main
 * thread, the libuv pool, V8's helper threads, setup and teardown), per op.
 * @param {CellAccount} account
 * @param {{ cpuMs: number } | undefined} machine  the cell's processes' CPU time (cell.machine)
 * @param {number} [parentCpuNs]  a task that talks to its parent: the parent's main thread's
 * @returns {Record<LineKey, number | null>}
 */
export function perOp(account, machine, parentCpuNs) {
  const per = (/** @type {number | null} */ value) => (value === null ? null : value / account.ops);
  const blocked =
    account.cpuNs === null ? null : account.wallNs - account.cpuNs - (account.runqNs === null ? 0 : account.runqNs);
  return {
    wallNs: per(account.wallNs),
    userNs: per(account.userNs),
    systemNs: per(account.systemNs),
    cpuNs: per(account.cpuNs),
    runqNs: per(account.runqNs),
    blockedNs: per(blocked),
    minflt: per(account.minflt),
    majflt: per(account.majflt),
    voluntary: per(account.voluntary),
    involuntary: per(account.involuntary),
    gcNs: per(account.gcNs),
    gcCount: per(account.gcCount),
    restNs: machine && account.cpuNs !== null ? per(Math.max(0, machine.cpuMs * 1e6 - account.cpuNs)) : null,
    parentNs: parentCpuNs === undefined ? null : per(parentCpuNs),
    lockWriteNs: null,
    lockReadNs: null,
  };
}

/**
 * A mean with its 95% Student t interval over the rounds; the interval needs 2 rounds or more.
 * @typedef {{ mean: number, ci95: [number, number] | null, n: number }} MeanStats
 */

/**
 * @param {number[]} values
 * @returns {MeanStats | null}
 */
export const meanStats = (values) => (values.length ? meanInterval(values) : null);

/**
 * The regime of one mode's cells: how the last tenth of the timed window ran against the first
 * (per op, the workers' tenths summed), the median over the cells. Above 1, the cells were
 * still getting faster: they measured a heap that was warming up.
 * @typedef {object} Regime
 * @property {number} speedup  first tenth's time per op / last tenth's
 * @property {number | null} firstFaults  page faults per op in the first tenth
 * @property {number | null} lastFaults   in the last tenth
 * @property {'warming'|'steady'|'slowing'} state
 * @property {number} cells
 * @property {number[]} tenths  time per op of each tenth, ns, the median over the cells
 */

// a last tenth this much faster (or slower) than the first is a trend, not noise
const TREND = 1.15;

/**
 * @param {CellAccount[]} accounts  one mode's, each with its tenths
 * @returns {Regime | null}
 */
export function regimeOf(accounts) {
  const sliced = accounts.flatMap((account) => (account.slices && account.slices.length >= 2 ? [account.slices] : []));
  if (!sliced.length) return null;
  const perOpOf = (/** @type {Slice} */ slice) => slice.ns / Math.max(slice.ops, 1);
  const speedup = median(sliced.map((slices) => perOpOf(slices[0]) / perOpOf(slices[slices.length - 1])));
  const faults = (/** @type {(slices: Slice[]) => Slice} */ pick) => {
    const values = sliced.flatMap((slices) => {
      const slice = pick(slices);
      return slice.minflt === null ? [] : [slice.minflt / Math.max(slice.ops, 1)];
    });
    return values.length === sliced.length ? median(values) : null;
  };
  const length = Math.min(...sliced.map((slices) => slices.length));
  return {
    speedup,
    firstFaults: faults((slices) => slices[0]),
    lastFaults: faults((slices) => slices[slices.length - 1]),
    state: speedup > TREND ? 'warming' : speedup < 1 / TREND ? 'slowing' : 'steady',
    cells: sliced.length,
    tenths: Array.from({ length }, (_, i) => median(sliced.map((slices) => perOpOf(slices[i])))),
  };
}

/**
 * What the account reads of a cell (stats/cell-summary.js's CellResult has it all): its workers' account
 * and warm-up, its processes' CPU time, its parent's, its throughput, and a traced cell's waits.
 * @typedef {{ throughput: number, totalOps: number, account?: CellAccount,
 *   machine?: { cpuMs: number }, parentCpuNs?: number,
 *   workers: Array<{ warmup?: import('./samples.js').WarmupDone }>,
 *   trace?: { write: { totalNs: number }, read: { totalNs: number } } }} AccountedCell
 */

/**
 * How one mode's workers warmed up until steady: the median per worker, and how many stopped at
 * the cap still getting faster.
 * @typedef {{ ops: number, seconds: number, capped: number, workers: number }} WarmupSummary
 * @param {AccountedCell[]} cells
 * @returns {WarmupSummary | null}
 */
function warmupOf(cells) {
  const done = cells.flatMap((cell) => cell.workers.flatMap((worker) => (worker.warmup ? [worker.warmup] : [])));
  if (!done.length) return null;
  return {
    ops: median(done.map((warmup) => warmup.ops)),
    seconds: median(done.map((warmup) => warmup.ms / 1000)),
    capped: done.filter((warmup) => warmup.capped).length,
    workers: done.length,
  };
}

/**
 * The account of a run's complete rounds: each line per op for each mode (mean over rounds with
 * its interval), and workers − procs round by round with its own interval; how much of the
 * difference in time per op the ratio saw (from throughput) the threads' own wall time leaves
 * out; each mode's regime.
 * @param {Array<{ cells: Partial<Record<Mode, AccountedCell>>, traced?: Partial<Record<Mode, AccountedCell>> }>} rounds
 *   complete ones
 * @param {Mode[]} modes
 * @param {number} k
 */
export function accountResults(rounds, modes, k) {
  /** @type {Partial<Record<Mode, Array<Record<LineKey, number | null>>>>} */
  const perRound = {};
  /** @type {Partial<Record<Mode, Array<number>>>} */
  const seen = {};
  for (const mode of modes) {
    perRound[mode] = rounds.map((round) => roundLine(round, mode));
    // what the ratio sees: k workers' elapsed time per op, from throughput
    seen[mode] = rounds.flatMap((round) => {
      const cell = round.cells[mode];
      return cell ? [(k * 1e9) / cell.throughput] : [];
    });
  }
  const keys = /** @type {LineKey[]} */ (Object.keys(emptyLine()));
  const lines = keys.map((key) => {
    /** @type {Partial<Record<Mode, MeanStats | null>>} */
    const byMode = {};
    for (const mode of modes) byMode[mode] = meanStats(valuesOf(perRound[mode] ?? [], key));
    const diff =
      modes.length === 2
        ? meanStats(
            rounds.flatMap((_, i) => {
              const [a, b] = modes.map((mode) => perRound[mode]?.[i]?.[key] ?? null);
              return a === null || b === null ? [] : [a - b];
            }),
          )
        : null;
    return { key, modes: byMode, diff };
  });
  const seenDiff =
    modes.length === 2
      ? meanStats(rounds.map((_, i) => (seen.workers?.[i] ?? NaN) - (seen.procs?.[i] ?? NaN)).filter(Number.isFinite))
      : null;
  const byMode = (/** @type {(cells: AccountedCell[]) => any} */ of) =>
    Object.fromEntries(modes.map((mode) => [mode, of(rounds.flatMap((round) => round.cells[mode] ?? []))]));
  /** @type {Partial<Record<Mode, Regime | null>>} */
  const regime = byMode((cells) => regimeOf(cells.flatMap((cell) => cell.account ?? [])));
  /** @type {Partial<Record<Mode, WarmupSummary | null>>} */
  const warmup = byMode(warmupOf);
  const split = modes
    .flatMap((mode) => rounds.map((round) => round.cells[mode]?.account?.split))
    .find((value) => value !== undefined);
  /** @type {Record<string, string>} */
  const missing = Object.assign(
    {},
    ...modes.flatMap((mode) => rounds.map((round) => round.cells[mode]?.account?.missing ?? {})),
  );
  return {
    rounds: rounds.length,
    lines: lines.filter((line) => modes.some((mode) => line.modes[mode])),
    seen: { modes: Object.fromEntries(modes.map((mode) => [mode, meanStats(seen[mode] ?? [])])), diff: seenDiff },
    regime,
    warmup,
    split: split ?? null,
    missing,
  };
}

/**
 * One round's time per op in a mode, line by line, with the traced cell's lock waits.
 * @param {{ cells: Partial<Record<Mode, AccountedCell>>, traced?: Partial<Record<Mode, AccountedCell>> }} round
 * @param {Mode} mode
 * @returns {Record<LineKey, number | null>}
 */
function roundLine(round, mode) {
  const cell = round.cells[mode];
  const values = cell?.account ? perOp(cell.account, cell.machine, cell.parentCpuNs) : null;
  if (!values || !cell) return emptyLine();
  const traced = round.traced?.[mode];
  if (traced?.trace && traced.totalOps) {
    values.lockWriteNs = traced.trace.write.totalNs / traced.totalOps;
    values.lockReadNs = traced.trace.read.totalNs / traced.totalOps;
  }
  return values;
}

/** @returns {Record<LineKey, number | null>} */
function emptyLine() {
  return {
    wallNs: null,
    userNs: null,
    systemNs: null,
    cpuNs: null,
    runqNs: null,
    blockedNs: null,
    minflt: null,
    majflt: null,
    voluntary: null,
    involuntary: null,
    gcNs: null,
    gcCount: null,
    restNs: null,
    parentNs: null,
    lockWriteNs: null,
    lockReadNs: null,
  };
}

/**
 * @param {Array<Record<LineKey, number | null>>} rows
 * @param {LineKey} key
 */
const valuesOf = (rows, key) => rows.flatMap((row) => (row[key] === null ? [] : [/** @type {number} */ (row[key])]));
