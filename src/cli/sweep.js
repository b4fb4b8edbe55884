import { SPECS_OF } from '../core/command-options.js';
import { declare, readOptions } from '../core/option-spec.js';
import { output } from '../core/typed-options.js';

const SPECS = SPECS_OF.sweep();

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);
export const examples = [
  ['mmapbench sweep -k 1,2,4,8', 'the scaling curve: throughput of both modes and their ratio against k'],
  ['mmapbench sweep -k 2 --file 4k,16k,64k,1m --task readfilesync,reuse-buffer', 'file sizes × a mitigation'],
  [
    'mmapbench sweep -k 2,8 --variant default --variant arena1:MALLOC_ARENA_MAX=1',
    'an allocator setting against the default, at two k',
  ],
  ['mmapbench sweep --task fs-promises --node /usr/bin/node --node ./node-24/bin/node', 'two Node binaries'],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, 'sweep');
  const out = output(opts, 'sweep', { summary: process.env.GITHUB_STEP_SUMMARY });
  const [{ sweepOrResume }, { runPrinted }] = await Promise.all([
    import('../commands/sweep/run.js'),
    import('./finish.js'),
  ]);
  return runPrinted((core) => sweepOrResume(opts, out, core), out, context);
}
