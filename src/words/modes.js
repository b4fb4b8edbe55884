// The two ways a cell runs its K workers, and their order wherever both are shown: Worker
// threads in one process, then K child processes.
/** @typedef {'workers'|'procs'} Mode */

/** @type {['workers', 'procs']} */
export const MODES = ['workers', 'procs'];
