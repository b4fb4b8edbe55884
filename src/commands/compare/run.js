import { buildPlan, keptK } from '../../run/plan.js';
import { runSession } from '../../run/session.js';
import { PLAIN_EVERY, plainTreesIn } from '../../run/plain-tree.js';
import { estimateRun, windowOf } from '../../run/estimate.js';
import { describeEnvironment } from '../../system/environment.js';
import { buildDocument } from './document.js';
import { pointView } from '../../document/points-of.js';
import compareKind from './kind.js';
import { checkModules, keptDocument, modulesOf, resumingLine, sessionOf } from '../../saved/resume.js';
import { checkContinues } from '../../saved/continues.js';
import { keptOptions, measureOptions } from '../../core/typed-options.js';
import { SPECS_OF } from '../../core/command-options.js';
import { usageError } from '../../errors.js';
import { controlRun, keptAsResults } from '../../core/controller.js';
import { MODES } from '../../words/spelling.js';
import { completeRounds } from '../../run/scheduler.js';
import { ratioStats, roundRatio } from '../../stats/ratio.js';
import { halfWidth } from '../../stats/stopping.js';
import { soFarInterval } from '../../stats/sequential.js';
import { outcomeText } from '../../document/fault-words.js';

/**
 * The ratio of a compare's complete rounds so far, and the relative half-width of the interval it
 * is read by so far (stats/sequential.js: soFarInterval); null for one mode, or before a complete
 * round.
 * @param {import('../../run/scheduler.js').Session} session
 * @param {Array<'workers'|'procs'>} modes
 * @param {boolean} sequential  the run stops once its verdict decides
 * @returns {{ ratio: number, halfWidth: number | null } | null}
 */
function soFarOf(session, modes, sequential) {
  if (modes.length !== 2) return null;
  const ratios = completeRounds(session, modes).map(roundRatio);
  if (!ratios.length) return null;
  const shown = soFarInterval(ratios, sequential);
  return { ratio: ratioStats(ratios).geomean, halfWidth: shown && halfWidth(shown.interval) };
}

/**
 * workers, procs and compare from their options: a new run, or with --resume the one a file kept.
 * @param {Record<string, any>} opts  from readOptions
 * @param {'workers'|'procs'|'compare'} command
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} [context]
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
export async function measureOrResume(opts, command, output, context) {
  if (!opts.resume) return measureCommand(measureOptions(opts, command), output, context);
  // any kind of saved file may be passed: the registry of every kind says which it is
  const kept = (await import('../index.js')).resumedRun(opts, command, SPECS_OF[command]());
  const options = keptOptions(kept.request, {
    path: kept.path,
    field: 'resume',
    given: opts,
    k: kept.document.config?.k,
  });
  if (options.command !== command)
    throw usageError(`--resume ${kept.path}: resume.command is ${options.command}, not ${command}; start a new run`);
  return measureCommand(options, output, context, {
    ...kept,
    warnings: checkModules(kept, Boolean(opts.force), [options.task], options.cwd),
  });
}

/**
 * The run behind workers, procs, compare and trace: plan, run, then keep whatever was measured,
 * with the error that stopped it, so a failure in round 4 never costs rounds 1-3. The document
 * is kept on disk after every round, so a kill costs at most the round under way; `resumed`
 * goes on from such a document, with the options it was started with.
 * @param {import('../../run/plan.js').MeasureOptions} options
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} [context]
 * @param {import('../../saved/resume.js').Resumed | null} [resumed]  a kept run
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
export async function measureCommand(options, output, { interrupt, reporter } = {}, resumed = null) {
  /** @type {Array<'workers'|'procs'>} */
  const modes = options.command === 'compare' ? MODES : [options.command];
  const planning = { interrupt, say: reporter?.say, resumed: keptK(resumed, 'resume.k') };
  const plan = await buildPlan(options, planning).catch((error) => {
    // a kept run's settings the user did not type: the file's fields are named, not options
    // (a refusal that names the file already, as a k past the cap, says its own fix)
    if (!resumed || error?.kind !== 'usage' || error.message.startsWith('--resume ')) throw error;
    throw usageError(
      `--resume ${resumed.path}: its kept settings (resume) are refused: ${String(error.message).replace(/; [^;]*$/, '')}; restore the file or start a new run`,
      error,
    );
  });
  const environment = describeEnvironment(plan);
  // its one point, with the run around it (its settings, its time)
  const kept = resumed ? pointView(resumed.document) : undefined;
  // new rounds are averaged with the kept ones: they must measure what those did
  if (resumed) checkContinues(kept, kept, plan, { path: resumed.path, field: 'resume' });
  // the ratio so far and its interval, for the progress after each cell
  /** @type {ReturnType<typeof soFarOf>} */
  let soFar = null;
  return controlRun(
    {
      ...keptAsResults(output, resumed, { fixedRounds: plan.stop.rounds !== null, kind: compareKind }),
      before: [
        ...(resumed && kept ? [{ say: resumingLine(resumed, environment, kept.rounds.length) }] : []),
        ...(resumed?.warnings ?? []).map((warn) => ({ warn })),
        ...(plan.trace?.mounted ? [{ say: `mounted tracefs at ${plan.trace.tracefs} (it stays mounted)` }] : []),
        ...plan.warnings.map((warn) => ({ warn })),
      ],
      // --quick measures nothing, so it skips the check
      checksMachine: !plan.quick,
      expects: expected(plan, modes, kept),
      rounds: ({ keep, reporter: told }) =>
        runSession(plan, modes, {
          interrupt,
          onCell: (round, mode) => told.cell({ command: options.command, round: round.index, mode, soFar }, round),
          onRound: (session) => {
            soFar = soFarOf(session, modes, Boolean(plan.stop.sequential));
            keep?.(session);
          },
          // --fault: each mode's round after the measured ones, said as it ends
          onFault: (mode, outcome) => told.say(`--fault ${plan.fault}, ${mode}: ${outcomeText(outcome, plan.k)}`),
          resumed: kept ? sessionOf(kept, modes) : undefined,
        }),
      // the options ride along in any document that did not finish, for --resume
      documentOf: (session, finished, machine) =>
        keptDocument(buildDocument(plan, session, modes, environment, machine), options, finished, modulesOf([plan])),
    },
    reporter,
  );
}

/**
 * What the run is expected to take: its cells and seconds, and its budget.
 * @param {import('../../run/plan.js').Plan} plan
 * @param {Array<'workers'|'procs'>} modes
 * @param {any} kept  a resumed run's document
 */
function expected(plan, modes, kept) {
  return {
    // an adaptive run is bounded by its budget, not its (huge) round limit; a traced round
    // runs each mode twice, once under bpftrace
    estimate: () =>
      estimateRun(
        [
          {
            window: windowOf(plan),
            k: plan.k,
            cells: modes.length * (plan.trace ? 2 : 1),
            traced: plan.trace ? modes.length : 0,
            plain: plainTreesIn(plan, modes) ? modes.length / PLAIN_EVERY : 0,
            calibrates: !kept && plan.iterations === null,
            cycles: plan.end.cycles,
          },
        ],
        {
          rounds:
            plan.stop.rounds !== null
              ? Math.max(0, plan.stop.rounds - (kept ? completeRounds(sessionOf(kept, modes), modes).length : 0))
              : null,
          budget: plan.stop.maxSeconds - (kept?.seconds ?? 0),
          minRounds: plan.stop.minRounds,
        },
      ),
    // an adaptive run never has more left than what remains of its budget
    budgetSeconds: plan.stop.rounds === null ? plan.stop.maxSeconds - (kept?.seconds ?? 0) : Infinity,
    aa: plan.aa,
    sequential: plan.stop.sequential,
  };
}
