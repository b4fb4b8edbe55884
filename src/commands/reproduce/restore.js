import { THP_PATH } from '../../system/environment.js';
import { defaultRestoreFile } from '../../system/thp-file.js';
import { COMMON } from '../../core/options.js';
import { declare, readOptions } from '../../core/option-spec.js';

const SPECS = {
  ...COMMON,
  thpRestoreFile: { describe: `the restore file (default: ${defaultRestoreFile()})` },
  thpPath: {
    describe: `the stand-in THP file the run was given; restore writes no other file but the real one (default: ${THP_PATH})`,
  },
};

export const builder = (/** @type {import('yargs').Argv} */ yargs) => declare(yargs, SPECS);

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('../../cli/context.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, 'restore');
  const out = context.stdout ?? process.stdout;
  const { restoreThp } = await import('../../system/thp.js');
  const done = restoreThp({ restoreFile: opts.thpRestoreFile, thpPath: opts.thpPath });
  out.write(
    done
      ? `restored ${done.path}: ${done.from ?? '?'} -> ${done.to}\n`
      : 'nothing to restore: no run left THP changed\n',
  );
}
