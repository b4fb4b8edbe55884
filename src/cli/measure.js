import { buildPlan } from '../run/plan.js';
import { runSession } from '../run/session.js';
import { describeEnvironment } from '../system/environment.js';
import { buildResults } from '../report/results.js';
import { compareModel, singleModel } from '../report/model.js';
import { traceModel } from '../report/trace-model.js';
import { renderMarkdown, renderTerminal, useColor } from '../report/table.js';
import { startProgress } from '../report/progress.js';
import { preflight } from '../system/trace/preflight.js';

const STARTUP_SECONDS = 0.3; // a fresh node process tree, roughly, for the progress estimate
const TRACE_ATTACH_SECONDS = 1; // bpftrace compiling and attaching mmap-lock.bt, here

/**
 * The handler behind workers, procs and compare: plan, run, then print whatever was measured
 * before passing on an error, so a failure in round 4 never costs rounds 1-3.
 */
export async function measureCommand(argv, command, { interrupt, stdout = process.stdout, stderr = process.stderr } = {}) {
  const modes = command === 'compare' ? ['workers', 'procs'] : [command];
  const plan = await buildPlan(argv, command);
  if (argv.trace) {
    plan.trace = { ...(await preflight({ bpftrace: argv.bpftrace, mountTracefs: argv.mountTracefs, interrupt })), window: argv.traceWindow ?? 'timed' };
    if (plan.trace.mounted) stderr.write(`mmapbench: mounted tracefs at ${plan.trace.tracefs} (it stays mounted)\n`);
  }
  for (const warning of plan.warnings) stderr.write(`mmapbench: warning: ${warning}\n`);

  const cells = plan.rounds * modes.length * (plan.trace ? 2 : 1);
  const attach = plan.trace ? (cells / 2) * TRACE_ATTACH_SECONDS : 0;
  const progress = startProgress({ cells, expectedSeconds: cells * ((plan.duration ?? 0) + STARTUP_SECONDS) + attach, stream: stderr });
  let session;
  try {
    session = await runSession(plan, modes, { interrupt, onCell: (round, mode) => progress.tick({ label: `round ${round.index} ${mode}` }) });
  } finally {
    progress.stop();
  }

  const results = buildResults(plan, session, modes, describeEnvironment(plan));
  stdout.write(render(results, argv, stdout));
  if (session.error) throw session.error;
  return results;
}

export function render(results, argv, stdout = process.stdout) {
  if (argv.json) return `${JSON.stringify(results, null, 2)}\n`;
  const models = [results.command === 'compare' ? compareModel(results) : singleModel(results)];
  if (results.trace) models.push(traceModel(results));
  return models.map((model) => (argv.markdown ? renderMarkdown(model) : renderTerminal(model, { color: useColor(stdout) }))).join('\n');
}
