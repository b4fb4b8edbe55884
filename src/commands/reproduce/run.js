// `reproduce`'s run on the one run loop (controller.js): the published experiments' rounds, each
// cell appended to the results file as it finishes (its journal), then REPORT.md. It holds its
// --out folder (and a resumed file's) for the whole run, and keeps what finished whatever stops it.
import { dirname, join } from 'node:path';
import { sessionError } from '../../run/scheduler.js';
import { oversubscribed } from '../../run/plan.js';
import { inheritedEnv } from '../../run/cell-env.js';
import { usableCpus } from '../../system/cpus.js';
import { describeEnvironment } from '../../system/environment.js';
import { lockFolder } from '../../system/out-lock.js';
import { fileError, writeFileAtomic } from '../../system/safe-fs.js';
import { SCHEMA, version } from '../../version.js';
import { estimate } from './estimate.js';
import { planOf, reportModels } from './models.js';
import { appendRecord, createResultsFile } from '../../saved/reproduce-file.js';
import { writeExports } from '../../saved/export.js';
import { cellsPerRound, runExperiment } from './runner.js';
import { roundBounds } from './bounds.js';
import { renderReproduce } from './list.js';
import reproduceKind from './kind.js';
import { controlRun } from '../../core/controller.js';

/** @typedef {import('../../saved/reproduce-file.js').RunHeader} RunHeader */

/**
 * What a reproduce run kept: its report's models, where REPORT.md went (or why it could not),
 * the results file, the exports written, and the error that stopped it.
 * @typedef {object} Reproduced
 * @property {import('../../words/report-model.js').ReportModel[]} models
 * @property {{ path: string } | { error: Error }} report
 * @property {string} file
 * @property {string[]} exported
 * @property {Error | null} error
 */

/**
 * The run, with --out held: every cell appended as it finishes, then the report. A resumed run
 * continues the file it read; a new one starts its own.
 * @param {{ argv: import('./options.js').ReproduceRequest,
 *   options: import('./runner.js').ReproduceOptions,
 *   ctx: Awaited<ReturnType<typeof import('./machine.js').machine>>,
 *   runnable: import('./experiments.js').Experiment[],
 *   skipped: Array<{ name: string, reason: string }>,
 *   resumed: ReturnType<typeof import('./options.js').requestedOptions>['resumed'], out: string }} run
 * @param {import('../../core/reporter.js').Context} context
 * @returns {Promise<Reproduced>}
 */
export async function measureReproduce(
  { argv, options, ctx, runnable, skipped, resumed, out },
  { interrupt, reporter },
) {
  const folders = [...new Set([out, ...(argv.resume ? [dirname(argv.resume)] : [])])];
  const reportFile = join(out, 'REPORT.md');
  // node-fix runs on the Nodes found now, never on paths a results file names: a resumed run
  // continues the settings whose versions are still the ones found
  const plan = planOf(runnable, ctx, options);
  const cores = usableCpus().usable;
  // the run's header and results file, once --out is held: a resumed run's, or a new one's
  const run = /** @type {{ header: RunHeader, file: string }} */ ({});
  const records = resumed?.records ?? [];
  return controlRun(
    {
      hold: (warn, body) => holding(warn, body, { folders, out, argv, resumed, options, ctx, run }),
      get before() {
        return [
          ...(resumed?.cutLines
            ? [{ say: `skipped ${resumed.cutLines} line(s) of ${run.file} cut off by a kill; those cells run again` }]
            : []),
          ...(options.k > cores ? [{ warn: { code: 'oversubscribed', text: oversubscribed(options.k, cores) } }] : []),
          { say: `each cell is appended to ${run.file} as it finishes` },
        ];
      },
      // the published protocols are what they are: no check of the machine before them
      checksMachine: false,
      expects: expected(plan, options, records),
      rounds: async ({ reporter: told }) => {
        try {
          for (const { experiment, variants } of plan)
            await runExperiment(experiment, variants, {
              options,
              records,
              file: run.file,
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
          // whatever stopped the run, what finished is reported before the error
          return { error: sessionError(caught) };
        }
      },
      documentOf: () => ({}),
      keep: (_document, { runError }) =>
        kept(runError ?? null, { ...run, argv, options, records, plan, skipped, reportFile }),
    },
    reporter,
  );
}

/**
 * What the run is expected to take: the cells of its least rounds not run yet, and its seconds.
 * @param {ReturnType<typeof planOf>} plan
 * @param {import('./runner.js').ReproduceOptions} options
 * @param {import('../../saved/reproduce-file.js').ResultRecord[]} records  a resumed run's
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
 * Holds --out (and a resumed file's folder) while `body` runs, and names the run's results file:
 * the resumed one, mended where a kill cut it, or a new one with its header.
 * @param {(warning: { code: string, text: string }) => void} warn
 * @param {(value: null) => Promise<any>} body
 * @param {{ folders: string[], out: string, argv: import('./options.js').ReproduceRequest,
 *   resumed: ReturnType<typeof import('./options.js').requestedOptions>['resumed'],
 *   options: import('./runner.js').ReproduceOptions,
 *   ctx: Awaited<ReturnType<typeof import('./machine.js').machine>>,
 *   run: { header: RunHeader, file: string } }} held  `run` is filled in
 */
async function holding(warn, body, { folders, out, argv, resumed, options, ctx, run }) {
  const releases = [];
  try {
    for (const folder of folders)
      releases.push(
        await lockFolder(folder, folder === out ? '--out' : '--resume', {
          warn: (text) => warn({ code: 'unlocked', text }),
        }),
      );
    if (resumed && argv.resume) {
      run.header = resumed.header;
      run.file = argv.resume;
      resumed.mend();
    } else {
      run.header = {
        mmapbench: version,
        schema: SCHEMA,
        started: new Date().toISOString(),
        options,
        // what the cells inherit: each setting names its own allocator variables
        environment: describeEnvironment({
          node: ctx.node,
          env: inheritedEnv(process.env, { allocator: false }),
        }),
        jemalloc: ctx.jemalloc.path,
        nodes: ctx.nodes,
      };
      run.file = join(out, `results-${run.header.started.replace(/[:.]/g, '-')}.jsonl`);
      createResultsFile(run.file, run.header);
    }
    return await body(null);
  } finally {
    for (const release of releases) release();
  }
}

/**
 * What the run keeps however it ended: the end record, REPORT.md, the exports.
 * @param {Error | null} error  what stopped it
 * @param {{ header: RunHeader, file: string, argv: import('./options.js').ReproduceRequest,
 *   options: import('./runner.js').ReproduceOptions, records: any[], plan: ReturnType<typeof planOf>,
 *   skipped: Array<{ name: string, reason: string }>, reportFile: string }} run
 * @returns {Reproduced}
 */
function kept(error, { header, file, argv, options, records, plan, skipped, reportFile }) {
  const status = !error
    ? 'complete'
    : /** @type {any} */ (error).kind === 'interrupted'
      ? 'interrupted: resume with --resume'
      : `failed: ${error.message}`;
  try {
    appendRecord(file, { type: 'end', status, skipped });
  } catch {
    // a full disk: the report still prints, and says the same
  }
  const models = reportModels({ header, options, records, plan, status, file, skipped });
  /** @type {Reproduced['report']} */
  let report;
  try {
    // the report file is the whole text: the machine, the published figures, every experiment
    // a name of mmapbench's own in the folder it holds: a link planted there is replaced
    writeFileAtomic(reportFile, renderReproduce(models, 'markdown', undefined, { verbose: true }), {
      links: 'replace',
    });
    report = { path: reportFile };
  } catch (writeError) {
    report = { error: fileError(writeError, reportFile, '--out') };
  }
  // every setting's rounds, a resumed run's too, as `report` would read them from its file
  const saved = {
    kind: reproduceKind,
    path: file,
    document: { header, records, end: { type: /** @type {const} */ ('end'), status, skipped } },
  };
  const exported = error || 'error' in report ? [] : writeExports([saved], argv.export ?? []);
  return { models, report, file, exported, error };
}
