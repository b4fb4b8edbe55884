import { SPECS_OF } from '../core/command-options.js';
import { declare, readOptions } from '../core/option-spec.js';
import { output } from '../core/typed-options.js';

const SPECS = SPECS_OF.advise();

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);
export const examples = [
  ['mmapbench advise -k 2', 'the fixes for readfilesync of a 64 KiB file, raced and ranked, within a minute'],
  ['mmapbench advise --task ./my-task.mjs --max-time 600', 'your own task, with ten minutes to tell the fixes apart'],
  ['mmapbench advise --only TOP_PAD,jemalloc', 'the baseline and two candidates'],
  ['mmapbench advise --node 24 --node 26', 'other Node releases as candidates too'],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, 'advise');
  const out = output(opts, 'advise', { summary: process.env.GITHUB_STEP_SUMMARY });
  const [{ adviseOrResume }, { runPrinted }] = await Promise.all([
    import('../commands/advise/run.js'),
    import('./finish.js'),
  ]);
  return runPrinted((core) => adviseOrResume(opts, out, core), out, context);
}
