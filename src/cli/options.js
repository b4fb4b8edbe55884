import { Option } from 'commander';
import { FIXTURES_DIR_DESCRIPTION } from '../run/fixtures.js';
import {
  bytes,
  listOf,
  nonNegativeInteger,
  pairs,
  PARAM_OPTIONS,
  percent,
  positiveInteger,
  positiveNumber,
  text,
  timeoutSeconds,
  kebab,
  variant,
} from '../words/vocabulary.js';
import { usageError } from '../errors.js';
import { PUBLISHED } from '../reproduce/protocols.js';
import { DEFAULT_OUT, defaultOut } from '../results/save.js';

// The last value wins for a single option given twice; repeatable ones collect.
const collect = (value, previous) => [...(previous ?? []), value];

/** Options of every measuring command, reproduce's too. */
export const timeoutOption = () =>
  new Option(
    '--timeout <seconds>',
    'seconds a cell may take before it is terminated (default: 300; 60 with --quick)',
  ).argParser(timeoutSeconds('--timeout'));
export const forceOption = (what = 'run a -k above 4 × CPUs (or 256)') => new Option('--force', what);
export const nodeOption = () => new Option('--node <path>', 'node binary the cells run on (default: this node)');

/** Options every command takes. */
export const common = (command) => command.option('--verbose', 'show stack traces and task output on failure');

/**
 * What one setting measures: -k, the task, the file and the task's parameters. With `list`,
 * each takes a comma-separated list (sweep's axes).
 * @param {import('commander').Command} command
 */
function settingOptions(command, { list = false } = {}) {
  const many = (name, check, example) => (list ? listOf(name, check, example) : check(name));
  const s = list ? 's' : '';
  return command
    .addOption(
      new Option(
        list ? '-k <list>' : '-k <count>',
        `workers (threads or processes) side by side${list ? ', e.g. 1,2,4,8' : ''} (default: the number of CPUs; 2 with --quick)`,
      ).argParser(many('-k', positiveInteger, '1,2,4,8')),
    )
    .addOption(
      new Option(
        list ? '--task <names>' : '--task <name|path>',
        `built-in task${s} (see \`mmapbench tasks\`) or path${s} to a task module (default: readfilesync)`,
      ).argParser(list ? listOf('--task', text, 'readfilesync,reuse-buffer') : undefined),
    )
    .addOption(
      new Option(
        list ? '--file <list>' : '--file <name|size|path>',
        'small, med, large, huge, a size (64k, 8m) or a path (default: med, 64 KiB)',
      ).argParser(list ? listOf('--file', text, '4k,64k,1m') : undefined),
    )
    .addOption(
      new Option(`--concurrency <count${s}>`, 'task parameter: operations in flight per worker').argParser(
        many('--concurrency', positiveInteger, '1,8'),
      ),
    )
    .addOption(
      new Option(`--pool-size <bytes>`, 'task parameter: Buffer.poolSize (bytes, 256k, 1m)').argParser(
        many('--pool-size', bytes, '8k,256k,1m'),
      ),
    )
    .addOption(
      new Option('--size <bytes>', 'task parameter: bytes each op allocates').argParser(
        many('--size', bytes, '4k,64k'),
      ),
    )
    .addOption(
      new Option('--partition <bytes>', 'task parameter: threadpool-clog reads in chunks of this many bytes').argParser(
        many('--partition', bytes, '64k,512k'),
      ),
    )
    .addOption(
      new Option(
        '--param <KEY=VALUE>',
        `task parameter for your own task (repeatable${list ? '; VALUE may be a comma-separated list' : ''})`,
      ).argParser(collect),
    );
}

/** How much work a cell does. */
function workOptions(command) {
  return command
    .addOption(
      new Option('--iterations <count>', 'timed ops per worker (instead of --duration)')
        .argParser(positiveInteger('--iterations'))
        .conflicts('duration'),
    )
    .addOption(
      new Option(
        '--duration <seconds>',
        'target seconds per cell; picks --iterations by calibrating (default: 0.1 when stopping on --precision; else 1)',
      ).argParser(positiveNumber('--duration')),
    )
    .addOption(
      new Option(
        '--warmup <count>',
        'untimed ops per worker before the barrier (default: a quarter of --iterations, at least 200 or --iterations if fewer)',
      ).argParser(nonNegativeInteger('--warmup')),
    );
}

/** Where the cells run: their environment, node, limits and fixtures. */
function runOptions(command, { sweep = false } = {}) {
  return command
    .addOption(new Option('--env <KEY=VALUE>', 'set in every cell at process start (repeatable)').argParser(collect))
    .addOption(
      sweep
        ? new Option('--node <path>', 'a node binary the cells run on; repeat for an axis of Node versions').argParser(
            collect,
          )
        : nodeOption(),
    )
    .addOption(timeoutOption())
    .addOption(forceOption(sweep ? 'run a -k above 4 × CPUs (or 256), or a sweep of more than 64 points' : undefined))
    .option('--fixtures-dir <path>', `where named and sized files are created (default: ${FIXTURES_DIR_DESCRIPTION})`);
}

function outputOptions(command) {
  return command
    .addOption(new Option('--json', 'print one JSON document on stdout and nothing else').conflicts('markdown'))
    .option('--markdown', 'print the tables as markdown')
    .option(
      '--out <dir>',
      `save the results (the --json document) in this folder as <command>-<UTC time>.json (default: $MMAPBENCH_RESULTS or ./${DEFAULT_OUT})`,
    )
    .addOption(new Option('--no-save', 'do not save the results').conflicts('out'))
    .option('--quick', 'a tiny run that proves every path works; measures nothing')
    .addOption(new Option('--smoke').hideHelp());
}

/**
 * Options shared by workers, procs, compare and trace.
 * @param {import('commander').Command} command
 */
export function measurementOptions(command, { compare = false } = {}) {
  common(command);
  settingOptions(command);
  workOptions(command);
  command.addOption(
    new Option(
      '--rounds <count>',
      compare
        ? 'run exactly this many interleaved rounds (default: until --precision or --max-time; 2 with --quick)'
        : 'cells to run one after another (default: 1; 2 with --quick)',
    ).argParser(positiveInteger('--rounds')),
  );
  command
    .addOption(
      new Option('--precision <percent>', 'compare: stop once the ratio is known to ± this (default: 5%)')
        .argParser(percent('--precision'))
        .conflicts('rounds'),
    )
    .addOption(
      new Option(
        '--max-time <seconds>',
        'compare: stop after this much wall time, calibration included (default: 60)',
      ).argParser(positiveNumber('--max-time')),
    )
    .addOption(
      new Option('--aa <mode>', 'compare: an A/A run, both arms this mode: the noise floor of this machine').choices([
        'workers',
        'procs',
      ]),
    )
    .addOption(
      new Option(
        '--protocol <name>',
        'published: 2,000 iterations per worker and no warmup, as the investigation measured (= --iterations 2000 --warmup 0; with --trace, the whole-cell window); steady: warm cells (default)',
      )
        .choices(['steady', 'published'])
        .conflicts(['iterations', 'duration', 'warmup']),
    );
  runOptions(command);
  outputOptions(command);
  return command
    .option('--trace', 'also run each cell under bpftrace (mmap-lock.bt) and report mmap_lock waits; needs root')
    .option('--mount-tracefs', 'with --trace: mount tracefs at /sys/kernel/tracing if it is not mounted')
    .addOption(
      new Option(
        '--trace-window <window>',
        'with --trace: from the barrier release (timed) or the whole cell (cell) (default: timed)',
      ).choices(['timed', 'cell']),
    )
    .option('--bpftrace <path>', 'with --trace: the bpftrace binary (default: bpftrace on PATH)');
}

/**
 * sweep's options: every setting option takes a list, and --variant and --node repeat; the
 * points are their cartesian product.
 * @param {import('commander').Command} command
 */
export function sweepOptions(command) {
  common(command);
  settingOptions(command, { list: true });
  command.addOption(
    new Option(
      '--variant <NAME[:KEY=VALUE,...]>',
      'a named set of environment variables for the cells (repeatable); `default` adds nothing',
    ).argParser(variant),
  );
  workOptions(command);
  command
    .addOption(
      new Option(
        '--rounds <count>',
        'run exactly this many rounds at every point (default: until --precision or --max-time; 2 with --quick)',
      ).argParser(positiveInteger('--rounds')),
    )
    .addOption(
      new Option('--precision <percent>', 'stop a point once its ratio is known to ± this (default: 5%)')
        .argParser(percent('--precision'))
        .conflicts('rounds'),
    )
    .addOption(
      new Option(
        '--max-time <seconds>',
        'wall time for the whole sweep, calibration included (default: 60 per point)',
      ).argParser(positiveNumber('--max-time')),
    );
  runOptions(command, { sweep: true });
  return outputOptions(command);
}

/**
 * The command line of a measuring command, converted once into the options object the run is
 * planned from.
 * @param {Record<string, any>} opts  commander's parsed options
 * @param {'workers'|'procs'|'compare'} command
 * @param {{ trace?: boolean }} [force]
 * @returns {import('../run/plan.js').MeasureOptions}
 */
export function measureOptions(opts, command, { trace = false } = {}) {
  if (command !== 'compare') {
    const given = ['aa', 'precision', 'maxTime'].filter((name) => opts[name] !== undefined);
    if (given.length) {
      throw usageError(
        `--${kebab(given[0])} is for compare, which runs both arms; drop it or run \`mmapbench compare\``,
      );
    }
  }
  const params = pairs(opts.param, '--param', 'concurrency=8');
  for (const name of PARAM_OPTIONS) if (opts[name] !== undefined) params[name] = opts[name];
  const published = opts.protocol === 'published';
  return {
    command,
    task: opts.task,
    file: opts.file,
    k: opts.k,
    force: Boolean(opts.force),
    iterations: published ? PUBLISHED.iterations : opts.iterations,
    duration: opts.duration,
    warmup: published ? PUBLISHED.warmup : opts.warmup,
    protocol: opts.protocol ?? 'steady',
    rounds: opts.rounds,
    env: pairs(opts.env, '--env', 'MALLOC_ARENA_MAX=1'),
    params,
    node: opts.node,
    timeout: opts.timeout,
    fixturesDir: opts.fixturesDir,
    quick: Boolean(opts.quick || opts.smoke),
    precision: opts.precision,
    maxTime: opts.maxTime,
    aa: opts.aa,
    trace:
      trace || opts.trace
        ? {
            bpftrace: opts.bpftrace,
            mountTracefs: Boolean(opts.mountTracefs),
            // the investigation traced whole runs
            window: opts.traceWindow ?? (published ? 'cell' : 'timed'),
          }
        : null,
  };
}

/**
 * How a result is printed, and where it is saved.
 * @param {Record<string, any>} opts  commander's parsed options
 * @param {string} command  what the file is named after: the command the user ran
 * @returns {{ format: 'terminal'|'markdown'|'json', save: import('../results/save.js').SaveTo }}
 */
export const output = (opts, command) => ({
  format: opts.json ? 'json' : opts.markdown ? 'markdown' : 'terminal',
  save: opts.save === false ? null : { out: opts.out ?? defaultOut(), command },
});

/** Examples shown under a command's help: one per line, never wrapped mid-command. */
export const examples = (lines) =>
  `\nExamples:\n${lines.map(([cmd, what]) => `  $ ${cmd}\n      ${what}`).join('\n')}\n`;
