import { linearRegression, median } from 'simple-statistics';
import { ratioStats, sideOf } from './ratio.js';

/**
 * @typedef {object} ScalingStep  one k of one mode
 * @property {number} k
 * @property {number} throughput  median ops/s over the point's complete rounds
 * @property {[number, number] | null} ci95  of the throughput: the log-scale t interval compare
 *   uses for its ratio; null with fewer than 3 rounds
 * @property {number} efficiency  throughput(k) / ((k / k0) × throughput(k0)), k0 the smallest
 *   k measured: 1 is perfect scaling, 1/k none at all (from k0 = 1)
 *
 * @typedef {object} ModeScaling
 * @property {ScalingStep[]} steps  by k, ascending
 * @property {{ after: number, at: number } | null} stopsGaining  the first k whose throughput
 *   interval overlaps the previous k's or lies below it: adding workers past `after` bought
 *   nothing this run could tell apart
 * @property {boolean} decided  every step has an interval (else stopsGaining cannot be read)
 * @property {TreeMemory | null} [memory]  the tree's anonymous memory against k, where the cells
 *   read it
 * @property {Recommended | null} recommended  the K to run (recommendK)
 *
 * @typedef {object} Recommended  the K to run in one mode, the rule and what it read
 * @property {number} k  the largest measured k up to which every added worker still added at
 *   least `share` of one worker's throughput, within `cpus`
 * @property {number} share  the least part of one worker's throughput (k0's per worker) an added
 *   worker must add
 * @property {number | null} cpus  the CPUs this process may use (system/cpus.js): no k above
 *   is recommended, whatever it measured
 * @property {Array<{ k: number, added: number }>} added  per step, what each added worker added,
 *   as a part of one worker's throughput (medians)
 * @property {'share'|'cpus'|'measured'} limit  what stopped it: a step that added less than
 *   `share`, the CPUs, or the largest k measured
 *
 * @typedef {object} TreeMemory
 * @property {Array<{ k: number, treeMiB: number }>} steps  by k: the median over the point's
 *   cells of the tree's anonymous memory at the end of its windows (parent and workers)
 * @property {number} perWorkerMiB  the least-squares slope of every cell's tree memory against
 *   its k: what one more worker adds, with whatever the parent holds taken out by the intercept
 * @property {number} interceptMiB  the same line at k = 0
 * @property {number} cells  how many cells the line was fitted to
 *
 * @typedef {object} Scaling  what a k axis shows for one setting of the other axes
 * @property {number} k0
 * @property {ModeScaling} workers
 * @property {ModeScaling} procs
 * @property {{ k: number, side: 'below'|'above' } | null} ratioLeaves1  the first k at which the
 *   ratio's interval lies wholly on one side of 1
 */

/**
 * The scaling reading of one group of points that differ only in k.
 * @typedef {{ throughput: number, memory?: { anonBytes?: number | null, timedOps?: true } }} ScalingCell
 * @param {Array<{ k: number, rounds: Array<{ workers: ScalingCell, procs: ScalingCell }>, ratio: { ci95: [number, number] | null, n: number } | null }>} group
 *   each point's complete rounds, and its ratio
 * @param {{ cpus?: number }} [limits]  the CPUs this process may use
 * @returns {Scaling}
 */
export function scaling(group, { cpus = Infinity } = {}) {
  const points = [...group].filter((point) => point.rounds.length).sort((a, b) => a.k - b.k);
  const k0 = points[0]?.k;
  const mode = (/** @type {'workers'|'procs'} */ name) => {
    /** @type {Array<{ k: number, throughput: number, ci95: [number, number] | null, efficiency: number }>} */
    const steps = points.map(({ k, rounds }) => {
      const samples = rounds.map((round) => round[name].throughput);
      const ci95 = samples.length >= 3 ? ratioStats(samples).ci95 : null;
      return { k, throughput: median(samples), ci95, efficiency: 0 };
    });
    const base = steps[0];
    for (const step of steps) step.efficiency = step.throughput / ((step.k / base.k) * base.throughput);
    const intervals = steps.map((step) => step.ci95);
    const decided = intervals.every((ci95) => ci95 !== null);
    /** @type {{ after: number, at: number } | null} */
    let stopsGaining = null;
    if (decided) {
      for (let i = 1; i < steps.length && !stopsGaining; i++) {
        // gaining: this k's interval lies wholly above the previous k's
        if (!(intervals[i][0] > intervals[i - 1][1])) stopsGaining = { after: steps[i - 1].k, at: steps[i].k };
      }
    }
    return { steps, stopsGaining, decided, memory: treeMemory(points, name), recommended: recommendK(steps, cpus) };
  };
  let ratioLeaves1 = null;
  for (const point of points) {
    const side = point.ratio && point.ratio.n >= 3 ? sideOf(point.ratio.ci95, 1) : null;
    if (side === 'below' || side === 'above') {
      ratioLeaves1 = { k: point.k, side };
      break;
    }
  }
  return { k0, workers: mode('workers'), procs: mode('procs'), ratioLeaves1 };
}

const MiB = 2 ** 20;

/**
 * An added worker must still add half of what one worker does: past that, each costs a whole
 * worker's memory, start-up and share of the CPUs (and, as a thread, one more contender for the
 * process's mmap_lock) for less than half a worker's throughput.
 */
export const ADDED_SHARE = 0.5;

/**
 * The K to run: walking k up from the smallest measured, the largest k up to which every step
 * added at least ADDED_SHARE of one worker's throughput per added worker, and at most `cpus`.
 * @param {Array<{ k: number, throughput: number }>} steps  by k, ascending
 * @param {number} cpus
 * @returns {Recommended | null}  null without a step
 */
export function recommendK(steps, cpus, share = ADDED_SHARE) {
  const within = steps.filter((step) => step.k <= cpus);
  if (!steps.length) return null;
  const [base] = steps;
  const one = base.throughput / base.k;
  const added = steps.slice(1).map((step, i) => ({
    k: step.k,
    added: (step.throughput - steps[i].throughput) / (step.k - steps[i].k) / one,
  }));
  // no k measured within the CPUs: the smallest measured is the least one can run
  let k = within.length ? within[0].k : base.k;
  /** @type {Recommended['limit']} */
  let limit = within.length === steps.length ? 'measured' : 'cpus';
  for (const step of added) {
    if (step.k > cpus) break;
    if (step.added < share) {
      limit = 'share';
      break;
    }
    k = step.k;
  }
  return { k, share, cpus: Number.isFinite(cpus) ? cpus : null, added, limit };
}

/**
 * A mode's tree memory against k, and the slope that is the cost of one more worker.
 * @param {Array<{ k: number, rounds: Array<{ workers: ScalingCell, procs: ScalingCell }> }>} points  by k
 * @param {'workers'|'procs'} name
 * @returns {TreeMemory | null}  null where fewer than two k's have a reading
 */
function treeMemory(points, name) {
  const steps = points.flatMap(({ k, rounds }) => {
    const read = rounds.flatMap((round) => {
      const memory = round[name].memory;
      // a round whose workers timed ops holds more than a plain script's (measures.js, addedMemory)
      const bytes = memory?.timedOps ? null : memory?.anonBytes;
      return typeof bytes === 'number' ? [bytes / MiB] : [];
    });
    return read.length ? [{ k, read }] : [];
  });
  if (steps.length < 2) return null;
  const pairs = steps.flatMap(({ k, read }) => read.map((mib) => [k, mib]));
  const { m, b } = linearRegression(pairs);
  return {
    steps: steps.map(({ k, read }) => ({ k, treeMiB: median(read) })),
    perWorkerMiB: m,
    interceptMiB: b,
    cells: pairs.length,
  };
}
