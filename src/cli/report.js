import { SPECS_OF } from '../core/command-options.js';
import { declare, readOptions } from '../core/option-spec.js';

const SPECS = SPECS_OF.report();

export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, SPECS).positional('files', {
    describe: 'results files mmapbench saved (compare, sweep, trace, reproduce …)',
    type: 'string',
  });
export const examples = [
  ['mmapbench report mmapbench-results/compare-*.json', 'the answer again, as the run printed it'],
  ['mmapbench report mmapbench-results/compare-*.json --verbose', 'every round, the account, the warm-up'],
  ['mmapbench report mmapbench-results/*.json --html report.html', 'one page with every chart, to keep or send'],
  ['mmapbench report compare-ci.json --export bencher=bmf.json', "a saved run in a dashboard's format"],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, 'report');
  const { reportCommand } = await import('./report-run.js');
  const files = [argv.files].flat().map(String);
  return reportCommand(
    {
      files,
      markdown: Boolean(opts.markdown),
      html: opts.html,
      exports: opts.export ?? [],
      verbose: Boolean(opts.verbose),
    },
    context,
  );
}
