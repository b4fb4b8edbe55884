import { BUILTIN_TASKS, loadTask } from '../tasks/index.js';
import { renderTerminal, useColor } from '../report/table.js';

export const command = 'tasks';
export const describe = 'List the built-in tasks with their parameters';
export const builder = (yargs) => yargs.option('json', { type: 'boolean', describe: 'print the list as JSON' });

const flag = (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export async function handler(argv) {
  const tasks = await Promise.all(BUILTIN_TASKS.map((name) => loadTask(name)));
  const list = tasks.map(({ name, description, params }) => ({ name, description, params }));
  const out = argv.context?.stdout ?? process.stdout;
  if (argv.json) return void out.write(`${JSON.stringify(list, null, 2)}\n`);
  const rows = list.map(({ name, description, params }) => [
    name,
    description,
    Object.entries(params).map(([key, p]) => `${flag(key)} ${p.type} (default ${p.default}): ${p.description}`).join('\n') || '-',
  ]);
  out.write(renderTerminal(
    { title: 'Built-in tasks (--task NAME); --task ./file.js runs your own', tables: [{ head: ['task', 'what one op does', 'parameters'], rows, align: ['left', 'left', 'left'] }], notes: [] },
    { color: useColor(out) },
  ));
}
