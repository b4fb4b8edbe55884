import { SPECS_OF } from '../../core/options.js';
import { declare, readOptions } from '../../core/option-spec.js';
import { output } from '../../core/typed-options.js';

const SPECS = SPECS_OF.procs();

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);
export const examples = [
  ['mmapbench procs -k 2 --env MALLOC_ARENA_MAX=1', 'two processes with one glibc arena each'],
  ['mmapbench procs --quick', 'a tiny run that proves every path works'],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('../../cli/context.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, 'procs');
  const out = output(opts, 'procs', { summary: process.env.GITHUB_STEP_SUMMARY });
  const [{ measureOrResume }, { runPrinted }] = await Promise.all([import('./run.js'), import('../../cli/finish.js')]);
  return runPrinted((core) => measureOrResume(opts, 'procs', out, core), out, context);
}
