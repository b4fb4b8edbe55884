// What a compare prints by default: the decision first. One header line, the verdict with its
// interval alone, what the workers cost the app where that differs, the trade-off in one table,
// how the run stopped, and what of why and what to run next fits a first screen. The whole text
// (every round, the account, the warm-up, the sizing) is compare.js's, printed with --verbose
// and kept in the saved file for `report FILE --verbose`.
import { cpusText } from '../../system/cpus.js';
import { envText } from '../../points/point-name.js';
import {
  about,
  budgetOf,
  withCI,
  pct,
  resumeText,
  roundsToTarget,
  stopText,
  accountWordsOf,
  lookClause,
} from '../../document/sentences.js';
import { startupEnvText, nextWords, verdictWords } from './words.js';
import { appText, costsText, cyclesText, favouredMode } from './costs.js';
import { stateText, tradeOffRows } from './model.js';
import { THROUGHPUT } from '../../points/measures.js';
import { roundsUntilHalfWidth } from '../../stats/stopping.js';
import { MARGIN } from '../../stats/sequential.js';
import { furtherMeasuresOf } from '../../points/points.js';
import { viewPoints } from '../../document/points-of.js';
import { splitText, spreadText, treesText } from '../../document/spread-words.js';
import { faultText } from '../../document/fault-words.js';
import { poolText } from '../../document/pool-words.js';
import { ops, percentText, plural } from '../../words/spelling.js';
import { fitted, linesOf, MORE, SCREEN } from '../../view/table.js';

/**
 * @typedef {import('../../document/document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {'workers'|'procs'} Mode
 */

/**
 * The run in one line: what ran, where. `mmapbench compare: readfilesync, med (64 KiB), k=2 ·
 * node v20.20.2 · 2 CPUs`, with the task's parameters and --env when given.
 * @param {ResultsDocument} document
 */
function headerLine(document) {
  const { config, environment } = document;
  const aa = document.aa ? ` (A/A: both arms ${document.aa})` : '';
  const line = (/** @type {string} */ file) =>
    `mmapbench ${document.command}${aa}: ${[
      config.task.name,
      envText(config.params),
      config.task.readsFile === false ? '' : file,
      `k=${config.k}`,
      config.semiSpaceMb ? `semi-space ${config.semiSpaceMb} MiB` : '',
      envText(config.env),
    ]
      .filter(Boolean)
      .join(', ')} · node ${environment.node.version} · ${cpusText(environment.cpu)}${stateText(document)}`;
  // one line, so the verdict stays on line 2: a file given by its path is named by its name, and
  // that cut in the middle if it is still too long (the whole path is in --verbose and the JSON)
  const label = String(config.file?.label ?? '');
  const whole = line(label);
  if (whole.length <= SCREEN.columns || !label.includes('/')) return whole;
  const name = label.slice(label.lastIndexOf('/') + 1);
  const room = name.length - (line(name).length - SCREEN.columns);
  return line(
    room >= name.length
      ? name
      : `${name.slice(0, Math.max(1, room - 1) >> 1)}…${name.slice(-(Math.max(1, room - 1) >> 1))}`,
  );
}

/**
 * Which k the default chose and why, and where the k a user deploys is measured:
 * `k=16 is the default, one per CPU; your own k: mmapbench sweep -k 1,2,4,8,16`: one line, after
 * `next:`, as the answer differs by k (on 16 CPUs, k=8 and k=16 read opposite ways). Null where -k
 * gave it.
 * @param {ResultsDocument} document
 */
export function kChosenText({ config, aa }) {
  if (!config.kDefault || aa || config.k < 2) return null;
  const ks = [];
  for (let k = 1; k < config.k; k *= 2) ks.push(k);
  return `k=${config.k} is the default, one per CPU; your own k: \`mmapbench sweep -k ${[...ks, config.k].join(',')}\``;
}

/**
 * How the run stopped, a line of its own under the answer's table (and the page's answer):
 * `known to ±4.8% after 91 rounds in 57 s`.
 * @param {ResultsDocument} document
 */
export function stoppedClause(document) {
  const { stop, ratio, config, seconds } = document;
  const n = ratio?.n ?? 0;
  const rounds = `${plural(n, 'round')}`;
  if (config.quick) return '--quick: a smoke run, not a measurement';
  if (stop === 'precision') return `known to ${pct(ratio?.halfWidth ?? 0)} after ${rounds} in ${about(seconds)}`;
  if (stop === 'decided') return `decided after ${rounds} in ${about(seconds)}`;
  if (stop === 'max-time') {
    // whether waiting helps: the time the target takes here, at the spread these rounds had (as
    // --verbose's noise line reckons it, where the run split its noise)
    const { more, perRound } = roundsToTarget(document);
    const time = document.noise?.seconds ?? (more && perRound ? more * perRound : null);
    const needs = time && config.precision ? `; ${pct(config.precision)} needs ~${about(time)} here` : '';
    const budget = `the ${config.maxTime ? budgetOf(config.maxTime) : about(seconds)} budget ran out, after ${rounds}`;
    // a run that stops once decided read its verdict at the budget's one last look
    if (config.sequential)
      return decided(document.verdict)
        ? `decided at the last look, when ${budget}`
        : `undecided at the last look, when ${budget}${decidingTime(document)}`;
    return `${ratio?.halfWidth === null || ratio?.halfWidth === undefined ? 'no interval' : pct(ratio.halfWidth)} when ${budget}${needs}`;
  }
  if (stop === 'rounds') return `after the ${rounds} asked for, in ${about(seconds)}`;
  return `after ${rounds} in ${about(seconds)}`;
}

/**
 * Which mode a measure favours, in a word: the one its interval says is better, `equal` where
 * the interval spans 1, `-` without one.
 * @param {import('../../stats/ratio.js').RatioStats | null | undefined} ratio  workers/procs
 * @param {'higher'|'lower'} better
 * @param {(mode: Mode) => string} name
 * @param {number} [margin]  the verdict's: `equal` only within it (a file from before it: spans 1)
 */
function favours(ratio, better, name, margin) {
  const favoured = favouredMode(ratio, better, margin);
  return favoured === null || favoured === 'undecided' ? '-' : favoured === 'equal' ? 'equal' : name(favoured);
}

// the rows of the default answer, after throughput, in this order: what fresh workers do (a
// worker spawned per job), then what adding the workers costs the app (and, in a file saved
// before, the old figures of the same); teardown and the workers' own op latency are --verbose's
export const ANSWER_ROWS = [
  'firstThroughput',
  'toFullSpeedMs',
  'addedMemory',
  'memoryPerWorker',
  'readyMs',
  'startUpMs',
  'mainRequestP99Us',
  'lagP99Ms',
  'loopDelayP99Ms',
  'keptMemory',
  'keptLastMemory',
  'keptGrowthPerCycle',
];

/**
 * The answer's rows (ANSWER_ROWS) the compare had, per mode and as workers/procs with its
 * interval, and which mode each favours: the trade-off a user weighs.
 * @param {ResultsDocument} document
 * @param {(mode: Mode) => string} name
 */
function tradeOff(document, name) {
  const [point] = viewPoints(document);
  const rank = (/** @type {import('../../points/measures.js').Measure} */ measure) => ANSWER_ROWS.indexOf(measure.key);
  const further = furtherMeasuresOf([point]).filter((measure) => rank(measure) !== -1);
  const measures = [THROUGHPUT, ...further.sort((a, b) => rank(a) - rank(b))];
  const { verdict, config } = document;
  const rows = tradeOffRows(point, measures).map(({ measure, ratio, cells }) => {
    const head = measure === THROUGHPUT && config.task.parent ? 'round trips' : (measure.short ?? measure.name);
    // throughput's interval and word are the verdict's, read where the stop rule read them
    if (measure === THROUGHPUT && verdict?.interval && ratio)
      return [
        head,
        cells[0],
        cells[1],
        withCI({ ...ratio, ci95: verdict.interval }, '', { label: false }),
        verdictWord(verdict, name),
      ];
    return [head, ...cells, document.aa ? '-' : favours(ratio, measure.better ?? 'higher', name, config.margin)];
  });
  // the throughput row's interval is the verdict's, of its own confidence (said under the table)
  const ci = verdict?.interval && verdict.look && verdict.look !== 'fixed' ? 'intervals' : '95% CI';
  const head = ['', name('workers'), name('procs'), `${name('workers')[0]}/${name('procs')[0]} (${ci})`, 'better'];
  return { head, rows, align: ['left', 'right', 'right', 'right', 'right'] };
}

/**
 * The verdict in the answer table's `better` column: the faster arm, `equal`, or `-`.
 * @param {import('../../stats/sequential.js').Verdict} verdict
 * @param {(mode: Mode) => string} name
 */
const verdictWord = ({ outcome }, name) =>
  outcome === 'workers' || outcome === 'procs' ? name(outcome) : outcome === 'equal' ? 'equal' : '-';

/**
 * About how long a decision would take here, were the ratio and the rounds' spread to stay as
 * they were: the rounds until the interval clears 1, or fits within the margin, whichever comes
 * first, at what a round took. Empty where no count is within reach.
 * @param {ResultsDocument} document
 */
function decidingTime(document) {
  const { ratio, config, seconds } = document;
  if (!ratio?.ci95 || !ratio.n) return '';
  const off = Math.abs(Math.log(ratio.geomean));
  const targets = [off, Math.log(1 + (config.margin ?? MARGIN)) - off].filter((target) => target > 0);
  const rounds = targets.map((target) => roundsUntilHalfWidth(ratio, target)).filter((n) => n !== null);
  if (!rounds.length) return '';
  const time = (Math.min(...rounds) * seconds) / ratio.n;
  return `; at this ratio a verdict needs ~${about(time)} here (--max-time ${Math.ceil(time / 10) * 10})`;
}

/** Whether a verdict decided: one arm faster, or equal within its margin. */
const decided = (/** @type {ResultsDocument['verdict']} */ verdict) =>
  Boolean(verdict?.significant || verdict?.outcome === 'equal');

/**
 * Which interval the table's rows give, where the verdict's is not an ordinary 95% one:
 * `; throughput's interval is the verdict's (99.5%, valid at every round), the other rows' fixed-n 95%`.
 * @param {ResultsDocument} document
 */
function intervalsNote({ verdict }) {
  if (!verdict?.interval || !verdict.look || verdict.look === 'fixed') return '';
  const every = lookClause(verdict.look) || ', at the budget';
  return `; throughput's interval is the verdict's (${percentText(verdict.confidence ?? 0, 2)}${every}), the other rows' fixed-n 95%`;
}

/**
 * How the rounds stopped, which intervals the table gives, and a cold protocol said as such;
 * null for a --quick run, whose verdict says so already.
 * @param {ResultsDocument} document
 */
function stoppedLine(document) {
  // the investigation's protocol measures cold cells: a figure to read as such
  const protocol =
    document.config.protocol === 'published'
      ? `; --protocol published: ${ops(document.config.iterations ?? 0)} iterations per worker and no warmup, as the investigation measured`
      : '';
  return document.config.quick && verdictWords(document)?.includes('--quick')
    ? null
    : `${stoppedClause(document)}${intervalsNote(document)}${protocol}`;
}

/**
 * The trees' split in two lines at most: its page faults left out where they would take a third,
 * then the plain app's shares (which --verbose's line holds).
 * @param {ResultsDocument} document
 */
const splitShort = (document) =>
  [splitText(document), splitText(document, false), splitText(document, false, false)].find(
    (text) => text === null || linesOf(text) <= 2,
  ) ?? null;

/**
 * compare's answer (and a traced compare's, before its kernel evidence).
 * @param {ResultsDocument} document
 * @returns {ReportModel}
 */
export function compareAnswer(document) {
  const name = (/** @type {Mode} */ mode) => (document.aa ? (mode === 'workers' ? 'A' : 'B') : mode);
  const stopped = stoppedLine(document);
  const [point] = viewPoints(document);
  // line 2, the verdict alone; then what adding the workers costs the app, where that differs
  // (what would tighten an undecided one, after its `;`, goes under the table)
  const [verdict, ...tighten] = document.verdict
    ? String(verdictWords(document)).split('; ')
    : [`no verdict: ${document.status === 'complete' ? 'too few rounds for an interval' : document.status}`];
  const costs = point ? costsText(document, point) : null;
  // under the table, each with its rank: what fits the screen is shown, the lowest ranks left
  // for --verbose first (how it stopped, how to go on and `more:` always)
  /** @type {Array<[text: string | null | undefined, rank: number]>} */
  const candidates = [
    [stopped, 0],
    [tighten.join('; '), 1],
    // the trees' states: where a mode's fell in two, said always, in two lines (the heap's state
    // is what the run found); else where a mode's trees differ by more than their windows
    .../** @type {Array<[string | null, number]>} */ (
      document.config.quick ? [] : splitText(document) ? [[splitShort(document), 0]] : [[treesText(document), 1]]
    ),
    // --fault: what one crash took down in each mode, asked for
    [faultText(document), 0],
    // a run that did not finish: how to go on with it
    [resumeText(document), 0],
    // --quick's cells are too short to read: its reading says only that
    [document.config.quick ? null : accountWordsOf(document.account, document)?.reading, 3],
    // how to read the start-up row: what of the shell's environment a child pays and a thread not
    [startupEnvText(document), 6],
    [appText(document, point), 4],
    [point ? cyclesText(document, point) : null, 7],
    // when it did not decide: what would (a budget that ran out says how much more, or what to
    // remove first); a decided run's interval is in its verdict
    [
      document.shortBudget || (document.stop === 'max-time' && !decided(document.verdict))
        ? stopText(document, { tables: false })
        : document.verdict && !decided(document.verdict)
          ? spreadText(document)
          : null,
      5,
    ],
    [nextWords(document), 2],
    [kChosenText(document), 2],
    [MORE, 0],
  ];
  // a pool run names its pool and its two runtimes at once: they are the arms
  const lines = [verdict, poolText(document), costs].filter((line) => typeof line === 'string');
  const tables = document.workers && document.procs ? [tradeOff(document, name)] : [];
  const title = headerLine(document);
  // the title takes two lines where the setting or an unfinished run's status is long
  const used =
    linesOf(title) +
    lines.reduce((sum, line) => sum + linesOf(line), 0) +
    tables.reduce((sum, table) => sum + table.rows.length + 4, 0);
  const notes = fitted(
    candidates.flatMap(([text, rank]) => (text ? [{ text, rank }] : [])),
    SCREEN.lines - used,
  );
  return { title, lines, tables, notes };
}
