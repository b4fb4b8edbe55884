import { duration, fixed, ops } from './table.js';

const MODES = ['workers', 'procs'];

function header(results) {
  const { config, environment, status } = results;
  const work = config.iterations ? `${ops(config.iterations)} iterations per worker` : 'no iterations chosen';
  const done = results.rounds.filter((round) => round.complete).length;
  const state = status === 'complete' ? '' : ` — ${status.toUpperCase()} after ${done} of ${config.rounds} round${config.rounds === 1 ? '' : 's'}`;
  const title = `mmapbench ${results.command}: task ${config.task.name}, file ${config.file.label}, k=${config.k}, ${config.rounds} round${config.rounds === 1 ? '' : 's'} × ${work}${config.smoke ? ' (smoke: not a measurement)' : ''}${state}`;
  const env = Object.entries(config.env).map(([key, value]) => `${key}=${value}`).join(' ');
  const lines = [
    `node ${environment.node.version} · ${environment.kernel} · glibc ${environment.glibc ?? 'n/a'} · ${environment.cpu.logicalCores} CPUs · THP ${environment.thp ?? 'n/a'} · libuv threadpool ${environment.uvThreadpoolSize ?? 4}${env ? ` · ${env}` : ''}`,
  ];
  const { calibration } = results;
  if (calibration) {
    lines.push(`calibrated in one thread: one op p50 ${duration(calibration.p50Ns)}, p99 ${duration(calibration.p99Ns)} -> ${ops(calibration.iterations)} iterations per worker for ~${config.duration} s`);
  }
  return { title, lines };
}

const UNIT = {
  'ops/s': (v) => `${ops(v)} ops/s`,
  count: (v) => ops(v),
  ms: (v) => `${fixed(v)} ms`,
  ratio: (v) => fixed(v),
};

/** The task's own figures (medians over complete rounds), when it reports any. */
function metricsTable(results, modes) {
  const declared = results.config.task.metrics ?? {};
  const names = Object.keys(declared);
  if (!names.length || !modes.every((mode) => results[mode])) return [];
  const rows = names.map((name) => {
    const format = UNIT[declared[name].unit] ?? fixed;
    const medians = modes.map((mode) => results[mode].metrics?.[name]?.median ?? null);
    const row = [`${name}: ${declared[name].description}`, ...medians.map((v) => (v === null ? '-' : format(v)))];
    if (modes.length === 2) row.push(medians[0] !== null && medians[1] ? fixed(medians[0] / medians[1]) : '-');
    return row;
  });
  const head = ['task metric (median over rounds)', ...modes, ...(modes.length === 2 ? ['workers/procs'] : [])];
  return [{ head, rows, align: ['left', ...head.slice(1).map(() => 'right')] }];
}

const spread = (cell) => (cell ? fixed(cell.spread) : '-');
const rate = (cell) => (cell ? ops(cell.throughput) : '-');

/** `compare`: one row per round, then the medians, the ratio with its CI and the verdict. */
export function compareModel(results) {
  const rows = results.rounds.map((round) => [
    String(round.index),
    round.order.join(' → '),
    rate(round.workers),
    spread(round.workers),
    rate(round.procs),
    spread(round.procs),
    round.ratio === undefined ? (round.complete ? '-' : 'incomplete') : fixed(round.ratio),
  ]);
  const { ratio } = results;
  if (results.workers && results.procs) {
    rows.push([
      'median',
      '',
      ops(results.workers.throughput.median),
      fixed(results.workers.spread.median),
      ops(results.procs.throughput.median),
      fixed(results.procs.spread.median),
      ratio.ci95 ? `${fixed(ratio.median)} (95% CI ${fixed(ratio.ci95[0])}-${fixed(ratio.ci95[1])})` : fixed(ratio.median),
    ]);
  }
  const notes = [];
  if (results.verdict) notes.push(results.verdict.text);
  const skews = MODES.filter((mode) => results[mode]).map((mode) => `${mode} ${duration(results[mode].releaseSkewNs.max)}`);
  if (skews.length) notes.push(`barrier release skew (max): ${skews.join(', ')}; spread = slowest / fastest worker ops/s`);
  return {
    ...header(results),
    tables: [
      { head: ['round', 'order', 'workers ops/s', 'spread', 'procs ops/s', 'spread', 'workers/procs'], rows, align: ['left', 'left', 'right', 'right', 'right', 'right', 'right'] },
      ...metricsTable(results, MODES),
    ],
    notes,
  };
}

/** `workers` / `procs`: each round's aggregate and every worker in it, so stragglers show. */
export function singleModel(results) {
  const mode = results.command;
  const rows = [];
  for (const round of results.rounds) {
    const cell = round[mode];
    if (!cell) continue;
    for (const worker of cell.workers) {
      rows.push([String(round.index), `${worker.index} (pid ${worker.pid})`, ops(worker.ops), duration(worker.startNs), duration(worker.endNs), ops(worker.opsPerSec)]);
    }
    rows.push([String(round.index), 'all', ops(cell.totalOps), '', duration(cell.elapsedNs), ops(cell.throughput)]);
  }
  const notes = [];
  const summary = results[mode];
  if (summary) {
    const { throughput } = summary;
    const range = throughput.samples.length > 1 ? ` (min ${ops(throughput.min)}, max ${ops(throughput.max)} over ${throughput.samples.length} rounds)` : '';
    notes.push(`${mode}: ${ops(throughput.median)} ops/s${range}; slowest/fastest worker ${fixed(summary.spread.median)}; barrier release skew ${duration(summary.releaseSkewNs.max)}`);
  }
  return {
    ...header(results),
    tables: [{ head: ['round', mode === 'workers' ? 'worker' : 'process', 'ops', 'start', 'end', 'ops/s'], rows }, ...metricsTable(results, [mode])],
    notes,
  };
}
