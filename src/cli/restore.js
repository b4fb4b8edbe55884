import { THP_PATH } from '../system/environment.js';
import { defaultRestoreFile, restoreThp } from '../system/thp.js';
import { common } from './options.js';

export const command = 'restore';
export const describe = 'Put back the transparent hugepage mode a killed reproduce run left changed';
export const builder = (cmd) =>
  common(cmd)
    .option('--thp-restore-file <path>', `the restore file (default: ${defaultRestoreFile()})`)
    .option(
      '--thp-path <path>',
      `the stand-in THP file the run was given; restore writes no other file but the real one (default: ${THP_PATH})`,
    );

export function handler(opts, context = {}) {
  const out = context.stdout ?? process.stdout;
  const done = restoreThp({ restoreFile: opts.thpRestoreFile, thpPath: opts.thpPath });
  out.write(
    done
      ? `restored ${done.path}: ${done.from ?? '?'} -> ${done.to}\n`
      : 'nothing to restore: no run left THP changed\n',
  );
}
