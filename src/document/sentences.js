// Every sentence a result is read by, from the data stats/ returns: one CI format, one wording.
import { BUFFER_OPTION, hasBufferOption } from '../reference/node-changes.js';
import { sideOf } from '../stats/ratio.js';
import { INTERVAL_ROUNDS, roundsForPrecision } from '../stats/stopping.js';
import { syscallMeaning } from '../trace/syscalls.js';
import { fixed, ops, seconds, listed, plural } from '../words/spelling.js';
import { remedyOf, spreadCause, spreadNext, stoppedShort } from './spread-words.js';
import { wordsOfAccount } from './account.js';

/** @typedef {import('./document.js').ResultsDocument} ResultsDocument */

/**
 * `95% CI 0.81-0.92`: the one way an interval is printed; `label: false` where a column head
 * already says it.
 * @param {[number, number]} ci
 */
export const formatCI = ([low, high], { label = true } = {}) => `${label ? '95% CI ' : ''}${fixed(low)}-${fixed(high)}`;

/**
 * `0.83 (95% CI 0.81-0.92)`, or the median alone while there is no interval; `unit` follows the
 * figures. Beside its interval the estimate is the interval's own centre, the geometric mean of
 * the per-round ratios (a t interval on logs), so the figure always lies inside its interval;
 * the median of skewed rounds need not.
 * @param {{ median: number, geomean?: number, ci95: [number, number] | null, n?: number }} stats
 * @param {{ label?: boolean }} [options]
 */
export const withCI = ({ median, geomean, ci95, n = 3 }, unit = '', options = {}) =>
  // with fewer than 3 rounds a t interval is too wide to mean anything (0.00-622481.81)
  ci95 && n >= 3 ? `${fixed(geomean ?? median)}${unit} (${formatCI(ci95, options)})` : `${fixed(median)}${unit}`;

/**
 * A measure's workers/procs contrast as a table cell: the ratio with its interval, or, for a
 * measure compared as workers − procs, the signed difference with its interval's half-width, in
 * its unit (`+20.7 ±1.6 MiB`).
 * @param {import('../stats/ratio.js').RatioStats} stats
 * @param {{ unit: string, digits: number }} measure
 */
export const contrastCell = (stats, measure) => {
  if (!stats.difference) return withCI(stats, '', { label: false });
  if (!stats.ci95 || stats.n < 3) return differenceText(stats.median, null, measure);
  return differenceText(stats.geomean, stats.ci95, measure);
};

/**
 * A signed difference in its unit, with its interval's half-width where it has one (a t interval
 * on differences is symmetric about its mean): `+20.7 ±1.6 MiB`, `−0.3 MiB`.
 * @param {number} value
 * @param {[number, number] | null} ci95
 * @param {{ unit: string, digits: number }} measure
 */
export const differenceText = (value, ci95, { unit, digits }) => {
  const signed = `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(digits)}`;
  return `${signed}${ci95 ? ` ±${((ci95[1] - ci95[0]) / 2).toFixed(digits)}` : ''} ${unit}`;
};

/** A ratio as printed: two decimals, but never a wall of digits from a 2-round interval. */
const r = (/** @type {number} */ value) => (value >= 100 ? '>100' : value < 0.01 ? '<0.01' : fixed(value));
/** A relative half-width as printed: `±4.9%`. */
export const pct = (/** @type {number} */ fraction) => `±${(fraction * 100).toFixed(1)}%`;
/** A wall time as printed: `40 s`, `4 min`. */
export const about = (/** @type {number} */ seconds) =>
  seconds < 1
    ? `${Number(seconds.toPrecision(2))} s`
    : seconds < 90
      ? `${Math.round(seconds)} s`
      : `${Math.round(seconds / 60)} min`;

/** The arms' names: workers and procs, or A and B in an A/A run. */
const arms = (/** @type {{ aa?: string | null } | undefined} */ document) =>
  document?.aa ? ['A', 'B'] : ['workers', 'procs'];

/**
 * One sentence a person can act on, from the ratio and its verdict; `results` adds why the run
 * stopped and which option would tighten the interval (only options that apply).
 * @param {import('../stats/ratio.js').RatioStats} ratio
 * @param {import('../stats/ratio.js').Verdict} verdict
 * @param {Pick<ResultsDocument, 'aa' | 'config' | 'stop' | 'ratio' | 'calibration'>} [document]  the
 *   results document, for its stop, config and A/A arms
 */
export function verdictText(ratio, verdict, document) {
  const { median, ci95, n } = ratio;
  const [a, b] = arms(document);
  if (!ci95 || n < 3) {
    return `${a}/${b} ratio ${r(median)} from ${plural(n, 'round')}: too few for a meaningful interval (3 or more)`;
  }
  const ci = `95% CI ${r(ci95[0])}-${r(ci95[1])}`;
  // the interval's centre, as withCI prints it
  const centre = ratio.geomean ?? median;
  if (verdict.faster === 'procs')
    return `${b} ${document?.aa ? 'is' : 'are'} ${fixed(1 / centre)}x faster than ${a} (95% CI ${r(1 / ci95[1])}-${r(1 / ci95[0])})`;
  if (verdict.faster === 'workers')
    return `${a} ${document?.aa ? 'is' : 'are'} ${fixed(centre)}x faster than ${b} (${ci})`;
  return `no significant difference: ${a}/${b} ratio ${r(centre)} (${ci} spans 1)${tighten(document)}`;
}

/**
 * What would tighten an interval that spans 1, naming only options that apply to this run.
 * @param {Pick<ResultsDocument, 'config' | 'stop' | 'ratio' | 'calibration'>} [document]
 */
function tighten(document) {
  const config = document?.config;
  if (!document || !config) return '';
  if (config.quick) return '; --quick measures nothing: run without it';
  if (document.stop === 'precision' && typeof document.ratio?.halfWidth === 'number')
    return `; known to ${pct(document.ratio.halfWidth)}, so any difference is smaller than that`;
  if (document.stop === 'max-time') return ''; // stopText says what would decide it
  return config.iterations && document.calibration
    ? '; more --rounds or a longer --duration would tighten it'
    : '; more --rounds would tighten it';
}

/**
 * Why the rounds stopped, in one line: the precision reached, or the budget spent and about how
 * much longer would reach the target.
 * @param {Pick<ResultsDocument, 'stop' | 'ratio' | 'config' | 'seconds' | 'shortBudget' | 'spread' | 'environment'>} document
 * @param {{ tables?: boolean }} [options]  tables: the account's table is printed above the line
 * @returns {string | null}
 */
export function stopText(document, { tables = true } = {}) {
  const { stop, ratio, config, seconds, shortBudget } = document;
  if (shortBudget) return `stopped: ${shortBudgetText(shortBudget, seconds)}`;
  const n = ratio?.n ?? 0;
  const rounds = `${plural(n, 'round')} in ${about(seconds)}`;
  // a run that stops on precision or time has both (plan.js sets them when --rounds is not given)
  const precision = config.precision ?? 0;
  if (stop === 'precision')
    return `stopped: ${pct(ratio?.halfWidth ?? 0)} reached (target ${pct(precision)}) after ${rounds}`;
  if (stop === 'max-time') {
    const reached =
      ratio?.halfWidth === null || ratio?.halfWidth === undefined ? 'no interval yet' : `${pct(ratio.halfWidth)}`;
    const more = ratio ? roundsForPrecision(ratio, precision) : null;
    const perRound = n ? seconds / n : null;
    const extra =
      more && perRound
        ? `; about ${more - n} more rounds (~${about((more - n) * perRound)}) would reach ${pct(precision)}: --max-time ${Math.ceil(seconds + (more - n) * perRound)}`
        : '';
    // a spread the account explains is said before more minutes: removing it may be the cheaper way
    const cause = stoppedShort(document) ? spreadCause(document) : null;
    const remedy = cause ? remedyOf(cause.key, { glibc: Boolean(document.environment?.glibc) }) : null;
    const why = cause
      ? `; the cells disagree with their ${cause.words} per op${tables ? ' (above)' : ''}${remedy ? `, ${remedy}` : ''}${extra ? '; else' : ''}`
      : '';
    return `stopped: the ${about(config.maxTime ?? seconds)} budget ran out at ${reached} after ${rounds}${why}${extra.replace(/^; /, why ? ' ' : '; ')}`;
  }
  if (stop === 'rounds') return `stopped: the ${rounds} asked for`;
  return null;
}

/**
 * A budget that ran out before an interval, in one line with the budget as given and the one to
 * give instead; with no round counted it is also the error line the command exits 6 with.
 * @param {NonNullable<ResultsDocument['shortBudget']>} short
 * @param {number} seconds  the run's wall time
 */
export function shortBudgetText({ maxTime, counted, roundSeconds, pilot, suggestMaxTime }, seconds) {
  const give = `give --max-time ${suggestMaxTime} or more`;
  if (roundSeconds === null)
    return `no round ran within the ${about(maxTime)} budget: calibrating took ${about(seconds)}; ${give}`;
  if (counted === 0) {
    const sized = pilot ? ' and sized the cells (it counts in no figure)' : '';
    return `no round counted within the ${about(maxTime)} budget: the first round took ${about(roundSeconds)}${sized}; ${give}`;
  }
  const rounds = `${plural(counted, 'round')}`;
  return `the ${about(maxTime)} budget ran out after ${rounds} in ${about(seconds)}, too few for an interval (${INTERVAL_ROUNDS} or more): a round took ${about(roundSeconds ?? 0)}; ${give}`;
}

/**
 * What of the user's environment changes a Node start, as start-up was measured: a child
 * process pays it at every start, a thread does not. Null when the shell sets none of it, or
 * the run measured no start-up.
 * @param {{ environment?: { startupEnv?: { given: string[], withheld: string[] } }, workers?: any, procs?: any }} document
 * @returns {string | null}
 */
export function startupEnvText({ environment, workers, procs }) {
  const env = environment?.startupEnv;
  if (!env || !(workers?.readyMs || procs?.readyMs)) return null;
  const parts = [];
  if (env.given.length)
    parts.push(
      `with ${listed(env.given, 'and')} from your environment, which each child process pays at its start and a thread does not`,
    );
  if (env.withheld.length)
    parts.push(
      `without ${listed(env.withheld, 'and')} from your environment, which each child process would pay at its start and a thread would not: --inherit-env measures with ${env.withheld.length === 1 ? 'it' : 'them'}`,
    );
  return parts.length ? `start-up ran ${parts.join('; and ')}` : null;
}

/**
 * A document kept after a round of a run that did not finish (killed, or still going), or one
 * stopped early: how to go on with it. Null for a finished run, one that kept no settings to go
 * on with, or one that measured nothing (and so was not saved).
 * @param {{ command: string, status: string, resume?: unknown }} document
 * @returns {string | null}
 */
export function resumeText(document) {
  const { command, status, resume } = document;
  if (status === 'complete' || !resume || !measuredIn(document)) return null;
  const how = `\`mmapbench ${command} --resume FILE\` with this file goes on with it, with the settings it was started with`;
  return status === 'incomplete'
    ? `incomplete: kept after every round of a run that did not finish (killed, or still running); ${how}`
    : `${status}: ${how}`;
}

/**
 * How long the cells were, and how the first round sized them: the calibration's work, kept or
 * resized. Null when the work was fixed (--iterations, --quick) or no round finished.
 * @param {Pick<ResultsDocument, 'sizing'>} document
 * @returns {string | null}
 */
export function sizingText({ sizing }) {
  if (!sizing) return null;
  const ran = `the calibration's ${ops(sizing.calibrated)} ops per worker ran ${seconds(sizing.pilotWindowNs)} in the first round`;
  if (sizing.byMode)
    return `cells of ${seconds(sizing.targetNs)}: ${ran}, its modes' windows far apart, so each mode's rounds after it ran their own: ${Object.entries(
      sizing.byMode,
    )
      .map(([mode, n]) => `${mode} ${ops(/** @type {number} */ (n))}`)
      .join(', ')} (the first counts in no figure)`;
  return sizing.resized
    ? `cells of ${seconds(sizing.targetNs)}: ${ran}, so the rounds after it ran ${ops(sizing.iterations)} (the first counts in no figure)`
    : `cells of ${seconds(sizing.targetNs)}: ${ran}`;
}

/** The tasks a fresh Buffer per readFileSync is what they measure. */
const READS_A_NEW_BUFFER = ['readfilesync', 'pool-size'];

/**
 * Node's own fix, first, for a task that reads into a new Buffer: on a Node with readFileSync's
 * buffer option, the task that uses it; on one without, the releases that have it.
 * @param {{ config?: { task?: { name: string } }, environment?: { node: { version: string } } }} document
 */
function nodeFix({ config, environment }) {
  if (!config?.task || !environment || !READS_A_NEW_BUFFER.includes(config.task.name)) return '';
  return hasBufferOption(environment.node.version)
    ? "; Node's own fix first: `--task readfilesync-into` (readFileSync into one buffer, which this Node can)"
    : `; Node's own fix, readFileSync into one buffer, needs Node ${BUFFER_OPTION.since.join(' or ')} and up: \`--task readfilesync-into --node 26\``;
}

/** The published mitigations, as the options that measure them. */
const MITIGATIONS = ['--task reuse-buffer', '--task pool-size', '--env MALLOC_ARENA_MAX=1'];

/**
 * What to run next, after the verdict.
 * @param {Pick<ResultsDocument, 'verdict' | 'ratio' | 'aa' | 'account'> &
 *   Partial<Pick<ResultsDocument, 'config' | 'environment' | 'stop' | 'spread'>>} document
 * @returns {string | null}
 */
export function nextStep(document) {
  const { verdict, ratio, aa } = document;
  if (aa) {
    return ratio?.halfWidth
      ? `A/A: both arms ran ${aa}; this interval is the noise floor here: a workers/procs difference within ${pct(ratio.halfWidth)} cannot be told apart`
      : null;
  }
  if (document.config?.task?.parent) return messageNext(document);
  // the account says where the difference went: what to try follows from it
  const advice = document.account ? wordsOfAccount(document.account, document).advice : null;
  const fix = verdict?.faster === 'procs' ? nodeFix(document) : '';
  if (verdict?.significant && advice) return `next: ${advice}${fix}`;
  if (verdict?.faster === 'procs') {
    // not the task that was measured: a run of reuse-buffer is told of the others
    const others = MITIGATIONS.filter((flag) => flag !== `--task ${document.config?.task?.name}`);
    return fix
      ? `next: \`mmapbench trace compare\` shows whether mmap_lock waits explain it${fix}; or ${others.join(', ')}`
      : `next: \`mmapbench trace compare\` shows whether mmap_lock waits explain it; measure the mitigations with ${listed(others, 'or')}`;
  }
  if (verdict?.faster === 'workers')
    return 'next: threads lose nothing here at this k; try the k you deploy (-k) and your own task (--task)';
  return spreadNext(document);
}

/**
 * What to try after a run of the message task: the other ways its message could cross.
 * @param {{ config?: { params?: Record<string, any> } }} document
 */
function messageNext({ config }) {
  const params = config?.params ?? {};
  const sweep =
    '`mmapbench sweep --task message --size 100,4k,64k,1m --shape object,buffer` shows where the modes cross';
  if (params.message !== undefined)
    return `next: ${params.serialization === 'advanced' ? '' : '--serialization advanced sends them to processes as the structured clone threads use; '}${sweep}`;
  if (params.shape === 'buffer' && params.serialization !== 'advanced')
    return `next: a Buffer crosses a process's json channel as an array of numbers: --serialization advanced sends its bytes; to a thread, --shape transfer moves it without a copy; ${sweep}`;
  if (params.shape === 'object' || params.shape === 'json')
    return `next: --shape ${params.shape === 'object' ? 'json' : 'object'} sends it the other way${params.serialization === 'advanced' ? '' : ', --serialization advanced as the structured clone'}; ${sweep}`;
  return `next: ${sweep}`;
}

/**
 * One sentence on the per-acquisition wait, the figure that tells contention from volume.
 * @param {NonNullable<import('./document.js').TraceSection['ratios']>} ratios
 */
export function traceReading({ avgWrite, totalWrite }) {
  if (!avgWrite) return 'no write acquisitions in one of the modes: nothing to compare';
  // beside an interval, its centre (see withCI)
  const centre = (/** @type {import('../stats/ratio.js').RatioStats} */ stats) =>
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
  return `${mode}: ${Math.round((top.totalNs / total) * 100)}% of the write wait (${Math.round((top.count / acquisitions) * 100)}% of write acquisitions) is under ${top.name}${meaning ? ` (${meaning})` : ''}`;
}

const share = (/** @type {number} */ fraction) =>
  `${fraction < 0.001 ? (fraction * 100).toFixed(3) : (fraction * 100).toFixed(2)}%`;

/**
 * How much of the threads' time the lock took, beside the throughput gap it might explain: an
 * upper bound, since a thread that stops waiting may still not run.
 * @param {Pick<import('./document.js').TraceSection, 'modes'>} trace  the results' trace section
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

/**
 * Every cell a run finished: a compare's rounds', or a sweep's points' rounds'.
 * @param {object} document  a results document, or one being built
 * @returns {Array<Record<string, any>>}
 */
const cellsIn = (document) =>
  /** @type {Array<{ rounds?: Array<Record<string, any>> }>} */ (
    'points' in document && Array.isArray(document.points) ? document.points : [document]
  )
    .flatMap((part) => part.rounds ?? [])
    .flatMap((round) => [round.workers, round.procs].filter(Boolean));

/**
 * Whether any cell of a run finished. A run that measured nothing is not saved, so nothing says
 * how to go on with it.
 * @param {object} document
 */
export const measuredIn = (document) => cellsIn(document).length > 0;

/**
 * What a run's task left running when its cells ended (and mmapbench killed), in a line; null
 * when it left nothing.
 * @param {object} document
 * @returns {string | null}
 */
export function straysText(document) {
  const cells = cellsIn(document).filter((cell) => cell.strays);
  if (!cells.length) return null;
  const processes = cells.reduce((sum, cell) => sum + cell.strays, 0);
  return `the task left ${processes} process${processes === 1 ? '' : 'es'} running when ${cells.length === 1 ? 'its cell' : `${cells.length} of its cells`} ended; mmapbench killed them: end the processes a task starts in its teardown`;
}

// The sentences a document's figures make, drawn when it is shown: the verdict, the account in
// words, what to try next. A run saves the figures, kinds and codes; these are made from them,
// for a live run and a saved file alike. A file saved before kept the sentences themselves
// (`verdict.text`, `account.words`, `next`): those are read as they were saved.

/**
 * The verdict in a sentence: `procs are 1.16x faster than workers (95% CI 1.08-1.26)`.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function verdictWords(document) {
  const { verdict, ratio } = document;
  if (!verdict || !ratio) return null;
  return typeof verdict.text === 'string' ? verdict.text : verdictText(ratio, verdict, document);
}

/**
 * The account in words: what differs between the modes' time per op, what is left unexplained,
 * whether the cells were still warming up, what to try.
 * @param {any} account  a compare's or a sweep point's
 * @param {any} document  the run it is of (its arms, whether it was traced, its protocol)
 * @returns {import('./account.js').AccountWords | null}
 */
export function accountWordsOf(account, document) {
  if (!account) return null;
  return account.words ?? wordsOfAccount(account, document);
}

/**
 * What to run next, after the verdict: null for a run of one mode, or without a ratio.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function nextWords(document) {
  if ('next' in document) return document.next ?? null;
  return document.ratio ? nextStep(document) : null;
}
