import path from 'node:path';
import { stateHome } from './user-folders.js';

/** Where a reproduce run that changes the THP mode keeps the mode to put back (restore reads it). */
export const defaultRestoreFile = () => path.join(stateHome(), 'mmapbench', 'thp-restore.json');
