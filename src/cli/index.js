import yargs from 'yargs';
import { usageError } from '../errors.js';
import * as compare from './compare.js';
import * as fixtures from './fixtures.js';
import * as procs from './procs.js';
import * as reproduce from './reproduce.js';
import * as restore from './restore.js';
import * as tasks from './tasks.js';
import * as trace from './trace.js';
import * as workers from './workers.js';

/**
 * Builds the parser without running it, so tests can parse argv in-process.
 * @param {string[]} args
 * @param {{ interrupt?: AbortSignal, stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream }} [context]
 */
export function buildYargs(args, context = {}) {
  return yargs(args)
    .scriptName('mmapbench')
    .usage('$0 <command> [options]\n\nWorker threads vs child processes on allocation-heavy work.')
    .command(workers)
    .command(procs)
    .command(compare)
    .command(trace)
    .command(fixtures)
    .command(tasks)
    .command(reproduce)
    .command(restore)
    .option('verbose', { type: 'boolean', describe: 'show stack traces and task output on failure' })
    .middleware((argv) => {
      argv.context = context;
    })
    .demandCommand(1, 'no command given; run `mmapbench compare`, or see `mmapbench --help` for the list')
    .strict()
    .recommendCommands()
    .fail((message, error) => {
      // Errors from handlers pass through; yargs's own (YError, also wrapping a coerce
      // failure) are usage errors.
      if (error && error.name !== 'YError') throw error;
      // yargs puts the detail of some messages ("Invalid values:") on the lines after
      const line = (message ?? error.message).split('\n').map((part) => part.trim()).filter(Boolean).join(' ');
      throw usageError(line.includes('--help') ? line : `${line}; see \`mmapbench --help\``);
    })
    .example('$0 compare', 'workers vs procs on the defaults: readfilesync of a 64 KiB file, k = CPUs')
    .example('$0 compare --task reuse-buffer --file 1m -k 4 --rounds 10', 'the buffer-reuse mitigation at 1 MiB')
    .example('$0 compare --env MALLOC_ARENA_MAX=1 --json', 'an allocator variant, as JSON')
    .wrap(Math.min(110, process.stdout.columns ?? 80))
    .help()
    .version()
    // bin/ decides how the process ends; --help and --version return like any command
    .exitProcess(false);
}
