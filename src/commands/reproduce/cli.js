import { THP_PATH } from '../../system/environment.js';
import { defaultRestoreFile } from '../../system/thp-file.js';
import { FIXTURES_DIR_DESCRIPTION } from '../../run/fixtures.js';
import { EXPERIMENT_NAMES } from './names.js';
import { ROUNDS } from './bounds.js';
import { PROTOCOL_CHOICES } from './protocols.js';
import { COMMON, EXPORT, forceOption, nodeOption, timeoutOption } from '../../core/options.js';
import { declare, readOptions } from '../../core/option-spec.js';
import { percent, positiveInteger, positiveNumber } from '../../words/vocabulary.js';

const flag = (/** @type {string} */ describe, more = {}) => ({
  kind: /** @type {const} */ ('flag'),
  describe,
  ...more,
});
const SPECS = {
  ...COMMON,
  list: flag('list the experiments: the claim each tests, what it needs, whether it runs here, estimated time', {
    conflicts: ['resume'],
  }),
  quick: flag('short cells and 2 rounds: every experiment in about a minute on 2 cores (smoke; decides little)', {
    conflicts: ['rounds', 'duration'],
  }),
  smoke: flag('', { hidden: true, conflicts: ['rounds', 'duration'] }),
  k: {
    describe: 'workers or processes side by side (default: the published 8, or the number of CPUs if fewer)',
    read: positiveInteger('-k'),
  },
  rounds: {
    describe: `run exactly this many rounds per experiment (default: ${ROUNDS.min}, then more until every claim's interval is within --precision)`,
    read: positiveInteger('--rounds'),
  },
  precision: {
    describe: "add rounds until every claim's interval is within ± this (default: 5%)",
    read: percent('--precision'),
    conflicts: ['rounds'],
  },
  maxRounds: {
    describe: `most rounds an undecided experiment gets (default: ${ROUNDS.max})`,
    read: positiveInteger('--max-rounds'),
  },
  duration: { describe: 'target seconds per cell (default: 1)', read: positiveNumber('--duration') },
  protocol: {
    describe:
      "fresh: warm cells of --duration, the investigation's claims decided on each worker's first 2,000 ops and shown once warm beside; steady: warm only; published: 2,000 iterations, no warmup, as the investigation ran them; both: published and steady cells, each claim under each (default: fresh)",
    choices: PROTOCOL_CHOICES,
  },
  timeout: timeoutOption,
  force: forceOption(),
  node: nodeOption,
  out: { describe: 'folder for REPORT.md and the results file (default: ./mmapbench-reproduce)' },
  resume: { describe: 'continue the run whose results file this is, with the options it was started with' },
  jemalloc: {
    describe:
      'path of libjemalloc.so for the jemalloc experiment (default: found with ldconfig -p or in the usual paths)',
  },
  thpPath: { describe: `the THP setting file the thp experiment changes, a stand-in for tests (default: ${THP_PATH})` },
  thpRestoreFile: {
    describe: `where the original THP mode is kept while it is changed (default: ${defaultRestoreFile()})`,
  },
  fixturesDir: { describe: `where the files the tasks read are created (default: ${FIXTURES_DIR_DESCRIPTION})` },
  markdown: flag('print the report as markdown (REPORT.md is always markdown)'),
  ...EXPORT,
};

export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, SPECS).positional('experiments', {
    describe: `experiments to run (${EXPERIMENT_NAMES.join(', ')}); default: every one this machine can run`,
    type: 'string',
  });
export const examples = [
  ['mmapbench reproduce --list', 'what each experiment checks, whether it runs here, and how long it takes'],
  ['mmapbench reproduce gap arena', 'two experiments, rounds until every claim is decided'],
  ['mmapbench reproduce --quick', 'every experiment in about a minute (smoke: decides little)'],
  ['mmapbench reproduce gap --protocol both', 'the claims measured warm and the way the investigation did'],
  ['mmapbench reproduce --resume mmapbench-reproduce/results-<start>.jsonl', 'finish a run that was stopped'],
];

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('../../cli/context.js').Context} [context]
 */
export async function handler(argv, context) {
  const { smoke, verbose, ...rest } = readOptions(argv, SPECS, 'reproduce');
  const { reproduce } = await import('./cli-run.js');
  const experiments = [argv.experiments ?? []].flat().map(String);
  return reproduce({ ...rest, verbose, experiments, quick: rest.quick || smoke || undefined }, context);
}
