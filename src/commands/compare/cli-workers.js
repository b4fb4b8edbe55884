import { SPECS_OF } from '../../core/options.js';
import { declare, readOptions } from '../../core/option-spec.js';
import { output } from '../../core/typed-options.js';

const SPECS = SPECS_OF.workers();

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);
export const examples = [
  ['mmapbench workers -k 2 --file 1m', 'two threads reading a 1 MiB file'],
  ['mmapbench workers --task ./my-task.mjs --json', 'your own task, as JSON'],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('../../cli/context.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, 'workers');
  const out = output(opts, 'workers', { summary: process.env.GITHUB_STEP_SUMMARY });
  const [{ measureOrResume }, { runPrinted }] = await Promise.all([import('./run.js'), import('../../cli/finish.js')]);
  return runPrinted((core) => measureOrResume(opts, 'workers', out, core), out, context);
}
