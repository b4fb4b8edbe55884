import { Argument, Option } from 'commander';
import { common, examples } from './options.js';

export const command = 'report';
export const describe = 'Print saved results again as the run printed them, or as one self-contained HTML page';
export const builder = (cmd) =>
  common(cmd)
    .addArgument(new Argument('<files...>', 'results files mmapbench saved (compare, sweep, trace, reproduce …)'))
    .addOption(new Option('--markdown', 'print the tables as markdown').conflicts('html'))
    .option('--html <file>', 'write one HTML page with the tables and charts of every file (opens from disk, offline)')
    .addHelpText(
      'after',
      examples([
        ['mmapbench report mmapbench-results/compare-*.json', 'the tables again, as the run printed them'],
        ['mmapbench report mmapbench-results/*.json --html report.html', 'one page with every chart, to keep or send'],
      ]),
    );
export async function handler(opts, context) {
  const { reportCommand } = await import('./report-run.js');
  return reportCommand({ files: opts.positionals[0], markdown: Boolean(opts.markdown), html: opts.html }, context);
}
