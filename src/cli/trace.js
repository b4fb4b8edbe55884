import { measureCommand } from './measure.js';
import { measurementOptions } from './options.js';

export const command = 'trace [mode]';
export const describe = 'Run workers, procs or compare under bpftrace: mmap_lock wait per acquisition, in total, as a histogram';
export const builder = (yargs) =>
  measurementOptions(
    yargs.positional('mode', { choices: ['workers', 'procs', 'compare'], default: 'compare', describe: 'what to trace' }),
    { compare: true },
  )
    .example('$0 trace compare --file med -k 2', 'both modes traced and untraced, with the workers/procs wait ratios')
    .example('$0 trace workers --mount-tracefs --json', 'mount tracefs first if needed; JSON with the trace figures');
export const handler = (argv) => measureCommand({ ...argv, trace: true }, argv.mode, argv.context);
