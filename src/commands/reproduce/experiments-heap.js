// The investigation's experiments on the heap: the gap itself, glibc's arenas and mmap
// threshold, jemalloc, MALLOC_MMAP_MAX_, transparent huge pages.
import { above, all, below, within } from './verdict.js';
import { claim, published } from './experiment-parts.js';

/**
 * @typedef {import('./experiment-parts.js').Experiment} Experiment
 * @typedef {import('./experiment-parts.js').Variant} Variant
 */

/** @type {import('./experiment-parts.js').Definition[]} */
export const HEAP_EXPERIMENTS = [
  {
    name: 'gap',
    hypothesis: 'Hypothesis 1, step 3',
    needs: 'nothing',
    variants: () => [
      {
        id: 'default',
        label: 'readfilesync 64 KiB',
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
      { id: 'default', label: 'default' },
      {
        id: 'arena-1',
        label: 'MALLOC_ARENA_MAX=1',
        env: { MALLOC_ARENA_MAX: '1' },
      },
      {
        id: 'arena-64',
        label: 'MALLOC_ARENA_MAX=64',
        env: { MALLOC_ARENA_MAX: '64' },
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
      },
      {
        id: 'threshold-4096',
        label: 'MALLOC_MMAP_THRESHOLD_=4096',
        env: { MALLOC_MMAP_THRESHOLD_: '4096' },
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
    unavailable: (ctx) => (ctx.jemalloc.path ? null : (ctx.jemalloc.why ?? 'no jemalloc')),
    variants: (ctx) => [
      {
        id: 'glibc-64k',
        label: 'glibc 64 KiB',
      },
      {
        id: 'jemalloc-64k',
        label: 'jemalloc 64 KiB',
        env: { LD_PRELOAD: ctx.jemalloc.path ?? '' },
      },
      {
        id: 'glibc-8m',
        label: 'glibc 8 MiB',
        file: 'huge',
        // an 8 MiB read is slow next to the default file's: --quick reads fewer
        quickIterations: 20,
      },
      {
        id: 'jemalloc-8m',
        label: 'jemalloc 8 MiB',
        file: 'huge',
        env: { LD_PRELOAD: ctx.jemalloc.path ?? '' },
        // an 8 MiB read is slow next to the default file's: --quick reads fewer
        quickIterations: 20,
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
      { id: 'default', label: 'default' },
      {
        id: 'no-mmap',
        label: 'MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=-1',
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
    unavailable: (ctx) => ctx.thp?.why ?? null,
    variants: () =>
      ['always', 'madvise', 'never'].map((mode) => ({
        id: mode,
        label: mode,
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
];
