import { COMMON } from '../core/options.js';
import { declare, readOptions } from '../core/option-spec.js';
import { SPECS_OF } from '../core/command-options.js';

const REPRODUCE = SPECS_OF.reproduce();

// reproduce's own THP options: restore writes only the real THP file, or the stand-in a run was
// given when it is given again, and reads only the restore file
const SPECS = { ...COMMON, thpRestoreFile: REPRODUCE.thpRestoreFile, thpPath: REPRODUCE.thpPath };

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, 'restore');
  const out = context.stdout ?? process.stdout;
  const { restoreThp } = await import('../system/thp.js');
  const done = restoreThp({ restoreFile: opts.thpRestoreFile, thpPath: opts.thpPath });
  out.write(
    done
      ? `restored ${done.path}: ${done.from ?? '?'} -> ${done.to}\n`
      : 'nothing to restore: no run left THP changed\n',
  );
}
