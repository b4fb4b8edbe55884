import path from 'node:path';
import { stateHome } from './user-folders.js';

/** The kernel's THP setting: what the environment reads and reproduce's thp experiment changes. */
export const THP_PATH = '/sys/kernel/mm/transparent_hugepage/enabled';

/** Where the restore file is, as help says it: the table of options reads no environment when it loads. */
export const RESTORE_FILE_DESCRIPTION =
  '$XDG_STATE_HOME/mmapbench/thp-restore.json (~/.local/state/mmapbench/thp-restore.json)';

/** Where a reproduce run that changes the THP mode keeps the mode to put back (restore reads it). */
export const defaultRestoreFile = () => path.join(stateHome(), 'mmapbench', 'thp-restore.json');
