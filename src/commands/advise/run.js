// `mmapbench advise`: the baseline and every candidate this machine can try, measured as the
// points of one sweep (interleaved rounds, each point stopping on its precision or on the
// shared budget), then ranked by what --for names (the workers' throughput by default).
import { usageError } from '../../errors.js';
import { BASELINE, candidatesFor, planCandidates, scalingCandidates } from './candidates.js';
import { usableCpus } from '../../system/cpus.js';
import { findAllocators } from '../../system/allocators.js';
import { resolveNode } from '../../system/node.js';
import { adviceOf, raceScoreOf } from './advice.js';
import { fixesOf, loadTask } from '../../tasks/index.js';
import { runPlanned } from '../sweep/run.js';
import adviseKind from './kind.js';
import { measureOptions } from '../../core/typed-options.js';
import { listOf, text } from '../../words/vocabulary.js';
// advise's budget unless --max-time says otherwise: every candidate together
import { ADVISE_SECONDS } from '../../run/defaults.js';

/**
 * @param {Record<string, any>} opts  from readOptions
 * @param {import('../../core/typed-options.js').Output} output
 * @param {import('../../core/reporter.js').Context} [context]
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
export async function adviseCommand(opts, output, context = {}) {
  if (opts.for === 'main-latency' && opts.main === 'off')
    throw usageError(
      "--for main-latency ranks the fixes by the app's request p99, which --main off does not measure; drop --main off, or rank by another cost",
    );
  const shared = measureOptions({ ...opts, node: undefined, only: undefined, race: undefined }, 'compare');
  shared.maxTime ??= shared.rounds === undefined ? ADVISE_SECONDS : undefined;
  // every --node is checked as compare checks its own, whether --only keeps it or not
  const planning = { interrupt: context.interrupt, say: context.reporter?.say };
  for (const node of opts.node ?? []) await resolveNode(node, context.interrupt, planning.say);
  const task = await loadTask(shared.task ?? 'readfilesync', {
    timeout: shared.timeout,
    interrupt: context.interrupt,
  });
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
    nodes: opts.node ?? [],
    node: baseline.plan.node,
  });
  const only =
    opts.only === undefined
      ? null
      : /** @type {string[]} */ (listOf('--only', text, 'TOP_PAD,jemalloc')(opts.only, []));
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
  const scaling = opts.kAuto ? scalingCandidates(baseline.plan.k, usableCpus().usable) : [];
  const { planned, skipped } = await planCandidates([...chosen.slice(1), ...scaling], shared, planning, [baseline]);
  const measured = planned.map(({ candidate }) => candidate);
  return runPlanned(planned, null, output, context, {
    kind: adviseKind,
    isolate: true,
    // a count of rounds is run whole; a budget is raced, by what the ranking is by (not with
    // --k-auto: the baseline's other k's are no candidates to drop)
    race: shared.rounds === undefined && opts.race !== false && !opts.kAuto && raceScoreOf(opts.for ?? 'throughput'),
    opening: `advise: the baseline and ${planned.length - 1} candidate${planned.length === 2 ? '' : 's'}`,
    shape: (document) => ({
      ...document,
      command: 'advise',
      advice: adviceOf(document, measured, { missing, skipped, defaults, objective: opts.for ?? 'throughput' }),
    }),
  });
}
