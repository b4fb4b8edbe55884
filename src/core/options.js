// The options of the commands, declared once as data (option-spec.js says how an option is
// declared and read): yargs shows them in --help and parses the command line into strings and
// switches; `readOptions` then checks and converts them into the typed options object a command
// runs with. Below src/cli/ nothing reads argv.
import { FIXTURES_DIR_DESCRIPTION } from '../run/fixtures.js';
import {
  bytes,
  cycleCount,
  semiSpaceMiB,
  settleMs,
  listOf,
  warmupCount,
  percent,
  positiveInteger,
  positiveNumber,
  requestBytes,
  requestEveryMs,
  text,
  timeoutSeconds,
  variant,
} from '../words/vocabulary.js';
import { DEFAULT_OUT } from '../saved/out.js';
import { FORMATS, readExports } from '../saved/export-request.js';
import { checked, flag, flagName, repeat, value, COMMON, COMPARE_ONLY } from './option-spec.js';

export { COMMON, COMPARE_ONLY };

/** @typedef {import('./option-spec.js').Specs} Specs */

/** Options every command takes. */

export const timeoutOption = value('seconds a cell may take before it is terminated (default: 300; 60 with --quick)', {
  read: timeoutSeconds('--timeout'),
});
export const forceOption = (what = 'run a -k above 4 × CPUs (or 256)') => flag(what);
export const nodeOption = value(
  'the Node the cells run on: a release (24, 26.10: installed from the npm registry on first use) or a binary (default: this node)',
);

/**
 * @typedef {{ kind: 'repeat', list: true, read: (values: string[]) => unknown[] | undefined }} Axis
 *   a sweep's axis: comma-separated lists, repeatable, read into one list
 */

/**
 * A repeated option's comma-separated lists, each value checked by `item`, read into one list.
 * @param {string} name
 * @param {any} item
 * @param {string} example
 */
const listsOf = (name, item, example) => (/** @type {string[]} */ values) =>
  values.reduce(
    (/** @type {unknown[] | undefined} */ previous, raw) => listOf(flagName(name), item, example)(raw, previous),
    undefined,
  );

/**
 * What one setting measures: -k, the task, the file and the task's parameters. With `list`,
 * each takes a comma-separated list, repeatable (sweep's axes).
 * @template {boolean} [L=false]
 * @param {{ list?: L }} [options]
 */
function settingSpecs({ list = /** @type {L} */ (false) } = {}) {
  const s = list ? 's' : '';
  /** @returns {Axis} */
  const axis = (/** @type {string} */ name, /** @type {any} */ item, /** @type {string} */ example) => ({
    kind: 'repeat',
    list: true,
    read: listsOf(name, item, example),
  });
  // an axis in a sweep; one value, checked by `item`, elsewhere (or as typed, without one)
  /**
   * @template [O={ read: (raw: any) => any }]
   * @param {string} name @param {(name: string) => (raw: any) => any} item @param {string} example
   * @param {O} [single]
   * @returns {L extends true ? Axis : O}
   */
  const one = (name, item, example, single = /** @type {O} */ ({ read: item(flagName(name)) })) =>
    /** @type {any} */ (list ? axis(name, item, example) : single);
  return {
    k: value(
      `workers (threads or processes) side by side${list ? ', e.g. 1,2,4,8' : ''} (default: the number of CPUs; 2 with --quick)`,
      one('k', positiveInteger, '1,2,4,8'),
    ),
    task: value(
      `built-in task${s} (see \`mmapbench tasks\`) or path${s} to a task module (default: readfilesync)`,
      one('task', text, 'readfilesync,reuse-buffer', {}),
    ),
    file: value(
      'small, med, large, huge, a size (64k, 8m) or a path (default: med, 64 KiB)',
      one('file', text, '4k,64k,1m', {}),
    ),
    concurrency: value('task parameter: operations in flight per worker', one('concurrency', positiveInteger, '1,8')),
    poolSize: value('task parameter: Buffer.poolSize (bytes, 256k, 1m)', one('poolSize', bytes, '8k,256k,1m')),
    size: value('task parameter: bytes each op allocates, or a message holds', one('size', bytes, '4k,64k')),
    partition: value(
      'task parameter: threadpool-clog reads in chunks of this many bytes',
      one('partition', bytes, '64k,512k'),
    ),
    shape: value(
      'task parameter: what the message task sends, object, json, buffer, transfer or shared',
      one('shape', text, 'object,buffer'),
    ),
    serialization: value(
      "task parameter: the message task's fork serialization in procs mode, json or advanced",
      one('serialization', text, 'json,advanced'),
    ),
    message: value(
      'task parameter: a JSON or JSON-lines file of your own messages for the message task',
      one('message', text, 'jobs.jsonl'),
    ),
    param: repeat(
      `task parameter for your own task, KEY=VALUE (repeatable${list ? '; VALUE may be a comma-separated list' : ''})`,
    ),
  };
}

/** How much work a cell does. */
const WORK = {
  iterations: value('timed ops per worker (instead of --duration)', {
    ...checked(positiveInteger)('iterations'),
    conflicts: ['duration'],
  }),
  duration: value(
    'target seconds per cell; picks --iterations by calibrating, and resizes after the first round if its windows were over a quarter shorter or half again as long (default: 0.1 when stopping on --precision; else 1)',
    checked(positiveNumber)('duration'),
  ),
  warmup: value(
    'untimed ops per worker before the barrier; steady: until the rate stops trending and V8 has stopped optimizing, in tenths of the timed ops, within ten timed windows or 5 s (default: steady)',
    checked(warmupCount)('warmup'),
  ),
};

/**
 * Where the cells run: their environment, node, limits and fixtures; in a sweep (and advise)
 * --node and --cycles are axes.
 * @template {boolean} [W=false]
 * @param {{ sweep?: W }} [options]
 */
const runSpecs = ({ sweep = /** @type {W} */ (false) } = {}) => {
  /** @type {<A, B>(axis: A, single: B) => W extends true ? A : B} */
  const either = (axis, single) => /** @type {any} */ (sweep ? axis : single);
  return {
    env: repeat('KEY=VALUE set in every cell at process start (repeatable)'),
    inheritEnv: flag(
      'give the cells the variables Node reads at every process start (NODE_EXTRA_CA_CERTS), which they do not get otherwise: start-up then shows what each child process pays for them',
    ),
    node: either(
      repeat(
        'Node releases (20,24,26: installed on first use) or binaries the cells run on, an axis; comma-separated or repeated',
        { read: listsOf('node', text, '20,24,26') },
      ),
      nodeOption,
    ),
    main: value(
      "the app's own load on the parent's main thread while the workers run: on (a request every --request-every ms, timed, and the event loop's delay) or off (default: on)",
      { choices: ['on', 'off'] },
    ),
    requestEvery: value(
      "ms between the app's requests on its main thread (default: 2)",
      checked(requestEveryMs)('requestEvery'),
    ),
    requestSize: value(
      "bytes each of the app's requests allocates and fills, before a small JSON round trip (default: 64k; a task's own request(context) replaces it)",
      checked(requestBytes)('requestSize'),
    ),
    settle: value(
      'ms the app waits after its workers have ended before it reads what it kept (default: 10)',
      checked(settleMs)('settle'),
    ),
    cycles: either(
      repeat(
        'times each cell starts, runs and ends its K workers, as a pool that recycles them, an axis (1,2,4,8); comma-separated or repeated (default: 1)',
        { read: listsOf('cycles', cycleCount, '1,2,4,8') },
      ),
      value(
        "start, run and end the K workers this many times in each cell, as a pool that recycles them; the app's memory is read after each (default: 1)",
        checked(cycleCount)('cycles'),
      ),
    ),
    semiSpace: value(
      "MiB of V8's semi-space (half of its new space) in each worker, set as an app sets it: a thread's resourceLimits.maxYoungGenerationSizeMb (3 × this), a child's --max-semi-space-size in execArgv (default: V8's)",
      checked(semiSpaceMiB)('semiSpace'),
    ),
    timeout: timeoutOption,
    force: forceOption(sweep ? 'run a -k above 4 × CPUs (or 256), or a sweep of more than 64 points' : undefined),
    fixturesDir: value(`where named and sized files are created (default: ${FIXTURES_DIR_DESCRIPTION})`),
  };
};

const OUTPUT = {
  json: flag('print one JSON document on stdout and nothing else', { conflicts: ['markdown'] }),
  markdown: flag('print the tables as markdown'),
  out: value(
    `save the results (the --json document) in this folder as <command>-<UTC time>.json (default: $MMAPBENCH_RESULTS or ./${DEFAULT_OUT})`,
  ),
  save: flag('save the results (--no-save: do not)', { conflicts: ['out'] }),
  quick: flag('a tiny run that proves every path works; measures nothing'),
  smoke: flag('', { hidden: true }),
};

/** `--resume FILE`: compare, workers, procs and sweep go on with a run they kept. */
export const RESUME = {
  resume: value(
    'go on with the run this saved file is of (killed or stopped), with the settings it was started with, on the same machine; only output options may be given with it',
    { conflicts: ['save'] },
  ),
};

/** `--export FORMAT=FILE`: what a dashboard reads, from any command that saves results. */
export const EXPORT = {
  export: repeat(`write the results for a benchmark dashboard as FORMAT=FILE (repeatable): ${FORMATS.join(', ')}`, {
    read: readExports,
  }),
};

/** The CI gate of compare and sweep, and diff's gate's inconclusive switch. */
const failInconclusive = flag(
  'with a gate: exit 5 when the interval straddles the threshold (default: exit 0; the last line says inconclusive)',
);
const GATE = {
  failBelow: value(
    'a CI gate: exit 4 when the whole 95% CI of workers/procs is below this ratio, 0 when it is at or above (0.8: threads at most 20% behind)',
    checked(positiveNumber)('failBelow'),
  ),
  failInconclusive,
  ci: flag(
    'a CI job: --max-time 30 unless given, a line per round instead of a progress bar, the results saved as <out>/<command>-ci.json (replacing it), the verdict and tables appended to $GITHUB_STEP_SUMMARY when set, the gate last',
  ),
};

/** diff's gate: how much worse the new run may be. */
export const DIFF_GATE = {
  maxWorsening: value(
    'a CI gate: exit 4 when the whole 95% CI of the change of workers/procs lies below 1 - this (10%: the ratio may fall by 10%)',
    checked(percent)('maxWorsening'),
  ),
  maxSlowdown: value(
    "a CI gate on each mode's throughput: exit 4 when the whole 95% CI of its change lies below 1 - this",
    checked(percent)('maxSlowdown'),
  ),
  failInconclusive,
  ci: flag('a CI job: the table and the gate appended to $GITHUB_STEP_SUMMARY when it is set'),
};

/**
 * When the rounds stop: a fixed count, a precision or a time budget; only their words differ
 * between compare and sweep.
 * @param {{ rounds: string, precision: string, maxTime: string }} describe
 */
const stopSpecs = (describe) => ({
  rounds: value(describe.rounds, checked(positiveInteger)('rounds')),
  precision: value(describe.precision, { ...checked(percent)('precision'), conflicts: ['rounds'] }),
  // a fixed count runs every round asked for, so a budget beside it would go unheeded
  maxTime: value(describe.maxTime, { ...checked(positiveNumber)('maxTime'), conflicts: ['rounds'] }),
});

/**
 * Options of workers, procs, compare and trace.
 * @template {boolean} [C=false]
 * @param {{ compare?: C }} [options]
 */
export function measurementSpecs({ compare = /** @type {C} */ (false) } = {}) {
  /** @type {<A, B>(yes: A, no: B) => C extends true ? A : B} */
  const either = (yes, no) => /** @type {any} */ (compare ? yes : no);
  return {
    ...COMMON,
    ...settingSpecs(),
    ...WORK,
    ...either(
      stopSpecs({
        rounds: 'run exactly this many interleaved rounds (default: until --precision or --max-time; 2 with --quick)',
        precision: 'compare: stop once the ratio is known to ± this (default: 5%)',
        maxTime: 'compare: stop after this much wall time, calibration included (default: 60)',
      }),
      {
        rounds: value(
          'cells to run one after another (default: 1; 2 with --quick)',
          checked(positiveInteger)('rounds'),
        ),
      },
    ),
    ...either(
      {
        aa: value('compare: an A/A run, both arms this mode: the noise floor of this machine', {
          choices: ['workers', 'procs'],
        }),
      },
      {},
    ),
    protocol: value(
      'published: 2,000 iterations per worker and no warmup, as the investigation measured (= --iterations 2000 --warmup 0 --main off; with --trace, the whole-cell window); steady: warm cells (default)',
      { choices: ['steady', 'published'], conflicts: ['iterations', 'duration', 'warmup'] },
    ),
    ...runSpecs(),
    ...OUTPUT,
    ...EXPORT,
    // a gate on the workers/procs ratio: compare's (and trace compare's)
    ...either(GATE, {}),
    trace: flag('also run each cell under bpftrace (mmap-lock.bt) and report mmap_lock waits; needs root'),
    mountTracefs: flag('with --trace: mount tracefs at /sys/kernel/tracing if it is not mounted'),
    traceWindow: value('with --trace: from the barrier release (timed) or the whole cell (cell) (default: timed)', {
      choices: ['timed', 'cell'],
    }),
    bpftrace: value('with --trace: the bpftrace binary (default: bpftrace on PATH)'),
  };
}

/**
 * sweep's options: every setting option takes a list, and --variant and --node repeat; the
 * points are their cartesian product.
 */
export function sweepSpecs() {
  return {
    ...COMMON,
    ...settingSpecs({ list: true }),
    variant: repeat('a named set of environment variables for the cells (repeatable); `default` adds nothing', {
      read: (/** @type {string[]} */ values) =>
        values.reduce(
          (/** @type {ReturnType<typeof variant> | undefined} */ previous, raw) => variant(raw, previous),
          undefined,
        ),
    }),
    ...WORK,
    ...stopSpecs({
      rounds: 'run exactly this many rounds at every point (default: until --precision or --max-time; 2 with --quick)',
      precision: 'stop a point once its ratio is known to ± this (default: 5%)',
      maxTime: 'wall time for the whole sweep, calibration included (default: 60 per point)',
    }),
    ...runSpecs({ sweep: true }),
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
      precision: 'with --no-race: stop a candidate once its workers/procs ratio is known to ± this (default: 5%)',
      maxTime: 'wall time for the whole run, every candidate together (default: 60)',
    }),
    race: flag(
      "race the candidates (the default): after 3 rounds each, one whose gain interval lies wholly below the leader's gets no more rounds; --no-race gives each rounds until its --precision or the budget",
    ),
    ...runSpecs({ sweep: true }),
    only: value(
      'try only the candidates whose name contains one of these words, comma-separated (the baseline always runs)',
    ),
    kAuto: flag(
      'also measure the baseline at every k up to the CPUs this process may use (1, 2, 4, … and that count), and end with the K to run in each mode (as sweep -k does); not raced',
    ),
    for: value(
      "the cost to rank the fixes by: throughput (the default), memory (what each added worker holds), kept-memory (what the app keeps once its workers end) or main-latency (the app's request p99 while they run); the others are shown beside it",
      { choices: ['throughput', 'memory', 'kept-memory', 'main-latency'] },
    ),
    ...OUTPUT,
    ...EXPORT,
  };
}

/** What `trace` adds to compare's options: an audit of another process, instead of cells. */
const TRACE = {
  pid: {
    describe: 'audit a running process (all its threads) and everything it starts, instead of cells',
    read: positiveInteger('--pid'),
  },
  stacks: flag(
    'with --pid or --: the user stacks of the write acquisitions too, resolved while the target runs (best effort)',
  ),
  seconds: {
    describe: 'with --pid or --: stop after this long (default: when the target exits, or Ctrl-C)',
    read: positiveNumber('--seconds'),
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
    json: flag('print one JSON document on stdout and nothing else', { conflicts: ['markdown'] }),
    markdown: flag('print the tables as markdown'),
    ...DIFF_GATE,
  }),
  report: () => ({
    ...COMMON,
    markdown: flag('print the tables as markdown', { conflicts: ['html'] }),
    html: value('write one HTML page with the tables and charts of every file (opens from disk, offline)'),
    ...EXPORT,
  }),
};

// what only says how the command line prints: a function returns the document
/** @typedef {'json' | 'markdown' | 'verbose'} Printing */
/** @type {Record<Printing, string>} */
const PRINTING = {
  json: 'the API returns the document',
  markdown: 'the API returns the document (report() prints one)',
  verbose: 'the API returns the document (report() prints one)',
};
const AUDIT = 'an audit of another process is `mmapbench trace --pid`';
/**
 * What the API refuses of each command's options, and why: what only the command line does
 * (its type names them, for the API's types below: the checker holds the two together).
 * @type {{ compare: Record<Printing, string>, workers: Record<Printing, string>,
 *   procs: Record<Printing, string>, sweep: Record<Printing, string>, advise: Record<Printing, string>,
 *   trace: Record<Printing | 'pid' | 'stacks' | 'seconds', string>, diff: Record<Printing | 'ci', string>,
 *   report: {} }}
 */
export const NOT_IN_API = {
  compare: PRINTING,
  workers: PRINTING,
  procs: PRINTING,
  sweep: PRINTING,
  advise: PRINTING,
  trace: { ...PRINTING, pid: AUDIT, stacks: AUDIT, seconds: AUDIT },
  diff: { ...PRINTING, ci: "the step summary is the command line's (--ci)" },
  report: {},
};

/**
 * A command's specs and what the API refuses of them, by its name as a string (the CLI's and the
 * API's dispatch).
 * @param {string} command
 * @returns {{ specs: import('./option-spec.js').Specs, notInApi: Record<string, string> }}
 */
export const optionsOf = (command) => ({
  specs: /** @type {Record<string, () => Specs>} */ (SPECS_OF)[command](),
  notInApi: /** @type {Record<string, Record<string, string>>} */ (NOT_IN_API)[command],
});

/**
 * Each command's options as the API takes them (docs/api.md): made by TypeScript from the specs
 * above, so a new or changed option cannot leave its type behind.
 * @template {keyof typeof SPECS_OF} C
 * @typedef {import('./option-spec.js').OptionsOf<ReturnType<(typeof SPECS_OF)[C]>, keyof (typeof NOT_IN_API)[C]>} ApiOptions
 */
/** @typedef {ApiOptions<'compare'>} CompareOptions */
/** @typedef {ApiOptions<'workers'>} WorkersOptions */
/** @typedef {ApiOptions<'procs'>} ProcsOptions */
/** @typedef {ApiOptions<'sweep'>} SweepOptions */
/** @typedef {ApiOptions<'advise'>} AdviseOptions */
/** @typedef {ApiOptions<'trace'>} TraceOptions */
/** @typedef {ApiOptions<'diff'>} DiffOptions */
/** @typedef {ApiOptions<'report'>} ReportOptions */
