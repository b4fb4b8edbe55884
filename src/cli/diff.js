import { Argument, Option } from 'commander';
import { common, examples } from './options.js';

export const command = 'diff';
export const describe = 'What changed between two saved runs: the workers/procs ratio and each mode, with 95% CIs';
export const builder = (cmd) =>
  common(cmd)
    .addArgument(new Argument('<base>', 'the results file to compare against'))
    .addArgument(new Argument('<new>', 'the results file that may have changed'))
    .addOption(new Option('--json', 'print one JSON document on stdout and nothing else').conflicts('markdown'))
    .option('--markdown', 'print the tables as markdown')
    .addHelpText(
      'after',
      examples([
        [
          'mmapbench diff $(ls mmapbench-results/compare-*.json | tail -2)',
          'the last two compares, e.g. on two Node versions: the change of the ratio with its CI',
        ],
      ]),
    );
/** @param {Record<string, any>} opts @param {import('./index.js').Context} [context] */
export async function handler(opts, { stdout = process.stdout } = {}) {
  const [{ loadResults }, { diffResults }, { diffModel }, { renderMarkdown, renderTerminal, textWidth, useColor }] =
    await Promise.all([
      import('../results/load.js'),
      import('../results/diff.js'),
      import('../report/diff-model.js'),
      import('../report/table.js'),
    ]);
  const [basePath, newPath] = opts.positionals;
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
