// `mmapbench tasks`: the built-in tasks a line each, or one task in full.
import { BUFFER_OPTION, hasBufferOption, NODE_CHANGES, sinceText } from '../../reference/node-changes.js';
import { formatSize } from '../../words/spelling.js';
import { kebab, paramSetting } from '../../words/vocabulary.js';
import { columnLines, wrapText } from '../../view/table.js';

/**
 * A task as `tasks` shows it (and --json prints it).
 * @typedef {{ name: string, description: string, params: Record<string, any>,
 *   metrics: Record<string, { description: string }>, defaultFile: string | null, reference: string | null }} Listed
 */

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
/**
 * The pool a `poolSize` parameter replaces: the Node's own default, read from it.
 * @param {{ version: string, poolSize: number }} node
 */
export function poolNote({ version, poolSize }) {
  const change = NODE_CHANGES.find((one) => one.id === 'pool-64k');
  return `this Node's default pool: ${formatSize(poolSize)} (Buffer.poolSize on Node ${version}); Node's default went from 8 KiB to 64 KiB in ${sinceText('pool-64k')} (${change?.source})`;
}

/**
 * A task in a line or a few: its name, what an op does (its description's first clause, wrapped
 * between words, never cut) and its parameters, after the clause where they fit, else on a line
 * of their own.
 * @param {{ name: string, description: string, params: Record<string, unknown> }} task
 * @param {number} nameWidth
 * @param {number} width
 */
function taskLines({ name, description, params }, nameWidth, width) {
  const flags = Object.keys(params)
    .map((key) => `--${kebab(key)}`)
    .join(' ');
  const clause = description.split(/ \(|; |: /)[0];
  const lines = columnLines([[name, clause]], { min: [nameWidth], width });
  if (!flags) return lines;
  const last = [...lines[lines.length - 1]].length;
  if (last + 2 + flags.length <= width) lines[lines.length - 1] += flags.padStart(width - last);
  else lines.push(flags.padStart(width));
  return lines;
}

/**
 * Every task, a line each (or a few), then which fix comes first on this Node and how to write one's own.
 * @param {Listed[]} list
 * @param {{ node: string, width: number }} how
 */
export function taskListing(list, { node, width }) {
  const nameWidth = Math.max(...list.map((task) => task.name.length));
  return `${[
    'mmapbench tasks: the built-in tasks; `mmapbench tasks NAME` describes one',
    ...list.flatMap((task) => taskLines(task, nameWidth, width)),
    wrapText(fixNote(node), width),
    wrapText('your own: --task ./my-task.mjs (`mmapbench init-task NAME` writes one)', width),
  ].join('\n')}\n`;
}

/**
 * One task in full: what an op does, what it relates to, each parameter under its flag.
 * @param {Listed} task
 * @param {{ asked: string, width: number, node?: { version: string, poolSize: number } }} how  asked:
 *   the name or path the user gave; node: the Node it would run on, whose default pool a
 *   `poolSize` parameter is set against
 */
export function taskText(task, { asked, width, node }) {
  const indented = (/** @type {string} */ text, /** @type {number} */ by) =>
    wrapText(text, width - by)
      .split('\n')
      .map((line) => `${' '.repeat(by)}${line}`)
      .join('\n');
  const lines = [
    `mmapbench tasks: ${task.name}${asked === task.name ? '' : ` (--task ${asked})`}`,
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
      ...(key === 'poolSize' && node ? [indented(poolNote(node), 6)] : []),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}
