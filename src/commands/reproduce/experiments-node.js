// The investigation's experiments on Node itself: Buffer.poolSize, reusing a buffer, the
// upstream fix across Node releases, async reads.
import { TABLES } from '../../reference/published.js';
import { above, all, below, within } from './verdict.js';
import { FIX_SIZES, FIX_TASKS, fixVersions, nodeFixTable } from './tables.js';
import { claim, defaultPool, poolPremise, published } from './experiment-parts.js';

/**
 * @typedef {import('./experiment-parts.js').Experiment} Experiment
 * @typedef {import('./experiment-parts.js').Variant} Variant
 */

/** @type {import('./experiment-parts.js').Definition[]} */
export const NODE_EXPERIMENTS = [
  {
    name: 'pool-size',
    hypothesis: 'Hypothesis 5b',
    needs: 'nothing',
    premise: poolPremise,
    variants: (ctx) =>
      [
        ['8k', '8k (default)'],
        ['256k', '256k'],
        ['1m', '1m'],
        ['4m', '4m'],
        ['16m', '16m'],
      ].map(([pool, label]) => ({
        id: pool,
        // the published label, and whether the pool is the default of the Node the cells run on
        label: `Buffer.poolSize ${pool}${defaultPool(ctx) === pool ? " (this Node's default)" : pool === '8k' && defaultPool(ctx) ? ' (the old default)' : ''}`,
        task: 'pool-size',
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
    premise: poolPremise,
    variants: (ctx) => {
      const { columns, rows } = TABLES['pool-grid'];
      /** @type {Variant[]} */
      const variants = [];
      for (const row of rows) {
        columns.forEach((column, i) => {
          const procs = column === 'procs';
          variants.push({
            id: `${row.label}@${column}`,
            label: `${row.label} file, ${procs ? 'procs (pool 8k)' : `pool ${column}${defaultPool(ctx) === column ? " (this Node's default)" : ''}`}`,
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
      // the default upstream chose (24.18.0 and 26.3.0): near-Pareto over the old one
      claim(
        'a 64 KiB pool is near-Pareto over 8 KiB, the default Node 24.18 and 26.3 chose: it wins at 8k and 16k files (published +26%, +23%) and is above 0.9 everywhere',
        all([
          ...['8k', '16k'].map((size) => above(d.relative(`${size}@64k`, `${size}@8k`, 'workers'), 1, `${size} file`)),
          ...TABLES['pool-grid'].rows.map(({ label }) =>
            above(d.relative(`${label}@64k`, `${label}@8k`, 'workers'), 0.9, `${label} file, 64k / 8k`),
          ),
        ]),
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
        published: published('gap', 'readfilesync 64 KiB'),
      },
      {
        id: 'reuse-64k',
        label: 'reuse-buffer 64 KiB',
        task: 'reuse-buffer',
      },
      { id: 'readfilesync-1m', label: 'readfilesync 1 MiB', file: 'large' },
      {
        id: 'reuse-1m',
        label: 'reuse-buffer 1 MiB',
        task: 'reuse-buffer',
        file: 'large',
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
    name: 'node-fix',
    hypothesis: "Node's fix: readFileSync's buffer option",
    needs: "a Node with readFileSync's buffer option: Node 24 and 26 are installed from the npm registry on first use",
    unavailable: (ctx) =>
      (ctx.nodes ?? []).some((node) => node.hasOption || node.install)
        ? null
        : `no Node here has readFileSync's buffer option (${(ctx.nodes ?? []).map((node) => `${node.label}: ${node.why}`).join('; ')})`,
    installs: (ctx) => (ctx.nodes ?? []).flatMap((node) => (node.install ? [`Node ${node.install}`] : [])),
    variants: (ctx) =>
      (ctx.nodes ?? []).flatMap((node) =>
        node.path === null
          ? []
          : FIX_SIZES.flatMap(([size, file, sizeLabel]) =>
              FIX_TASKS.filter(([short]) => short !== 'into' || node.hasOption).map(([short, task, taskLabel]) => ({
                id: `${node.version}:${short}:${size}`,
                label: `Node ${node.version}, ${taskLabel} ${sizeLabel}`,
                task,
                file,
                node: /** @type {string} */ (node.path),
              })),
            ),
      ),
    table: nodeFixTable,
    // for each Node with the option, at both sizes
    verdicts: (d) =>
      fixVersions(d).flatMap((version) => [
        claim(
          `Node ${version}: the buffer option closes the gap (workers/procs with it above 0.9 at 64 KiB and 1 MiB)`,
          all(FIX_SIZES.map(([size, , label]) => above(d.ratio(`${version}:into:${size}`), 0.9, label))),
        ),
        claim(
          `Node ${version}: the buffer option matches reuse-buffer in workers (option / reuse-buffer within ±10% at 64 KiB and 1 MiB)`,
          all(
            FIX_SIZES.map(([size, , label]) =>
              within(d.relative(`${version}:into:${size}`, `${version}:reuse:${size}`, 'workers'), [0.9, 1.1], label),
            ),
          ),
        ),
      ]),
  },
  {
    name: 'async',
    hypothesis: 'Hypothesis 7, step 10',
    needs: 'nothing',
    variants: () => [
      { id: 'sync', label: 'sync' },
      {
        id: 'async-1',
        label: 'async serial (C=1)',
        task: 'readfile-async',
        params: { concurrency: 1 },
      },
      {
        id: 'async-8',
        label: 'async parallel (C=8)',
        task: 'readfile-async',
        params: { concurrency: 8 },
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
