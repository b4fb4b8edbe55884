import { Argument } from 'commander';
import { examples, measurementOptions, measureOptions, output } from './options.js';

export const command = 'trace';
export const describe =
  'Run workers, procs or compare under bpftrace: mmap_lock wait per acquisition, in total, as a histogram';
export const builder = (cmd) =>
  measurementOptions(
    cmd.addArgument(
      new Argument('[mode]', 'what to trace').choices(['workers', 'procs', 'compare']).default('compare'),
    ),
    { compare: true },
  ).addHelpText(
    'after',
    examples([
      ['mmapbench trace compare --file med -k 2', 'both modes traced and untraced, with the workers/procs wait ratios'],
      ['mmapbench trace workers --mount-tracefs --json', 'mount tracefs first if needed; JSON with the trace figures'],
    ]),
  );
export async function handler(opts, context) {
  const { measureCommand } = await import('./measure.js');
  const [mode] = opts.positionals;
  return measureCommand(measureOptions(opts, mode, { trace: true }), output(opts, 'trace'), context);
}
