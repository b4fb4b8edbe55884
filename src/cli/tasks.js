import { BUFFER_OPTION, hasBufferOption } from '../reference/node-fix.js';
import { COMMON, declare, readOptions } from './options.js';

const SPECS = {
  ...COMMON,
  task: { describe: 'describe this task module instead: its description, parameters and metrics' },
  json: { kind: /** @type {const} */ ('flag'), describe: 'print the list as JSON' },
};

export const command = 'tasks [name]';

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
export const describe = 'List the built-in tasks a line each; `tasks NAME` describes one, or your own module';
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
 * A task in one line: its name, what an op does (its description's first clause, shortened
 * with … to fit) and its parameters.
 * @param {{ name: string, description: string, params: Record<string, unknown> }} task
 * @param {number} nameWidth
 * @param {number} width
 */
export function taskLine({ name, description, params }, nameWidth, width) {
  const flags = Object.keys(params)
    .map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)
    .join(' ');
  const head = `${name.padEnd(nameWidth)}  `;
  const room = width - head.length - (flags ? flags.length + 2 : 0);
  const clause = description.split(/ \(|; |: /)[0];
  const what =
    [...clause].length > room
      ? `${[...clause]
          .slice(0, Math.max(1, room - 1))
          .join('')
          .trimEnd()}…`
      : clause;
  return `${head}${what}${flags ? `${' '.repeat(Math.max(2, room - [...what].length + 2))}${flags}` : ''}`;
}

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./index.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, 'tasks');
  if (argv.name !== undefined) opts.task ??= String(argv.name);
  const { BUILTIN_TASKS, loadTask } = await import('../tasks/index.js');
  const { paramSetting } = await import('../words/vocabulary.js');
  const { textWidth } = await import('../view/table.js');
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
  if (!opts.task) {
    const width = textWidth(out);
    const nameWidth = Math.max(...list.map((task) => task.name.length));
    const { wrapText } = await import('../view/table.js');
    out.write(
      [
        'mmapbench tasks: the built-in tasks; `mmapbench tasks NAME` describes one',
        ...list.map((task) => taskLine(task, nameWidth, width)),
        wrapText(fixNote(process.version), width),
        wrapText('your own: --task ./my-task.mjs (`mmapbench init-task NAME` writes one)', width),
      ].join('\n') + '\n',
    );
    return;
  }
  // one task in full: what an op does, what it relates to, each parameter under its flag
  const [task] = list;
  const width = textWidth(out);
  const { wrapText } = await import('../view/table.js');
  const indented = (/** @type {string} */ text, /** @type {number} */ by) =>
    wrapText(text, width - by)
      .split('\n')
      .map((line) => `${' '.repeat(by)}${line}`)
      .join('\n');
  const lines = [
    `mmapbench tasks: ${task.name}${opts.task === task.name ? '' : ` (--task ${opts.task})`}`,
    indented(task.description, 0),
    ...(task.defaultFile ? [indented(`--file defaults to ${task.defaultFile}`, 0)] : []),
    ...Object.entries(task.metrics).map(([name, metric]) => indented(`reports ${name}: ${metric.description}`, 0)),
    ...(task.reference ? [indented(`published: ${task.reference}`, 0)] : []),
    Object.keys(task.params).length ? 'parameters:' : 'parameters: none',
    ...Object.entries(task.params).flatMap(([key, param]) => [
      indented(
        `${paramSetting(key, param.choices ? param.choices.join('|') : param.type)} (default ${param.default ?? 'none'})`,
        2,
      ),
      indented(param.description, 6),
    ]),
  ];
  out.write(`${lines.join('\n')}\n`);
}
