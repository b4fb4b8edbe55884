// Each command's options, one table per command composed of options.js's parts: what yargs
// declares for it, what the API checks an options object against (and types it as: ApiOptions),
// and what docs/options.md lists.
import { percent, positiveInteger, positiveNumber, variant } from '../words/vocabulary.js';
import {
  ADVISE_SECONDS,
  DEFAULTS,
  PRECISION,
  PROTOCOL_CHOICES,
  REPRODUCE_ROUNDS,
  SMOKE_CELLS,
} from '../run/defaults.js';
import { RESTORE_FILE_DESCRIPTION, THP_PATH } from '../system/thp-file.js';
import { PRINTED, RETURNED, flag, repeat, value } from './option-spec.js';
import {
  COMMON,
  DIFF_GATE,
  EXPORT,
  GATE,
  OUTPUT,
  POOL,
  RESUME,
  WORK,
  fixturesOption,
  forceOption,
  measurementSpecs,
  nodeOption,
  runSpecs,
  settingSpecs,
  stopSpecs,
  timeoutOption,
} from './options.js';

/** @typedef {import('./option-spec.js').Specs} Specs */

/**
 * sweep's options: every setting option takes a list, and --variant and --node repeat; the
 * points are their cartesian product.
 */
export function sweepSpecs() {
  return {
    ...COMMON,
    ...settingSpecs({ list: true }),
    variant: repeat('a named set of environment variables for the cells (repeatable); `default` adds nothing', {
      takes: 'NAME[:KEY=VALUE,...]',
      read: (/** @type {string[]} */ values) =>
        values.reduce(
          (/** @type {ReturnType<typeof variant> | undefined} */ previous, raw) => variant(raw, previous),
          undefined,
        ),
      tags: ['axis'],
    }),
    ...WORK,
    ...stopSpecs({
      rounds: `run exactly this many rounds at every point (default: until decided, or --max-time; ${SMOKE_CELLS.rounds} with --quick)`,
      precision: 'stop a point once its ratio is known to ± this, and not as soon as its verdict is decided',
      maxTime: `wall time for the whole sweep, calibration included (default: ${PRECISION.maxSeconds} per point)`,
    }),
    ...runSpecs({ sweep: true }),
    ...POOL,
    ...OUTPUT,
    ...EXPORT,
    ...GATE,
  };
}

/**
 * advise's options: one setting (the baseline), how long, and which candidates.
 */
export function adviseSpecs() {
  return {
    ...COMMON,
    ...settingSpecs(),
    ...WORK,
    ...stopSpecs({
      rounds:
        'run exactly this many interleaved rounds of every candidate, none raced out (default: the race, until --max-time)',
      precision:
        'with --no-race: stop a candidate once its workers/procs ratio is known to ± this, and not as soon as its verdict is decided',
      maxTime: `wall time for the whole run, every candidate together (default: ${ADVISE_SECONDS})`,
    }),
    ...POOL,
    race: flag(
      "race the candidates (the default): after 5 rounds each, one whose gain interval (a confidence sequence) lies wholly below the leader's gets no more rounds; --no-race gives each rounds until its --precision or the budget",
    ),
    ...runSpecs({ sweep: true }),
    only: value(
      'try only the candidates whose name contains one of these words, comma-separated (the baseline always runs)',
      { takes: 'words' },
    ),
    kAuto: flag(
      'also measure the baseline at every k up to the CPUs this process may use (1, 2, 4, … and that count), and end with the K to run in each mode (as sweep -k does); not raced',
    ),
    for: value(
      "the cost to rank the fixes by: throughput (the default), memory (what each added worker holds), kept-memory (what the app keeps once its workers end) or main-latency (the app's request p99 while they run); the others are shown beside it",
      { takes: 'cost', choices: ['throughput', 'memory', 'kept-memory', 'main-latency'] },
    ),
    ...OUTPUT,
    ...EXPORT,
    ...RESUME,
  };
}

const RESUME_TAG = /** @type {const} */ (['resume']);
const GIVEN_AGAIN = /** @type {const} */ (['resume', 'again']);

/** reproduce's options: the experiments' run, and where its report and results go. */
const REPRODUCE = {
  ...COMMON,
  list: flag('list the experiments: the claim each tests, what it needs, whether it runs here, estimated time', {
    conflicts: ['resume'],
  }),
  quick: flag('short cells and 2 rounds: every experiment in about a minute on 2 cores (smoke; decides little)', {
    conflicts: ['rounds', 'duration'],
  }),
  smoke: flag('', { hidden: true, conflicts: ['rounds', 'duration'] }),
  k: {
    takes: 'count',
    describe: 'workers or processes side by side (default: the published 8, or the number of CPUs if fewer)',
    read: positiveInteger('-k'),
  },
  rounds: {
    takes: 'count',
    describe: `run exactly this many rounds per experiment (default: ${REPRODUCE_ROUNDS.min}, then more until every claim is decided, or within --precision)`,
    read: positiveInteger('--rounds'),
  },
  precision: {
    takes: 'percent',
    describe:
      "add rounds until every claim's interval is within ± this, rather than until every claim is decided (the default)",
    read: percent('--precision'),
    conflicts: ['rounds'],
  },
  maxRounds: {
    takes: 'count',
    describe: `most rounds an undecided experiment gets (default: ${REPRODUCE_ROUNDS.max})`,
    read: positiveInteger('--max-rounds'),
  },
  duration: {
    takes: 'seconds',
    describe: `target seconds per cell (default: ${DEFAULTS.duration})`,
    read: positiveNumber('--duration'),
  },
  protocol: {
    takes: 'name',
    describe:
      "fresh: warm cells of --duration, the investigation's claims decided on each worker's first 2,000 ops and shown once warm beside; steady: warm only; published: 2,000 iterations, no warmup, as the investigation ran them; both: published and steady cells, each claim under each (default: fresh)",
    choices: PROTOCOL_CHOICES,
  },
  timeout: timeoutOption,
  force: forceOption(),
  node: nodeOption,
  // what may be given with --resume (tagged `resume`; the rest shape the measurement, which the
  // results file keeps), and what the file may not choose alone (`again`: option-spec.js, Tag)
  out: {
    takes: 'dir',
    describe: 'folder for REPORT.md and the results file (default: ./mmapbench-reproduce)',
    tags: RESUME_TAG,
  },
  resume: {
    takes: 'file',
    describe:
      'continue the run whose results file this is (a .json, or the .jsonl of an earlier mmapbench), with the options it was started with',
    tags: RESUME_TAG,
  },
  jemalloc: {
    takes: 'path',
    describe:
      'path of libjemalloc.so for the jemalloc experiment (default: found with ldconfig -p or in the usual paths)',
    tags: GIVEN_AGAIN,
  },
  thpPath: {
    takes: 'path',
    describe: `the THP setting file the thp experiment changes, a stand-in for tests (default: ${THP_PATH})`,
    tags: GIVEN_AGAIN,
    default: THP_PATH,
  },
  thpRestoreFile: {
    takes: 'file',
    describe: `where the original THP mode is kept while it is changed (default: ${RESTORE_FILE_DESCRIPTION})`,
    tags: RESUME_TAG,
  },
  fixturesDir: fixturesOption,
  markdown: flag('print the report as markdown (REPORT.md is always markdown)', { tags: RESUME_TAG }),
  ...EXPORT,
};

const AUDIT = 'an audit of another process is `mmapbench trace --pid`';

/** What `trace` adds to compare's options: an audit of another process, instead of cells. */
const TRACE = {
  pid: {
    takes: 'pid',
    describe: 'audit a running process (all its threads) and everything it starts, instead of cells',
    read: positiveInteger('--pid'),
    tags: /** @type {const} */ (['audit']),
    cli: AUDIT,
  },
  stacks: flag(
    'with --pid or --: the user stacks of the write acquisitions too, resolved while the target runs (best effort)',
    { tags: ['audit'], cli: AUDIT },
  ),
  seconds: {
    takes: 'seconds',
    describe: 'with --pid or --: stop after this long (default: when the target exits, or Ctrl-C)',
    read: positiveNumber('--seconds'),
    tags: /** @type {const} */ (['audit']),
    cli: AUDIT,
  },
};

/**
 * Every command's options, by command: what yargs declares for it, what the API checks an
 * options object against (and types it as: OptionsOf), and what docs/options.md lists.
 */
export const SPECS_OF = {
  compare: () => ({ ...measurementSpecs({ compare: true }), ...RESUME }),
  workers: () => ({ ...measurementSpecs({ compare: false }), ...RESUME }),
  procs: () => ({ ...measurementSpecs({ compare: false }), ...RESUME }),
  sweep: () => ({ ...sweepSpecs(), ...RESUME }),
  advise: adviseSpecs,
  trace: () => ({ ...measurementSpecs({ compare: true }), ...TRACE }),
  diff: () => ({
    ...COMMON,
    json: flag('print one JSON document on stdout and nothing else', { conflicts: ['markdown'], cli: RETURNED }),
    markdown: flag('print the tables as markdown', { cli: PRINTED }),
    ...DIFF_GATE,
  }),
  reproduce: () => REPRODUCE,
  report: () => ({
    // report() prints what --verbose prints: the API takes it
    verbose: flag(COMMON.verbose.describe),
    markdown: flag('print the tables as markdown', { conflicts: ['html'] }),
    html: value('write one HTML page with the tables and charts of every file (opens from disk, offline)', {
      takes: 'file',
    }),
    ...EXPORT,
  }),
};

/**
 * What compare takes and one mode alone does not (the ratio's stopping rule, A/A, the pool, the
 * fault round, the gate): read from the two tables, so workers or procs given one is told which
 * command takes it.
 */
export const compareOnly = () => {
  const one = SPECS_OF.workers();
  return Object.keys(SPECS_OF.compare()).filter((name) => !Object.hasOwn(one, name));
};

/**
 * A command's specs, by its name as a string (the CLI's and the API's dispatch).
 * @param {string} command
 * @returns {{ specs: import('./option-spec.js').Specs }}
 */
export const optionsOf = (command) => ({ specs: /** @type {Record<string, () => Specs>} */ (SPECS_OF)[command]() });

/**
 * Each command's options as the API takes them (docs/api.md): made by TypeScript from the specs
 * above, so a new or changed option cannot leave its type behind.
 * @template {keyof typeof SPECS_OF} C
 * @typedef {import('./option-spec.js').OptionsOf<ReturnType<(typeof SPECS_OF)[C]>>} ApiOptions
 */
/** @typedef {ApiOptions<'compare'>} CompareOptions */
/** @typedef {ApiOptions<'workers'>} WorkersOptions */
/** @typedef {ApiOptions<'procs'>} ProcsOptions */
/** @typedef {ApiOptions<'sweep'>} SweepOptions */
/** @typedef {ApiOptions<'advise'>} AdviseOptions */
/** @typedef {ApiOptions<'trace'>} TraceOptions */
/** @typedef {ApiOptions<'diff'>} DiffOptions */
/** @typedef {ApiOptions<'report'>} ReportOptions */
