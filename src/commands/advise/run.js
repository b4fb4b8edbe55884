// `mmapbench advise`: the baseline and every candidate this machine can try, measured as the
// points of one sweep (interleaved rounds, each point stopping on its precision or on the
// shared budget), then ranked by what --for names (the workers' throughput by default).
import { usageError } from '../../errors.js';
import { BASELINE, candidatesFor, planCandidates, scalingCandidates } from './candidates.js';
import { usableCpus } from '../../system/cpus.js';
import { findAllocators } from '../../system/allocators.js';
import { resolveNode } from '../../system/node.js';
import { keptK } from '../../run/plan.js';
import { adviceOf, raceScoreOf } from './advice.js';
import { fixesOf, loadTask } from '../../tasks/index.js';
import { runPlanned } from '../sweep/run.js';
import adviseKind from './kind.js';
import { keptAdvice, measureOptions } from '../../core/typed-options.js';
import { SPECS_OF } from '../../core/command-options.js';
import { checkModules } from '../../saved/resume.js';
import { listOf, text } from '../../words/vocabulary.js';
// advise's budget unless --max-time says otherwise: every candidate together
import { ADVISE_SECONDS } from '../../run/defaults.js';

/**
 * advise from its options: a new run, or with --resume the one a file kept.
 * @param {Record<string, any>} opts  from readOptions
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} [context]
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
export async function adviseOrResume(opts, output, context = {}) {
  if (!opts.resume) return adviseCommand(adviseRequest(opts), output, context);
  // any kind of saved file may be passed: the registry of every kind says which it is
  const kept = (await import('../index.js')).resumedRun(opts, 'advise', SPECS_OF.advise());
  const request = keptAdvice(kept.request, { path: kept.path, given: opts });
  return adviseCommand(request, output, context, {
    ...kept,
    warnings: checkModules(kept, Boolean(opts.force), [request.shared.task], request.shared.cwd),
  });
}

/**
 * What an advise run is asked, as it keeps it for --resume: the options its candidates share
 * (compare's, but for the budget: every candidate's together) and its own.
 * @param {Record<string, any>} opts  from readOptions
 * @returns {import('../../core/typed-options.js').AdviseRequest}
 */
function adviseRequest(opts) {
  const shared = measureOptions({ ...opts, node: undefined, only: undefined, race: undefined }, 'compare');
  shared.maxTime ??= shared.rounds === undefined ? ADVISE_SECONDS : undefined;
  return {
    shared,
    advise: {
      for: opts.for ?? 'throughput',
      only: opts.only ?? null,
      race: opts.race !== false,
      kAuto: Boolean(opts.kAuto),
      node: opts.node ?? [],
    },
  };
}

/**
 * `mmapbench advise`: plan the baseline and the candidates, run them as one sweep's points,
 * rank them; `resumed` goes on from a kept advise's document.
 * @param {import('../../core/typed-options.js').AdviseRequest} request
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} context
 * @param {import('../../saved/resume.js').Resumed | null} [resumed]
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
async function adviseCommand(request, output, context, resumed = null) {
  const { shared, advise: own } = request;
  const { interrupt } = context;
  // one of --for's choices: the command line's or a kept file's, checked by the option's own check
  const objective = /** @type {import('./types.js').Objective} */ (own.for);
  if (objective === 'main-latency' && shared.main === 'off')
    throw usageError(
      "--for main-latency ranks the fixes by the app's request p99, which --main off does not measure; drop --main off, or rank by another cost",
    );
  // every --node is checked as compare checks its own, whether --only keeps it or not
  const planning = { interrupt, say: context.reporter?.say, resumed: keptK(resumed, 'resume.shared.k') };
  for (const node of own.node) await resolveNode(node, interrupt, planning.say);
  const task = await loadTask(shared.task ?? 'readfilesync', { timeout: shared.timeout, interrupt });
  // the baseline's plan says what the file is; it is planned once, and runs first
  const {
    planned: [baseline],
  } = await planCandidates([BASELINE], shared, planning);
  const { candidates, missing, defaults } = candidatesFor({
    task,
    fixes: await fixesOf(task, baseline.plan.params),
    // the C library is the machine's, whichever Node the cells run on
    glibc: Boolean(/** @type {any} */ (process.report?.getReport())?.header?.glibcVersionRuntime),
    fileSize: baseline.plan.file.size,
    allocators: findAllocators(),
    nodes: own.node,
    node: baseline.plan.node,
  });
  const only =
    own.only === null ? null : /** @type {string[]} */ (listOf('--only', text, 'TOP_PAD,jemalloc')(own.only, []));
  const chosen = only
    ? candidates.filter((one) => one.kind === 'baseline' || only.some((word) => one.name.includes(word)))
    : candidates;
  if (only && chosen.length === 1)
    throw usageError(
      `--only ${only.join(',')} names no candidate; the candidates here are ${candidates
        .slice(1)
        .map((one) => one.name)
        .join(', ')}`,
    );
  // --k-auto: the baseline at the other k's too, in no ranking: their scaling gives the K to run
  const scaling = own.kAuto ? scalingCandidates(baseline.plan.k, usableCpus().usable) : [];
  const { planned, skipped } = await planCandidates([...chosen.slice(1), ...scaling], shared, planning, [baseline]);
  const measured = planned.map(({ candidate }) => candidate);
  return runPlanned(planned, request, output, context, {
    resumed,
    // a kept run's candidates are found again here: one missing or new is the machine's change
    planning: {
      asks: "the candidates advise finds here (its allocators, the task's fixes, --node's)",
      field: 'resume.shared',
      fix: 'start a new run',
    },
    kind: adviseKind,
    isolate: true,
    // a count of rounds is run whole; a budget is raced, by what the ranking is by (not with
    // --k-auto: the baseline's other k's are no candidates to drop)
    race: shared.rounds === undefined && own.race && !own.kAuto && raceScoreOf(objective),
    opening: `advise: the baseline and ${planned.length - 1} candidate${planned.length === 2 ? '' : 's'}`,
    shape: (document) => ({
      ...document,
      command: 'advise',
      advice: adviceOf(document, measured, { missing, skipped, defaults, objective }),
    }),
  });
}
