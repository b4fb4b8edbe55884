import { usageError } from '../errors.js';
import { FIXTURES_DIR_DESCRIPTION } from '../run/files.js';

const last = (value) => (Array.isArray(value) ? value.at(-1) : value);

const checked = (name, test, expectation) => (raw) => {
  const value = last(raw);
  const number = Number(value);
  if (value === '' || typeof value === 'boolean' || !test(number)) {
    throw usageError(`${name} ${value} is invalid: it must be ${expectation}`);
  }
  return number;
};

export const positiveInteger = (name) => checked(name, (n) => Number.isInteger(n) && n >= 1, 'a whole number of 1 or more');
export const nonNegativeInteger = (name) => checked(name, (n) => Number.isInteger(n) && n >= 0, 'a whole number of 0 or more');
export const positiveNumber = (name) => checked(name, (n) => Number.isFinite(n) && n > 0, 'a number greater than 0');

/** Node's timers hold at most 2^31-1 ms; a longer one fires after 1 ms, killing every cell. */
export const MAX_TIMEOUT_SECONDS = 2_147_483;
export const timeoutSeconds = (name) =>
  checked(name, (n) => Number.isFinite(n) && n > 0 && n <= MAX_TIMEOUT_SECONDS, `a number of seconds greater than 0 and at most ${MAX_TIMEOUT_SECONDS}`);

/** Options shared by workers, procs, compare and trace. */
export function measurementOptions(yargs, { compare = false } = {}) {
  return yargs
    .option('k', { type: 'string', describe: 'workers (threads or processes) side by side', defaultDescription: 'number of CPUs (2 with --smoke)', coerce: positiveInteger('-k') })
    .option('task', { type: 'string', describe: 'built-in task name or path to a task module', defaultDescription: 'readfilesync' })
    .option('file', { type: 'string', describe: 'small|med|large|huge, a size (64k, 8m) or a path', defaultDescription: 'med (64 KiB)' })
    .option('iterations', { type: 'string', describe: 'timed ops per worker (instead of --duration)', coerce: positiveInteger('--iterations') })
    .option('duration', { type: 'string', describe: 'target seconds per cell; picks --iterations by calibrating', defaultDescription: '1', coerce: positiveNumber('--duration') })
    .option('warmup', { type: 'string', describe: 'untimed ops per worker before the barrier', defaultDescription: 'a quarter of --iterations, at least 200 (2 with --smoke)', coerce: nonNegativeInteger('--warmup') })
    .option('rounds', { type: 'string', describe: compare ? 'interleaved rounds of both modes' : 'cells to run one after another', defaultDescription: compare ? '5 (2 with --smoke)' : '1', coerce: positiveInteger('--rounds') })
    .option('env', { type: 'string', array: true, describe: 'KEY=VALUE set in every cell at process start (repeatable)' })
    .option('node', { type: 'string', describe: 'node binary the cells run on', defaultDescription: 'this node' })
    .option('timeout', { type: 'string', describe: 'seconds a cell may take before it is terminated', defaultDescription: '300 (60 with --smoke)', coerce: timeoutSeconds('--timeout') })
    .option('force', { type: 'boolean', describe: 'run a -k above 4 × CPUs (or 256)' })
    .option('concurrency', { type: 'string', describe: 'task parameter: operations in flight per worker', coerce: positiveInteger('--concurrency') })
    .option('pool-size', { type: 'string', describe: 'task parameter: Buffer.poolSize (bytes, 256k, 1m)' })
    .option('size', { type: 'string', describe: 'task parameter: bytes each op allocates (alloc-unsafe, crypto-random, zlib, json, wasm-grow)' })
    .option('partition', { type: 'string', describe: 'task parameter: threadpool-clog reads in chunks of this many bytes instead of one request' })
    .option('param', { type: 'string', array: true, describe: 'task parameter KEY=VALUE for your own task (repeatable)' })
    .option('fixtures-dir', { type: 'string', describe: 'where named and sized files are created', defaultDescription: FIXTURES_DIR_DESCRIPTION })
    .option('json', { type: 'boolean', describe: 'print one JSON document on stdout and nothing else' })
    .option('markdown', { type: 'boolean', describe: 'print the table as markdown' })
    .option('smoke', { type: 'boolean', describe: 'tiny run that proves every path works; measures nothing' })
    .option('trace', { type: 'boolean', describe: 'also run each cell under bpftrace (mmap-lock.bt) and report mmap_lock waits; needs root' })
    .option('mount-tracefs', { type: 'boolean', describe: 'with --trace: mount tracefs at /sys/kernel/tracing if it is not mounted' })
    .option('trace-window', { choices: ['timed', 'cell'], describe: 'with --trace: trace from the barrier release (timed) or the whole cell, startup and warmup included (cell)', defaultDescription: 'timed' })
    .option('bpftrace', { type: 'string', describe: 'with --trace: the bpftrace binary', defaultDescription: 'bpftrace on PATH' })
    .conflicts('iterations', 'duration')
    .conflicts('json', 'markdown');
}
