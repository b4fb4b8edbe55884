import { usageError } from '../errors.js';
import { SPECS_OF } from '../core/command-options.js';
import { declare, flagName, readOptions, tagged } from '../core/option-spec.js';
import { measureOptions, output } from '../core/typed-options.js';

// what `trace` measures: one mode's cells, or compare's
const TRACED = ['workers', 'procs', 'compare'];
const SPECS = SPECS_OF.trace();
// what an audit of another process takes (tagged `audit`); everything else is about mmapbench's
// own cells
const AUDIT = tagged(SPECS, 'audit');

export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, SPECS).positional('mode', {
    describe: 'what to trace: workers, procs or compare (default); or, after --, a command to run under the trace',
    type: 'string',
  });
export const examples = [
  ['mmapbench trace compare --file med -k 2', 'both modes traced and untraced, with the workers/procs wait ratios'],
  ['mmapbench trace workers --mount-tracefs --json', 'mount tracefs first if needed; JSON with the trace figures'],
  ['mmapbench trace --pid 4242 --seconds 30', 'which process and system call of a running app take its mmap_lock'],
  [
    'mmapbench trace -- node app.js --port 8080',
    'run a command under the trace until it exits (its output goes to stderr)',
  ],
];
/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export async function handler(argv, context = {}) {
  const opts = readOptions(argv, SPECS, 'trace');
  const modes = [argv.mode ?? []].flat();
  // the command after --, if there was one (yargs keeps it apart from the modes)
  const command = context.args?.includes('--') ? (argv['--'] ?? []).map(String) : undefined;
  if (opts.pid !== undefined || command) {
    const extra = Object.keys(opts).filter((name) => !AUDIT.includes(name));
    if (modes.length) throw usageError(`an audit traces its target, not mmapbench's cells: drop ${modes.join(' ')}`);
    if (extra.length)
      throw usageError(`${flagName(extra[0])} is for tracing mmapbench's own cells, not an audit; drop it`);
    const { auditCommand } = await import('../commands/trace/audit-run.js');
    return auditCommand(
      {
        pid: opts.pid,
        command,
        seconds: opts.seconds,
        stacks: Boolean(opts.stacks),
        bpftrace: opts.bpftrace,
        mountTracefs: opts.mountTracefs,
      },
      output(opts, 'trace', { summary: process.env.GITHUB_STEP_SUMMARY }),
      context,
    );
  }
  if (opts.stacks) throw usageError('--stacks is for --pid or -- COMMAND: a traced compare has no stacks');
  if (opts.seconds !== undefined)
    throw usageError('--seconds is for --pid or -- COMMAND; a traced compare stops on its rounds');
  if (modes.length > 1)
    throw usageError(`one mode at a time: ${modes.join(' ')}; or put -- before a command to audit it`);
  const mode = modes[0] ?? 'compare';
  if (!TRACED.includes(mode))
    throw usageError(
      `trace ${mode}: the modes are ${TRACED.join(', ')}; to audit a command, put -- before it: \`mmapbench trace -- ${mode} …\``,
    );
  const out = output(opts, 'trace', { summary: process.env.GITHUB_STEP_SUMMARY });
  const [{ measureCommand }, { runPrinted }] = await Promise.all([
    import('../commands/compare/run.js'),
    import('./finish.js'),
  ]);
  return runPrinted((core) => measureCommand(measureOptions(opts, mode, { trace: true }), out, core), out, context);
}
