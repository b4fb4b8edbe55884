import { resolve } from 'node:path';
import { usageError } from '../../errors.js';
import { PRECISION } from '../../run/defaults.js';
import { keptK } from '../../run/plan.js';
import { estimateRun, windowOf } from '../../run/estimate.js';
import { armsOf, MAX_POINTS, planSettings, runSweep, sweepSettings } from './points.js';
import { describeEnvironment } from '../../system/environment.js';
import sweepKind from './kind.js';
import { checkModules, keptDocument, modulesOf, resumingLine, sessionOf } from '../../saved/resume.js';
import { buildSweepDocument } from './document.js';
import { keptPoints } from '../../saved/continues.js';
import { controlRun, keptAsResults } from '../../core/controller.js';
import { SPECS_OF } from '../../core/command-options.js';
import { tagged } from '../../core/option-spec.js';
import { about, ruleText } from '../../document/sentences.js';
import { pointLabel } from '../../points/point-name.js';
import { keptSweep, measureOptions } from '../../core/typed-options.js';
import { listOf, TASK_PARAMETERS, text } from '../../words/vocabulary.js';
import { MODES, plural } from '../../words/spelling.js';

/**
 * sweep's command line as axes and shared options.
 * @param {Record<string, any>} opts  sweep's options, from readOptions
 * @returns {import('../../run/plan.js').SweepRequest}
 */
function sweepRequest(opts) {
  /** @type {Record<string, unknown[]>} */
  const params = {};
  // --param op=stat,readFile: a list, as the named task parameters take
  for (const [name, value] of Object.entries(/** @type {Record<string, string>} */ (opts.param ?? {})))
    params[name] = listOf(`--param ${name}=`, text, 'readFile,stat')(value, []);
  for (const name of Object.keys(TASK_PARAMETERS)) if (opts[name] !== undefined) params[name] = opts[name];
  /** @type {Array<string | undefined>} */
  const nodes = opts.node ?? [undefined];
  const twice = nodes.find(
    (node, i) => node && nodes.findIndex((other) => other && resolve(other) === resolve(node)) !== i,
  );
  if (twice) throw usageError(`--node ${twice} is given twice; give each Node once`);
  return {
    axes: {
      node: nodes,
      task: opts.task ?? [undefined],
      variant: opts.variant ?? [{ name: 'default', env: {} }],
      file: opts.file ?? [undefined],
      params,
      k: opts.k ?? [undefined],
      cycles: opts.cycles ?? [undefined],
    },
    // everything else as compare reads it, with the axes left out
    shared: measureOptions(
      {
        ...opts,
        ...Object.fromEntries(tagged(SPECS_OF.sweep(), 'axis').map((name) => [name, undefined])),
      },
      'compare',
    ),
  };
}

/**
 * sweep from its options: a new sweep, or with --resume the one a file kept.
 * @param {Record<string, any>} opts  from readOptions
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} [context]
 */
export async function sweepOrResume(opts, output, context) {
  if (!opts.resume) return sweepCommand(sweepRequest(opts), output, context);
  // any kind of saved file may be passed: the registry of every kind says which it is
  const kept = (await import('../index.js')).resumedRun(opts, 'sweep', SPECS_OF.sweep());
  const request = keptSweep(kept.request, { path: kept.path, given: opts });
  return sweepCommand(request, output, context, {
    ...kept,
    warnings: checkModules(kept, Boolean(opts.force), request.axes.task, request.shared.cwd),
  });
}

/**
 * `mmapbench sweep`: plan every point, say how many and how long, run them interleaved, then
 * print and save whatever was measured before passing on an error. The document is kept on
 * disk after every point's round; `resumed` goes on from such a document.
 * @param {import('../../run/plan.js').SweepRequest} request
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} [context]
 * @param {import('../../saved/resume.js').Resumed | null} [resumed]  a kept sweep
 */
async function sweepCommand(request, output, context = {}, resumed = null) {
  const planned = await planSettings(sweepSettings(request), {
    interrupt: context.interrupt,
    say: context.reporter?.say,
    resumed: keptK(resumed, 'resume.axes.k'),
  });
  return runPlanned(planned, request, output, context, { resumed });
}

/**
 * Runs planned points as a sweep, then keeps what was measured: sweep's points, or
 * advise's candidates (`shape` adds its ranking to the document, `isolate` lets a candidate
 * fail alone).
 * @param {import('./points.js').PlannedSetting[]} points
 * @param {import('../../run/plan.js').SweepRequest | import('../../core/typed-options.js').AdviseRequest} request  what a
 *   kept document resumes with
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} context
 * @param {{ resumed?: import('../../saved/resume.js').Resumed | null, isolate?: boolean, race?: import('../../run/race.js').RaceScore | false,
 *   shape?: (document: any) => any, opening?: string, kind?: import('../../view/kind.js').Kind,
 *   planning?: { asks: string, field: string, fix: string } }} [how]  opening: the first
 *   line's start; kind: the kind of file it saves (a sweep's, or advise's);
 *   race: advise's candidates race against the first point (run/race.js); planning: what
 *   planned the points, for a resumed run's refusal (saved/continues.js keptPoints)
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
export async function runPlanned(
  points,
  request,
  output,
  { interrupt, reporter: given },
  {
    resumed = null,
    isolate = false,
    race = false,
    shape = (document) => document,
    opening,
    kind = sweepKind,
    planning = undefined,
  } = {},
) {
  const kept = resumed?.document;
  // kept rounds attach to the point measured at their values, whatever its place now
  if (resumed) points = keptPoints(points, kept, resumed.path, planning);
  const environment = describeEnvironment(points[0].plan);
  checkNodesDistinct(points);
  const [{ plan: first }] = points;
  const fixedRounds = first.stop.rounds;
  // the budget is the whole sweep's: a minute a point unless --max-time says otherwise
  const maxTime = points[0].options.maxTime;
  const budget = fixedRounds !== null ? Infinity : (maxTime ?? PRECISION.maxSeconds * points.length);
  // a resumed sweep has calibrated, and spent some of its budget and rounds
  const left = budget - (kept?.seconds ?? 0);
  return controlRun(
    {
      ...keptAsResults(output, resumed, { fixedRounds: fixedRounds !== null, kind }),
      before: [
        ...(resumed ? [{ say: resumingLine(resumed, environment, kept.order.length) }] : []),
        ...(resumed?.warnings ?? []).map((warn) => ({ warn })),
        ...points.flatMap((point) => point.plan.warnings).map((warn) => ({ warn })),
      ],
      checksMachine: !first.quick,
      expects: expected(points, { kept, left, fixedRounds }),
      opening: ({ seconds }) => openingLine(points, seconds, { opening, budget }),
      rounds: ({ keep, reporter }) =>
        runSweep(points, roundsOf({ kept, budget, interrupt, race, isolate, keep, reporter })),
      // the request rides along in any document that did not finish, for --resume
      documentOf: (soFar, finished, machine) =>
        keptDocument(
          shape(
            buildSweepDocument(soFar, {
              environment,
              machine,
              stop: first.stop,
              quick: first.quick,
            }),
          ),
          request,
          finished,
          modulesOf(points.map((point) => point.plan)),
        ),
    },
    given,
  );
}

/**
 * How runSweep runs the points: within the budget, each cell told to the reporter, the document
 * kept after every round, and a resumed sweep's sessions and rounds carried on.
 * @param {{ kept: any, budget: number, interrupt?: AbortSignal, race: import('../../run/race.js').RaceScore | false,
 *   isolate: boolean, keep: ((round: any) => void) | null, reporter: import('../../core/reporter.js').Reporter }} run
 */
const roundsOf = ({ kept, budget, interrupt, race, isolate, keep, reporter }) => ({
  budget,
  interrupt,
  race,
  onCell: (/** @type {any} */ point, /** @type {any} */ round, /** @type {string} */ mode) =>
    reporter.cell(
      {
        command: isolate ? 'advise' : 'sweep',
        round: round.index,
        mode: /** @type {'workers'|'procs'} */ (mode),
        point: point.id,
        soFar: null,
      },
      round,
      point,
    ),
  onRound: keep ?? undefined,
  isolate,
  resumed: kept
    ? {
        sessions: new Map(kept.points.map((/** @type {any} */ point) => [point.id, sessionOf(point, MODES)])),
        rounds: kept.order,
        seconds: kept.seconds,
      }
    : undefined,
});

/**
 * --node 24 and --node 24.21 (or a path) can be the same binary: each Node once.
 * @param {import('./points.js').PlannedSetting[]} points
 */
function checkNodesDistinct(points) {
  const binaries = new Map();
  for (const { at, plan } of points) {
    const other = binaries.get(plan.node.path);
    if (other !== undefined && other !== at.node)
      throw usageError(
        `--node ${other ?? process.version} and --node ${at.node ?? process.version} are the same Node (${plan.node.version}, ${plan.node.path}); give each Node once`,
      );
    binaries.set(plan.node.path, at.node);
  }
}

/**
 * What the sweep is expected to run: its cells and seconds, its budget, and its points' labels.
 * @param {import('./points.js').PlannedSetting[]} points
 * @param {{ kept: any, left: number, fixedRounds: number | null }} run  kept: a resumed
 *   sweep's document; left: its budget's seconds still to spend
 */
function expected(points, { kept, left, fixedRounds }) {
  const [{ plan: first }] = points;
  return {
    estimate: () => {
      const { cells, seconds } = estimateRun(
        points.map(({ plan }) => ({
          window: windowOf(plan),
          k: plan.k,
          cells: armsOf(plan).length,
          calibrates: !kept && plan.iterations === null,
          cycles: plan.end.cycles,
        })),
        {
          rounds: fixedRounds !== null ? Math.max(0, fixedRounds - (kept?.order.length ?? 0)) : null,
          budget: left,
          minRounds: first.stop.minRounds,
        },
      );
      return { cells, seconds: fixedRounds !== null ? seconds : left };
    },
    budgetSeconds: left,
    labels: labelsOf(points),
    sequential: first.stop.sequential,
  };
}

/**
 * The first line: how many points, and how long at most.
 * @param {import('./points.js').PlannedSetting[]} points
 * @param {number} seconds  the estimate
 * @param {{ opening?: string, budget: number }} how
 */
function openingLine(points, seconds, { opening, budget }) {
  const [{ plan: first }] = points;
  const fixedRounds = first.stop.rounds;
  const maxTime = points[0].options.maxTime;
  return (
    `${opening ?? `sweep of ${plural(points.length, 'point')}`}` +
    (fixedRounds !== null
      ? `, ${plural(fixedRounds, 'round')} each: about ${about(seconds)}`
      : `, each ${ruleText(first.stop)}: at most ${about(budget)} for the whole sweep` +
        (maxTime === undefined
          ? ` (${PRECISION.maxSeconds} s a point; --max-time sets the whole)`
          : ` (--max-time, shared by the ${points.length} points)`)) +
    (points.length > MAX_POINTS ? ` (--force: more than ${MAX_POINTS})` : '')
  );
}

/**
 * Each point in full, as the saved sweep's gate and exports will name it: its variant and Node
 * only where the sweep has more than one.
 * @param {Array<{ id: string, at: { variant: { name: string } }, plan: Readonly<import('../../run/plan.js').Plan> }>} points
 */
function labelsOf(points) {
  const variants = new Set(points.map((point) => point.at.variant.name)).size > 1;
  const nodes = new Set(points.map((point) => point.plan.node.path)).size > 1;
  return new Map(
    points.map(({ id, at, plan }) => [
      id,
      pointLabel({
        task: plan.task.name,
        file: plan.file,
        k: plan.k,
        cycles: plan.end.cycles,
        env: plan.envOverrides,
        params: plan.params,
        node: nodes ? plan.node.version : null,
        variant: variants ? at.variant.name : null,
      }),
    ]),
  );
}
