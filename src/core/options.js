// The parts the commands' options are composed of (command-options.js composes them, one table
// per command; option-spec.js says how an option is declared and read): what one setting
// measures, how much work a cell does, where the cells run, when the rounds stop, the output,
// --resume, --export and the CI gate. Below src/cli/ nothing reads argv.
import { FAULT_KINDS } from '../run/fault.js';
import { FIXTURES_DIR_DESCRIPTION } from '../run/fixtures.js';
import { DEFAULTS, PRECISION, SMOKE_CELLS } from '../run/defaults.js';
import { MARGIN } from '../stats/sequential.js';
import {
  bytes,
  cycleCount,
  semiSpaceMiB,
  settleMs,
  addToList,
  pairs,
  warmupCount,
  percent,
  positiveInteger,
  positiveNumber,
  TASK_PARAMETERS,
  requestBytes,
  requestEveryMs,
  text,
  timeoutSeconds,
} from '../words/vocabulary.js';
import { DEFAULT_OUT } from '../saved/out.js';
import { FORMATS, readExports } from '../saved/export-request.js';
import { checked, flag, flagName, repeat, value, COMMON, PRINTED, RETURNED } from './option-spec.js';

export { COMMON };

/** @typedef {import('./option-spec.js').Specs} Specs */

/** Options every command takes. */

export const timeoutOption = value(
  `seconds a cell may take before it is terminated (default: ${DEFAULTS.timeout}; ${SMOKE_CELLS.timeout} with --quick)`,
  { takes: 'seconds', read: timeoutSeconds('--timeout'), tags: ['kept'] },
);
export const forceOption = (what = 'run a -k above 4 × CPUs (or 256)') => flag(what, { tags: ['resume', 'kept'] });
export const fixturesOption = value(`where named and sized files are created (default: ${FIXTURES_DIR_DESCRIPTION})`, {
  takes: 'dir',
  tags: ['resume', 'kept', 'again'],
});
export const nodeOption = value(
  'the Node the cells run on: a release (24, 26.10: installed from the npm registry on first use) or a binary (default: this node)',
  { takes: 'version|path', tags: ['resume', 'kept', 'again'] },
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
const listsOf = (name, item, example) => (/** @type {string[]} */ values) => {
  /** @type {unknown[]} */
  const list = [];
  const seen = new Set();
  for (const raw of values) addToList(flagName(name), item, example, raw, list, seen);
  return values.length ? list : undefined;
};

/** How a task parameter's option checks what was typed, by what it takes. */
const PARAM_CHECKS = { count: positiveInteger, bytes, name: text, path: text };

/**
 * A task parameter's option (settingSpecs): what it takes, one value checked or, in a sweep
 * (`L`), an axis.
 * @template {string} T
 * @template {boolean} L
 * @typedef {{ describe: string, kind: L extends true ? 'repeat' : 'value', takes: T }
 *   & (L extends true ? Axis : { read: (raw: any) => any })} ParamSpec
 */

/**
 * What one setting measures: -k, the task, the file and the task's parameters. With `list`,
 * each takes a comma-separated list, repeatable (sweep's axes).
 * @template {boolean} [L=false]
 * @param {{ list?: L }} [options]
 */
export function settingSpecs({ list = /** @type {L} */ (false) } = {}) {
  const s = list ? 's' : '';
  /**
   * What it takes, and an axis in a sweep (a repeated list); one value, checked by `item`,
   * elsewhere (or as typed, without one).
   * @template {string} T
   * @template [O={ read: (raw: any) => any }]
   * @param {string} name @param {T} takes @param {(name: string) => (raw: any) => any} item @param {string} example
   * @param {readonly import('./option-spec.js').Tag[]} [tags]  its own, beside `axis` in a sweep
   * @param {O} [single]
   * @returns {{ takes: T } & (L extends true ? Axis : O)}
   */
  const one = (name, takes, item, example, tags = [], single = /** @type {O} */ ({ read: item(flagName(name)) })) =>
    /** @type {any} */ ({
      takes,
      ...(list ? { kind: 'repeat', list: true, read: listsOf(name, item, example) } : single),
      tags: list ? [...tags, 'axis'] : tags,
    });
  return {
    k: value(
      `workers (threads or processes) side by side${list ? ', e.g. 1,2,4,8' : ''} (default: the number of CPUs; ${SMOKE_CELLS.k} with --quick)`,
      one('k', 'count', positiveInteger, '1,2,4,8', ['kept']),
    ),
    task: value(
      `built-in task${s} (see \`mmapbench tasks\`) or path${s} to a task module (default: ${DEFAULTS.task})`,
      one('task', 'name|path', text, 'readfilesync,reuse-buffer', ['resume', 'kept'], {}),
    ),
    file: value(
      `small, med, large, huge, a size (64k, 8m) or a path (default: ${DEFAULTS.file}, 64 KiB)`,
      one('file', 'name|size|path', text, '4k,64k,1m', ['kept'], {}),
    ),
    // each task parameter with an option of its own, as vocabulary.js declares it
    .../** @type {{ [N in keyof typeof TASK_PARAMETERS]: ParamSpec<(typeof TASK_PARAMETERS)[N]['takes'], L> }} */ (
      /** @type {unknown} */ (
        Object.fromEntries(
          Object.entries(TASK_PARAMETERS).map(([name, { describe, takes, example }]) => [
            name,
            value(`task parameter: ${describe}`, one(name, takes, PARAM_CHECKS[takes], example)),
          ]),
        )
      )
    ),
    param: repeat(
      `task parameter for your own task, KEY=VALUE (repeatable${list ? '; VALUE may be a comma-separated list' : ''})`,
      {
        takes: 'KEY=VALUE',
        read: (/** @type {unknown} */ given) => pairs(given, '--param', list ? 'concurrency=1,8' : 'concurrency=8'),
        tags: list ? ['axis'] : [],
      },
    ),
  };
}

/** How much work a cell does. */
export const WORK = {
  iterations: value('timed ops per worker (instead of --duration)', {
    takes: 'count',
    ...checked(positiveInteger)('iterations'),
    conflicts: ['duration'],
    tags: ['kept'],
  }),
  duration: value(
    `target seconds per cell; picks --iterations by calibrating, and resizes after the first round if its windows were over a quarter shorter or half again as long (default: ${PRECISION.duration} where compare stops on its own, without --rounds; else ${DEFAULTS.duration})`,
    { takes: 'seconds', ...checked(positiveNumber)('duration'), tags: ['kept'] },
  ),
  warmup: value(
    'untimed ops per worker before the barrier; steady: until the rate stops trending and V8 has stopped optimizing, in tenths of the timed ops, within ten timed windows or 5 s (default: steady)',
    { takes: 'count|steady', ...checked(warmupCount)('warmup'), tags: ['kept'] },
  ),
};

/**
 * Where the cells run: their environment, node, limits and fixtures; in a sweep (and advise)
 * --node and --cycles are axes.
 * @template {boolean} [W=false]
 * @param {{ sweep?: W }} [options]
 */
export const runSpecs = ({ sweep = /** @type {W} */ (false) } = {}) => {
  /** @type {<A, B>(axis: A, single: B) => W extends true ? A : B} */
  const either = (axis, single) => /** @type {any} */ (sweep ? axis : single);
  return {
    env: repeat('KEY=VALUE set in every cell at process start (repeatable)', {
      takes: 'KEY=VALUE',
      read: (/** @type {unknown} */ given) => pairs(given, '--env', 'MALLOC_ARENA_MAX=1'),
      tags: ['resume'],
    }),
    inheritEnv: flag(
      'give the cells the variables Node reads at every process start (NODE_EXTRA_CA_CERTS), which they do not get otherwise: start-up then shows what each child process pays for them',
      { tags: ['kept'] },
    ),
    node: either(
      repeat(
        'Node releases (20,24,26: installed on first use) or binaries the cells run on, an axis; comma-separated or repeated',
        { takes: 'version|path', read: listsOf('node', text, '20,24,26'), tags: ['resume', 'again', 'axis'] },
      ),
      nodeOption,
    ),
    main: value(
      "the app's own load on the parent's main thread while the workers run: on (a request every --request-every ms, timed, and the event loop's delay) or off (default: on)",
      { takes: 'on|off', choices: ['on', 'off'], tags: ['kept'] },
    ),
    requestEvery: value(`ms between the app's requests on its main thread (default: ${DEFAULTS.everyMs})`, {
      takes: 'ms',
      ...checked(requestEveryMs)('requestEvery'),
      tags: ['kept'],
    }),
    requestSize: value(
      `bytes each of the app's requests allocates and fills, before a small JSON round trip (default: ${DEFAULTS.requestBytes / 1024}k; a task's own request(context) replaces it)`,
      { takes: 'bytes', ...checked(requestBytes)('requestSize'), tags: ['kept'] },
    ),
    settle: value(
      `ms the app waits after its workers have ended before it reads what it kept (default: ${DEFAULTS.settleMs})`,
      {
        takes: 'ms',
        ...checked(settleMs)('settle'),
        tags: ['kept'],
      },
    ),
    cycles: either(
      repeat(
        `times each cell starts, runs and ends its K workers, as a pool that recycles them, an axis (1,2,4,8); comma-separated or repeated (default: ${DEFAULTS.cycles})`,
        { takes: 'count', read: listsOf('cycles', cycleCount, '1,2,4,8'), tags: ['axis'] },
      ),
      value(
        `start, run and end the K workers this many times in each cell, as a pool that recycles them; the app's memory is read after each (default: ${DEFAULTS.cycles})`,
        { takes: 'count', ...checked(cycleCount)('cycles'), tags: ['kept'] },
      ),
    ),
    semiSpace: value(
      "MiB of V8's semi-space (half of its new space) in each worker, set as an app sets it: a thread's resourceLimits.maxYoungGenerationSizeMb (3 × this), a child's --max-semi-space-size in execArgv (default: V8's)",
      { takes: 'MiB', ...checked(semiSpaceMiB)('semiSpace'), tags: ['kept'] },
    ),
    timeout: timeoutOption,
    force: forceOption(sweep ? 'run a -k above 4 × CPUs (or 256), or a sweep of more than 64 points' : undefined),
    fixturesDir: fixturesOption,
  };
};

export const OUTPUT = {
  json: flag('print one JSON document on stdout and nothing else', {
    conflicts: ['markdown'],
    tags: ['resume', 'audit'],
    cli: RETURNED,
  }),
  markdown: flag('print the tables as markdown', { tags: ['resume', 'audit'], cli: PRINTED }),
  out: value(
    `save the results (the --json document) in this folder as <command>-<UTC time>.json (default: $MMAPBENCH_RESULTS or ./${DEFAULT_OUT})`,
    { takes: 'dir', tags: ['resume', 'audit'] },
  ),
  save: flag('save the results (--no-save: do not)', { conflicts: ['out'], tags: ['audit'] }),
  quick: flag('a tiny run that proves every path works; measures nothing', { tags: ['kept'] }),
  smoke: flag('', { hidden: true }),
};

/** `--resume FILE`: compare, workers, procs, sweep and advise go on with a run they kept. */
export const RESUME = {
  resume: value(
    'go on with the run this saved file is of (killed or stopped), with the settings it was started with, on the same machine; only output options may be given with it',
    { takes: 'file', conflicts: ['save'], tags: ['resume'] },
  ),
};

/** `--export FORMAT=FILE`: what a dashboard reads, from any command that saves results. */
export const EXPORT = {
  export: repeat(`write the results for a benchmark dashboard as FORMAT=FILE (repeatable): ${FORMATS.join(', ')}`, {
    takes: 'FORMAT=FILE',
    read: readExports,
    tags: ['resume'],
  }),
};

/** The CI gate of compare and sweep, and diff's gate's inconclusive switch. */
const failInconclusive = flag(
  'with a gate: exit 5 when the interval straddles the threshold (default: exit 0; the last line says inconclusive)',
  { tags: ['resume'] },
);
export const GATE = {
  failBelow: value(
    'a CI gate: exit 4 when the whole interval the verdict was read from (workers/procs) is below this ratio, 0 when it is at or above (0.8: threads at most 20% behind)',
    { takes: 'ratio', ...checked(positiveNumber)('failBelow'), tags: ['resume'] },
  ),
  failInconclusive,
  ci: flag(
    'a CI job: --max-time 30 unless given, a line per round instead of a progress bar, the results saved as <out>/<command>-ci.json (replacing it), the verdict and tables appended to $GITHUB_STEP_SUMMARY when set, the gate last',
    { tags: ['resume'] },
  ),
};

/** diff's gate: how much worse the new run may be. */
export const DIFF_GATE = {
  maxWorsening: value(
    'a CI gate: exit 4 when the whole 95% CI of the change of workers/procs lies below 1 - this (10%: the ratio may fall by 10%)',
    { takes: 'percent', ...checked(percent)('maxWorsening') },
  ),
  maxSlowdown: value(
    "a CI gate on each mode's throughput: exit 4 when the whole 95% CI of its change lies below 1 - this",
    { takes: 'percent', ...checked(percent)('maxSlowdown') },
  ),
  failInconclusive,
  ci: flag('a CI job: the table and the gate appended to $GITHUB_STEP_SUMMARY when it is set', {
    cli: "the step summary is the command line's (--ci)",
  }),
};

/**
 * When the rounds stop: a fixed count, a precision or a time budget; only their words differ
 * between compare and sweep.
 * @param {{ rounds: string, precision: string, maxTime: string, margin?: string }} describe  margin: what
 *   its words begin with (`compare: `)
 */
export const stopSpecs = (describe) => ({
  rounds: value(describe.rounds, { takes: 'count', ...checked(positiveInteger)('rounds'), tags: ['kept'] }),
  precision: value(describe.precision, { takes: 'percent', ...checked(percent)('precision'), conflicts: ['rounds'] }),
  // a fixed count runs every round asked for, so a budget beside it would go unheeded
  maxTime: value(describe.maxTime, {
    takes: 'seconds',
    ...checked(positiveNumber)('maxTime'),
    conflicts: ['rounds'],
    tags: ['kept'],
  }),
  margin: value(
    `${describe.margin ?? ''}the verdict says "equal" when the whole interval of workers/procs lies within ± this (default: ${MARGIN * 100}%)`,
    { takes: 'percent', ...checked(percent)('margin') },
  ),
});

/** A pool's options (compare, sweep and advise --pool): which pool, the ops of its task, isolation. */
export const POOL = {
  pool: value(
    "compare, sweep, advise: run the task through this pool, built fresh in each cell with K workers, its two runtimes the arms (tinypool's worker_threads and child_process, workerpool's thread and process; piscina, threads only, against tinypool's child_process); the project's own copy first (piscina: the project's only)",
    { takes: 'name', choices: ['tinypool', 'workerpool', 'piscina'], tags: ['kept'] },
  ),
  batch: value("with --pool: ops of the task in one pool task (default: a fiftieth of a worker's window)", {
    takes: 'count',
    ...checked(positiveInteger)('batch'),
    tags: ['kept'],
  }),
  isolate: flag(
    "with --pool tinypool: a fresh worker for every pool task (tinypool's isolateWorkers, as vitest isolates each test file): the spawn, the setup and the cold ops in every task",
    { tags: ['kept'] },
  ),
};

/** How cells are measured: warm, or as the investigation did. */
const PROTOCOL = {
  protocol: value(
    'published: 2,000 iterations per worker and no warmup, as the investigation measured (= --iterations 2000 --warmup 0 --main off; with --trace, the whole-cell window); steady: warm cells (default)',
    {
      takes: 'name',
      choices: ['steady', 'published'],
      conflicts: ['iterations', 'duration', 'warmup'],
      tags: ['kept'],
    },
  ),
};

/** A run's cells under bpftrace (--trace), and what trace --pid shares of it. */
const TRACING = {
  trace: flag('also run each cell under bpftrace (mmap-lock.bt) and report mmap_lock waits; needs root'),
  mountTracefs: flag('with --trace: mount tracefs at /sys/kernel/tracing if it is not mounted', { tags: ['audit'] }),
  traceWindow: value('with --trace: from the barrier release (timed) or the whole cell (cell) (default: timed)', {
    takes: 'window',
    choices: ['timed', 'cell'],
  }),
  bpftrace: value('with --trace: the bpftrace binary (default: bpftrace on PATH)', {
    takes: 'path',
    tags: ['resume', 'again', 'audit'],
  }),
};

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
        rounds: `run exactly this many interleaved rounds (default: until decided, or --max-time; ${SMOKE_CELLS.rounds} with --quick)`,
        precision: 'compare: stop once the ratio is known to ± this, and not as soon as the verdict is decided',
        margin: 'compare: ',
        maxTime: `compare: stop after this much wall time, calibration included (default: ${PRECISION.maxSeconds})`,
      }),
      {
        rounds: value(
          `cells to run one after another (default: ${DEFAULTS.rounds}; ${SMOKE_CELLS.rounds} with --quick)`,
          {
            takes: 'count',
            ...checked(positiveInteger)('rounds'),
            tags: ['kept'],
          },
        ),
      },
    ),
    ...either(
      {
        ...POOL,
        aa: value('compare: an A/A run, both arms this mode: the noise floor of this machine', {
          takes: 'mode',
          choices: ['workers', 'procs'],
          tags: ['kept'],
        }),
        fault: value(
          'compare: after the measured rounds, one more round per mode in which one worker fails this way, to measure what it takes down (native-oom: root)',
          { takes: 'kind', choices: [...FAULT_KINDS], tags: ['kept'] },
        ),
      },
      {},
    ),
    ...PROTOCOL,
    ...runSpecs(),
    ...OUTPUT,
    ...EXPORT,
    // a gate on the workers/procs ratio: compare's (and trace compare's)
    ...either(GATE, {}),
    ...TRACING,
  };
}
