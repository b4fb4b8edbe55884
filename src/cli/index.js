import { Command, CommanderError } from 'commander';
import { usageError } from '../errors.js';
import { version } from '../version.js';
import * as compare from './compare.js';
import * as diff from './diff.js';
import * as fixtures from './fixtures.js';
import * as initTask from './init-task.js';
import * as procs from './procs.js';
import * as report from './report.js';
import * as reproduce from './reproduce.js';
import * as restore from './restore.js';
import * as sweep from './sweep.js';
import * as tasks from './tasks.js';
import * as trace from './trace.js';
import * as workers from './workers.js';
import { common, examples } from './options.js';

// Each module names its command, describes it, adds its options, and loads what it runs only
// when it runs, so `--help` costs little more than starting node.
const COMMANDS = [compare, sweep, workers, procs, trace, reproduce, report, diff, tasks, initTask, fixtures, restore];

/**
 * What a command runs with besides its options: Ctrl-C, and where it writes (tests pass streams).
 * @typedef {object} Context
 * @property {AbortSignal} [interrupt]  aborted on the first SIGINT/SIGTERM/SIGHUP
 * @property {NodeJS.WritableStream & { columns?: number, isTTY?: boolean }} [stdout]
 * @property {NodeJS.WritableStream & { columns?: number, isTTY?: boolean }} [stderr]
 */

/**
 * Builds the parser without running it, so tests parse arguments in-process.
 * @param {Context} [context]
 */
export function buildProgram(context = {}) {
  const stdout = context.stdout ?? process.stdout;
  const program = new Command('mmapbench')
    .description('Worker threads vs child processes on allocation-heavy work: the ratio, with the kernel evidence.')
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      // commander's own errors become one-line usage errors, printed by bin/
      writeErr: () => {},
      outputError: () => {},
      getOutHelpWidth: () => Math.min(100, stdout.columns ?? 80),
      getErrHelpWidth: () => 80,
    })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      examples([
        ['mmapbench compare', 'workers vs procs on the defaults: readfilesync of a 64 KiB file, k = CPUs'],
        ['mmapbench trace compare', 'the same, with the mmap_lock waits of both (root, bpftrace)'],
        ['mmapbench reproduce --list', "the investigation's published claims, and which run here"],
      ]),
    );
  common(program);
  for (const module of COMMANDS) {
    const command = program.command(module.command).description(module.describe);
    module.builder(command);
    command.action(async (...args) => {
      const self = args.at(-1);
      // rawArgs: where `--` was, which commander's parsed arguments no longer say
      await module.handler({ ...self.opts(), positionals: self.processedArgs, rawArgs: self.parent?.rawArgs }, context);
    });
  }
  return program;
}

/**
 * Parses and runs one command line; a parse error is a usage error naming the fix.
 * @param {string[]} args
 * @param {Context} [context]
 */
export async function run(args, context = {}) {
  if (!args.some((arg) => !arg.startsWith('-') || ['--help', '-h', '--version', '-V'].includes(arg))) {
    throw usageError('no command given; run `mmapbench compare`, or see `mmapbench --help` for the list');
  }
  const program = buildProgram(context);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return;
    const name = args.find((arg) => COMMANDS.some((module) => module.command === arg));
    throw usageError(
      `${error.message
        .replace(/^error: /, '')
        .replace(/\n/g, ' ')
        .replace(/\.$/, '')}; see \`mmapbench ${name ? `${name} ` : ''}--help\``,
    );
  }
}
