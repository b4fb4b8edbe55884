import { measurementSpecs, RESUME } from './options.js';
import { declare, readOptions } from './option-spec.js';
import { output } from './typed-options.js';

const SPECS = { ...measurementSpecs({ compare: false }), ...RESUME };

export const command = 'procs';
export const describe = "Run K fresh child processes, released together; print each process's throughput";
export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);
export const examples = [
  ['mmapbench procs -k 2 --env MALLOC_ARENA_MAX=1', 'two processes with one glibc arena each'],
  ['mmapbench procs --quick', 'a tiny run that proves every path works'],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./index.js').Context} [context]
 */
export async function handler(argv, context) {
  const opts = readOptions(argv, SPECS, command);
  const { measureOrResume } = await import('./measure.js');
  return measureOrResume(opts, 'procs', output(opts, 'procs'), context);
}
