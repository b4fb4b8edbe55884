// compare's sentences, drawn when a document is shown (a live run and a saved file alike): the
// verdict, what start-up ran with, how the cells were sized, and what to run next. A file saved
// before kept its verdict and `next`, which are read as they were saved (verdictWords, nextWords).
import { about, lookClause, pct } from '../../document/sentences.js';
import { plural, fixed, ops, seconds, listed, percentText } from '../../words/spelling.js';
import { wordsOfAccount } from '../../document/account-text.js';
import { spreadNext } from '../../document/spread-words.js';
import { BUFFER_OPTION, hasBufferOption } from '../../reference/node-changes.js';

/**
 * @typedef {import('../../document/document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {'workers'|'procs'} Mode
 */

/** A ratio as printed: two decimals, but never a wall of digits from a 2-round interval. */
const r = (/** @type {number} */ value) => (value >= 100 ? '>100' : value < 0.01 ? '<0.01' : fixed(value));

/** The arms' names: workers and procs, or A and B in an A/A run. */
const arms = (/** @type {{ aa?: string | null } | undefined} */ document) =>
  document?.aa ? ['A', 'B'] : ['workers', 'procs'];

/**
 * One sentence a person can act on, from the ratio and its verdict: which arm is faster, equal
 * within the margin, or what an undecided interval ruled out; `results` adds why the run
 * stopped and which option would tighten the interval (only options that apply). A file saved
 * before the verdict had outcomes reads its 95% interval as it did then.
 * @param {import('../../stats/ratio.js').RatioStats} ratio
 * @param {Partial<import('../../stats/sequential.js').Verdict>} verdict
 * @param {Pick<ResultsDocument, 'aa' | 'config' | 'stop' | 'ratio' | 'calibration'>} [document]  the
 *   results document, for its stop, config and A/A arms
 */
export function verdictText(ratio, verdict, document) {
  const { median, n } = ratio;
  const ci95 = verdict.interval === undefined ? ratio.ci95 : verdict.interval;
  const [a, b] = arms(document);
  if (!ci95 || n < 3) {
    return `${a}/${b} ratio ${r(median)} from ${plural(n, 'round')}: too few for a meaningful interval (3 or more)`;
  }
  const named = intervalName(verdict);
  const is = document?.aa ? 'is' : 'are';
  // the interval's centre, as withCI prints it
  const centre = ratio.geomean ?? median;
  const outcome = verdict.outcome ?? verdict.faster ?? 'inconclusive';
  if (outcome === 'procs')
    return `${b} ${is} ${fixed(1 / centre)}x faster than ${a} (${named(1 / ci95[1], 1 / ci95[0])})`;
  if (outcome === 'workers') return `${a} ${is} ${fixed(centre)}x faster than ${b} (${named(ci95[0], ci95[1])})`;
  if (outcome === 'equal')
    return `${a} and ${b} are equal within ±${percentText(verdict.margin ?? 0, 2)} here: ${a}/${b} ratio ${r(centre)} (${named(ci95[0], ci95[1])})`;
  if (verdict.outcome === undefined)
    return `no significant difference: ${a}/${b} ratio ${r(centre)} (${named(ci95[0], ci95[1])} spans 1)${tighten(document)}`;
  return `inconclusive: ${b} not more than ${r(1 / ci95[0])}x faster, ${a} not more than ${r(ci95[1])}x faster (${a}/${b} ${r(centre)}, ${named(ci95[0], ci95[1])})${tighten(document)}`;
}

/**
 * How a verdict's interval is named: `95% CI 0.81-0.92`, or with its own confidence where the
 * stop rule read it (`99.5% CI 0.81-0.92, valid at every round`; `95.5% CI` at the budget).
 * @param {Partial<import('../../stats/sequential.js').Verdict>} verdict
 */
const intervalName =
  ({ confidence = 0.95, look }) =>
  (/** @type {number} */ low, /** @type {number} */ high) =>
    `${percentText(confidence, 2)} CI ${r(low)}-${r(high)}${lookClause(look)}`;

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
  const sized = sizing.resized
    ? `cells of ${seconds(sizing.targetNs)}: ${ran}, so the rounds after it ran ${ops(sizing.iterations)} (the first counts in no figure)`
    : `cells of ${seconds(sizing.targetNs)}: ${ran}`;
  return sizing.scheduled ? `${sized}; ${scheduleText(sizing.scheduled)}` : sized;
}

/**
 * What the split of the first rounds chose (run/schedule.js), as the sizing's second half.
 * @param {import('../../run/schedule.js').Scheduled} scheduled
 */
function scheduleText({ after, rounds, trees, windows, scale, seconds: left, floorSeconds }) {
  const read = `rounds ${after - rounds + 1}-${after}`;
  if (scale === 1)
    return `${read} held ${percentText(trees)} of their spread between fresh trees and ${percentText(windows)} between windows of one: no longer window reaches the target sooner, so the window stayed`;
  return `${read} held ${percentText(windows)} of their spread between windows of one tree: from round ${after + 1} windows ${scale}x as long (about ${about(floorSeconds)} to the target, against ${about(left)} more at the first length), and those rounds count in no figure`;
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
  const next = steadyNext(document);
  // fresh workers slower than fresh processes: what a user who spawns one per job can do
  const fresh = /** @type {any} */ (document).measures?.firstThroughput?.ci95;
  if (document.aa || !fresh || fresh[1] >= 1) return next;
  const pool = 'fresh workers are slow: keep them in a pool, or use processes for per-job work';
  return next ? `next: ${pool}; ${next.replace(/^next: /, '')}` : `next: ${pool}`;
}

/**
 * What to run next, from the steady verdict and the account.
 * @param {Parameters<typeof nextStep>[0]} document
 * @returns {string | null}
 */
function steadyNext(document) {
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
 * What to run next, after the verdict: null for a run of one mode, or without a ratio.
 * @param {any} document  a compare's
 * @returns {string | null}
 */
export function nextWords(document) {
  if ('next' in document) return document.next ?? null;
  return document.ratio ? nextStep(document) : null;
}
