import { SPECS_OF } from '../../core/options.js';
import { declare, readOptions } from '../../core/option-spec.js';
import { output } from '../../core/typed-options.js';

const SPECS = SPECS_OF.compare();

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);
export const examples = [
  ['mmapbench compare', 'readfilesync of a 64 KiB file, k = CPUs, rounds until the ratio is known to ±5% (or 60 s)'],
  ['mmapbench compare --task reuse-buffer --file 1m --rounds 10', 'the buffer-reuse mitigation at 1 MiB'],
  ['mmapbench compare --env MALLOC_ARENA_MAX=1 --json', 'an allocator setting, as JSON'],
  ['mmapbench compare --ci --fail-below 0.8', 'a CI job: 30 s, exit 4 when threads are surely more than 20% behind'],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('../../cli/context.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, 'compare');
  const out = output(opts, 'compare', { summary: process.env.GITHUB_STEP_SUMMARY });
  const [{ measureOrResume }, { runPrinted }] = await Promise.all([import('./run.js'), import('../../cli/finish.js')]);
  return runPrinted((core) => measureOrResume(opts, 'compare', out, core), out, context);
}
