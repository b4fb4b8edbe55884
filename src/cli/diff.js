import { usageError } from '../errors.js';
import { COMMON, DIFF_GATE } from './options.js';
import { declare, readOptions } from './option-spec.js';

const SPECS = {
  ...COMMON,
  json: {
    kind: /** @type {const} */ ('flag'),
    describe: 'print one JSON document on stdout and nothing else',
    conflicts: ['markdown'],
  },
  markdown: { kind: /** @type {const} */ ('flag'), describe: 'print the tables as markdown' },
  ...DIFF_GATE,
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
  [
    'mmapbench diff main.json pr.json --max-worsening 10',
    'a CI gate: exit 4 when the ratio is surely more than 10% worse than on main, 0 when surely not',
  ],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./index.js').Context} [context]
 */
export async function handler(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const opts = readOptions(argv, SPECS, 'diff');
  const gated = opts.maxWorsening !== undefined || opts.maxSlowdown !== undefined;
  if (opts.failInconclusive && !gated)
    throw usageError('--fail-inconclusive needs a gate: add --max-worsening PERCENT or --max-slowdown PERCENT');
  const [
    { loadSaved },
    { diffResults, sameKind },
    { diffModel },
    { renderModels },
    { renderMarkdown },
    { changeGate },
  ] = await Promise.all([
    import('../kinds/index.js'),
    import('../saved/diff.js'),
    import('../models/diff.js'),
    import('../view/index.js'),
    import('../view/table.js'),
    import('../document/gate.js'),
  ]);
  const [basePath, newPath] = [String(argv.base), String(argv.new)];
  const [base, next] = [loadSaved(basePath, `diff ${basePath}`), loadSaved(newPath, `diff ${newPath}`)];
  // a gate compares like with like: a different command or task is a mistake, not a change
  if (gated) sameKind(base, next);
  const diff = diffResults(base, next);
  const gate = gated
    ? changeGate(diff.points, {
        maxWorsening: opts.maxWorsening,
        maxSlowdown: opts.maxSlowdown,
        failInconclusive: Boolean(opts.failInconclusive),
        differences: diff.differences.map((difference) => difference.fact),
      })
    : null;
  const document = gate ? { ...diff, gate } : diff;
  stdout.write(
    renderModels(
      document,
      () => [diffModel(diff)],
      opts.json ? 'json' : opts.markdown ? 'markdown' : 'terminal',
      stdout,
    ),
  );
  const { appendSummary, endWithGate } = await import('./finish.js');
  appendSummary(
    () => ({
      title: `mmapbench diff ${basePath} ${newPath}`,
      verdict: null,
      gate,
      tables: renderMarkdown(diffModel(diff)),
    }),
    stderr,
  );
  if (gate) endWithGate(gate, stderr);
  return document;
}
