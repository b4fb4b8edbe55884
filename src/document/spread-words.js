// Why the rounds disagree, in words: what each mode's cell-to-cell spread goes with
// (stats/spread.js), the groups its cells fall into, and what would remove it, for the note under
// the verdict, the stop line and `next:`.
import { fileURLToPath } from 'node:url';
import { fixed, ops, MODES, percentText } from '../words/spelling.js';
import { commandLine } from '../words/command-line.js';
import { SLOW_FAULTS } from '../stats/trees.js';

/**
 * @typedef {import('./document.js').ResultsDocument} ResultsDocument
 * @typedef {import('../stats/spread.js').SpreadAttribution} SpreadAttribution
 */

// a figure that goes with less of the spread than this is not named
const NAMED_SHARE = 0.3;
// one that goes with at least this much explains it: the stop line and `next:` act on it
const EXPLAINS = 0.5;

/** The glibc setting that keeps a heap's top mapped, so its pages are not faulted in again. */
export const TOP_PAD = 'MALLOC_TOP_PAD_=67108864';

/**
 * A figure per op as a reader takes it: page faults as a count, the rest in µs.
 * @param {string} key
 * @param {number} value
 */
const perOpText = (key, value) => (key === 'minflt' ? fixed(value) : `${fixed(value / 1000)} µs`);

/**
 * Whether a run's budget ran out with its interval short of the target: the case where the
 * spread is what kept it from deciding.
 * @param {Pick<ResultsDocument, 'stop' | 'ratio' | 'config'>} document
 */
export const stoppedShort = ({ stop, ratio, config }) =>
  stop === 'max-time' && typeof ratio?.halfWidth === 'number' && ratio.halfWidth > (config.precision ?? 0);

/**
 * Why the rounds disagree, when they kept the interval from its target: the figure of the
 * account each mode's cell-to-cell spread goes with most, and which way, and the two groups its
 * cells fall into where they lie apart.
 * @param {ResultsDocument} document
 * @returns {string | null}
 */
export function spreadText(document) {
  const { spread } = document;
  if (!stoppedShort(document) || !spread) return null;
  const modes = MODES.flatMap((mode) => {
    const found = spread[mode];
    return found ? [{ mode, found }] : [];
  });
  if (!modes.length) return null;
  const sizes = modes.map(({ mode, found }) => `${mode} ${fixed(found.spread)}`).join(', ');
  const named = modes.flatMap(({ mode, found }) => {
    const [top] = found.figures;
    const goes =
      top && top.share >= NAMED_SHARE
        ? `${percentText(top.share)} of it goes with ${top.words} per op (the ${top.direction} cells have more)`
        : null;
    const groups = groupsText(found, top?.share >= NAMED_SHARE ? top : found.figures[0]);
    return goes || groups ? [`${mode}: ${[goes, groups].filter(Boolean).join('; ')}`] : [];
  });
  return `the rounds disagree (spread of the cells' log ops/s: ${sizes})${named.length ? `; ${named.join('; ')}` : '; no figure of the account goes with most of it'}`;
}

/**
 * `the cells fall in two groups: 53,308 ops/s at 0.13 page faults per op (5 cells), 15,888 at
 * 3.10 (9)`, beside the figure they were told apart by, else the figure named.
 * @param {SpreadAttribution} found
 * @param {SpreadAttribution['figures'][number] | undefined} named
 */
function groupsText({ groups: split, figures }, named) {
  if (!split) return null;
  const figure = split.by === 'throughput' ? named : figures.find((one) => one.key === split.by);
  const at = (/** @type {import('../stats/spread.js').CellGroup} */ group, /** @type {boolean} */ first) => {
    const value = figure ? group.figures[figure.key] : undefined;
    const of =
      value === undefined || !figure
        ? ''
        : ` at ${perOpText(figure.key, value)}${first && split.by === 'throughput' ? ` ${figure.words} per op` : ''}`;
    return `${ops(group.throughput)}${first ? ' ops/s' : ''}${of} (${group.cells}${first ? ' cells' : ''})`;
  };
  const [fast, slow] = split.groups;
  const by = split.by === 'throughput' ? '' : ` by ${figure?.words ?? split.by} per op`;
  return `the cells fall in two groups${by}: ${at(fast, true)}, ${at(slow, false)}`;
}

/**
 * What the spread goes with where it explains at least half of a mode's: page faults first
 * (the allocator's settings change them, and system time often follows them), else the figure
 * that explains most. Null when none does.
 * @param {Pick<ResultsDocument, 'spread'>} document
 * @returns {{ key: string, words: string, share: number } | null}
 */
export function spreadCause({ spread }) {
  const shares = MODES.flatMap((mode) => spread?.[mode]?.figures ?? []).filter((one) => one.share >= EXPLAINS);
  if (!shares.length) return null;
  const faults = shares.filter((one) => one.key === 'minflt');
  const [cause] = (faults.length ? faults : shares).sort((a, b) => b.share - a.share);
  return { key: cause.key, words: cause.words, share: cause.share };
}

/**
 * What would remove a spread that `cause` explains, in a clause; null where nothing the user
 * sets does.
 * @param {string} key
 * @param {{ glibc: boolean }} machine
 */
export function remedyOf(key, { glibc }) {
  if (key === 'minflt')
    return glibc
      ? `which glibc's heap settings change (--env ${TOP_PAD} keeps 64 MiB at its top, so freed pages are not faulted in again; \`mmapbench advise\` measures each fix on this task)`
      : 'which the allocator decides (`mmapbench advise` measures the allocators installed on this task)';
  if (key === 'runqNs') return 'which is other work on the CPUs: run on a quiet machine, one benchmark at a time';
  return null;
}

/**
 * `next:` for a run whose budget ran out on a spread the account explains and that did not
 * decide: what ranks the fixes for it, as a command to paste. Null otherwise.
 * @param {Partial<Pick<ResultsDocument, 'stop' | 'ratio' | 'config' | 'spread' | 'verdict'>>} document
 */
export function spreadNext({ verdict, stop, ratio, config, spread }) {
  if (verdict?.significant || !config || !stoppedShort({ stop: stop ?? null, ratio, config })) return null;
  const cause = spreadCause({ spread });
  if (!cause || cause.key === 'runqNs') return null;
  const { task, k } = config;
  const command = commandLine([
    'mmapbench',
    'advise',
    ...(task.builtin ? ['--task', task.name] : task.module ? ['--task', fileURLToPath(task.module)] : []),
    '-k',
    String(k),
  ]);
  return `next: the cells disagree with their ${cause.words} per op: \`${command}\` measures the fixes for this task side by side and ranks them`;
}

/**
 * The fresh trees' split in short, where some mode's trees fell in two states: the answer says it
 * always, in at most two lines, before what to try next (treesText's whole line is --verbose's and
 * the page's). `fresh trees in two states: workers 8 of 16 at 42% of the others' speed, 9.60 page
 * faults per op against 0.01; procs in one; more with --verbose`; without the page faults where
 * `faults` is false. Where the run had plain trees beside its cells, each mode's slow share of
 * them follows its clause, unless `plain` is false; without the page faults then in short
 * (`workers 3 of 12 slow (80% speed), a plain app 0 of 6`). Null where no mode's trees split.
 * @param {Pick<ResultsDocument, 'workers' | 'procs' | 'aa'>} document
 * @param {boolean} [faults]
 * @param {boolean} [plain]
 * @returns {string | null}
 */
export function splitText(document, faults = true, plain = true) {
  const found = MODES.flatMap((mode) => {
    const trees = document[mode]?.trees;
    return trees ? [{ mode, trees }] : [];
  });
  if (!found.some(({ trees }) => trees.states.length === 2)) return null;
  const name = (/** @type {'workers'|'procs'} */ mode) => (document.aa ? (mode === 'workers' ? 'A' : 'B') : mode);
  // the plain app's share beside each mode's, where the run had plain trees (run/plain-tree.js)
  const beside = (/** @type {'workers'|'procs'} */ mode) => {
    const share = plain ? document[mode]?.plain : null;
    return share ? `, a plain app ${share.slow} of ${share.trees}` : '';
  };
  return `fresh trees in two states: ${found
    .map(({ mode, trees }) => {
      if (trees.states.length === 1) return `${name(mode)} in one${beside(mode)}`;
      const [fast, slow] = trees.states;
      const counted = faults && slow.figures.minflt !== undefined && fast.figures.minflt !== undefined;
      const speed = percentText(slow.rate / fast.rate);
      // without the page faults, beside a plain app's share: the short form, to fit two lines
      if (!faults && beside(mode))
        return `${name(mode)} ${slow.trees} of ${trees.rates.length} slow (${speed} speed)${beside(mode)}`;
      return `${name(mode)} ${slow.trees} of ${trees.rates.length} at ${speed} of the others' speed${counted ? `, ${fixed(slow.figures.minflt)} page faults per op against ${fixed(fast.figures.minflt)}` : ''}${beside(mode)}`;
    })
    .join('; ')}; more with --verbose`;
}

/**
 * The fresh trees in one line, where a mode's differ by more than the windows inside them
 * (stats/trees.js): `fresh trees: workers 5 of 16 ran at 46% of the others' speed (31,000 against
 * 68,000 ops/s) for their whole window, at 2.40 page faults per op against 1.10; procs: one state
 * (57,000-81,000 ops/s)`, and where the trees split the ratio two ways, the typical trees' (the
 * medians': a pool that landed well) beside the mean's (what fresh trees get on average). Null
 * where no mode's trees differ so.
 * Under trace, a mode whose traced trees split adds what the trace counted in each state.
 * Where a slow state goes with a fifth more page faults per op or more, what removes it follows.
 * @param {Pick<ResultsDocument, 'workers' | 'procs' | 'ratio' | 'aa'> & { trace?: any, environment?: { glibc?: unknown } }} document
 * @returns {string | null}
 */
export function treesText(document) {
  const found = MODES.flatMap((mode) => {
    const trees = document[mode]?.trees;
    return trees ? [{ mode, trees }] : [];
  });
  if (!found.some(({ trees }) => trees.differ)) return null;
  const name = (/** @type {'workers'|'procs'} */ mode) => (document.aa ? (mode === 'workers' ? 'A' : 'B') : mode);
  const split = found.some(({ trees }) => trees.states.length === 2);
  // no mode in two states: the ranges in one clause
  const clauses = split
    ? found.map(({ mode, trees }) => `${name(mode)} ${treeStates(trees)}`)
    : [
        `${found.map(({ mode, trees }) => `${name(mode)} ${rangeText(trees.states[0].range)}`).join(', ')}, ${
          found.every(({ trees }) => trees.differ)
            ? 'each'
            : found
                .filter(({ trees }) => trees.differ)
                .map(({ mode }) => name(mode))
                .join(', ')
        } further apart than the windows inside them, in no two states`,
      ];
  const medians = (document.workers?.throughput.median ?? NaN) / (document.procs?.throughput.median ?? NaN);
  const mean = document.ratio?.geomean;
  const both =
    split && mean && Number.isFinite(medians) && Math.abs(Math.log(medians / mean)) > Math.log(1 + TWO_WAYS)
      ? `; w/p ${fixed(mean)} is what fresh trees get on average, ${fixed(medians)} the typical trees' (medians: a long-lived pool that landed well)`
      : '';
  const traced = MODES.flatMap((mode) => {
    const trees = /** @type {import('../stats/trees.js').Trees | null | undefined} */ (
      document.trace?.modes?.[mode]?.trees
    );
    return trees?.states.length === 2 ? [`traced ${name(mode)} ${tracedStates(trees)}`] : [];
  });
  // the slow state's extra page faults are the heap's, re-faulted after glibc trimmed it
  // (how-it-measures.md, "Why fresh trees differ")
  const faulting = found.some(({ trees }) => {
    const [fast, slow] = trees.states;
    return (
      slow &&
      slow.figures.minflt !== undefined &&
      slow.figures.minflt > FAULTS_APART * (fast.figures.minflt ?? Infinity)
    );
  });
  const remedy = faulting
    ? `; the slow trees' extra page faults are the heap's, ${remedyOf('minflt', { glibc: Boolean(document.environment?.glibc) })}`
    : '';
  return `fresh trees: ${[...clauses, ...traced].join('; ')}${plainText(document)}${both}${remedy}`;
}

/**
 * The plain trees' slow shares, where the run had them: `; a plain app of the same work, the same
 * minutes (above 1 page fault per op): workers 1 of 8 slow (95% CI 2-47%), procs 0 of 8 (0-32%)`.
 * @param {Pick<ResultsDocument, 'workers' | 'procs' | 'aa'>} document
 */
function plainText(document) {
  const shares = MODES.flatMap((mode) => {
    const share = document[mode]?.plain;
    return share ? [{ mode, share }] : [];
  });
  if (!shares.length) return '';
  const range = (/** @type {[number, number]} */ [low, high]) => `${Math.round(low * 100)}-${Math.round(high * 100)}%`;
  return `; a plain app of the same work, the same minutes (above ${SLOW_FAULTS} page fault per op): ${shares
    .map(
      ({ mode, share }, i) =>
        `${mode} ${share.slow} of ${share.trees}${i ? '' : ' slow'} (${i ? '' : '95% CI '}${range(share.ci95)})`,
    )
    .join(', ')}`;
}

// a slow state whose page faults per op are this many times its fast state's goes with them
const FAULTS_APART = 1.2;

/**
 * What the trace counted per op in a mode's slow traced trees against its fast ones: `3 of 8 slow
 * (31,000 against 68,000 ops/s); per op, mmap_lock taken for write under mprotect 0.80, madvise
 * 0.10, munmap 0.05, and 120 ns waited for it, against 0.20, 0.10, 0.04 and 30 ns`.
 * @param {import('../stats/trees.js').Trees} trees  in two states
 */
function tracedStates(trees) {
  const [fast, slow] = trees.states;
  const both = (/** @type {string} */ key) => slow.figures[key] !== undefined && fast.figures[key] !== undefined;
  const calls = ['mprotect', 'madvise', 'munmap'].filter(both);
  const figures = (/** @type {import('../stats/trees.js').TreeState} */ state, /** @type {boolean} */ named) => [
    ...calls.map((key) => `${named ? `${key} ` : ''}${fixed(state.figures[key])}`),
    ...(both('lockWaitNs') ? [`${Math.round(state.figures.lockWaitNs)} ns`] : []),
  ];
  const slowOnes = figures(slow, true);
  const counted = slowOnes.length
    ? `; per op, mmap_lock taken for write under ${slowOnes.join(', ')}${both('lockWaitNs') ? ' waited for it' : ''}, against ${figures(fast, false).join(', ')}`
    : '';
  return `${slow.trees} of ${trees.rates.length} slow (${ops(slow.rate)} against ${ops(fast.rate)} ops/s)${counted}`;
}

// the typical trees' ratio is said beside the mean's where they differ by more than this
const TWO_WAYS = 0.05;

/** `26,517-77,537 ops/s` */
const rangeText = (/** @type {[number, number]} */ [low, high]) => `${ops(low)}-${ops(high)} ops/s`;

/** One mode's trees in words, where some mode's fell in two states. @param {import('../stats/trees.js').Trees} trees */
function treeStates(trees) {
  const n = trees.rates.length;
  if (trees.states.length === 1)
    return trees.differ
      ? `${n} trees ${rangeText(trees.states[0].range)}, further apart than the windows inside them, in no two states`
      : `one state (${rangeText(trees.states[0].range)}), the trees no further apart than their windows`;
  const [fast, slow] = trees.states;
  const faults =
    slow.figures.minflt !== undefined && fast.figures.minflt !== undefined
      ? `, at ${fixed(slow.figures.minflt)} page faults per op against ${fixed(fast.figures.minflt)}`
      : '';
  return `${slow.trees} of ${n} ran at ${percentText(slow.rate / fast.rate)} of the others' speed (${ops(slow.rate)} against ${ops(fast.rate)} ops/s)${trees.throughout ? ' for their whole window' : ''}${faults}`;
}
