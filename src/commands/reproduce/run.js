// `reproduce`'s run on the one run loop (controller.js): the published experiments' rounds, its
// results document saved whole after every round (as compare's and sweep's), then REPORT.md. It holds its
// --out folder (and a resumed file's) for the whole run, and keeps what finished whatever stops it.
import { dirname, join } from 'node:path';
import { sessionError } from '../../run/scheduler.js';
import { oversubscribed } from '../../run/plan.js';
import { inheritedEnv } from '../../run/cell-env.js';
import { usableCpus } from '../../system/cpus.js';
import { describeEnvironment } from '../../system/environment.js';
import { fileError, writeFileAtomic } from '../../system/safe-fs.js';
import { endOf } from '../../saved/save.js';
import { holdingResults } from '../../saved/claim.js';
import { SCHEMA, version } from '../../version.js';
import { estimate } from './estimate.js';
import { planOf, reportModels } from './models.js';
import { writeExports } from '../../saved/export.js';
import { cellsPerRound, runExperiment } from './runner.js';
import { roundBounds } from './bounds.js';
import { renderMarkdown } from '../../view/table.js';
import reproduceKind from './kind.js';
import { controlRun } from '../../core/controller.js';
import { resultsFolder } from '../../saved/save.js';
import { listing } from './list.js';
import { machine, select } from './machine.js';
import { requestedOptions, resumeFlags } from './options.js';

/** @typedef {import('./types.js').ReproduceDocument} ReproduceDocument */

/**
 * `mmapbench reproduce`: the experiments' rounds, the results file saved after every round, then
 * REPORT.md; or, with `resume`, the cells that file is missing. What it kept is a run's like any
 * other, which the CLI prints (cli/finish.js).
 * @param {import('./options.js').ReproduceRequest} request  what the command line asked for, read
 * @param {import('../../core/reporter.js').Context} context
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
export async function reproduceRun(request, { interrupt, reporter }) {
  const { options, resumed } = await requestedOptions(request);
  // a folder (not a link to one, as compare's --out) this user can write, before anything is installed
  const out = resultsFolder(request.out ?? (request.resume ? dirname(request.resume) : 'mmapbench-reproduce'));
  const ctx = await machine(options, request, interrupt, { say: (line) => reporter?.say(line) });
  const { runnable, skipped } = select(options, ctx);
  const outGiven = request.out !== undefined;
  return measureReproduce(
    { exports: request.export ?? [], options, ctx, runnable, skipped, resumed, out, outGiven },
    { interrupt, reporter },
  );
}

/**
 * `mmapbench reproduce --list`: every experiment a line, or the ones named in full; nothing is
 * installed.
 * @param {import('./options.js').ReproduceRequest} request
 * @param {{ width: number, interrupt?: AbortSignal, say: (line: string) => void }} how
 */
export async function listed(request, { width, interrupt, say }) {
  const { options } = await requestedOptions(request);
  const ctx = await machine(options, request, interrupt, { install: false, say });
  return listing(ctx, options, { width, markdown: request.markdown, names: request.experiments });
}

/**
 * The run, with --out held: its document saved after every round, then the report. A resumed run
 * goes on with the document it read (and replaces its file); a new one saves its own.
 * @param {{ exports: import('../../saved/export.js').ExportRequest[],
 *   options: import('./types.js').ReproduceOptions,
 *   ctx: Awaited<ReturnType<typeof import('./machine.js').machine>>,
 *   runnable: import('./experiments.js').Experiment[],
 *   skipped: Array<{ name: string, reason: string }>,
 *   resumed: { path: string, document: ReproduceDocument } | null, out: string, outGiven: boolean }} run  out:
 *   the folder it writes (outGiven: --out); without --out a resumed file is replaced in place
 * @param {import('../../core/reporter.js').Context} context
 * @returns {Promise<import('../../core/controller.js').Finished>}
 */
async function measureReproduce(
  { exports, options, ctx, runnable, skipped, resumed, out, outGiven },
  { interrupt, reporter },
) {
  // node-fix runs on the Nodes found now, never on paths a results file names: a resumed run
  // continues the settings whose versions are still the ones found
  const plan = planOf(runnable, ctx, options);
  const cores = usableCpus().usable;
  const document = resumed ? { ...resumed.document, skipped } : newDocument(options, ctx, skipped);
  // the file it is saved in once --out is held: a resumed document's (a reproduce run an earlier
  // mmapbench saved as lines goes on in a new one), or a new one's
  const run = /** @type {{ file: string, keeper: import('../../saved/save.js').Keeper }} */ ({});
  return controlRun(
    {
      hold: (warn, body) =>
        holding(warn, body, {
          out,
          outGiven,
          run,
          document,
          resumed: resumed?.path.endsWith('.json') ? resumed.path : null,
        }),
      get before() {
        return [
          ...(options.k > cores ? [{ warn: { code: 'oversubscribed', text: oversubscribed(options.k, cores) } }] : []),
          { say: `the results are saved in ${run.file} after every round` },
        ];
      },
      // the published protocols are what they are: no check of the machine before them
      checksMachine: false,
      expects: expected(plan, options, document.records),
      rounds: ({ reporter: told }) => runPlan(plan, { options, document, run, interrupt, told, ctx }),
      documentOf: () => ({}),
      keep: (_document, { runError }) => kept(runError ?? null, { ...run, exports, document, plan, out }),
    },
    reporter,
  );
}

/**
 * A new run's document, before its first cell.
 * @param {import('./types.js').ReproduceOptions} options
 * @param {Awaited<ReturnType<typeof import('./machine.js').machine>>} ctx
 * @param {Array<{ name: string, reason: string }>} skipped
 * @returns {ReproduceDocument}
 */
const newDocument = (options, ctx, skipped) => ({
  mmapbench: version,
  schema: SCHEMA,
  command: 'reproduce',
  started: new Date().toISOString(),
  options,
  // what the cells inherit: each setting names its own allocator variables
  environment: describeEnvironment({ node: ctx.node, env: inheritedEnv(process.env, { allocator: false }) }),
  jemalloc: ctx.jemalloc.path,
  nodes: ctx.nodes,
  records: [],
  skipped,
  status: 'incomplete',
  error: null,
});

/**
 * Every experiment's rounds, one after another, each record kept in the document and the
 * document saved; whatever stops them, what finished is reported before the error.
 * @param {ReturnType<typeof planOf>} plan
 * @param {{ options: import('./types.js').ReproduceOptions, document: ReproduceDocument,
 *   run: { keeper: import('../../saved/save.js').Keeper }, interrupt?: AbortSignal,
 *   told: import('../../core/reporter.js').Reporter,
 *   ctx: Awaited<ReturnType<typeof import('./machine.js').machine>> }} how
 */
async function runPlan(plan, { options, document, run, interrupt, told, ctx }) {
  try {
    for (const { experiment, variants } of plan)
      await runExperiment(experiment, variants, {
        options,
        records: document.records,
        // after every round of the experiment: a save that fails (a full disk) stops the run,
        // and what the file holds is every round that finished
        save: () => void run.keeper.write(document),
        interrupt,
        progress: {
          tick: ({ label }) => told.cell({ command: 'reproduce', round: 0, mode: 'workers', soFar: null, label }),
          grow: (cells) => told.grow?.(cells),
        },
        thp: ctx.thp,
        trace: ctx.trace.setup,
      });
    return { error: null };
  } catch (caught) {
    return { error: sessionError(caught) };
  }
}

/**
 * What the run is expected to take: the cells of its least rounds not run yet, and its seconds.
 * @param {ReturnType<typeof planOf>} plan
 * @param {import('./types.js').ReproduceOptions} options
 * @param {import('./types.js').ResultRecord[]} records  a resumed run's
 */
function expected(plan, options, records) {
  return {
    estimate: () => {
      const [min] = roundBounds(options);
      return {
        cells: Math.max(
          0,
          plan.reduce((n, { variants }) => n + cellsPerRound(variants) * min, 0) -
            records.filter((r) => r.type === 'cell').length,
        ),
        seconds: plan.reduce((n, { variants }) => n + estimate(variants, options, options.quick), 0),
      };
    },
    budgetSeconds: Infinity,
  };
}

/**
 * Holds where the run writes while `body` runs, as compare's and sweep's runs hold theirs
 * (saved/claim.js): the --out folder, or a resumed file with its folder, the file replaced in
 * place where no --out is given; a run an earlier mmapbench saved as lines goes on in a new file
 * beside it. The document is saved once before the first cell, so its file is named before
 * anything is measured; after each round the experiments' runner saves it, not the controller
 * (`body` is given no journal).
 * @param {(warning: { code: string, text: string }) => void} warn
 * @param {(value: null) => Promise<any>} body
 * @param {{ out: string, outGiven: boolean, document: ReproduceDocument, resumed: string | null,
 *   run: { file: string, keeper: import('../../saved/save.js').Keeper } }} held  `run` is filled in
 */
const holding = (warn, body, { out, outGiven, document, resumed, run }) =>
  holdingResults({ out, outGiven, command: 'reproduce' }, resumed ? { path: resumed } : null, warn, (keeping) => {
    run.keeper = /** @type {import('../../saved/save.js').Keeper} */ (keeping);
    run.file = run.keeper.write(document);
    return body(null);
  });

/**
 * What the run keeps however it ended: its document with how it ended, REPORT.md, the exports;
 * where it stopped, how to go on with it.
 * @param {Error | null} error  what stopped it
 * @param {{ file: string, keeper: import('../../saved/save.js').Keeper, exports: import('../../saved/export.js').ExportRequest[],
 *   document: ReproduceDocument, plan: ReturnType<typeof planOf>, out: string }} run
 * @returns {import('../../core/controller.js').Finished}
 */
function kept(error, { file, keeper: keeping, exports, document, plan, out }) {
  Object.assign(document, endOf(/** @type {any} */ (error)));
  try {
    keeping.write(document);
  } catch {
    // a full disk: the report still prints, and says the same
  }
  const models = reportModels(document, plan, file);
  const reportFile = join(out, 'REPORT.md');
  /** @type {Error | null} */
  let reportError = null;
  try {
    // the report file is the whole text: the machine, the published figures, every experiment
    // a name of mmapbench's own in the folder it holds: a link planted there is replaced
    writeFileAtomic(reportFile, models.map((model) => renderMarkdown(model)).join('\n'), {
      links: 'replace',
    });
  } catch (writeError) {
    reportError = fileError(writeError, reportFile, '--out');
  }
  const runError = error ?? reportError;
  // every setting's rounds, a resumed run's too, as `report` reads them from its file
  const exported = runError ? [] : writeExports([{ kind: reproduceKind, path: file, document }], exports);
  return {
    ...{ document, saved: { path: file }, exported, runError, kind: reproduceKind },
    written: reportError ? [] : [reportFile],
    resume: ['mmapbench', 'reproduce', '--resume', file, ...resumeFlags(document.options)],
  };
}
