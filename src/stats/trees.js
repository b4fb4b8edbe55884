// The fresh trees of one mode, as a finding rather than noise: every round runs each mode in a
// fresh process tree, and a fresh tree can land in a state it keeps for its whole window (a
// Worker thread whose arena lands slow runs at about half speed throughout; docs/how-it-measures.md,
// "Why fresh trees differ"). Per mode: each tree's rate, how far the trees differ against how
// far the windows inside one tree do (an F test of the two variances), the states they fall into
// (the two-group rule of stats/groups.js, which the account's groups use too: a mixture of two
// normals on the log rates, kept over one by the BIC and when its components lie apart), a tree
// far from every state, and what goes with the slow state (page faults and system time per op).
// Where every tree counted its page faults, a tree's state is read from them (SLOW_FAULTS).
import jstat from 'jstat';
import { mean, median, medianAbsoluteDeviation, quantile, sampleVariance } from 'simple-statistics';
import { twoGroups, GROUPED } from './groups.js';
import { halves, withinTree } from './noise.js';
import { perOp } from './spread.js';
import { summarize } from './ratio.js';

// the trees differ by more than the windows inside them at this level (one-sided F test)
const DIFFER_ALPHA = 0.01;
// a tree this many robust standard deviations (1.4826 MAD) from its state's median stands alone
const OUTLIER = 5;
// what goes with the slow state, as the account counts it per op
const FIGURES = /** @type {const} */ (['minflt', 'systemNs']);

/**
 * A tree is slow above this many page faults per op of its window: its heap gives a GC batch of
 * freed buffers back to the kernel and faults it in again, batch after batch (docs/how-it-
 * measures.md, "Why fresh trees differ"). A tree that keeps its heap's top faults almost never
 * (0.0-0.6 an op of a 64 KiB read here); one that gives it back, 2-10 (a buffer's 16 pages each
 * time it is trimmed whole). One fault an op, a sixteenth of a 64 KiB buffer, lies between the
 * two; scripts/heap-judge.js reads a plain script's trees by the same rule.
 */
export const SLOW_FAULTS = 1;

/**
 * The 95% Wilson interval of a share: `hits` of `n`.
 * @param {number} hits @param {number} n
 * @returns {[number, number]}
 */
export function wilson(hits, n) {
  if (!n) return [0, 1];
  const z = 1.959964;
  const p = hits / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n)) || 0;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * One plain tree's window (run/plain-tree.js): an app of the task's work without mmapbench.
 * @typedef {object} PlainTree
 * @property {number} ops  every member's timed ops
 * @property {number} minflt  the page faults they took, the members' threads' own
 * @property {number} throughput  ops/s, the members' rates summed
 * @property {number} warmup  ops a member ran before its window
 * @property {number} [addedMiB]  the anonymous memory a member added to the app, held at the
 *   window's end (absent where /proc did not say, and in files from before it was read)
 *
 * @typedef {object} PlainShare  a mode's plain trees (run/plain-tree.js): the state an app without
 *   mmapbench drew, the same minutes as the cells (docs/json.md)
 * @property {number} trees
 * @property {number} slow  above SLOW_FAULTS page faults per op
 * @property {[number, number]} ci95  the slow share's, Wilson's
 * @property {number[]} faultsPerOp  each tree's, in round order
 * @property {import('./ratio.js').Summary} [addedMemory]  memory per added worker over the trees
 *   that read it, MiB: what the answer shows as the mode's (points/points.js, figureOf)
 */

/**
 * A mode's plain trees' slow share, by the rule the cells' states are read by; null without one.
 * @param {PlainTree[]} trees
 * @returns {PlainShare | null}
 */
export function plainShare(trees) {
  const counted = trees.filter((tree) => tree.ops > 0);
  if (!counted.length) return null;
  const faultsPerOp = counted.map((tree) => tree.minflt / tree.ops);
  const slow = faultsPerOp.filter((value) => value > SLOW_FAULTS).length;
  const added = trees.flatMap((tree) => (typeof tree.addedMiB === 'number' ? [tree.addedMiB] : []));
  return {
    trees: counted.length,
    slow,
    ci95: wilson(slow, counted.length),
    faultsPerOp,
    ...(added.length ? { addedMemory: summarize(added) } : {}),
  };
}

/**
 * Each tree's state by its page faults per op, where every tree counted them: 1 where it kept its
 * heap (at most SLOW_FAULTS), 0 where it faulted it in again; two states only where each holds
 * at least `least` trees. null where a tree has no count, or the trees fall in one state.
 * @param {CellResult[]} cells
 * @param {number} least
 * @returns {number[] | null}
 */
function faultStates(cells, least) {
  const perOps = cells.map((cell) => (cell.account && cell.account.ops > 0 ? perOp(cell.account, 'minflt') : null));
  if (!perOps.every((value) => typeof value === 'number')) return null;
  const groups = perOps.map((value) => (/** @type {number} */ (value) > SLOW_FAULTS ? 0 : 1));
  const slow = groups.filter((group) => group === 0).length;
  return slow >= least && cells.length - slow >= least ? groups : null;
}

/**
 * @typedef {import('./cell-summary.js').CellResult} CellResult
 *
 * @typedef {object} TreeState
 * @property {number} trees
 * @property {number} share  of the mode's trees
 * @property {number} rate  their median ops/s
 * @property {[number, number]} range  their slowest and fastest ops/s
 * @property {Record<string, number>} figures  the median per op of page faults (`minflt`) and
 *   system time (`systemNs`, ns) over its trees, where every one was counted; of traced trees,
 *   also what the trace counted per op (trace/counts.js: mmap_lock's write waits, the write
 *   acquisitions under mprotect, madvise, munmap)
 *
 * @typedef {object} Trees  one mode's fresh trees (docs/json.md)
 * @property {number[]} rates  each tree's ops/s, in round order
 * @property {number} sd  the standard deviation of their log rates
 * @property {number | null} windowSd  of a window's log rate within its tree (from each window's
 *   halves), null where the cells kept no tenths
 * @property {boolean | null} differ  the trees differ by more than the windows inside them
 *   (their variances' F test at 1%); null without windowSd or with fewer than 5 trees
 * @property {TreeState[]} states  fastest first: one, or two where the trees fall apart
 * @property {number[]} stateOf  each tree's state, an index into `states`, in `rates`' order
 * @property {number[]} outliers  indexes into `rates` of trees far from their state
 * @property {boolean | null} throughout  two states: every slow tree ran slow in both halves of its
 *   window (below the midpoint of the states' rates), so the state was its tree's from the start
 *   to the end; null otherwise
 */

/**
 * @param {CellResult[]} cells  one mode's, one per fresh tree, of the rounds that count
 * @param {(cell: CellResult) => Record<string, number | null>} [more]  further figures per op of
 *   a tree, beside the account's
 * @returns {Trees | null}  null without a tree
 */
export function treesOf(cells, more) {
  const counted = cells.filter((cell) => cell.throughput > 0);
  if (!counted.length) return null;
  const logs = counted.map((cell) => Math.log(cell.throughput));
  const split = halvesOf(counted);
  const windowVariance = split ? withinTree(split) : null;
  const sd = counted.length >= 2 ? Math.sqrt(sampleVariance(logs)) : 0;
  // by page faults per op where every tree counted them (the heap's two states say themselves
  // there), else by their rates' two groups
  const groups =
    counted.length >= GROUPED.trees
      ? (faultStates(counted, GROUPED.least(counted.length)) ?? twoGroups(logs, GROUPED.least(counted.length)))
      : null;
  const members = groups ? [1, 0].map((which) => counted.filter((_, i) => groups[i] === which)) : [counted];
  const states = members.map((trees) => stateOf(trees, counted.length, more));
  return {
    rates: counted.map((cell) => cell.throughput),
    sd,
    windowSd: windowVariance === null ? null : Math.sqrt(windowVariance),
    differ: windowVariance === null || counted.length < 5 ? null : differ(sd ** 2, windowVariance, counted.length),
    states,
    stateOf: counted.map((_, i) => (groups ? 1 - groups[i] : 0)),
    outliers: outliersOf(logs, groups),
    throughout: groups && split ? slowThroughout(counted, split, groups, states) : null,
  };
}

/** Each cell's window in halves, all or none. @param {CellResult[]} cells */
function halvesOf(cells) {
  const split = cells.map(halves);
  return split.length >= 2 && split.every(Boolean) ? /** @type {number[][]} */ (split) : null;
}

/**
 * Whether the trees' variance exceeds what the windows inside them give a tree's rate: under no
 * difference between trees, their ratio is F(n − 1, n − 1).
 * @param {number} between @param {number} within @param {number} n
 */
function differ(between, within, n) {
  if (within <= 0) return between > 0;
  return 1 - jstat.centralF.cdf(between / within, n - 1, n - 1) < DIFFER_ALPHA;
}

/**
 * @param {CellResult[]} trees @param {number} all
 * @param {(cell: CellResult) => Record<string, number | null>} [more]
 */
function stateOf(trees, all, more) {
  const rates = trees.map((cell) => cell.throughput);
  /** @type {(cell: CellResult) => Record<string, number | null>} */
  const each = (cell) => ({
    ...Object.fromEntries(
      FIGURES.map((key) => [key, cell.account && cell.account.ops > 0 ? perOp(cell.account, key) : null]),
    ),
    ...more?.(cell),
  });
  const read = trees.map(each);
  const figures = Object.keys(read[0]).flatMap((key) => {
    const values = read.map((one) => one[key]);
    return values.every((value) => typeof value === 'number') ? [[key, median(/** @type {number[]} */ (values))]] : [];
  });
  return {
    trees: trees.length,
    share: trees.length / all,
    rate: median(rates),
    range: /** @type {[number, number]} */ ([Math.min(...rates), Math.max(...rates)]),
    figures: Object.fromEntries(figures),
  };
}

/**
 * Trees far from their state's median, by a robust spread of its log rates (none from fewer than
 * 5 trees in it).
 * @param {number[]} logs @param {number[] | null} groups
 */
function outliersOf(logs, groups) {
  const of = (/** @type {number} */ i) => (groups ? groups[i] : 0);
  return logs.flatMap((x, i) => {
    const state = logs.filter((_, j) => of(j) === of(i));
    if (state.length < 5) return [];
    const spread = 1.4826 * medianAbsoluteDeviation(state);
    return spread > 0 && Math.abs(x - median(state)) > OUTLIER * spread ? [i] : [];
  });
}

/**
 * Whether every slow tree ran below the midpoint of the two states in both halves of its window.
 * A half's rate is its tree's, moved by how far the half's rate (per worker, from the account's
 * tenths) lies from its whole window's.
 * @param {CellResult[]} trees
 * @param {number[][]} split  each tree's halves' log rates (ops per ns, per worker)
 * @param {number[]} groups  1: the fast state
 * @param {TreeState[]} states  fast, slow
 */
function slowThroughout(trees, split, groups, states) {
  const midpoint = mean([Math.log(states[0].rate), Math.log(states[1].rate)]);
  return trees.every((cell, i) => {
    if (groups[i] === 1) return true;
    const slices = /** @type {NonNullable<CellResult['account']>} */ (cell.account).slices ?? [];
    const whole = Math.log(
      slices.reduce((sum, slice) => sum + slice.ops, 0) / slices.reduce((sum, slice) => sum + slice.ns, 0),
    );
    return split[i].every((half) => Math.log(cell.throughput) + half - whole < midpoint);
  });
}

/**
 * How many of another setting's trees fell as slow as a reference's slow state: a tree is slow
 * where its rate lies below its own setting's fast level (the 75th percentile of its trees' rates,
 * a fast tree's while fewer than three quarters are slow) by more than the geometric midpoint of
 * the reference's two states. Another setting shifts every tree's speed (a fix that is 3x faster), so each is read
 * against its own level; the reference's split says only how far down a slow tree lies.
 * @param {number[]} rates  the setting's trees, ops/s
 * @param {TreeState[]} reference  two states, fast first
 * @returns {{ slow: number, trees: number }}
 */
export function slowAgainst(rates, [fast, slow]) {
  if (!rates.length || !slow) return { slow: 0, trees: rates.length };
  const line = quantile(rates, 0.75) * Math.sqrt(slow.rate / fast.rate);
  return { slow: rates.filter((rate) => rate < line).length, trees: rates.length };
}
