import { measureCommand } from './measure.js';
import { measurementOptions } from './options.js';

export const command = 'compare';
export const describe = 'Run workers and procs in interleaved rounds; print the ratio with its 95% CI';
export const builder = (yargs) => measurementOptions(yargs, { compare: true });
export const handler = (argv) => measureCommand(argv, 'compare', argv.context);
