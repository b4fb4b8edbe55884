import { plainTreesIn } from './plain-tree.js';
import { armSteps, newSession, runRounds, stopOnWidthOrTime } from './scheduler.js';

/**
 * The rounds of workers, procs and compare: one point, its arms in alternating order (A B, B A,
 * ...) so drift on a noisy machine hits both. With plan.trace, each arm also runs once under
 * bpftrace per round, before or after its untraced cell by turns, so the observer effect shows.
 * A failure or Ctrl-C keeps every finished cell: the caller reports them and then the error.
 * With plan.fault, one fault round per mode follows the measured rounds (fault-cell.js).
 * @param {import('./plan.js').Plan} plan
 * @param {Array<'workers'|'procs'>} modes
 * @param {object} [hooks]
 * @param {AbortSignal} [hooks.interrupt]
 * @param {(round: import('./scheduler.js').Round, mode: 'workers'|'procs') => void} [hooks.onCell]
 * @param {(session: import('./scheduler.js').Session) => void} [hooks.onRound]  after every round,
 *   the session so far (its seconds the run's until now)
 * @param {import('./scheduler.js').Session} [hooks.resumed]  a kept run's session, to go on from
 * @param {(mode: 'workers'|'procs', outcome: import('./fault-cell.js').FaultOutcome | { error: string }) => void} [hooks.onFault]
 *   after each fault round (plan.fault), which runs after the measured rounds
 * @returns {Promise<import('./scheduler.js').Session>}
 */
export async function runSession(plan, modes, { interrupt, onCell, onRound, onFault, resumed } = {}) {
  const point = {
    id: 'p1',
    plan,
    arms: modes,
    // a plain tree of each mode's work beside its cells, every other round (plain-tree.js)
    steps: armSteps(plan, modes, { plain: plainTreesIn(plan, modes) }),
    tracer: plan.trace ? tracerFor(plan.trace) : undefined,
    pilot: true,
    // compare's one point may lengthen its window from its noise; advise's candidates, which
    // race round by round, and sweep's points keep theirs
    schedule: true,
    session: resumed ? { ...resumed, stop: null, error: null } : newSession(plan),
  };
  const budget = plan.stop.rounds !== null ? Infinity : plan.stop.maxSeconds;
  const run = await runRounds([point], {
    stop: stopOnWidthOrTime(budget),
    budget,
    interrupt,
    onCell: (_, round, step) => onCell?.(round, step.arm),
    onRound: (_, __, seconds) => onRound?.({ ...point.session, seconds }),
    resumed: resumed ? { seconds: resumed.seconds, rounds: [] } : undefined,
  });
  // a single point's time is the run's, the checks between its rounds included
  const session = { ...point.session, seconds: run.seconds };
  if (!plan.fault || session.error || session.stop === 'interrupted') return session;
  // the fault rounds, after every measured one (fault-cell.js)
  const from = process.hrtime.bigint();
  const { runFaults } = await import('./fault-cell.js');
  // an A/A run's arms are one mode: its fault round is that mode's
  // none starts once --max-time is spent, as no round does (the budget counts them)
  const spent = () => session.seconds + Number(process.hrtime.bigint() - from) / 1e9 > budget;
  const { fault, error } = await runFaults(plan, plan.aa ? [plan.aa] : modes, session, { interrupt, onFault, spent });
  const seconds = session.seconds + Number(process.hrtime.bigint() - from) / 1e9;
  return {
    ...session,
    fault,
    seconds,
    ...(error ? { error, stop: interrupt?.aborted ? 'interrupted' : 'failed' } : {}),
  };
}

// Every cell is a child of this process; the script follows descendants of the pid it is given.
/**
 * How a traced cell is traced: the one way a tracer is built, for compare's cells and
 * reproduce's traced variants alike.
 * @param {{ bpftrace: string, window: 'timed'|'cell' }} trace
 * @returns {import('./cell.js').Tracer}
 */
export const tracerFor = (trace) => ({
  window: trace.window,
  // bpftrace's runner loads with the first traced cell
  start: async () => (await import('../trace/tracer.js')).startTrace({ bpftrace: trace.bpftrace, root: process.pid }),
});
