// How long a run will take, before it runs: for the progress bar, sweep's and reproduce's
// opening lines and `reproduce --list`, never a result. One set of costs for every command,
// measured on this project's 2-CPU VM (docs/how-it-measures.md, "What a round costs").
import os from 'node:os';

export const COSTS = {
  // a cell beyond its timed window: a fresh process tree, its start, warmup, report and exit
  // (default compare here: cells of 370-520 ms around windows of about 0.1 s)
  cell: 0.35,
  // one calibration process, timing single ops for about half a second
  calibration: 0.6,
  // bpftrace for a traced cell: compiling and attaching mmap-lock.bt (0.46-0.55 s here), then
  // from SIGINT to its maps printed and its exit (0.50-0.51 s)
  traceAttach: 1,
};

/**
 * Seconds a cell takes: its timed window, longer when it has more workers than CPUs (they take
 * turns), and what it costs beyond that.
 * @param {number} window  seconds of timed window per worker (0 for --quick's few ops)
 * @param {number} [k]
 */
export const cellSeconds = (window, k = 1) => window * Math.max(1, k / os.availableParallelism()) + COSTS.cell;
