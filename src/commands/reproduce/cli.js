import { declare, readOptions } from '../../core/option-spec.js';
import { EXPERIMENT_NAMES } from './names.js';
import { SPECS_OF } from '../../core/command-options.js';

const SPECS = SPECS_OF.reproduce();

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
  ['mmapbench reproduce --resume mmapbench-reproduce/reproduce-<start>.json', 'finish a run that was stopped'],
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
