import os from 'node:os';
import { dirname, join } from 'node:path';
import { sessionError } from '../run/scheduler.js';
import { startProgress } from '../view/progress.js';
import { textWidth } from '../view/table.js';
import { inheritedEnv, oversubscribed } from '../run/plan.js';
import { describeEnvironment } from '../system/environment.js';
import { lockFolder } from '../system/out-lock.js';
import { fileError, makeFolder, writeFileAtomic } from '../system/safe-fs.js';
import { version } from '../version.js';
import { estimate } from '../reproduce/estimate.js';
import { listing } from '../view/reproduce.js';
import { machine, select } from '../reproduce/machine.js';
import { planOf, reportModels } from '../reproduce/models.js';
import { requestedOptions, resumeFlags } from '../reproduce/options.js';
import { appendRecord, createResultsFile } from '../saved/reproduce-file.js';
import { writeExports } from '../saved/export.js';
import { cellsPerRound, runExperiment } from '../reproduce/runner.js';
import { roundBounds } from '../reproduce/bounds.js';
import { renderReproduce } from '../view/index.js';
import reproduceKind from '../kinds/reproduce.js';
import { commandLine } from '../words/command-line.js';

/**
 * `mmapbench reproduce`: the experiments' rounds, each cell appended to the results file as it
 * finishes, then REPORT.md; or, with `resume`, the cells that file is missing.
 * @param {import('../reproduce/options.js').ReproduceRequest} argv  what the command line asked for
 * @param {import('./context.js').Context} [context]
 */
export async function reproduce(argv, { interrupt, stdout = process.stdout, stderr = process.stderr } = {}) {
  const warn = (/** @type {string} */ message) => stderr.write(`mmapbench: warning: ${message}\n`);
  const { options, resumed } = requestedOptions(argv);
  const ctx = await machine(options, argv, interrupt, {
    install: !argv.list,
    say: (line) => void stderr.write(`mmapbench: ${line}\n`),
  });
  if (argv.list) {
    stdout.write(listing(ctx, options, { width: textWidth(stdout), markdown: argv.markdown, names: argv.experiments }));
    return;
  }
  const { runnable, skipped } = select(options, ctx);

  const out = argv.out ?? (argv.resume ? dirname(argv.resume) : 'mmapbench-reproduce');
  try {
    makeFolder(out);
  } catch (error) {
    throw fileError(error, out, '--out');
  }
  const folders = [...new Set([out, ...(argv.resume ? [dirname(argv.resume)] : [])])];
  const releases = [];
  try {
    for (const folder of folders)
      releases.push(await lockFolder(folder, folder === out ? '--out' : '--resume', { warn }));
    return await measure({ argv, options, ctx, runnable, skipped, resumed, out }, { stdout, stderr, interrupt });
  } finally {
    for (const release of releases) release();
  }
}

/**
 * The run itself, with --out held: every cell appended as it finishes, then the report. A
 * resumed run continues the file it read; a new one starts its own.
 * @param {{ argv: import('../reproduce/options.js').ReproduceRequest,
 *   options: import('../reproduce/runner.js').ReproduceOptions,
 *   ctx: Awaited<ReturnType<typeof machine>>, runnable: import('../reproduce/experiments.js').Experiment[],
 *   skipped: Array<{ name: string, reason: string }>,
 *   resumed: ReturnType<typeof requestedOptions>['resumed'], out: string }} run
 * @param {{ stdout: NonNullable<import('./context.js').Context['stdout']>,
 *   stderr: NonNullable<import('./context.js').Context['stderr']>, interrupt?: AbortSignal }} streams
 */
async function measure({ argv, options, ctx, runnable, skipped, resumed, out }, { stdout, stderr, interrupt }) {
  /** @type {import('../saved/reproduce-file.js').RunHeader} */
  let header;
  /** @type {string} */
  let file;
  const records = resumed?.records ?? [];
  if (resumed && argv.resume) {
    header = resumed.header;
    file = argv.resume;
    resumed.mend();
    if (resumed.cutLines)
      stderr.write(
        `mmapbench: skipped ${resumed.cutLines} line(s) of ${file} cut off by a kill; those cells run again\n`,
      );
  } else {
    header = {
      mmapbench: version,
      started: new Date().toISOString(),
      options,
      // what the cells inherit: each setting names its own allocator variables
      environment: describeEnvironment({ node: ctx.node, env: inheritedEnv(process.env, { allocator: false }) }),
      jemalloc: ctx.jemalloc.path,
      nodes: ctx.nodes,
    };
    file = join(out, `results-${header.started.replace(/[:.]/g, '-')}.jsonl`);
    createResultsFile(file, header);
  }
  const reportFile = join(out, 'REPORT.md');
  const cores = os.availableParallelism();
  if (options.k > cores) stderr.write(`mmapbench: warning: ${oversubscribed(options.k, cores)}\n`);
  stderr.write(`mmapbench: each cell is appended to ${file} as it finishes\n`);

  // node-fix runs on the Nodes found now, never on paths a results file names: a resumed run
  // continues the settings whose versions are still the ones found
  const plan = planOf(runnable, ctx, options);
  const [min] = roundBounds(options);
  const cells = Math.max(
    0,
    plan.reduce((n, { variants }) => n + cellsPerRound(variants) * min, 0) -
      records.filter((r) => r.type === 'cell').length,
  );
  const seconds = plan.reduce((n, { variants }) => n + estimate(variants, options, options.quick), 0);
  const progress = startProgress({ cells, expectedSeconds: seconds, stream: stderr });
  let error = null;
  try {
    for (const { experiment, variants } of plan) {
      await runExperiment(experiment, variants, {
        options,
        records,
        file,
        interrupt,
        progress,
        thp: ctx.thp,
        trace: ctx.trace.setup,
      });
    }
  } catch (caught) {
    // Whatever stopped the run, what finished is reported below before the error.
    error = sessionError(caught);
  } finally {
    progress.stop();
  }

  const status = !error
    ? 'complete'
    : error.kind === 'interrupted'
      ? 'interrupted: resume with --resume'
      : `failed: ${error.message}`;
  try {
    appendRecord(file, { type: 'end', status, skipped });
  } catch {
    // a full disk: the report below still prints, and says the same
  }
  const models = reportModels({ header, options, records, plan, status, file, skipped });
  stdout.write(renderReproduce(models, argv.markdown ? 'markdown' : 'terminal', stdout, { verbose: argv.verbose }));
  try {
    // the report file is the whole text: the machine, the published figures, every experiment
    writeFileAtomic(reportFile, renderReproduce(models, 'markdown', undefined, { verbose: true }));
    stderr.write(`mmapbench: wrote ${reportFile}; raw results in ${file}\n`);
  } catch (writeError) {
    const failed = fileError(writeError, reportFile, '--out');
    stderr.write(`mmapbench: ${failed.message}; the report is the one printed above, raw results in ${file}\n`);
    error ??= failed;
  }
  if (error) {
    stderr.write(
      `mmapbench: to finish the run: ${commandLine(['mmapbench', 'reproduce', '--resume', file, ...resumeFlags(options)])}\n`,
    );
    throw error;
  }
  // every setting's rounds, a resumed run's too, as `report` would read them from its file
  const saved = {
    kind: reproduceKind,
    path: file,
    document: { header, records, end: { type: /** @type {const} */ ('end'), status, skipped } },
  };
  for (const written of writeExports([saved], argv.export ?? [])) stderr.write(`mmapbench: exported ${written}\n`);
}
