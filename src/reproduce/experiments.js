import { TABLES } from '../reference/published.js';
import { EXPERIMENT_NAMES } from './names.js';
import { above, all, below, within } from './verdict.js';

/**
 * @typedef {object} Variant  one setting an experiment measures; each round runs every variant
 * @property {string} id  stable key in the results file
 * @property {string} label
 * @property {string} task
 * @property {string} file  a name (med) or size (64k), as --file takes it
 * @property {Record<string, any>} [params]  task parameters (poolSize, concurrency)
 * @property {Record<string, string>} [env]  set in every cell of this variant
 * @property {Array<'workers'|'procs'>} [modes]  both unless given
 * @property {string} [thp]  the THP mode (always, madvise, never) set while its cells run
 * @property {object} [published]  the published row it re-checks
 *
 * @typedef {object} Experiment
 * @property {string} name
 * @property {string} hypothesis  where in the investigation
 * @property {string} [claim]   the published claim, in its words (from TABLES)
 * @property {string} [source]  where it was published (from TABLES)
 * @property {string} needs  what it needs, in words, for --list
 * @property {(ctx: object) => string | null} [unavailable]  why it cannot run here, or null
 * @property {(ctx: object) => Variant[]} variants
 * @property {(data: import('./data.js').ExperimentData) => Array<{ claim: string } & import('./verdict.js').Verdict>} verdicts
 * @property {'grid'} [shape]  how its table is drawn; a row per variant unless given
 */

const published = (name, label) => TABLES[name].rows.find((row) => row.label === label);
const both = ['workers', 'procs'];

// The claims in words, each tested by the 95% interval of a per-round ratio (verdict.js).
const claim = (text, verdict) => ({ claim: text, ...verdict });

/** @type {Experiment[]} */
export const EXPERIMENTS = [
  {
    name: 'gap',
    hypothesis: 'Hypothesis 1, step 3',
    needs: 'nothing',
    variants: () => [
      {
        id: 'default',
        label: 'readfilesync 64 KiB',
        task: 'readfilesync',
        file: 'med',
        published: published('gap', 'readfilesync 64 KiB'),
      },
    ],
    verdicts: (d) => [
      claim('procs are faster than workers', below(d.ratio('default'), 1, 'workers/procs')),
      claim(
        'procs are at least 1.4x faster (workers/procs below 0.71; published 0.55-0.65)',
        below(d.ratio('default'), 1 / 1.4, 'workers/procs'),
      ),
    ],
  },
  {
    name: 'arena',
    hypothesis: 'Hypothesis 2',
    needs: 'glibc',
    variants: () => [
      { id: 'default', label: 'default', task: 'readfilesync', file: 'med', published: published('arena', 'default') },
      {
        id: 'arena-1',
        label: 'MALLOC_ARENA_MAX=1',
        task: 'readfilesync',
        file: 'med',
        env: { MALLOC_ARENA_MAX: '1' },
        published: published('arena', 'MALLOC_ARENA_MAX=1'),
      },
      {
        id: 'arena-64',
        label: 'MALLOC_ARENA_MAX=64',
        task: 'readfilesync',
        file: 'med',
        env: { MALLOC_ARENA_MAX: '64' },
        published: published('arena', 'MALLOC_ARENA_MAX=64'),
      },
    ],
    verdicts: (d) => [
      claim(
        'no arena setting closes the gap (workers/procs stays below 1 in each)',
        all(['default', 'arena-1', 'arena-64'].map((id) => below(d.ratio(id), 1, `${id} workers/procs`))),
      ),
      claim(
        'MALLOC_ARENA_MAX=1 raises the workers total (published +26%)',
        above(d.relative('arena-1', 'default', 'workers'), 1, 'workers arena-1 / default'),
      ),
    ],
  },
  {
    name: 'mmap-threshold',
    hypothesis: 'Hypothesis 3',
    needs: 'glibc',
    variants: () => [
      {
        id: 'default',
        label: 'default',
        task: 'readfilesync',
        file: 'med',
        published: published('mmap-threshold', 'default'),
      },
      {
        id: 'threshold-4096',
        label: 'MALLOC_MMAP_THRESHOLD_=4096',
        task: 'readfilesync',
        file: 'med',
        env: { MALLOC_MMAP_THRESHOLD_: '4096' },
        published: published('mmap-threshold', 'MALLOC_MMAP_THRESHOLD_=4096'),
      },
    ],
    verdicts: (d) => [
      claim(
        'forcing mmap collapses workers more than procs: the ratio falls (published 0.54 -> 0.33)',
        below(d.gapChange('threshold-4096', 'default'), 1, 'ratio with threshold / default ratio'),
      ),
      claim(
        'workers slow down with every allocation mmapped',
        below(d.relative('threshold-4096', 'default', 'workers'), 1, 'workers threshold / default'),
      ),
    ],
  },
  {
    name: 'jemalloc',
    hypothesis: 'Hypothesis 4, step 8',
    needs: 'libjemalloc (found with ldconfig -p or in the usual paths, or --jemalloc PATH)',
    unavailable: (ctx) => (ctx.jemalloc.path ? null : ctx.jemalloc.why),
    variants: (ctx) => [
      {
        id: 'glibc-64k',
        label: 'glibc 64 KiB',
        task: 'readfilesync',
        file: 'med',
        published: published('jemalloc', 'glibc 64 KiB'),
      },
      {
        id: 'jemalloc-64k',
        label: 'jemalloc 64 KiB',
        task: 'readfilesync',
        file: 'med',
        env: { LD_PRELOAD: ctx.jemalloc.path },
        published: published('jemalloc', 'jemalloc 64 KiB'),
      },
      {
        id: 'glibc-8m',
        label: 'glibc 8 MiB',
        task: 'readfilesync',
        file: 'huge',
        published: published('jemalloc', 'glibc 8 MiB'),
      },
      {
        id: 'jemalloc-8m',
        label: 'jemalloc 8 MiB',
        task: 'readfilesync',
        file: 'huge',
        env: { LD_PRELOAD: ctx.jemalloc.path },
        published: published('jemalloc', 'jemalloc 8 MiB'),
      },
    ],
    verdicts: (d) => [
      claim(
        'jemalloc helps workers a little at 64 KiB (published +6%)',
        above(d.relative('jemalloc-64k', 'glibc-64k', 'workers'), 1, 'workers jemalloc / glibc at 64 KiB'),
      ),
      claim(
        'jemalloc regresses workers at 8 MiB (published -24%)',
        below(d.relative('jemalloc-8m', 'glibc-8m', 'workers'), 1, 'workers jemalloc / glibc at 8 MiB'),
      ),
    ],
  },
  {
    name: 'mmap-max',
    hypothesis: 'step 6 and its independent validation',
    needs: 'glibc',
    variants: () => [
      { id: 'default', label: 'default', task: 'readfilesync', file: 'med' },
      {
        id: 'no-mmap',
        label: 'MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=-1',
        task: 'readfilesync',
        file: 'med',
        env: { MALLOC_MMAP_MAX_: '0', MALLOC_TRIM_THRESHOLD_: '-1' },
      },
    ],
    verdicts: (d) => [
      claim(
        'the early +30% does not replicate: workers gain less than 15%',
        below(d.relative('no-mmap', 'default', 'workers'), 1.15, 'workers tuned / default'),
      ),
      claim(
        'the effect is marginal: workers within ±10% of default (published 5-7%)',
        within(d.relative('no-mmap', 'default', 'workers'), [0.9, 1.1], 'workers tuned / default'),
      ),
    ],
  },
  {
    name: 'thp',
    hypothesis: 'Hypothesis 5, step 7',
    needs: 'root and a writable THP setting in /sys (or --thp-path)',
    unavailable: (ctx) => ctx.thp.why,
    variants: () =>
      ['always', 'madvise', 'never'].map((mode) => ({
        id: mode,
        label: mode,
        task: 'readfilesync',
        file: 'med',
        thp: mode,
        published: published('thp', mode),
      })),
    verdicts: (d) => [
      claim(
        'the THP mode makes no difference beyond noise: workers in always and never within ±10% of madvise',
        all(
          ['always', 'never'].map((mode) =>
            within(d.relative(mode, 'madvise', 'workers'), [0.9, 1.1], `workers ${mode} / madvise`),
          ),
        ),
      ),
    ],
  },
  {
    name: 'pool-size',
    hypothesis: 'Hypothesis 5b',
    needs: 'nothing',
    variants: () =>
      [
        ['8k', '8k (default)'],
        ['256k', '256k'],
        ['1m', '1m'],
        ['4m', '4m'],
        ['16m', '16m'],
      ].map(([pool, label]) => ({
        id: pool,
        label: `Buffer.poolSize ${label}`,
        task: 'pool-size',
        file: 'med',
        params: { poolSize: pool },
        published: published('pool-size', label),
      })),
    verdicts: (d) => [
      claim(
        'a 256 KiB pool narrows the gap at 64 KiB (published 0.53 -> 0.81)',
        above(d.gapChange('256k', '8k'), 1, 'ratio with 256k / with 8k'),
      ),
      claim(
        'a 256 KiB pool raises workers throughput (published +32%)',
        above(d.relative('256k', '8k', 'workers'), 1, 'workers 256k / 8k'),
      ),
      claim(
        'a 4 MiB pool stops helping: its gap is wider than with 256 KiB (published 0.67 vs 0.81)',
        below(d.gapChange('4m', '256k'), 1, 'ratio with 4m / with 256k'),
      ),
    ],
  },
  {
    name: 'pool-grid',
    hypothesis: 'Hypothesis 5c',
    needs: 'nothing',
    shape: 'grid',
    variants: () => {
      const { columns, rows } = TABLES['pool-grid'];
      const variants = [];
      for (const row of rows) {
        columns.forEach((column, i) => {
          const procs = column === 'procs';
          variants.push({
            id: `${row.label}@${column}`,
            label: `${row.label} file, ${procs ? 'procs (pool 8k)' : `pool ${column}`}`,
            task: 'pool-size',
            file: row.label,
            params: { poolSize: procs ? '8k' : column },
            modes: [procs ? 'procs' : 'workers'],
            grid: { row: row.label, column },
            published: { value: row.values[i] },
          });
        });
      }
      return variants;
    },
    verdicts: (d) => [
      claim(
        'a 256 KiB pool wins at every multi-KiB file size (4k, 8k, 16k, 64k: workers 256k / 8k above 1)',
        all(
          ['4k', '8k', '16k', '64k'].map((size) =>
            above(d.relative(`${size}@256k`, `${size}@8k`, 'workers'), 1, `${size} file`),
          ),
        ),
      ),
      claim(
        'a 256 KiB pool never regresses (workers 256k / 8k above 0.9 at every size)',
        all(
          TABLES['pool-grid'].rows.map(({ label }) =>
            above(d.relative(`${label}@256k`, `${label}@8k`, 'workers'), 0.9, `${label} file`),
          ),
        ),
      ),
      claim(
        'the 1 MiB row is flat (workers 256k / 8k within ±10%)',
        within(d.relative('1m@256k', '1m@8k', 'workers'), [0.9, 1.1], '1m file'),
      ),
    ],
  },
  {
    name: 'reuse',
    hypothesis: 'Hypothesis 6, step 4',
    needs: 'nothing',
    variants: () => [
      {
        id: 'readfilesync-64k',
        label: 'readfilesync 64 KiB',
        task: 'readfilesync',
        file: 'med',
        published: published('gap', 'readfilesync 64 KiB'),
      },
      {
        id: 'reuse-64k',
        label: 'reuse-buffer 64 KiB',
        task: 'reuse-buffer',
        file: 'med',
        published: published('reuse', 'reuse-buffer 64 KiB'),
      },
      { id: 'readfilesync-1m', label: 'readfilesync 1 MiB', task: 'readfilesync', file: 'large' },
      {
        id: 'reuse-1m',
        label: 'reuse-buffer 1 MiB',
        task: 'reuse-buffer',
        file: 'large',
        published: published('reuse', 'reuse-buffer 1 MiB'),
      },
    ],
    verdicts: (d) => [
      claim(
        'reusing one buffer is several times faster in workers (at least 2x at 64 KiB; published 5x)',
        above(d.relative('reuse-64k', 'readfilesync-64k', 'workers'), 2, 'workers reuse / readfilesync'),
      ),
      claim(
        'reuse nearly closes the gap at 64 KiB (workers/procs above 0.8)',
        above(d.ratio('reuse-64k'), 0.8, 'reuse workers/procs'),
      ),
      claim(
        'with reuse at 1 MiB workers are faster than procs (published 1.11)',
        above(d.ratio('reuse-1m'), 1, 'reuse 1 MiB workers/procs'),
      ),
    ],
  },
  {
    name: 'async',
    hypothesis: 'Hypothesis 7, step 10',
    needs: 'nothing',
    variants: () => [
      { id: 'sync', label: 'sync', task: 'readfilesync', file: 'med', published: published('async', 'sync') },
      {
        id: 'async-1',
        label: 'async serial (C=1)',
        task: 'readfile-async',
        file: 'med',
        params: { concurrency: 1 },
        published: published('async', 'async serial (C=1)'),
      },
      {
        id: 'async-8',
        label: 'async parallel (C=8)',
        task: 'readfile-async',
        file: 'med',
        params: { concurrency: 8 },
        published: published('async', 'async parallel (C=8)'),
      },
    ],
    verdicts: (d) => [
      claim(
        'async does not speed workers up (workers async C=8 / sync below 1.1; published 1.02)',
        below(d.relative('async-8', 'sync', 'workers'), 1.1, 'workers async C=8 / sync'),
      ),
      claim(
        'async slows procs down (procs async C=8 / sync below 1; published 0.42)',
        below(d.relative('async-8', 'sync', 'procs'), 1, 'procs async C=8 / sync'),
      ),
    ],
  },
];

for (const experiment of EXPERIMENTS) {
  experiment.claim = TABLES[experiment.name].claim;
  experiment.source = TABLES[experiment.name].source;
}

export { EXPERIMENT_NAMES };
if (EXPERIMENTS.map((e) => e.name).join() !== EXPERIMENT_NAMES.join())
  throw new Error('names.js must list the experiments of experiments.js, in order');

/** The modes a variant runs in. */
export const modesOf = (variant) => variant.modes ?? both;
