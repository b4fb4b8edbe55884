import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { environmentError, MmapbenchError, usageError } from '../errors.js';
import { EXPERIMENTS, EXPERIMENT_NAMES } from '../reproduce/experiments.js';
import { environmentModel, experimentSection, renderReport, summaryModel } from '../reproduce/report.js';
import { createResultsFile, readResultsFile } from '../reproduce/results-file.js';
import { kebab, oversubscribed } from '../run/plan.js';
import { cellsPerRound, roundBounds, runExperiment, ROUNDS } from '../reproduce/runner.js';
import { startProgress } from '../report/progress.js';
import { version } from '../report/results.js';
import { renderTerminal, useColor } from '../report/table.js';
import { describeEnvironment, THP_PATH } from '../system/environment.js';
import { findJemalloc, preloadProblem } from '../system/jemalloc.js';
import { resolveNode } from '../system/node.js';
import { defaultRestoreFile, leftover, thpProblem } from '../system/thp.js';
import { positiveInteger, positiveNumber } from './options.js';

// Seconds a cell costs beyond its timed loop (a fresh process tree, warmup), and a calibration;
// measured here on 2 cores, for --list's estimates and the progress bar only.
const CELL_OVERHEAD_SECONDS = 0.4;
const QUICK_CELL_SECONDS = 0.25;
const CALIBRATION_SECONDS = 0.6;

// Options that shape the measurement; --resume takes them from the results file instead.
const MEASUREMENT_OPTIONS = ['experiments', 'quick', 'k', 'rounds', 'maxRounds', 'duration', 'timeout', 'node', 'jemalloc', 'thpPath', 'fixturesDir'];

export const command = 'reproduce [experiments..]';
export const describe = "Re-check the investigation's published tables on this machine, with a verdict per claim";
export const builder = (yargs) =>
  yargs
    .positional('experiments', { type: 'string', array: true, describe: `experiments to run (${EXPERIMENT_NAMES.join(', ')})`, defaultDescription: 'every one this machine can run' })
    .option('list', { type: 'boolean', describe: 'list the experiments: the claim each tests, what it needs, whether it runs here, estimated time' })
    .option('quick', { type: 'boolean', describe: 'short cells and 2 rounds: every experiment in about a minute on 2 cores (smoke; decides little)' })
    .option('k', { type: 'string', describe: 'workers or processes side by side', defaultDescription: 'the published 8, or the number of CPUs if fewer', coerce: positiveInteger('-k') })
    .option('rounds', { type: 'string', describe: 'run exactly this many rounds per experiment', defaultDescription: `${ROUNDS.min}, more until every claim is decided`, coerce: positiveInteger('--rounds') })
    .option('max-rounds', { type: 'string', describe: 'most rounds an undecided experiment gets', defaultDescription: String(ROUNDS.max), coerce: positiveInteger('--max-rounds') })
    .option('duration', { type: 'string', describe: 'target seconds per cell', defaultDescription: '1', coerce: positiveNumber('--duration') })
    .option('timeout', { type: 'string', describe: 'seconds a cell may take before it is terminated', defaultDescription: '300 (60 with --quick)', coerce: positiveNumber('--timeout') })
    .option('node', { type: 'string', describe: 'node binary the cells run on', defaultDescription: 'this node' })
    .option('out', { type: 'string', describe: 'folder for REPORT.md and the results file', defaultDescription: './mmapbench-reproduce' })
    .option('resume', { type: 'string', describe: 'continue the run whose results file this is, with the options it was started with' })
    .option('jemalloc', { type: 'string', describe: 'path of libjemalloc.so for the jemalloc experiment', defaultDescription: 'found with ldconfig -p or in the usual paths' })
    .option('thp-path', { type: 'string', describe: 'the THP setting file the thp experiment changes (a stand-in for tests)', defaultDescription: THP_PATH })
    .option('thp-restore-file', { type: 'string', describe: 'where the original THP mode is kept while it is changed', defaultDescription: defaultRestoreFile() })
    .option('fixtures-dir', { type: 'string', describe: 'where the files the tasks read are created', defaultDescription: '$TMPDIR/mmapbench-fixtures' })
    .option('markdown', { type: 'boolean', describe: 'print the report as markdown (REPORT.md is always markdown)' })
    .conflicts('quick', ['rounds', 'duration'])
    .conflicts('list', 'resume');

/** What a new run is asked for, checked before anything starts. */
function newOptions(argv) {
  const experiments = [argv.experiments ?? []].flat();
  const unknown = experiments.filter((name) => !EXPERIMENT_NAMES.includes(name));
  if (unknown.length) throw usageError(`no experiment ${unknown.join(', ')}; the experiments are ${EXPERIMENT_NAMES.join(', ')} (see \`mmapbench reproduce --list\`)`);
  const cores = os.availableParallelism();
  return {
    experiments,
    quick: Boolean(argv.quick),
    k: argv.k ?? Math.min(8, cores),
    rounds: argv.rounds ?? null,
    maxRounds: argv.maxRounds ?? ROUNDS.max,
    duration: argv.duration ?? 1,
    timeout: argv.timeout ?? 300,
    node: argv.node,
    jemalloc: argv.jemalloc,
    thpPath: argv.thpPath ?? THP_PATH,
    fixturesDir: argv.fixturesDir,
  };
}

/** What this machine offers the experiments: the jemalloc library, the THP file. */
async function machine(options, argv) {
  const node = await resolveNode(options.node);
  const jemalloc = findJemalloc(options.jemalloc);
  if (jemalloc.path) {
    const problem = preloadProblem(node.path, jemalloc.path);
    if (problem) Object.assign(jemalloc, { path: null, why: problem });
  }
  const thp = { path: options.thpPath, restoreFile: argv.thpRestoreFile ?? defaultRestoreFile() };
  thp.why = thpProblem(thp.path);
  return { node, jemalloc, thp };
}

/** The experiments to run and those skipped with the reason; a named one that cannot run is an error. */
function select(options, ctx) {
  const named = options.experiments.length > 0;
  const runnable = [];
  const skipped = [];
  for (const experiment of EXPERIMENTS.filter((e) => !named || options.experiments.includes(e.name))) {
    const why = experiment.unavailable?.(ctx) ?? null;
    if (!why) runnable.push(experiment);
    else if (named) throw environmentError(`${experiment.name} cannot run here: ${why}`);
    else skipped.push({ name: experiment.name, reason: why });
  }
  if (runnable.some((e) => e.name === 'thp') && existsSync(ctx.thp.restoreFile)) {
    throw leftover(ctx.thp.restoreFile);
  }
  return { runnable, skipped };
}

const minutes = (seconds) => (seconds < 90 ? `~${Math.max(1, Math.round(seconds))} s` : `~${Math.round(seconds / 60)} min`);

function estimate(variants, options, quick) {
  const [min] = roundBounds({ ...options, quick });
  const cell = quick ? QUICK_CELL_SECONDS : options.duration + CELL_OVERHEAD_SECONDS;
  return cellsPerRound(variants) * min * cell + (quick ? 0 : variants.length * CALIBRATION_SECONDS);
}

function listing(ctx, options) {
  const rows = EXPERIMENTS.map((experiment) => {
    const variants = experiment.variants({ ...ctx, jemalloc: { path: ctx.jemalloc.path ?? 'libjemalloc.so.2' } });
    const why = experiment.unavailable?.(ctx);
    return [
      experiment.name,
      `${experiment.hypothesis}: ${experiment.claim}`,
      experiment.needs,
      why ? `skipped: ${why}` : 'runs',
      `${minutes(estimate(variants, options, false))} (--quick ${minutes(estimate(variants, options, true))})`,
    ];
  });
  const [min] = roundBounds(options);
  return renderTerminal({
    title: `mmapbench reproduce: ${EXPERIMENTS.length} experiments (times at k=${options.k}, ${min} rounds of ~${options.duration} s cells; undecided claims add rounds)`,
    tables: [{ head: ['experiment', 'claim it tests', 'needs', 'on this machine', 'time'], rows, align: ['left', 'left', 'left', 'left', 'left'], widths: [16, 44, 26, 30, 24] }],
    notes: [],
  });
}

export async function handler(argv) {
  const { interrupt, stdout = process.stdout, stderr = process.stderr } = argv.context ?? {};
  let options;
  let header;
  let records = [];
  let file;
  if (argv.resume) {
    const given = MEASUREMENT_OPTIONS.filter((name) => argv[name] !== undefined && !(name === 'experiments' && argv.experiments.length === 0));
    if (given.length) throw usageError(`--resume continues a run with the options it was started with; drop ${given.map((n) => (n === 'experiments' ? 'the experiment names' : `--${kebab(n)}`)).join(', ')}`);
    ({ header, records } = readResultsFile(argv.resume));
    ({ options } = header);
    file = argv.resume;
  } else {
    options = newOptions(argv);
  }
  const ctx = await machine(options, argv);
  if (argv.list) {
    stdout.write(listing(ctx, options));
    return;
  }
  const { runnable, skipped } = select(options, ctx);

  if (!header) {
    header = {
      mmapbench: version,
      started: new Date().toISOString(),
      options,
      environment: describeEnvironment({ node: ctx.node, env: process.env }),
      jemalloc: ctx.jemalloc.path,
    };
    file = join(argv.out ?? 'mmapbench-reproduce', `results-${header.started.replace(/[:.]/g, '-')}.jsonl`);
    createResultsFile(file, header);
  }
  const reportFile = join(argv.out ?? dirname(file), 'REPORT.md');
  const cores = os.availableParallelism();
  if (options.k > cores) stderr.write(`mmapbench: warning: ${oversubscribed(options.k, cores)}\n`);
  stderr.write(`mmapbench: each cell is appended to ${file} as it finishes\n`);

  const plan = runnable.map((experiment) => ({ experiment, variants: experiment.variants(ctx) }));
  const [min] = roundBounds(options);
  const cells = Math.max(0, plan.reduce((n, { variants }) => n + cellsPerRound(variants) * min, 0) - records.filter((r) => r.type === 'cell').length);
  const seconds = plan.reduce((n, { variants }) => n + estimate(variants, options, options.quick), 0);
  const progress = startProgress({ cells, expectedSeconds: seconds, stream: stderr });
  let error = null;
  try {
    for (const { experiment, variants } of plan) {
      await runExperiment(experiment, variants, { options, records, file, interrupt, progress, thp: ctx.thp });
    }
  } catch (caught) {
    if (!(caught instanceof MmapbenchError)) throw caught;
    error = caught;
  } finally {
    progress.stop();
  }

  const sections = plan.map(({ experiment, variants }) => ({
    name: experiment.name,
    ...experimentSection(experiment, variants, records.filter((r) => r.type === 'cell' && r.experiment === experiment.name), {
      k: options.k,
      cores: header.environment.cpu.logicalCores,
    }),
  }));
  const status = !error ? 'complete' : error.kind === 'interrupted' ? 'interrupted: resume with --resume' : `failed: ${error.message}`;
  const models = [environmentModel({ header, status, file, skipped, bounds: roundBounds(options) }), summaryModel(sections, { quick: options.quick }), ...sections.map((s) => s.model)];
  writeFileSync(reportFile, renderReport(models, { markdown: true }));
  stdout.write(renderReport(models, { markdown: argv.markdown, color: useColor(stdout) }));
  stderr.write(`mmapbench: wrote ${reportFile}; raw results in ${file}\n`);
  if (error) {
    stderr.write(`mmapbench: to finish the run: mmapbench reproduce --resume ${file}\n`);
    throw error;
  }
}
