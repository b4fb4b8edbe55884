import { THP_PATH } from '../system/environment.js';
import { defaultRestoreFile, restoreThp } from '../system/thp.js';

export const command = 'restore';
export const describe = 'Put back the transparent hugepage mode a killed reproduce run left changed';
export const builder = (yargs) =>
  yargs
    .option('thp-restore-file', { type: 'string', describe: 'the restore file', defaultDescription: defaultRestoreFile() })
    .option('thp-path', { type: 'string', describe: 'the stand-in THP file the run was given (restore writes no other file but the real one)', defaultDescription: THP_PATH });

export function handler(argv) {
  const out = argv.context?.stdout ?? process.stdout;
  const done = restoreThp({ restoreFile: argv.thpRestoreFile, thpPath: argv.thpPath });
  out.write(done ? `restored ${done.path}: ${done.from ?? '?'} -> ${done.to}\n` : 'nothing to restore: no run left THP changed\n');
}
