import { SPECS_OF } from '../core/command-options.js';
import { declare, readOptions } from '../core/option-spec.js';

const SPECS = SPECS_OF.diff();

export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, SPECS)
    .positional('base', { describe: 'the results file to compare against', type: 'string' })
    .positional('new', { describe: 'the results file that may have changed', type: 'string' });
export const examples = [
  [
    'mmapbench diff $(ls mmapbench-results/compare-*.json | tail -2)',
    'the last two compares, e.g. on two Node versions: the change of the ratio with its CI',
  ],
  [
    'mmapbench diff main.json pr.json --max-worsening 10',
    'a CI gate: exit 4 when the ratio is surely more than 10% worse than on main, 0 when surely not',
  ],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const opts = readOptions(argv, SPECS, 'diff');
  const [
    { diffFiles },
    { diffModel },
    { renderModels },
    { renderMarkdown },
    { appendSummary, endWithGate },
    { checkDistinct },
  ] = await Promise.all([
    import('../commands/diff/run.js'),
    import('../commands/diff/model.js'),
    import('../view/index.js'),
    import('../view/table.js'),
    import('./finish.js'),
    import('../system/safe-fs.js'),
  ]);
  const [basePath, newPath] = [String(argv.base), String(argv.new)];
  const read = [basePath, newPath].map((path) => ({ path, what: `${path}, which diff reads` }));
  const summary = (opts.ci && process.env.GITHUB_STEP_SUMMARY) || null;
  if (summary)
    checkDistinct(read, [{ path: summary, as: `$GITHUB_STEP_SUMMARY ${summary}`, what: 'the step summary' }]);
  const document = diffFiles(basePath, newPath, opts);
  const gate = document.gate ?? null;
  stdout.write(
    renderModels(
      document,
      () => [diffModel(document)],
      opts.json ? 'json' : opts.markdown ? 'markdown' : 'terminal',
      stdout,
    ),
  );
  if (summary)
    appendSummary(
      summary,
      read,
      () => ({
        title: `mmapbench diff ${basePath} ${newPath}`,
        verdict: null,
        gate,
        tables: renderMarkdown(diffModel(document)),
      }),
      stderr,
    );
  if (gate) endWithGate(gate, stderr);
  return document;
}
