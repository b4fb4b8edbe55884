import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { environmentError, usageError } from '../errors.js';
import { sessionError } from '../run/session.js';
import { kebab, percent, positiveInteger, positiveNumber, timeoutSeconds } from '../cli/vocabulary.js';
import { commandLine } from '../report/command-line.js';
import { startProgress } from '../report/progress.js';
import { renderMarkdown, renderTerminal, textWidth, useColor } from '../report/table.js';
import { checkK, oversubscribed, PRECISION } from '../run/plan.js';
import { describeEnvironment, THP_PATH } from '../system/environment.js';
import { findJemalloc, preloadProblem } from '../system/jemalloc.js';
import { resolveNode } from '../system/node.js';
import { lockFolder } from '../system/out-lock.js';
import { fileError, makeFolder, writeFileAtomic } from '../system/safe-fs.js';
import { defaultRestoreFile, leftover, thpProblem } from '../system/thp.js';
import { preflight } from '../system/trace/preflight.js';
import { version } from '../version.js';
import { EXPERIMENTS, EXPERIMENT_NAMES } from './experiments.js';
import { environmentModel, experimentSection, renderReport, summaryModel } from './report.js';
import { appendRecord, createResultsFile, readResultsFile } from './results-file.js';
import { cellsPerRound, runExperiment } from './runner.js';
import { QUICK, roundBounds, ROUNDS } from './rounds.js';
import { PROTOCOL_CHOICES, protocolsOf, underProtocol } from './protocols.js';

/**
 * What `mmapbench reproduce` was asked, as typed: undefined where an option was not given
 * (--resume takes those from the results file).
 * @typedef {object} ReproduceRequest
 * @property {string[]} experiments
 * @property {boolean} [list]
 * @property {boolean} [quick]
 * @property {number} [k]
 * @property {number} [rounds]
 * @property {number} [maxRounds]
 * @property {number} [duration]
 * @property {number} [timeout]
 * @property {boolean} [force]
 * @property {string} [node]
 * @property {string} [out]
 * @property {string} [resume]
 * @property {string} [jemalloc]
 * @property {string} [thpPath]
 * @property {string} [thpRestoreFile]
 * @property {string} [fixturesDir]
 * @property {boolean} [markdown]
 * @property {'steady'|'published'|'both'} [protocol]
 */

// Seconds a cell costs beyond its timed loop (a fresh process tree, warmup), a --quick cell, a
// calibration, and bpftrace attaching for a traced cell; measured here on 2 cores (a --quick run
// of every experiment: 242 cells in 133 s, 8 of them traced), for --list's estimates and the
// progress bar only.
const CELL_OVERHEAD_SECONDS = 0.4;
const QUICK_CELL_SECONDS = 0.5;
const CALIBRATION_SECONDS = 0.6;
const TRACE_ATTACH_SECONDS = 2;

// Options that shape the measurement; --resume takes them from the results file instead.
const MEASUREMENT_OPTIONS = [
  'experiments',
  'quick',
  'k',
  'rounds',
  'maxRounds',
  'precision',
  'duration',
  'timeout',
  'fixturesDir',
  'protocol',
];

/** What a new run is asked for, checked before anything starts. */
function newOptions(argv) {
  const cores = os.availableParallelism();
  return checkOptions(
    {
      experiments: [argv.experiments ?? []].flat(),
      quick: Boolean(argv.quick),
      k: argv.k ?? Math.min(8, cores),
      rounds: argv.rounds ?? null,
      maxRounds: argv.maxRounds ?? ROUNDS.max,
      precision: argv.precision ?? PRECISION.precision,
      duration: argv.duration ?? 1,
      timeout: argv.timeout ?? (argv.quick ? QUICK.timeout : 300),
      node: argv.node,
      jemalloc: argv.jemalloc,
      thpPath: argv.thpPath ?? THP_PATH,
      fixturesDir: argv.fixturesDir,
      protocol: argv.protocol ?? 'steady',
    },
    { force: argv.force },
  );
}

const optionalString = (name) => (value) => {
  if (value !== undefined && value !== null && typeof value !== 'string') throw usageError(`${name} must be a path`);
  return value ?? undefined;
};

// The same checks a new run's flags get, applied to a stored header too: a results file is
// data, and must never choose what runs, or run with values a user could not have typed.
const OPTION_CHECKS = {
  k: positiveInteger('-k'),
  rounds: (value) => (value === null ? null : positiveInteger('--rounds')(value)),
  maxRounds: positiveInteger('--max-rounds'),
  // a results file from before --precision existed has none: the default then
  precision: (value) => (value === undefined ? PRECISION.precision : percent('--precision')(value * 100)),
  duration: positiveNumber('--duration'),
  timeout: timeoutSeconds('--timeout'),
  node: optionalString('--node'),
  jemalloc: optionalString('--jemalloc'),
  thpPath: (value) => optionalString('--thp-path')(value) ?? THP_PATH,
  fixturesDir: optionalString('--fixtures-dir'),
  // a results file from before protocols existed measured steady cells
  protocol: (value) => {
    if (value === undefined) return 'steady';
    if (!PROTOCOL_CHOICES.includes(value))
      throw usageError(`--protocol ${value} is not one of ${PROTOCOL_CHOICES.join(', ')}`);
    return value;
  },
};

function checkOptions(options, { force = false } = {}) {
  const checked = { experiments: options.experiments, quick: options.quick };
  if (!Array.isArray(checked.experiments) || typeof checked.quick !== 'boolean')
    throw usageError('the experiments and --quick are not as a run stores them');
  const unknown = checked.experiments.filter((name) => !EXPERIMENT_NAMES.includes(name));
  if (unknown.length)
    throw usageError(
      `no experiment ${unknown.join(', ')}; the experiments are ${EXPERIMENT_NAMES.join(', ')} (see \`mmapbench reproduce --list\`)`,
    );
  for (const [name, check] of Object.entries(OPTION_CHECKS)) checked[name] = check(options[name]);
  checkK(checked.k, { force, cores: os.availableParallelism() });
  return checked;
}

// What a results file may not decide on its own: the programs and files root runs or writes.
const MUST_BE_GIVEN_AGAIN = { node: undefined, jemalloc: undefined, thpPath: THP_PATH };

/** The stored options of a run to resume, checked like new ones, and the flags given with it. */
function resumedOptions(argv, header, file) {
  let options;
  try {
    options = checkOptions(header.options, { force: argv.force });
  } catch (error) {
    throw usageError(`--resume ${file}: its stored options are invalid (${error.message})`, error);
  }
  for (const [name, fallback] of Object.entries(MUST_BE_GIVEN_AGAIN)) {
    const flag = `--${kebab(name)}`;
    const given = argv[name];
    if (given !== undefined && resolve(given) !== resolve(options[name] ?? '')) {
      throw usageError(
        `--resume ${file}: the run was started with ${flag} ${options[name] === undefined ? 'left out' : commandLine([options[name]])}, not ${commandLine([given])}; resume it with the same ${flag}`,
      );
    }
    if (options[name] !== fallback && given === undefined) {
      throw usageError(
        `--resume ${file}: the run was started with ${flag} ${commandLine([options[name]])}; give it again (${flag} ${commandLine([options[name]])}) to resume: a results file never chooses what runs`,
      );
    }
  }
  return options;
}

/** What this machine offers the experiments: the jemalloc library, the THP file. */
async function machine(options, argv, interrupt) {
  const node = await resolveNode(options.node, interrupt);
  const jemalloc = findJemalloc(options.jemalloc);
  if (jemalloc.path) {
    const problem = preloadProblem(node.path, jemalloc.path);
    if (problem) Object.assign(jemalloc, { path: null, why: problem });
  }
  const thp = { path: options.thpPath, restoreFile: argv.thpRestoreFile ?? defaultRestoreFile() };
  thp.why = thpProblem(thp.path);
  // the locks experiment traces, as `mmapbench trace` does: the same checks, each failure a reason
  const wanted = options.experiments.length === 0 || options.experiments.includes('locks');
  const trace = wanted
    ? await preflight({ interrupt }).then(
        (setup) => ({ setup, why: null }),
        (error) => ({ setup: null, why: error.message }),
      )
    : { setup: null, why: 'not asked for' };
  return { node, jemalloc, thp, trace };
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
    throw leftover(ctx.thp.restoreFile, ctx.thp.path);
  }
  return { runnable, skipped };
}

const approxTime = (seconds) =>
  seconds < 90 ? `~${Math.max(1, Math.round(seconds))} s` : `~${Math.round(seconds / 60)} min`;

function estimate(variants, options, quick) {
  const [min] = roundBounds({ ...options, quick });
  const cell = quick ? QUICK_CELL_SECONDS : options.duration + CELL_OVERHEAD_SECONDS;
  const traced = cellsPerRound(variants.filter((variant) => variant.trace)) * min * TRACE_ATTACH_SECONDS;
  return cellsPerRound(variants) * min * cell + traced + (quick ? 0 : variants.length * CALIBRATION_SECONDS);
}

function listing(ctx, options, { width, markdown }) {
  const rows = EXPERIMENTS.map((experiment) => {
    const variants = experiment.variants({ ...ctx, jemalloc: { path: ctx.jemalloc.path ?? 'libjemalloc.so.2' } });
    const why = experiment.unavailable?.(ctx);
    return [
      experiment.name,
      `${experiment.hypothesis}: ${experiment.claim}`,
      experiment.needs,
      why ? `skipped: ${why}` : 'runs',
      `${approxTime(estimate(variants, options, false))} (--quick ${approxTime(estimate(variants, options, true))})`,
    ];
  });
  const [min] = roundBounds(options);
  const model = {
    title: `mmapbench reproduce: ${EXPERIMENTS.length} experiments (times at k=${options.k}, ${min} rounds of ~${options.duration} s cells; undecided claims add rounds)`,
    tables: [
      {
        head: ['experiment', 'claim it tests', 'needs', 'on this machine', 'time'],
        rows,
        align: ['left', 'left', 'left', 'left', 'left'],
        widths: [16, 44, 26, 30, 24],
      },
    ],
    notes: [],
  };
  return markdown ? renderMarkdown(model) : renderTerminal(model, { width });
}

/**
 * `mmapbench reproduce`: the experiments' rounds, each cell appended to the results file as it
 * finishes, then REPORT.md; or, with `resume`, the cells that file is missing.
 * @param {ReproduceRequest} argv  what the command line asked for
 * @param {import('../cli/index.js').Context} [context]
 */
export async function reproduce(argv, { interrupt, stdout = process.stdout, stderr = process.stderr } = {}) {
  const warn = (message) => stderr.write(`mmapbench: warning: ${message}\n`);
  let options;
  let resumed = null;
  if (argv.resume) {
    const given = MEASUREMENT_OPTIONS.filter(
      (name) => argv[name] !== undefined && !(name === 'experiments' && argv.experiments.length === 0),
    );
    if (given.length)
      throw usageError(
        `--resume continues a run with the options it was started with; drop ${given.map((n) => (n === 'experiments' ? 'the experiment names' : `--${kebab(n)}`)).join(', ')}`,
      );
    resumed = readResultsFile(argv.resume);
    options = resumedOptions(argv, resumed.header, argv.resume);
  } else {
    options = newOptions(argv);
  }
  const ctx = await machine(options, argv, interrupt);
  if (argv.list) {
    stdout.write(listing(ctx, options, { width: textWidth(stdout), markdown: argv.markdown }));
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
 */
async function measure({ argv, options, ctx, runnable, skipped, resumed, out }, { stdout, stderr, interrupt }) {
  let header = resumed?.header;
  let file = argv.resume;
  const records = resumed?.records ?? [];
  if (resumed) {
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
      environment: describeEnvironment({ node: ctx.node, env: process.env }),
      jemalloc: ctx.jemalloc.path,
    };
    file = join(out, `results-${header.started.replace(/[:.]/g, '-')}.jsonl`);
    createResultsFile(file, header);
  }
  const reportFile = join(out, 'REPORT.md');
  const cores = os.availableParallelism();
  if (options.k > cores) stderr.write(`mmapbench: warning: ${oversubscribed(options.k, cores)}\n`);
  stderr.write(`mmapbench: each cell is appended to ${file} as it finishes\n`);

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
  stdout.write(renderReport(models, { markdown: argv.markdown, color: useColor(stdout), width: textWidth(stdout) }));
  try {
    writeFileAtomic(reportFile, renderReport(models, { markdown: true }));
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
}

/** The flags a resume must be given again (see MUST_BE_GIVEN_AGAIN). */
const resumeFlags = (options) =>
  Object.entries(MUST_BE_GIVEN_AGAIN).flatMap(([name, fallback]) =>
    options[name] !== fallback ? [`--${kebab(name)}`, options[name]] : [],
  );

/** Each experiment's settings, once per protocol, to run in the same interleaved rounds. */
const planOf = (experiments, ctx, options) =>
  experiments.map((experiment) => ({
    experiment,
    variants: experiment.variants(ctx).flatMap((v) => protocolsOf(options.protocol).map((p) => underProtocol(v, p))),
  }));

/**
 * The report of a run, from its results file's header and records: what a live run prints
 * and writes to REPORT.md, and what `mmapbench report` prints from the file later.
 */
function reportModels({ header, options, records, plan, status, file, skipped }) {
  const sections = plan.map(({ experiment, variants }) => ({
    name: experiment.name,
    ...experimentSection(
      experiment,
      variants,
      records.filter((r) => r.type === 'cell' && r.experiment === experiment.name),
      {
        k: options.k,
        cores: header.environment.cpu.logicalCores,
        quick: options.quick,
        protocols: protocolsOf(options.protocol),
      },
    ),
  }));
  return [
    environmentModel({ header, status, file, skipped, bounds: roundBounds(options) }),
    summaryModel(sections, { quick: options.quick, protocols: protocolsOf(options.protocol) }),
    ...sections.map((s) => s.model),
  ];
}

/**
 * A saved reproduce run's report, as it printed (see loadResults): the experiments with cells
 * in the file, and the status its last `end` record gave, if the run got that far.
 * @param {{ header: any, records: any[], end: any, path: string }} saved
 */
export function savedReportModels({ header, records, end, path }) {
  const names = new Set(records.map((record) => record.experiment));
  // a file from before protocols existed measured steady cells
  const options = { ...header.options, protocol: header.options.protocol ?? 'steady' };
  const plan = planOf(
    EXPERIMENTS.filter((experiment) => names.has(experiment.name)),
    { jemalloc: { path: header.jemalloc } },
    options,
  );
  return reportModels({
    header,
    options,
    records,
    plan,
    status: end?.status ?? 'ended without a report (killed): resume with --resume',
    file: path,
    skipped: end?.skipped ?? [],
  });
}
