// The report page's section for a compare, workers or procs run.
import { tradeOffText } from './costs.js';
import { startupEnvText, nextWords, verdictWords } from './words.js';
import { compareAnswer, kChosenText, stoppedClause } from './answer.js';
import { accountWordsOf, lookClause } from '../../document/sentences.js';
import { treesText } from '../../document/spread-words.js';
import { faultText } from '../../document/fault-words.js';
import { appMemoryByCycle, THROUGHPUT } from '../../points/measures.js';
import { summarize } from '../../stats/ratio.js';
import { centreOf, figureOf, furtherMeasuresOf } from '../../points/points.js';
import { viewPoints } from '../../document/points-of.js';
import {
  accountChart,
  forestChart,
  forestRow,
  keptByCycleChart,
  latencyChart,
  rampChart,
  MODE_SERIES,
  roundsChart,
  spreadChart,
  pooledBar,
} from '../../view/charts.js';
import { syscallChart, waitHistogram } from '../trace/charts.js';
import { MODES, percentText } from '../../words/spelling.js';
import { section } from '../../view/html-page.js';
import { partsOf, perCellFigure, rampRows, roundDots, spreadWords } from '../../view/html-figures.js';

/**
 * @typedef {import('../../saved/load.js').Saved} Saved
 * @typedef {import('../../view/charts.js').Chart} Chart
 * @typedef {import('../../words/report-model.js').ReportModel} ReportModel
 * @typedef {import('../../view/html-page.js').Section} Section
 */

/**
 * A compare, workers or procs run: its rounds, each further measure, latency, the ratio, the
 * spread, the kernel's waits when traced, and the account.
 * @param {{ path: string, document: import('../../document/document.js').ResultsDocument }} saved
 * @param {{ facts: Record<string, string>, models: ReportModel[] }} shown  its facts, and its
 *   tables as its kind draws them (each command's `kind.js`)
 * @returns {Promise<Section>}
 */
export async function compareSection({ path, document }, { facts, models }) {
  const [point] = viewPoints(document);
  const modes = MODES.filter((mode) => document[mode] !== undefined);
  // an A/A run's arms both ran one mode: they are A and B, as in its table
  /** @type {import('../../view/charts.js').Series} */
  const series = document.aa ? { names: /** @type {const} */ (['A', 'B']), title: 'arm' } : MODE_SERIES;
  const arm = (/** @type {'workers'|'procs'} */ mode) => series.names[MODES.indexOf(mode)];
  const drawn = { document, point, modes, series, arm };
  /** @type {Chart[]} */
  const charts = [...(await roundCharts(drawn)), ...(await appCharts(drawn)), ...(await kernelCharts(drawn))];
  const { config } = document;
  return {
    charts: charts.length,
    html: section({
      heading: `${document.config.trace ? 'trace ' : ''}${document.command}: ${config.task.name}${config.task.readsFile === false ? '' : `, ${config.file.label}`}, k=${config.k}`,
      path,
      document,
      facts: {
        ...facts,
        rounds: roundsFact(document),
        'iterations per worker': `${config.iterations ?? 'n/a'} after ${config.warmup === 'steady' ? 'a warmup until steady' : `${config.warmup ?? 0} warmup`}`,
        ...(document.pool ? { pool: `${document.pool.name} ${document.pool.version}` } : {}),
        env:
          Object.entries(config.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ') || 'none',
      },
      // its first lines the terminal's, in the same words: the verdict, the costs, how it stopped
      answer: document.verdict
        ? [
            ...(compareAnswer(document).lines ?? []),
            stoppedClause(document),
            ...String(verdictWords(document)).split('; ').slice(1),
            treesText(document),
            faultText(document),
            tradeOffText(document, point),
            startupEnvText(document),
            accountWordsOf(document.account, document)?.reading,
            nextWords(document),
            kChosenText(document),
          ].filter(Boolean)
        : [],
      charts,
      models,
    }),
  };
}

/**
 * @typedef {{ document: import('../../document/document.js').ResultsDocument,
 *   point: import('../../points/points.js').Point, modes: Array<'workers'|'procs'>,
 *   series: import('../../view/charts.js').Series, arm: (mode: 'workers'|'procs') => string }} Drawn
 *   a run as its charts read it: its point, the modes it ran and how its arms are named
 */

/**
 * Each fresh tree's state by mode and rate (`workers 52031.2` → `slow state`), where some mode's
 * trees fall in two; empty otherwise.
 * @param {import('../../document/document.js').ResultsDocument} document
 * @param {Array<'workers'|'procs'>} modes
 */
function treeStates(document, modes) {
  /** @type {Map<string, string>} */
  const states = new Map();
  if (!modes.some((mode) => document[mode]?.trees?.states.length === 2)) return states;
  for (const mode of modes) {
    const trees = document[mode]?.trees;
    if (!trees) continue;
    const names = trees.states.length === 2 ? ['fast state', 'slow state'] : ['one state'];
    trees.rates.forEach((rate, i) => states.set(`${mode} ${rate}`, names[trees.stateOf[i]]));
  }
  return states;
}

/**
 * Each round's throughput per mode, then each further measure's.
 * @param {Drawn} drawn
 * @returns {Promise<Chart[]>}
 */
async function roundCharts({ document, point, modes, series, arm }) {
  /** @type {Chart[]} */
  const charts = [];
  // each round's cell a fresh tree: where a mode's trees fall in two states, its dots say which
  const stateOf = treeStates(document, modes);
  const dots = document.rounds.flatMap((round) =>
    modes.flatMap((mode) => {
      const cell = round[mode];
      const state = cell && stateOf.size ? (stateOf.get(`${mode} ${cell.throughput}`) ?? 'not counted') : null;
      return cell
        ? [{ row: arm(mode), mode: arm(mode), throughput: cell.throughput, ...(state ? { state } : {}) }]
        : [];
    }),
  );
  if (dots.length)
    charts.push(
      await roundsChart(
        dots,
        modes.flatMap((mode) => {
          const summary = figureOf(THROUGHPUT, point)[mode];
          return summary ? [{ row: arm(mode), mode: arm(mode), median: summary.median }] : [];
        }),
        {
          series,
          ...(stateOf.size
            ? {
                subtitle:
                  'one dot per round, each a fresh tree, its shape the state it fell in; the bar marks the median',
              }
            : {}),
        },
      ),
    );
  for (const measure of furtherMeasuresOf([point]))
    charts.push(
      await roundsChart(
        roundDots(
          document.rounds,
          modes.map((mode) => ({ mode, row: arm(mode), name: arm(mode) })),
          measure,
        ),
        modes.flatMap((mode) => {
          const summary = figureOf(measure, point)[mode];
          return summary ? [{ row: arm(mode), mode: arm(mode), median: centreOf(summary, measure) }] : [];
        }),
        {
          series,
          measure,
          // a pooled measure's bar is every round's timings pooled, not the dots' median
          ...(pooledIn(measure, point) ? { subtitle: `one dot per round; ${pooledBar(measure)}` } : {}),
          ...everyOther(document, measure),
        },
      ),
    );
  return charts;
}

// Memory per added worker is read in the rounds that time no op, op latency in the others
// (run/scheduler.js, timedRound): in a run that took turns, each chart holds every other round
const TIMED = 'one dot per round that timed ops (every other, from the second); the bar marks the median';
const EVERY_OTHER = /** @type {Record<string, string>} */ ({
  addedMemory: 'one dot per round that timed no op (the others timed ops); the bar marks the median',
  latencyP99Us: TIMED,
  latencyP999Us: TIMED,
});

/**
 * The subtitle of a measure read in every other round, where the run took turns; none otherwise.
 * @param {import('../../document/document.js').ResultsDocument} document
 * @param {import('../../points/measures.js').Measure} measure
 */
const everyOther = (document, measure) =>
  measure.plain && MODES.some((mode) => document[mode]?.plain?.[/** @type {'addedMemory'} */ (measure.key)])
    ? { subtitle: PLAIN_DOTS }
    : EVERY_OTHER[measure.key] && document.rounds.some((round) => MODES.some((mode) => round[mode]?.memory?.timedOps))
      ? { subtitle: EVERY_OTHER[measure.key] }
      : {};

// where a run had plain trees, memory per added worker is theirs (points/points.js, figureOf)
const PLAIN_DOTS =
  "one dot per plain tree, an app of the task's work without mmapbench beside the cells (every other round, from the second); the bar marks the median";

/**
 * The latencies of the ops and of the app's requests, what the app keeps across its workers'
 * cycles, and fresh workers' first ops.
 * @param {Drawn} drawn
 * @returns {Promise<Chart[]>}
 */
async function appCharts({ document, modes, series, arm }) {
  /** @type {Chart[]} */
  const charts = [];
  const latencies = modes.flatMap((mode) => {
    const histogram = document[mode]?.latencyHistogram;
    return histogram ? [{ mode: arm(mode), histogram }] : [];
  });
  if (latencies.length) charts.push(await latencyChart(latencies, { series }));
  // the app's main thread: each mode's requests while its workers ran, and the app alone
  const requests = [
    ...modes.flatMap((mode) => {
      const histogram = document[mode]?.mainHistogram;
      return histogram ? [{ mode: arm(mode), histogram }] : [];
    }),
    ...(document.appAlone?.histogram ? [{ mode: 'alone', histogram: document.appAlone.histogram }] : []),
  ];
  if (requests.length)
    charts.push(
      await latencyChart(requests, {
        series,
        text: "The app's requests on its main thread, by percentile",
        what: 'every request of the complete rounds, while the workers ran and alone before they started',
        unit: 'requests',
        alone: Boolean(document.appAlone?.histogram),
      }),
    );
  // the app's memory across its workers' cycles, where the cells ended their workers
  const kept = keptRows(document, modes, arm);
  if (kept.length) charts.push(await keptByCycleChart(kept, { series }));
  // fresh workers' first ops, from the warmups
  const ramp = rampRows(document.rounds, modes, arm);
  if (ramp.length) charts.push(await rampChart(ramp, { series }));
  return charts;
}

/**
 * The ratio, the spread of page faults, the kernel's waits where traced, and the account.
 * @param {Drawn} drawn
 * @returns {Promise<Chart[]>}
 */
async function kernelCharts({ document, modes, series, arm }) {
  /** @type {Chart[]} */
  const charts = [];
  if (document.ratio) {
    // the verdict's interval is drawn: named with its own confidence where it is not a 95% one
    const look = document.verdict?.look;
    const named =
      look && look !== 'fixed' && document.verdict?.confidence
        ? {
            title: `${series.names.join('/')} ratio with the verdict's ${percentText(document.verdict.confidence, 2)} interval${lookClause(look) || ', at the budget'}`,
          }
        : {};
    charts.push(
      await forestChart([forestRow(`k=${document.config.k}`, document.ratio, document.verdict)], { series, ...named }),
    );
  }
  const spreadDots = document.spread && !document.aa ? perCellFigure(document.rounds, modes, 'minflt') : [];
  if (spreadDots.length)
    charts.push(
      await spreadChart(spreadDots, {
        figure: 'page faults',
        subtitle: `one dot per cell; ${spreadWords(document.spread ?? {})}`,
      }),
    );
  const { trace } = document;
  const traced = trace
    ? modes.flatMap((mode) => {
        const modeTrace = trace.modes[mode];
        return modeTrace ? [{ mode, trace: modeTrace }] : [];
      })
    : [];
  if (traced.length)
    charts.push(await waitHistogram(Object.fromEntries(traced.map(({ mode, trace: t }) => [mode, t.write.histogram]))));
  // traces from before the by-syscall breakdown have none to draw
  if (traced.length && traced.every(({ trace: t }) => t.bySyscall))
    charts.push(
      await syscallChart(
        traced.flatMap(({ mode, trace: t }) =>
          (t.bySyscall?.write ?? []).map((row) => ({
            series: mode,
            name: row.name,
            // the mean per traced cell, as the terminal's table gives it
            waitNs: row.totalNs / t.cells,
            count: row.count / t.cells,
          })),
        ),
        { per: 'per cell', over: 'the mean over the traced cells' },
      ),
    );
  const { account } = document;
  if (account)
    charts.push(await accountChart(modes.map((mode) => ({ row: arm(mode), parts: partsOf(account, mode) }))));
  return charts;
}

/**
 * Each mode's parent's anonymous memory before its first worker (cycle 0) and after each cycle,
 * its own heap's growth out of it (appMemoryByCycle), in MiB, over the complete rounds' cells:
 * median, least and most.
 * @param {import('../../document/document.js').ResultsDocument} document
 * @param {Array<'workers'|'procs'>} modes
 * @param {(mode: 'workers'|'procs') => string} arm
 */
function keptRows(document, modes, arm) {
  const MiB = 2 ** 20;
  return modes.flatMap((mode) => {
    const ends = document.rounds.flatMap((round) => {
      const memory = appMemoryByCycle(round.complete ? round[mode]?.end : undefined);
      return memory?.every((bytes) => typeof bytes === 'number') ? [/** @type {number[]} */ (memory)] : [];
    });
    if (!ends.length) return [];
    const cycles = Math.min(...ends.map((values) => values.length));
    return Array.from({ length: cycles }, (_, cycle) => {
      const { median, min, max } = summarize(ends.map((one) => one[cycle] / MiB));
      return { mode: arm(mode), cycle, median, min, max };
    });
  });
}

/**
 * Whether a point's figure of a measure is its timings pooled (a file saved before keeps the
 * median of its rounds).
 * @param {import('../../points/measures.js').Measure} measure
 * @param {import('../../points/points.js').Point} point
 */
export const pooledIn = (measure, point) => MODES.some((mode) => figureOf(measure, point)[mode]?.pooled !== undefined);

/**
 * The rounds the answer rests on, as it counts them: a pilot round (the calibration's, in no
 * figure) and a round a failure cut short are said apart.
 * @param {{ rounds: Array<{ complete: boolean, pilot?: true }>, stop?: string | null }} document
 */
function roundsFact(document) {
  const complete = document.rounds.filter((round) => round.complete).length;
  const pilot = document.rounds.filter((round) => round.pilot).length;
  const cut = document.rounds.length - complete - pilot;
  const also = [pilot ? `and ${pilot} pilot` : '', cut ? `${cut} incomplete` : ''].filter(Boolean).join(', ');
  return `${complete}${also ? ` (${also})` : ''}, stop: ${document.stop ?? 'n/a'}`;
}
