// What one crash took down, in words (compare --fault, run/fault-cell.js): one line for the
// answer, the page and report, and the words diff compares by.

/**
 * @typedef {import('../run/fault-cell.js').FaultRound} FaultRound
 * @typedef {import('../run/fault-cell.js').FaultOutcome} FaultOutcome
 */

/** Each kind as a reader names the failure. */
export const FAULT_NAMES = {
  throw: 'uncaught throw',
  exit: 'process.exit()',
  abort: 'abort (SIGABRT, as a native crash)',
  oom: 'JavaScript heap OOM',
  'native-oom': 'native-memory OOM (the kernel OOM killer)',
};

/** A figure in ms as the line gives it. @param {number} ms */
const msText = (ms) => (ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`);

/**
 * One mode's outcome: `the app and 2 of 2 workers` where the app died; else `1 of 2 workers,
 * noticed in 4.0 ms, replaced in 40 ms, at full speed in 120 ms`, and its stalled requests.
 * @param {FaultOutcome | { error: string }} outcome
 * @param {number} k
 */
export function outcomeText(outcome, k) {
  if ('error' in outcome) return `no answer: its round failed (${outcome.error})`;
  if (!outcome.appSurvived) return `the app and ${outcome.workersLost} of ${k} workers (${outcome.event})`;
  if (outcome.workersLost === 0) return 'nothing (the task handled it and kept its worker alive)';
  const parts = [`${outcome.workersLost} of ${k} workers`];
  if (outcome.noticeMs !== null) parts.push(`noticed in ${msText(outcome.noticeMs)}`);
  if (outcome.replaceMs !== null) parts.push(`replaced in ${msText(outcome.replaceMs)}`);
  if (outcome.fullSpeedMs !== null) parts.push(`at full speed in ${msText(outcome.fullSpeedMs)}`);
  if (outcome.failedRequests) parts.push(`${outcome.failedRequests} of ${outcome.requests} requests stalled`);
  return parts.join(', ');
}

/**
 * The answer's line: `one abort (SIGABRT, as a native crash) took down: with workers, the app and
 * 2 of 2 workers (SIGABRT); with procs, 1 of 2 workers, noticed in 7.0 ms, replaced in 36 ms`.
 * Null without a fault round.
 * @param {{ fault?: FaultRound, config: { k: number } }} document
 */
export function faultText({ fault, config }) {
  if (!fault) return null;
  const modes = /** @type {const} */ (['workers', 'procs']).flatMap((mode) => {
    const outcome = fault[mode];
    return outcome ? [`with ${mode}, ${outcomeText(outcome, config.k)}`] : [];
  });
  const unrun = fault.unrun
    ? `--fault ${fault.kind}: ${modes.length ? 'no further' : 'no'} fault round ran, --max-time being spent by the rounds before it; a longer --max-time (or --rounds) leaves room`
    : null;
  if (!modes.length) return unrun;
  return [`one ${FAULT_NAMES[fault.kind]} took down: ${modes.join('; ')}`, unrun].filter(Boolean).join('; ');
}

/**
 * What changed between two runs' fault rounds (diff): each mode's outcome in both, and whether it
 * changed. One fault round is one reading: the times compared carry no interval.
 * @param {FaultRound | null} base
 * @param {FaultRound | null} next
 * @param {{ base: number, new: number }} k  each run's k
 * @returns {{ kind: { base: string | null, new: string | null }, modes: Array<{ mode: 'workers'|'procs',
 *   base: string | null, new: string | null, changed: boolean }> }}
 */
export function faultDiff(base, next, k) {
  const survived = (/** @type {FaultRound | null} */ round, /** @type {'workers'|'procs'} */ mode) => {
    const outcome = round?.[mode];
    return !outcome || 'error' in outcome ? null : `${outcome.appSurvived}/${outcome.workersLost}`;
  };
  return {
    kind: { base: base?.kind ?? null, new: next?.kind ?? null },
    modes: /** @type {const} */ (['workers', 'procs']).map((mode) => {
      const [was, is] = [base?.[mode], next?.[mode]];
      return {
        mode,
        base: was ? outcomeText(was, k.base) : null,
        new: is ? outcomeText(is, k.new) : null,
        // what it took down: whether the app lived, and how many workers it lost
        changed: base?.kind !== next?.kind || survived(base, mode) !== survived(next, mode),
      };
    }),
  };
}
