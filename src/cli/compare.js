// compare, workers and procs on the command line: one module a command, their options from the
// option table (core/command-options.js); each runs its core (run.js) and prints what it kept.
import { SPECS_OF, compareOnly, optionsOf } from '../core/command-options.js';
import { declare, readOptions } from '../core/option-spec.js';
import { output } from '../core/typed-options.js';

/**
 * The yargs module of compare, workers or procs.
 * @param {'compare'|'workers'|'procs'} command
 * @param {string[][]} examples
 * @returns {import('./context.js').CommandModule}
 */
function measuring(command, examples) {
  // workers and procs read compare's own options too, unlisted, so one typed anyway is refused
  // by name (measureOptions: it is for compare), not as an unknown option
  /** @type {import('../core/option-spec.js').Specs} */
  const compare = SPECS_OF.compare();
  const specs = {
    ...optionsOf(command).specs,
    ...(command === 'compare'
      ? {}
      : Object.fromEntries(compareOnly().map((name) => [name, { ...compare[name], hidden: true }]))),
  };
  return {
    builder: (yargs) => declare(yargs, specs),
    examples,
    /**
     * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
     * @param {import('./context.js').Context} [context]
     */
    async handler(argv, context) {
      const opts = readOptions(argv, specs, command);
      const out = output(opts, command, { summary: process.env.GITHUB_STEP_SUMMARY });
      const [{ measureOrResume }, { runPrinted }] = await Promise.all([
        import('../commands/compare/run.js'),
        import('./finish.js'),
      ]);
      return runPrinted((core) => measureOrResume(opts, command, out, core), out, context);
    },
  };
}

export const compare = measuring('compare', [
  ['mmapbench compare', 'readfilesync of a 64 KiB file, k = CPUs, rounds until the verdict is decided (or 60 s)'],
  ['mmapbench compare --task reuse-buffer --file 1m --rounds 10', 'the buffer-reuse mitigation at 1 MiB'],
  ['mmapbench compare --env MALLOC_ARENA_MAX=1 --json', 'an allocator setting, as JSON'],
  ['mmapbench compare --ci --fail-below 0.8', 'a CI job: 30 s, exit 4 when threads are surely more than 20% behind'],
]);

export const workers = measuring('workers', [
  ['mmapbench workers -k 2 --file 1m', 'two threads reading a 1 MiB file'],
  ['mmapbench workers --task ./my-task.mjs --json', 'your own task, as JSON'],
]);

export const procs = measuring('procs', [
  ['mmapbench procs -k 2 --env MALLOC_ARENA_MAX=1', 'two processes with one glibc arena each'],
  ['mmapbench procs --quick', 'a tiny run that proves every path works'],
]);
