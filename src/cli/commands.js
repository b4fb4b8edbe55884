// The commands by name, with what --help says of each: all the CLI loads before it knows which
// command runs. A command's own module (its options, its handler and what that runs) is
// imported only when it is the one run, so `mmapbench --help` costs little more than yargs.

/** @typedef {import('./context.js').CommandModule} CommandModule */

/**
 * @typedef {object} Command
 * @property {string} command  as yargs takes it: the name, then the positionals
 * @property {string} describe
 * @property {() => Promise<CommandModule>} load
 */

/** @type {Command[]} */
export const COMMANDS = [
  {
    command: 'compare',
    describe: 'Run workers and procs in interleaved rounds until they decide: which is faster, equal, or inconclusive',
    load: async () => (await import('./compare.js')).compare,
  },
  {
    command: 'sweep',
    describe:
      'Compare workers and procs at every point of a grid (k, files, tasks, variants, Node binaries), interleaved',
    load: () => import('./sweep.js'),
  },
  {
    command: 'advise',
    describe:
      "Rank the fixes for your task (glibc's heap settings, other allocators, the task's own fixes, processes) by measuring each beside it",
    load: () => import('./advise.js'),
  },
  {
    command: 'workers',
    describe: "Run K Worker threads in one fresh process, released together; print each worker's throughput",
    load: async () => (await import('./compare.js')).workers,
  },
  {
    command: 'procs',
    describe: "Run K fresh child processes, released together; print each process's throughput",
    load: async () => (await import('./compare.js')).procs,
  },
  {
    command: 'trace [mode..]',
    describe:
      'Run workers, procs or compare under bpftrace: mmap_lock wait per acquisition, by system call, as a histogram; or audit any process (--pid, -- COMMAND)',
    load: () => import('./trace.js'),
  },
  {
    command: 'reproduce [experiments..]',
    describe: "Re-check the investigation's published tables on this machine, with a verdict per claim",
    load: () => import('./reproduce.js'),
  },
  {
    command: 'report <files..>',
    describe: 'Print saved results again as the run printed them, or as one self-contained HTML page',
    load: () => import('./report.js'),
  },
  {
    command: 'diff <base> <new>',
    describe: 'What changed between two saved runs: the workers/procs ratio and each mode, with 95% CIs',
    load: () => import('./diff.js'),
  },
  {
    command: 'tasks [name]',
    describe: 'List the built-in tasks a line each; `tasks NAME` describes one, or your own module',
    load: () => import('./tasks.js'),
  },
  {
    command: 'init-task <name>',
    describe: 'Write NAME.mjs: a commented task module to start your own from',
    load: () => import('./init-task.js'),
  },
  {
    command: 'fixtures',
    describe: 'Create the small, med, large and huge files (random bytes)',
    load: () => import('./fixtures.js'),
  },
  {
    command: 'restore',
    describe: 'Put back the transparent hugepage mode a killed reproduce run left changed',
    load: () => import('./restore.js'),
  },
];

/** Each command's name: the first word of its `command`. */
export const nameOf = (/** @type {Command} */ one) => one.command.split(' ')[0];
