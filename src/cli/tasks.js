import { BUILTIN_TASKS, loadTask } from '../tasks/index.js';
import { paramSetting } from '../run/plan.js';
import { renderTerminal, useColor } from '../report/table.js';

export const command = 'tasks';
export const describe = 'List the built-in tasks with their parameters';
export const builder = (yargs) => yargs.option('json', { type: 'boolean', describe: 'print the list as JSON' });

// The terminal's width split between the columns (borders take 4); 120 off a terminal.
function widthsFor(columns = 120) {
  const room = Math.max(columns, 80) - 4;
  const name = 17;
  const params = Math.floor((room - name) * 0.4);
  return [name, room - name - params, params];
}

export async function handler(argv) {
  const tasks = await Promise.all(BUILTIN_TASKS.map((name) => loadTask(name)));
  const list = tasks.map(({ name, description, params, metrics, defaultFile, reference }) => ({ name, description, params, metrics, defaultFile: defaultFile ?? null, reference }));
  const out = argv.context?.stdout ?? process.stdout;
  if (argv.json) return void out.write(`${JSON.stringify(list, null, 2)}\n`);
  const rows = list.map(({ name, description, params, metrics, defaultFile, reference }) => [
    name,
    [
      description,
      defaultFile ? `(--file defaults to ${defaultFile})` : '',
      ...Object.keys(metrics).map((m) => `reports ${m}: ${metrics[m].description}`),
      reference ? `published: ${reference}` : '',
    ].filter(Boolean).join('\n'),
    Object.entries(params).map(([key, p]) => `${paramSetting(key, p.choices ? p.choices.join('|') : p.type)} (default ${p.default ?? 'none'}): ${p.description}`).join('\n') || '-',
  ]);
  out.write(renderTerminal(
    { title: 'Built-in tasks (--task NAME); --task ./file.js runs your own', tables: [{ head: ['task', 'what one op does', 'parameters'], rows, align: ['left', 'left', 'left'], widths: widthsFor(out.columns) }], notes: [] },
    { color: useColor(out) },
  ));
}
