// How long a run will take, before it runs: for the progress bar, sweep's and reproduce's
// opening lines and `reproduce --list`, never a result. One set of costs and one arithmetic for
// every command (compare, sweep, advise, reproduce); the costs were measured on this project's
// 2-CPU VM (docs/how-it-measures.md, "Figures behind the defaults").
import os from 'node:os';

export const COSTS = {
  // a cell beyond its timed window: a fresh process tree, its start, warmup, report and exit
  cell: 0.35,
  // one calibration process, timing single ops for about half a second
  calibration: 0.6,
  // bpftrace for a traced cell: compiling and attaching mmap-lock.bt, then from SIGINT to its
  // maps printed and its exit
  traceAttach: 1,
};

/**
 * Seconds a cell takes: its timed window, longer when it has more workers than CPUs (they take
 * turns), and what it costs beyond that.
 * @param {number} window  seconds of timed window per worker (0 for --quick's few ops)
 * @param {number} [k]
 */
export const cellSeconds = (window, k = 1) => window * Math.max(1, k / os.availableParallelism()) + COSTS.cell;

/**
 * The timed window a plan's cells will have: its --duration, or for fixed --iterations (whose
 * window nobody knows yet) a second, and nothing for --quick's few ops.
 * @param {{ duration: number | null, quick: boolean }} plan
 */
export const windowOf = (plan) => plan.duration ?? (plan.quick ? 0 : 1);

/**
 * One setting a run measures in rounds, as the estimate counts it.
 * @typedef {object} Counted
 * @property {number} window  seconds of timed window per cell (windowOf)
 * @property {number} k
 * @property {number} cells  cells in each round (its modes)
 * @property {number} [traced]  of those, how many bpftrace attaches to
 * @property {number} [plain]  plain trees a round, on average (run/plain-tree.js): each a window
 *   and a tree's start, counted in the seconds, not the cells
 * @property {boolean} [calibrates]  whether it calibrates its ops before its first round
 * @property {number} [cycles]  times each cell starts, runs and ends its workers (--cycles): a
 *   later cycle starts, warms and runs K workers again, about what a whole cell costs
 */

/**
 * The rounds a run will have and the seconds they will take: a fixed count of rounds, or as
 * many as fit its budget (never fewer than its minimum), after the calibrations.
 * @param {Counted[]} settings
 * @param {{ rounds: number | null, budget?: number, minRounds?: number }} bound  rounds: fixed
 *   rounds still to run; budget: seconds left of an adaptive run's
 * @returns {{ rounds: number, cells: number, seconds: number }}
 */
export function estimateRun(settings, { rounds, budget = Infinity, minRounds = 1 }) {
  const perRound = settings.reduce(
    (sum, { window, k, cells, traced = 0, cycles = 1, plain = 0 }) =>
      sum + cells * cycles * cellSeconds(window, k) + traced * COSTS.traceAttach + plain * cellSeconds(window, k),
    0,
  );
  const calibration = settings.filter((setting) => setting.calibrates).length * COSTS.calibration;
  const counted =
    rounds ?? (perRound > 0 ? Math.max(minRounds, Math.floor((budget - calibration) / perRound)) : minRounds);
  return {
    rounds: counted,
    cells: counted * settings.reduce((sum, { cells }) => sum + cells, 0),
    seconds: calibration + counted * perRound,
  };
}
