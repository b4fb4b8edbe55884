import { COMMON } from '../core/options.js';
import { declare, readOptions } from '../core/option-spec.js';

const SPECS = {
  ...COMMON,
  task: { takes: 'name|path', describe: 'describe this task module instead: its description, parameters and metrics' },
  json: { kind: /** @type {const} */ ('flag'), describe: 'print the list as JSON' },
};

export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, SPECS).positional('name', {
    describe: 'a built-in task or a module path: its whole description, parameters and metrics',
    type: 'string',
  });
export const examples = [
  ['mmapbench tasks', 'every built-in task, a line each'],
  ['mmapbench tasks message', 'one task in full: what an op does, its parameters, what it relates to'],
  ['mmapbench tasks ./my-task.mjs', 'your own module, as mmapbench reads it'],
];

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, 'tasks');
  if (argv.name !== undefined) opts.task ??= String(argv.name);
  const { BUILTIN_TASKS, loadTask } = await import('../tasks/index.js');
  const tasks = await Promise.all(
    (opts.task ? [opts.task] : BUILTIN_TASKS).map((name) => loadTask(name, { interrupt: context.interrupt })),
  );
  const list = tasks.map(({ name, description, params, metrics, defaultFile, reference }) => ({
    name,
    description,
    params,
    metrics,
    defaultFile: defaultFile ?? null,
    reference,
  }));
  const out = context.stdout ?? process.stdout;
  if (opts.json) return void out.write(`${JSON.stringify(list, null, 2)}\n`);
  const { taskListing, taskText } = await import('../commands/tasks/list.js');
  const { textWidth } = await import('../view/table.js');
  out.write(
    opts.task
      ? taskText(list[0], {
          asked: opts.task,
          width: textWidth(out),
          node: { version: process.version, poolSize: Buffer.poolSize },
        })
      : taskListing(list, { node: process.version, width: textWidth(out) }),
  );
}
