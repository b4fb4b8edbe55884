import { measureCommand } from './measure.js';
import { measurementOptions } from './options.js';

export const command = 'procs';
export const describe = 'Run the task in K fresh child processes, behind a start barrier';
export const builder = (yargs) => measurementOptions(yargs);
export const handler = (argv) => measureCommand(argv, 'procs', argv.context);
