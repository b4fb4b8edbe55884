// Every sentence a result is read by, from the data stats/ returns: one CI format, one wording.
import { INTERVAL_ROUNDS, roundsForPrecision } from '../stats/stopping.js';
import { WORTH_CHANGING } from '../stats/noise.js';
import { estimate, fixed, plural, percentText } from '../words/spelling.js';
import { remedyOf, spreadCause, stoppedShort } from './spread-words.js';
import { wordsOfAccount } from './account-text.js';

/** @typedef {import('./document.js').ResultsDocument} ResultsDocument */

/**
 * What an interval is beside its confidence, by the look that read it (stats/sequential.js): a
 * sequence's holds at every round; a fixed-n one needs no words.
 * @param {string | undefined} look
 */
export const lookClause = (look) => (look === 'sequence' ? ', valid at every round' : '');

/**
 * `95% CI 0.81-0.92`: the one way an interval is printed, with its own confidence where it is not
 * 95% (a verdict's, stats/sequential.js); `label: false` where a column head already says it.
 * @param {[number, number]} ci
 */
export const formatCI = ([low, high], { label = true, confidence = 0.95 } = {}) =>
  `${label ? `${percentText(confidence, 2)} CI ` : ''}${estimate(low)}-${estimate(high)}`;

/**
 * `0.83 (95% CI 0.81-0.92)`, or the median alone while there is no interval; `unit` follows the
 * figures. Beside its interval the estimate is the interval's own centre, the geometric mean of
 * the per-round ratios (a t interval on logs), so the figure always lies inside its interval;
 * the median of skewed rounds need not.
 * @param {{ median: number, geomean?: number, ci95: [number, number] | null, n?: number, confidence?: number }} stats
 *   confidence: of an interval that is not a 95% one (a verdict's)
 * @param {{ label?: boolean }} [options]
 */
export const withCI = ({ median, geomean, ci95, n = 3, confidence }, unit = '', options = {}) =>
  // with fewer than 3 rounds a t interval is too wide to mean anything (0.00-622481.81)
  ci95 && n >= 3
    ? `${estimate(geomean ?? median)}${unit} (${formatCI(ci95, { confidence, ...options })})`
    : `${estimate(median)}${unit}`;

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
  // signed as shown: −0.3 ms at no decimals is 0 ms, not −0
  const shown = Math.abs(value).toFixed(digits);
  const sign = Number(shown) === 0 ? '' : value > 0 ? '+' : '−';
  const signed = `${sign}${shown}`;
  return `${signed}${ci95 ? ` ±${((ci95[1] - ci95[0]) / 2).toFixed(digits)}` : ''} ${unit}`;
};

/** A relative half-width as printed: `±4.9%`. */
export const pct = (/** @type {number} */ fraction) => `±${(fraction * 100).toFixed(1)}%`;
/** A wall time as printed: `40 s`, `4 min`. */
export const about = (/** @type {number} */ seconds) =>
  seconds < 1
    ? `${Number(seconds.toPrecision(2))} s`
    : seconds < 90
      ? `${Math.round(seconds)} s`
      : seconds < 90 * 60
        ? `${Math.round(seconds / 60)} min`
        : seconds < 48 * 3600
          ? `${Math.round(seconds / 3600)} h`
          : // past that no run is waited out: a count of days says so, without an exponent
            seconds < 1000 * 86400
            ? `${Math.round(seconds / 86400)} days`
            : 'more than 1000 days';

/**
 * A --max-time as the user gave it (1.5 s, not about 2 s), in minutes when it is whole minutes.
 * @param {number} seconds
 */
export const budgetOf = (seconds) =>
  seconds >= 90 && seconds % 60 === 0 ? `${seconds / 60} min` : `${Number(seconds.toPrecision(6))} s`;

/**
 * The stop rule in words, one way for every command that prints it: `until decided: one arm
 * faster, or equal within ±10%`, `until its ratio is known to ±5%`, or the rounds asked for.
 * @param {{ rounds: number | null, precision?: number | null, sequential?: boolean, margin?: number }} rule
 *   a document's config or a plan's stop
 */
export const ruleText = ({ rounds, precision, sequential, margin }) =>
  rounds !== null
    ? plural(rounds, 'round')
    : sequential
      ? `until decided: one mode faster, or equal within ±${percentText(margin ?? 0, 2)}`
      : `until its ratio is known to ±${percentText(precision ?? 0, 2)}`;

/**
 * About how many rounds in all would bring the ratio's interval to the run's target, if its rounds
 * stayed as far apart as they were, and what a round took (the run's time over its rounds,
 * calibration included); null where there is no interval, or no count within reach.
 * @param {Pick<ResultsDocument, 'ratio' | 'config' | 'seconds'>} document
 */
export function roundsToTarget({ ratio, config, seconds }) {
  const n = ratio?.n ?? 0;
  return {
    more: ratio && config.precision ? roundsForPrecision(ratio, config.precision) : null,
    perRound: n ? seconds / n : null,
  };
}

/**
 * What the rounds' split says of waiting (stats/noise.js): how long the target takes here, and
 * why. A window length that would save WORTH_CHANGING or more is named as --duration; else, where
 * most of the noise is between trees, `: the trees disagree by themselves` (more of each tree
 * would not narrow what differs between trees). Empty without a split, or once the target was
 * reached. `short`: the stop line's, which has said the time already: the why alone.
 * @param {Pick<ResultsDocument, 'noise' | 'config' | 'stop'>} document
 * @param {{ short?: boolean }} [options]
 */
export function floorText({ noise, config, stop }, { short = false } = {}) {
  if (!noise?.floor || noise.seconds === null || stop === 'precision' || !config.precision) return '';
  const needs = `; ${pct(config.precision)} needs about`;
  if (noise.floor.seconds <= (1 - WORTH_CHANGING) * noise.seconds) {
    const duration = Number(((config.duration ?? 0.1) * noise.floor.scale).toPrecision(2));
    return short
      ? `; with --duration ${duration} about ${about(noise.floor.seconds)} in all`
      : `${needs} ${about(noise.floor.seconds)} here with --duration ${duration} (${about(noise.seconds)} with this run's)`;
  }
  const trees = noise.trees >= 0.5 ? ': the trees disagree by themselves' : '';
  if (short)
    return (
      trees &&
      `; ${percentText(noise.trees)} of the rounds' spread is between fresh trees, which only more rounds narrow`
    );
  return `${needs} ${about(noise.seconds)} here${trees}`;
}

/**
 * Why the rounds stopped, in one line: the precision reached, or the budget spent and about how
 * much longer would reach the target.
 * @param {Pick<ResultsDocument, 'stop' | 'ratio' | 'config' | 'seconds' | 'shortBudget' | 'spread' | 'environment' | 'noise'>} document
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
  if (stop === 'decided') return `stopped: decided after ${rounds}`;
  if (stop === 'max-time') {
    const reached =
      ratio?.halfWidth === null || ratio?.halfWidth === undefined ? 'no interval yet' : `${pct(ratio.halfWidth)}`;
    const { more, perRound } = roundsToTarget(document);
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
    return `stopped: the ${config.maxTime ? budgetOf(config.maxTime) : about(seconds)} budget ran out at ${reached} after ${rounds}${why}${extra.replace(/^; /, why ? ' ' : '; ')}${extra ? floorText(document, { short: true }) : ''}`;
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
export function shortBudgetText({ maxTime, counted, roundSeconds, pilot, suggestMaxTime, points }, seconds) {
  const give = `give --max-time ${suggestMaxTime} or more`;
  if (roundSeconds === null)
    return `no round ran within the ${budgetOf(maxTime)} budget: calibrating took ${about(seconds)}; ${give}`;
  // a sweep's round is one of each point: what the points that ran one took, times their count
  const took = points
    ? `a round of the ${points} points that can run would take ${about(roundSeconds)} (${about(roundSeconds / points)} a point)`
    : null;
  if (counted === 0) {
    const sized = pilot ? ' and sized the cells (it counts in no figure)' : '';
    return `no round counted within the ${budgetOf(maxTime)} budget: ${took ? `${took}, and a point's first round sizes its cells (it counts in no figure)` : `the first round took ${about(roundSeconds)}${sized}`}; ${give}`;
  }
  const rounds = `${plural(counted, 'round')}`;
  return `the ${budgetOf(maxTime)} budget ran out after ${rounds} in ${about(seconds)}, too few for an interval (${INTERVAL_ROUNDS} or more): ${took ?? `a round took ${about(roundSeconds ?? 0)}`}; ${give}`;
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
  const left = `${processes} process${processes === 1 ? '' : 'es'} running when ${cells.length === 1 ? 'its cell' : `${cells.length} of its cells`} ended; mmapbench killed them`;
  // a --node script that execs node may have started them before its exec
  const wrapper = /** @type {any} */ (document).environment?.node?.wrapper
    ? /** @type {any} */ (document).environment.node.path
    : null;
  return wrapper
    ? `the task, or the --node script ${wrapper} before it ran node, left ${left}: end the processes a task starts in its teardown, and a script's before it execs node`
    : `the task left ${left}: end the processes a task starts in its teardown`;
}

/**
 * What a run's task wrote that its cells' streams could not hold (run/task-output.js), in a line; null when none.
 * @param {object} document
 * @returns {string | null}
 */
export function droppedOutputText(document) {
  const cells = cellsIn(document).filter((cell) => cell.droppedOutput);
  if (!cells.length) return null;
  const bytes = cells.reduce((sum, cell) => sum + cell.droppedOutput, 0);
  const size = bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `the task wrote to stdout or stderr faster than it is written out: ${size} past the 1 MiB a stream may hold queued was dropped, in ${cells.length === 1 ? 'one cell' : `${cells.length} cells`}, so that its output could not fill the memory: print less in an op, or wait for write's callback`;
}

// The account in words is drawn when a document is shown, for a live run and a saved file alike
// (compare's verdict and what to try next: commands/compare/words.js); a file saved before kept
// its words (`account.words`), which are read as they were saved.

/**
 * The account in words: what differs between the modes' time per op, what is left unexplained,
 * whether the cells were still warming up, what to try.
 * @param {any} account  a compare's or a sweep point's
 * @param {any} document  the run it is of (its arms, whether it was traced, its protocol)
 * @returns {import('./account-text.js').AccountWords | null}
 */
export function accountWordsOf(account, document) {
  if (!account) return null;
  return account.words ?? wordsOfAccount(account, document);
}

/**
 * Where the rounds' noise lives, for --verbose (stats/noise.js): `noise: the rounds' log ratios
 * spread by 0.30 (sd), 91% of it between fresh trees and 9% between windows of a tree`, what a
 * round's two trees shared, and what that says of waiting (floorText). Null without a split.
 * @param {Pick<ResultsDocument, 'noise' | 'config' | 'stop'>} document
 */
export function noiseText(document) {
  const { noise } = document;
  if (!noise) return null;
  const drift =
    noise.drift > 0
      ? `; a round's two trees ran ${fixed(noise.drift)} faster or slower together (the machine's drift), which their ratio cancels`
      : '';
  const floor = floorText({ ...document, stop: null });
  return `noise: the rounds' log ratios spread by ${fixed(noise.sd)} (sd), ${percentText(noise.trees)} of it between fresh trees and ${percentText(noise.windows)} between windows of a tree (each window's halves)${drift}${floor}`;
}
