import { Argument, Option } from 'commander';
import { usageError } from '../errors.js';
import { examples, measurementOptions, measureOptions, output } from './options.js';
import { kebab, positiveInteger, positiveNumber } from '../words/vocabulary.js';

const MODES = ['workers', 'procs', 'compare'];
// what an audit of another process takes; everything else is about mmapbench's own cells
const AUDIT_OPTIONS = [
  'pid',
  'seconds',
  'stacks',
  'bpftrace',
  'mountTracefs',
  'json',
  'markdown',
  'out',
  'save',
  'verbose',
];

export const command = 'trace';
export const describe =
  'Run workers, procs or compare under bpftrace: mmap_lock wait per acquisition, by system call, as a histogram; or audit any process (--pid, -- COMMAND)';
export const builder = (cmd) =>
  measurementOptions(
    cmd
      .addArgument(
        new Argument(
          '[mode...]',
          'what to trace: workers, procs or compare (default); or, after --, a command to run under the trace',
        ),
      )
      .addOption(
        new Option(
          '--pid <pid>',
          'audit a running process (all its threads) and everything it starts, instead of cells',
        ).argParser(positiveInteger('--pid')),
      )
      .addOption(
        new Option(
          '--stacks',
          'with --pid or --: the user stacks of the write acquisitions too, resolved while the target runs (best effort)',
        ),
      )
      .addOption(
        new Option(
          '--seconds <n>',
          'with --pid or --: stop after this long (default: when the target exits, or Ctrl-C)',
        ).argParser(positiveNumber('--seconds')),
      ),
    { compare: true },
  ).addHelpText(
    'after',
    examples([
      ['mmapbench trace compare --file med -k 2', 'both modes traced and untraced, with the workers/procs wait ratios'],
      ['mmapbench trace workers --mount-tracefs --json', 'mount tracefs first if needed; JSON with the trace figures'],
      ['mmapbench trace --pid 4242 --seconds 30', 'which process and system call of a running app take its mmap_lock'],
      [
        'mmapbench trace -- node app.js --port 8080',
        'run a command under the trace until it exits (its output goes to stderr)',
      ],
    ]),
  );
export async function handler(opts, context) {
  const dashdash = opts.rawArgs?.indexOf('--') ?? -1;
  const positionals = opts.positionals[0] ?? [];
  if (opts.pid !== undefined || dashdash >= 0) {
    const extra = Object.keys(opts).filter(
      (name) => opts[name] !== undefined && !['positionals', 'rawArgs', ...AUDIT_OPTIONS].includes(name),
    );
    // the command after -- is every positional; a mode before it is not an audit's
    const command = dashdash >= 0 ? opts.rawArgs.slice(dashdash + 1) : undefined;
    const modes = positionals.slice(0, positionals.length - (command?.length ?? 0));
    if (modes.length) throw usageError(`an audit traces its target, not mmapbench's cells: drop ${modes.join(' ')}`);
    if (extra.length)
      throw usageError(
        `${extra[0] === 'k' ? '-k' : `--${kebab(extra[0])}`} is for tracing mmapbench's own cells, not an audit; drop it`,
      );
    const { auditCommand } = await import('./audit-run.js');
    return auditCommand(
      {
        pid: opts.pid,
        command,
        seconds: opts.seconds,
        stacks: Boolean(opts.stacks),
        bpftrace: opts.bpftrace,
        mountTracefs: opts.mountTracefs,
      },
      output(opts, 'trace'),
      context,
    );
  }
  if (opts.stacks) throw usageError('--stacks is for --pid or -- COMMAND: a traced compare has no stacks');
  if (opts.seconds !== undefined)
    throw usageError('--seconds is for --pid or -- COMMAND; a traced compare stops on its rounds');
  if (positionals.length > 1)
    throw usageError(`one mode at a time: ${positionals.join(' ')}; or put -- before a command to audit it`);
  const mode = positionals[0] ?? 'compare';
  if (!MODES.includes(mode))
    throw usageError(
      `trace ${mode}: the modes are ${MODES.join(', ')}; to audit a command, put -- before it: \`mmapbench trace -- ${mode} …\``,
    );
  const { measureCommand } = await import('./measure.js');
  return measureCommand(measureOptions(opts, mode, { trace: true }), output(opts, 'trace'), context);
}
