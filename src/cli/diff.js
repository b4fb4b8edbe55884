import { COMMON, declare, readOptions } from './options.js';

const SPECS = {
  ...COMMON,
  json: {
    kind: /** @type {const} */ ('flag'),
    describe: 'print one JSON document on stdout and nothing else',
    conflicts: ['markdown'],
  },
  markdown: { kind: /** @type {const} */ ('flag'), describe: 'print the tables as markdown' },
};

export const command = 'diff <base> <new>';
export const describe = 'What changed between two saved runs: the workers/procs ratio and each mode, with 95% CIs';
export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, SPECS)
    .positional('base', { describe: 'the results file to compare against', type: 'string' })
    .positional('new', { describe: 'the results file that may have changed', type: 'string' });
export const examples = [
  [
    'mmapbench diff $(ls mmapbench-results/compare-*.json | tail -2)',
    'the last two compares, e.g. on two Node versions: the change of the ratio with its CI',
  ],
];
/** @param {Record<string, any>} argv @param {import('./index.js').Context} [context] */
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./index.js').Context} [context]
 */
export async function handler(argv, { stdout = process.stdout } = {}) {
  const opts = readOptions(argv, SPECS, 'diff');
  const [{ loadResults }, { diffResults }, { diffModel }, { renderMarkdown, renderTerminal, textWidth, useColor }] =
    await Promise.all([
      import('../results/load.js'),
      import('../results/diff.js'),
      import('../report/diff-model.js'),
      import('../report/table.js'),
    ]);
  const [basePath, newPath] = [String(argv.base), String(argv.new)];
  const diff = diffResults(loadResults(basePath, `diff ${basePath}`), loadResults(newPath, `diff ${newPath}`));
  stdout.write(
    opts.json
      ? `${JSON.stringify(diff, null, 2)}\n`
      : opts.markdown
        ? renderMarkdown(diffModel(diff))
        : renderTerminal(diffModel(diff), { color: useColor(stdout), width: textWidth(stdout) }),
  );
  return diff;
}
