import { readFileSync } from 'node:fs';
import { ratioStats, summarize, verdict } from '../stats/ratio.js';
import { completeRounds } from '../run/session.js';
import { traceResults } from '../stats/trace.js';
import { MMAP_LOCK_WAITS } from '../reference/published.js';

export const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/**
 * The one results document: what `--json` prints and what the renderers read. Every figure in
 * it was measured in this run.
 * @param {import('../run/plan.js').Plan} plan
 * @param {import('../run/session.js').Session} session
 * @param {Array<'workers'|'procs'>} modes
 */
export function buildResults(plan, session, modes, environment) {
  const complete = completeRounds(session, modes);
  const { error } = session;
  const results = {
    mmapbench: version,
    command: plan.command,
    status: error ? (error.kind === 'interrupted' ? 'interrupted' : 'failed') : 'complete',
    error: error ? { kind: error.kind, message: error.message, worker: error.worker ?? null } : null,
    config: {
      task: { name: plan.task.name, builtin: plan.task.builtin, module: plan.task.builtin ? null : plan.task.url, metrics: plan.task.metrics },
      params: plan.params,
      file: plan.file,
      k: plan.k,
      iterations: plan.iterations,
      duration: plan.duration,
      warmup: plan.warmup,
      rounds: plan.rounds,
      env: plan.envOverrides,
      node: plan.node.path,
      timeout: plan.timeout,
      smoke: plan.smoke,
      trace: Boolean(plan.trace),
    },
    environment,
    calibration: session.calibration,
    rounds: session.rounds.map((round) => ({
      index: round.index,
      order: round.order,
      complete: modes.every((mode) => round.cells[mode]),
      ...Object.fromEntries(modes.map((mode) => [mode, round.cells[mode] ?? null])),
      ...(modes.length === 2 && complete.includes(round) ? { ratio: ratioOf(round) } : {}),
      ...(plan.trace ? { traced: Object.fromEntries(modes.map((mode) => [mode, round.traced?.[mode] ?? null])) } : {}),
    })),
  };
  for (const mode of modes) {
    const cells = complete.map((round) => round.cells[mode]);
    results[mode] = cells.length === 0 ? null : {
      throughput: summarize(cells.map((cell) => cell.throughput)),
      spread: summarize(cells.map((cell) => cell.spread)),
      releaseSkewNs: summarize(cells.map((cell) => cell.releaseSkewNs)),
      ...metricSummaries(cells, plan.task.metrics),
    };
  }
  if (modes.length === 2) {
    results.ratio = complete.length ? ratioStats(complete.map(ratioOf)) : null;
    results.verdict = results.ratio ? verdict(results.ratio) : null;
  }
  if (plan.trace) {
    results.trace = {
      bpftrace: { path: plan.trace.bpftrace, version: plan.trace.version },
      script: 'mmap-lock.bt',
      window: plan.trace.window,
      ...traceResults(session.rounds, modes),
      published: MMAP_LOCK_WAITS,
    };
  }
  return results;
}

/** Each task metric over the cells, as medians and ranges like throughput. */
function metricSummaries(cells, declared) {
  const names = Object.keys(declared ?? {});
  if (!names.length) return {};
  return {
    metrics: Object.fromEntries(names.map((name) => {
      const values = cells.map((cell) => cell.metrics?.[name]).filter((v) => typeof v === 'number');
      return [name, values.length ? summarize(values) : null];
    })),
  };
}

const ratioOf = (round) => round.cells.workers.throughput / round.cells.procs.throughput;
