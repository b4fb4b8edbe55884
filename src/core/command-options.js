// Each command's options, one table per command composed of options.js's parts: what yargs
// declares for it, what the API checks an options object against (and types it as: ApiOptions),
// and what docs/options.md lists.
import { positiveInteger, positiveNumber, variant } from '../words/vocabulary.js';
import { ADVISE_SECONDS, PRECISION, SMOKE_CELLS } from '../run/defaults.js';
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
  measurementSpecs,
  runSpecs,
  settingSpecs,
  stopSpecs,
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
  };
}

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
