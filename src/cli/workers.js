import { examples, measurementOptions, measureOptions, output } from './options.js';

export const command = 'workers';
export const describe = "Run K Worker threads in one fresh process, released together; print each worker's throughput";
export const builder = (cmd) =>
  measurementOptions(cmd, { compare: false }).addHelpText(
    'after',
    examples([
      ['mmapbench workers -k 2 --file 1m', 'two threads reading a 1 MiB file'],
      ['mmapbench workers --task ./my-task.mjs --json', 'your own task, as JSON'],
    ]),
  );
export async function handler(opts, context) {
  const { measureCommand } = await import('./measure.js');
  return measureCommand(measureOptions(opts, 'workers'), output(opts, 'workers'), context);
}
