import { Argument, Option } from 'commander';
import { THP_PATH } from '../system/environment.js';
import { defaultRestoreFile } from '../system/thp.js';
import { FIXTURES_DIR_DESCRIPTION } from '../run/fixtures.js';
import { EXPERIMENT_NAMES } from '../reproduce/names.js';
import { ROUNDS } from '../reproduce/rounds.js';
import { common, examples, forceOption, nodeOption, timeoutOption } from './options.js';
import { percent, positiveInteger, positiveNumber } from '../words/vocabulary.js';

export const command = 'reproduce';
export const describe = "Re-check the investigation's published tables on this machine, with a verdict per claim";
export const builder = (cmd) =>
  common(cmd)
    .addArgument(
      new Argument(
        '[experiments...]',
        `experiments to run (${EXPERIMENT_NAMES.join(', ')}); default: every one this machine can run`,
      ),
    )
    .addOption(
      new Option(
        '--list',
        'list the experiments: the claim each tests, what it needs, whether it runs here, estimated time',
      ).conflicts('resume'),
    )
    .addOption(
      new Option(
        '--quick',
        'short cells and 2 rounds: every experiment in about a minute on 2 cores (smoke; decides little)',
      ).conflicts(['rounds', 'duration']),
    )
    .addOption(new Option('--smoke').hideHelp().conflicts(['rounds', 'duration']))
    .addOption(
      new Option(
        '-k <count>',
        'workers or processes side by side (default: the published 8, or the number of CPUs if fewer)',
      ).argParser(positiveInteger('-k')),
    )
    .addOption(
      new Option(
        '--rounds <count>',
        `run exactly this many rounds per experiment (default: ${ROUNDS.min}, then more until every claim's interval is within --precision)`,
      ).argParser(positiveInteger('--rounds')),
    )
    .addOption(
      new Option('--precision <percent>', "add rounds until every claim's interval is within ± this (default: 5%)")
        .argParser(percent('--precision'))
        .conflicts('rounds'),
    )
    .addOption(
      new Option('--max-rounds <count>', `most rounds an undecided experiment gets (default: ${ROUNDS.max})`).argParser(
        positiveInteger('--max-rounds'),
      ),
    )
    .addOption(
      new Option('--duration <seconds>', 'target seconds per cell (default: 1)').argParser(
        positiveNumber('--duration'),
      ),
    )
    .addOption(
      new Option(
        '--protocol <name>',
        'steady: warm cells of --duration; published: 2,000 iterations, no warmup, as the investigation ran them; both: each claim under each, side by side (default: steady)',
      ).choices(['steady', 'published', 'both']),
    )
    .addOption(timeoutOption())
    .addOption(forceOption())
    .addOption(nodeOption())
    .option('--out <path>', 'folder for REPORT.md and the results file (default: ./mmapbench-reproduce)')
    .option('--resume <file>', 'continue the run whose results file this is, with the options it was started with')
    .option(
      '--jemalloc <path>',
      'path of libjemalloc.so for the jemalloc experiment (default: found with ldconfig -p or in the usual paths)',
    )
    .option(
      '--thp-path <path>',
      `the THP setting file the thp experiment changes, a stand-in for tests (default: ${THP_PATH})`,
    )
    .option(
      '--thp-restore-file <path>',
      `where the original THP mode is kept while it is changed (default: ${defaultRestoreFile()})`,
    )
    .option(
      '--fixtures-dir <path>',
      `where the files the tasks read are created (default: ${FIXTURES_DIR_DESCRIPTION})`,
    )
    .option('--markdown', 'print the report as markdown (REPORT.md is always markdown)')
    .addHelpText(
      'after',
      examples([
        ['mmapbench reproduce --list', 'what each experiment checks, whether it runs here, and how long it takes'],
        ['mmapbench reproduce gap arena', 'two experiments, rounds until every claim is decided'],
        ['mmapbench reproduce --quick', 'every experiment in about a minute (smoke: decides little)'],
        ['mmapbench reproduce gap --protocol both', 'the claims measured warm and the way the investigation did'],
        ['mmapbench reproduce --resume mmapbench-reproduce/results-<start>.jsonl', 'finish a run that was stopped'],
      ]),
    );

export async function handler(opts, context) {
  const { reproduce } = await import('./reproduce-run.js');
  const {
    positionals: [experiments = []],
    smoke,
    verbose,
    ...rest
  } = opts;
  return reproduce({ ...rest, experiments, quick: rest.quick || smoke || undefined }, context);
}
