import { BUFFER_OPTION, hasBufferOption } from '../reference/node-fix.js';
import { COMMON, declare, readOptions } from './options.js';

const SPECS = {
  ...COMMON,
  task: { describe: 'describe this task module instead: its description, parameters and metrics' },
  json: { kind: /** @type {const} */ ('flag'), describe: 'print the list as JSON' },
};

export const command = 'tasks';

/**
 * Which fix for a readFileSync hot path comes first on this Node: its own buffer option where
 * it has one, else the upgrade and the fix by hand.
 * @param {string} version
 */
export function fixNote(version) {
  return hasBufferOption(version)
    ? `Node ${version} has readFileSync's buffer option: for a readFileSync hot path, try readfilesync-into first, then reuse-buffer`
    : `Node ${version} has no readFileSync buffer option (it came in ${BUFFER_OPTION.since.join(' and ')}): reuse-buffer is the fix by hand here, and \`--node 26 --task readfilesync-into\` measures the upgrade`;
}
export const describe = 'List the built-in tasks with their parameters, or describe your own (--task)';
export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./index.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, command);
  const { BUILTIN_TASKS, loadTask } = await import('../tasks/index.js');
  const { paramSetting } = await import('../words/vocabulary.js');
  const { renderTerminal, textWidth, useColor } = await import('../report/table.js');
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
  const rows = list.map(({ name, description, params, metrics, defaultFile, reference }) => [
    name,
    [
      description,
      defaultFile ? `(--file defaults to ${defaultFile})` : '',
      ...Object.keys(metrics).map((m) => `reports ${m}: ${metrics[m].description}`),
      reference ? `published: ${reference}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    Object.entries(params)
      .map(
        ([key, p]) =>
          `${paramSetting(key, p.choices ? p.choices.join('|') : p.type)} (default ${p.default ?? 'none'}): ${p.description}`,
      )
      .join('\n') || '-',
  ]);
  const title = opts.task
    ? `Task ${list[0].name} (--task ${opts.task})`
    : 'Built-in tasks (--task NAME); --task ./my-task.mjs runs your own (`mmapbench init-task NAME` writes one)';
  out.write(
    renderTerminal(
      {
        title,
        tables: [
          {
            head: ['task', 'what one op does', 'parameters'],
            rows,
            align: ['left', 'left', 'left'],
            widths: [19, 60, 40],
          },
        ],
        notes: opts.task ? [] : [fixNote(process.version)],
      },
      { color: useColor(out), width: textWidth(out) },
    ),
  );
}
