import { measureCommand } from './measure.js';
import { measurementOptions } from './options.js';

export const command = 'workers';
export const describe = 'Run the task in K Worker threads in one fresh process, behind a start barrier';
export const builder = (yargs) => measurementOptions(yargs);
export const handler = (argv) => measureCommand(argv, 'workers', argv.context);
