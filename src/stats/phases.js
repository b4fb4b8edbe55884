// Where a cell's wall time went, phase by phase, from the moments its processes and threads
// reached each one (process.hrtime, CLOCK_MONOTONIC: one clock for the CLI and every child).
// A cell moves on when its slowest member does, so each phase ends when the last process or
// thread got through it: the phases add up to the cell's time from the first spawn to the last
// exit. The timed window is the one phase that is measurement; the rest is what a round costs
// beyond it.
import { mean } from 'simple-statistics';

/**
 * @typedef {object} Phases  ns per phase of one cell, in the order they happen
 * @property {number} spawnNs    the CLI starting the cell's parent, until its Node began
 * @property {number} nodeNs     the parent's Node start (bootstrap)
 * @property {number} loadNs     the parent's modules
 * @property {number} threadsNs  the parent adding its K workers: starting K threads, or forking K
 *   children (their Node start included), and loading the harness in each
 * @property {number} setupNs    loading the task and running its setup
 * @property {number} warmupNs   the warmup
 * @property {number} barrierNs  from the last worker ready to the first timed op: the ready
 *   messages, the release and its lead
 * @property {number} windowNs   the timed windows, first start to last end
 * @property {number} reportNs   the account, the task's teardown and the results reaching the CLI
 * @property {number} exitNs     until every process of the cell had exited
 * @property {number} totalNs    the sum: the cell from first spawn to last exit
 * @property {number} [betweenNs] the CLI's own work before the cell (summaries, progress,
 *   saving, the stop rule), set by the scheduler
 * @property {number} [spareNs]  procs mode: how long before the release moment the last process
 *   had its release message (below 0: it came late, and that process started late)
 * @property {number} [startUpNs]  from the host's first request for a worker (new Worker, fork)
 *   to the last worker set up: what adding K workers to a running app waits for. Not a phase:
 *   it spans `threads` and `setup`, from a moment inside `load`'s end
 */

export const PHASES = /** @type {const} */ ([
  'spawn',
  'node',
  'load',
  'threads',
  'setup',
  'warmup',
  'barrier',
  'window',
  'report',
  'exit',
]);

/**
 * @param {object} moments  process.hrtime.bigint() values, or their text
 * @param {bigint} moments.spawned  the CLI, just before starting the first process
 * @param {Array<import('./samples.js').HostTimeline & { requested?: string }>} moments.hosts
 *   one per process the CLI started, with when it asked for its first worker
 * @param {Array<import('./samples.js').HostTimeline>} [moments.released]  procs mode: each
 *   child's, with when its release came
 * @param {Array<{ start: string | bigint, end: string | bigint,
 *   timeline?: import('./samples.js').ThreadTimeline }>} moments.samples  one per worker
 * @param {bigint[]} moments.received  when the CLI had each process's result
 * @param {bigint} moments.exited  when every process had exited
 * @returns {Phases | null}  null when a host did not say
 */
export function cellPhases({ spawned, hosts, released: children = [], samples, received, exited }) {
  const timelines = samples.map((sample) => sample.timeline);
  if (!hosts.length || !samples.length || timelines.some((timeline) => !timeline)) return null;
  const threads = /** @type {import('./samples.js').ThreadTimeline[]} */ (timelines);
  const last = (/** @type {Array<string | bigint>} */ values) => values.map(BigInt).reduce((a, b) => (b > a ? b : a));
  const first = (/** @type {Array<string | bigint>} */ values) => values.map(BigInt).reduce((a, b) => (b < a ? b : a));
  // each milestone no earlier than the one before: a phase that overlapped is 0, not negative
  const moments = [spawned];
  for (const at of [
    last(hosts.map((host) => host.started)),
    last(hosts.map((host) => host.booted)),
    last(hosts.map((host) => host.loaded)),
    last(threads.map((thread) => thread.loaded)),
    last(threads.map((thread) => thread.setUp)),
    last(threads.map((thread) => thread.warm)),
    first(samples.map((sample) => sample.start)),
    last(samples.map((sample) => sample.end)),
    last(received),
    exited,
  ]) {
    const previous = /** @type {bigint} */ (moments.at(-1));
    moments.push(at > previous ? at : previous);
  }
  /** @type {Record<string, number>} */
  const phases = {};
  PHASES.forEach((name, i) => (phases[`${name}Ns`] = Number(moments[i + 1] - moments[i])));
  phases.totalNs = Number(/** @type {bigint} */ (moments.at(-1)) - spawned);
  const released = children.filter((host) => host.go !== undefined && host.at !== undefined);
  if (released.length && released.length === children.length)
    phases.spareNs = Number(
      first(released.map((host) => BigInt(/** @type {string} */ (host.at)) - BigInt(/** @type {string} */ (host.go)))),
    );
  const requested = hosts.flatMap((host) => (host.requested === undefined ? [] : [host.requested]));
  if (requested.length === hosts.length) {
    const setUp = last(threads.map((thread) => thread.setUp));
    phases.startUpNs = Number(setUp - first(requested));
  }
  return /** @type {Phases} */ (phases);
}

/**
 * The phases over a run's rounds: per mode, the mean of each phase over its cells; and what a
 * round cost (all its cells, traced ones too, and the CLI's work between them) next to its timed
 * windows (the untraced cells': the ones the ratio is taken from). Means, not medians: they are
 * shares of the run's time, and add up as the phases do.
 * @param {import('./cell-summary.js').RoundCells[]} rounds  complete rounds
 * @param {Array<'workers'|'procs'>} modes
 * @returns {PhasesSummary | null}  null when no cell carried its phases
 *
 * @typedef {object} PhasesSummary
 * @property {number} rounds  how many rounds the means are over
 * @property {Record<string, Record<string, number>>} modes  per mode, per phase (`spawnNs` …
 *   `exitNs`, `betweenNs`, `totalNs`), the mean over its cells
 * @property {number} roundNs    a round's wall time
 * @property {number} windowsNs  a round's timed windows, summed over its untraced cells
 * @property {number} overheadNs the rest: roundNs − windowsNs
 */
export function phasesSummary(rounds, modes) {
  const measured = rounds.filter((round) => modes.every((mode) => round.cells[mode]?.phases));
  if (!measured.length) return null;
  const cellsOf = (/** @type {import('./cell-summary.js').RoundCells} */ round) =>
    [...Object.values(round.cells), ...Object.values(round.traced ?? {})].flatMap((cell) =>
      cell?.phases ? [cell.phases] : [],
    );
  const roundNs = measured.map((round) =>
    cellsOf(round).reduce((sum, phases) => sum + phases.totalNs + (phases.betweenNs ?? 0), 0),
  );
  const windowsNs = measured.map((round) =>
    modes.reduce((sum, mode) => sum + (round.cells[mode]?.phases?.windowNs ?? 0), 0),
  );
  const keys = [...PHASES.map((name) => `${name}Ns`), 'betweenNs', 'totalNs'];
  return {
    rounds: measured.length,
    modes: Object.fromEntries(
      modes.map((mode) => {
        const cells = measured.map((round) => /** @type {Record<string, number>} */ (round.cells[mode]?.phases));
        return [mode, Object.fromEntries(keys.map((key) => [key, mean(cells.map((phases) => phases[key] ?? 0))]))];
      }),
    ),
    roundNs: mean(roundNs),
    windowsNs: mean(windowsNs),
    overheadNs: mean(roundNs) - mean(windowsNs),
  };
}
