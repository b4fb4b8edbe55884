import { declare, readOptions } from '../core/option-spec.js';
import { textWidth } from '../view/table.js';
import { EXPERIMENT_NAMES } from '../commands/reproduce/names.js';
import { SPECS_OF } from '../core/command-options.js';

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
 * The experiments' run, printed as every run is (cli/finish.js): the verdicts, or with --verbose
 * the whole report, then the files it wrote; or with --list, the experiments.
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const { smoke, verbose, ...rest } = readOptions(argv, SPECS, 'reproduce');
  const experiments = [argv.experiments ?? []].flat().map(String);
  /** @type {import('../commands/reproduce/options.js').ReproduceRequest} */
  const request = { ...rest, verbose, experiments, quick: rest.quick || smoke || undefined };
  const [{ listed, reproduceRun }, { runPrinted }] = await Promise.all([
    import('../commands/reproduce/run.js'),
    import('./finish.js'),
  ]);
  const { stdout = process.stdout, stderr = process.stderr, interrupt } = context;
  if (request.list) {
    const say = (/** @type {string} */ line) => void stderr.write(`mmapbench: ${line}\n`);
    return void stdout.write(await listed(request, { width: textWidth(stdout), interrupt, say }));
  }
  // its results file and REPORT.md are its own (--out): kept as it goes, whatever the format
  /** @type {import('../core/typed-options.js').Output} */
  const output = {
    ...{ format: request.markdown ? 'markdown' : 'terminal', save: null, exports: [], gate: null },
    ...{ ci: false, summary: null, verbose: Boolean(verbose) },
  };
  await runPrinted((core) => reproduceRun(request, core), output, context);
}
