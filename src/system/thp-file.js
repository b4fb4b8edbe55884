import os from 'node:os';
import path from 'node:path';

/** Where a reproduce run that changes the THP mode keeps the mode to put back (restore reads it). */
export const defaultRestoreFile = () =>
  path.join(process.env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state'), 'mmapbench', 'thp-restore.json');
