import { NODE_CHANGES, sinceText } from '../../reference/node-changes.js';
import { TABLES } from '../../reference/published.js';
import { EXPERIMENT_NAMES } from './names.js';
import { above, all, below, within } from './verdict.js';
import {
  clogTable,
  FIX_SIZES,
  FIX_TASKS,
  fixVersions,
  locksTable,
  nodeFixTable,
  promisesTable,
  throttleTable,
} from './tables.js';
import { MODES } from '../../words/spelling.js';

/**
 * @typedef {import('./variant.js').Variant} Variant  one setting an experiment measures
 *
 * @typedef {object} Experiment
 * @property {string} name
 * @property {string} hypothesis  where in the investigation
 * @property {string} [claim]   the published claim, in its words (from TABLES)
 * @property {string} [source]  where it was published (from TABLES)
 * @property {string} [setup]   how it was measured there, when not the investigation's k=8 runs
 * @property {string} needs  what it needs, in words, for --list
 * @property {(ctx: Machine) => string | null} [unavailable]  why it cannot run here, or null
 * @property {(ctx: Machine) => string[]} [installs]  what a run installs first (Node releases)
 * @property {(ctx: Machine) => Variant[]} variants
 * @property {(data: import('./data.js').ExperimentData) => ClaimVerdict[]} verdicts
 * @property {'grid'} [shape]  how its table is drawn; a row per variant unless given
 * @property {(variants: Variant[], data: import('./data.js').ExperimentData) => ExperimentTable} [table]  its own
 *   table (the task's metrics beside the published figures), instead of workers / procs
 * @property {number} [k]  the k every variant runs at (a single process, as published), not -k
 * @property {boolean} [windowOnly]  its claims read what its timed windows traced, which a fresh
 *   worker's first ops (protocols.js, `fresh`) have no reading of
 * @property {(ctx: Machine) => string | null} [premise]  what upstream changed under its claim,
 *   on the Node the cells run on (said beside the claim in --list and the report)
 *
 * @typedef {{ jemalloc: { path: string | null, why?: string | null }, thp?: { why: string | null },
 *   trace?: { why: string | null }, nodes?: FixNode[], node?: { version: string, poolSize?: number } }} Machine
 *   what this machine offers the experiments (a saved run's report knows its jemalloc and its
 *   nodes); node: the Node the cells run on, and its default pool
 * @typedef {import('../../saved/reproduce-file.js').FixNode} FixNode  a Node node-fix runs on
 * @typedef {import('./variant.js').ExperimentTable} ExperimentTable
 * @typedef {{ claim: string } & import('./verdict.js').Verdict} ClaimVerdict
 */

/** @typedef {keyof typeof TABLES} TableName */

const POOL_CHANGE = /** @type {import('../../reference/node-changes.js').NodeChange} */ (
  NODE_CHANGES.find((change) => change.id === 'pool-64k')
);

/**
 * @param {TableName} name
 * @param {string} label
 * @returns {Record<string, unknown> | undefined}
 */
const published = (name, label) =>
  /** @type {Array<{ label: string }>} */ (TABLES[name].rows).find((row) => row.label === label);
/** @type {Array<'workers'|'procs'>} */
const procsOnly = ['procs'];

/**
 * The default pool of the Node the cells run on, as a column's name (`64k`); null when not known
 * (a saved run from before it was recorded).
 * @param {Machine} ctx
 */
const defaultPool = (ctx) => (ctx.node?.poolSize ? `${ctx.node.poolSize / 1024}k` : null);

/**
 * What upstream did to the pool's default, on the Node the cells run on.
 * @param {Machine} ctx
 */
const poolPremise = (ctx) => {
  const pool = defaultPool(ctx);
  if (!pool || !ctx.node) return null;
  return pool === '64k'
    ? `on Node ${ctx.node.version} Buffer.poolSize is 64 KiB by default: upstream raised it from 8 KiB in ${sinceText('pool-64k')} (${POOL_CHANGE.source}), Hypothesis 5c's answer, so the 8k pool here is the old default, set by hand`
    : `on Node ${ctx.node.version} Buffer.poolSize is ${pool.replace('k', ' KiB')} by default (64 KiB from ${sinceText('pool-64k')}, ${POOL_CHANGE.source})`;
};

// The claims in words, each tested by the 95% interval of a per-round ratio (verdict.js).
const claim = (/** @type {string} */ text, /** @type {import('./verdict.js').Verdict} */ verdict) => ({
  claim: text,
  ...verdict,
});

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
    unavailable: (ctx) => (ctx.jemalloc.path ? null : (ctx.jemalloc.why ?? 'no jemalloc')),
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
        env: { LD_PRELOAD: ctx.jemalloc.path ?? '' },
        published: published('jemalloc', 'jemalloc 64 KiB'),
      },
      {
        id: 'glibc-8m',
        label: 'glibc 8 MiB',
        task: 'readfilesync',
        file: 'huge',
        // an 8 MiB read is slow next to the default file's: --quick reads fewer
        quickIterations: 20,
        published: published('jemalloc', 'glibc 8 MiB'),
      },
      {
        id: 'jemalloc-8m',
        label: 'jemalloc 8 MiB',
        task: 'readfilesync',
        file: 'huge',
        env: { LD_PRELOAD: ctx.jemalloc.path ?? '' },
        // an 8 MiB read is slow next to the default file's: --quick reads fewer
        quickIterations: 20,
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
    unavailable: (ctx) => ctx.thp?.why ?? null,
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
  {
    name: 'locks',
    hypothesis: 'Hypothesis 8',
    windowOnly: true,
    needs: 'root, bpftrace, tracefs (as `mmapbench trace`)',
    unavailable: (ctx) => ctx.trace?.why ?? null,
    table: locksTable,
    variants: () => [
      {
        id: 'sync',
        label: 'readFileSync 64 KiB',
        task: 'readfilesync',
        file: 'med',
        trace: true,
        published: published('locks', 'readFileSync 64 KiB'),
      },
      {
        id: 'async',
        label: 'readFile 64 KiB (C=8)',
        task: 'readfile-async',
        file: 'med',
        params: { concurrency: 8 },
        trace: true,
        published: published('locks', 'readFile 64 KiB (C=8)'),
      },
    ],
    // per write acquisition and in total, for each setting, as the published table gives them
    verdicts: (d) =>
      [
        ['sync', '17.7x', '38.9x'],
        ['async', '12.1x', '22.3x'],
      ].flatMap(([id, perAcquisition, total]) => [
        claim(
          `${id}: workers wait longer than procs per write acquisition (published ${perAcquisition})`,
          above(
            d.lockRatio(id, (w) => w.avgNs),
            1,
            'avg write wait workers/procs',
          ),
        ),
        claim(
          `${id}: workers wait longer than procs in total (published ${total})`,
          above(
            d.lockRatio(id, (w) => w.totalNs),
            1,
            'total write wait workers/procs',
          ),
        ),
      ]),
  },
  {
    name: 'clog',
    hypothesis: "Node PR 'fs: partition readFile'",
    needs: 'nothing',
    k: 1,
    variants: () => {
      const variants = [];
      for (const [file, size] of [
        ['1k', '1 KiB'],
        ['16m', '16 MiB'],
      ]) {
        for (const concurrency of [1, 10]) {
          for (const partition of [null, '8k', ...(file === '16m' && concurrency === 10 ? ['512k'] : [])]) {
            const how = partition === null ? 'whole' : partition === '8k' ? 'partitioned' : 'partitioned 512k';
            const label = `${size}, ${concurrency} in flight, ${how}`;
            variants.push({
              id: `${file}-c${concurrency}-${partition ?? 'whole'}`,
              label,
              task: 'threadpool-clog',
              file,
              params: { concurrency, ...(partition ? { partition } : {}) },
              modes: procsOnly,
              k: 1,
              // a 16 MiB read in 8 KiB requests is slower still at 1 in flight: --quick reads a few
              quickIterations: file === '16m' ? 4 : 20,
              published: TABLES.clog.rows.find((row) => row.label === label),
            });
          }
        }
      }
      return variants;
    },
    table: clogTable,
    verdicts: (d) => [
      claim(
        'partitioning leaves 1 KiB reads unchanged (partitioned / whole reads within ±10% at 1 and 10 in flight; published 1.04, 1.00)',
        all(
          [1, 10].map((c) =>
            within(d.relative(`1k-c${c}-8k`, `1k-c${c}-whole`, 'procs'), [0.9, 1.1], `${c} in flight`),
          ),
        ),
      ),
      claim(
        'partitioning costs 16 MiB reads at 10 in flight (partitioned / whole below 1; published 623 / 2,759 = 0.23)',
        below(d.relative('16m-c10-8k', '16m-c10-whole', 'procs'), 1, 'reads partitioned / whole'),
      ),
      claim(
        'partitioning multiplies the zips at 16 MiB, 10 in flight (at least 10x; published 61,745 / 703 = 88x)',
        above(d.relative('16m-c10-8k', '16m-c10-whole', 'procs', 'zipsPerSec'), 10, 'zips partitioned / whole'),
      ),
    ],
  },
  {
    name: 'promises',
    hypothesis: 'nodejs/node#63886: fs/promises overhead',
    needs: 'nothing',
    k: 1,
    variants: () =>
      ['readFile', 'writeFile', 'stat'].flatMap((op) =>
        [1, 10, 64].map((concurrency) => ({
          id: `${op}-c${concurrency}`,
          label: `${op === 'stat' ? 'stat' : `${op} 1 KiB`}, ${concurrency} in flight`,
          task: 'fs-promises',
          file: '1k',
          params: { op, concurrency },
          modes: procsOnly,
          k: 1,
          published: {
            gain: TABLES.promises.rows.find((row) => row.label.startsWith(op))?.gains[
              /** @type {1 | 10 | 64} */ (concurrency)
            ],
          },
        })),
      ),
    table: promisesTable,
    verdicts: (d) => {
      const ratio = (/** @type {string} */ op, /** @type {number} */ c) =>
        d.withinCell(`${op}-c${c}`, 'procs', 'promisesPerSec', 'callbacksPerSec');
      const ops = ['readFile', 'writeFile', 'stat'];
      return [
        claim(
          'at 64 in flight promises are slower than callbacks for every op (promises / callbacks below 1)',
          all(ops.map((op) => below(ratio(op, 64), 1, op))),
        ),
        claim(
          'the overhead is about what the fix gains: promises / callbacks at 64 in flight within 0.65-0.89 (1/1.53 to 1/1.12) for every op',
          all(ops.map((op) => within(ratio(op, 64), [0.65, 0.89], op))),
        ),
        claim(
          'the overhead grows with concurrency: promises / callbacks lower at 64 in flight than at 1 (readFile)',
          below(
            d.relative('readFile-c64', 'readFile-c1', 'procs', 'promisesToCallbacks'),
            1,
            'readFile promises/callbacks at 64 / at 1',
          ),
        ),
      ];
    },
  },
  {
    name: 'throttle',
    hypothesis: 'article: unthrottled Promise.all',
    needs: 'nothing',
    k: 1,
    variants: () =>
      [1000, 10000].map((batch) => ({
        id: `batch-${batch}`,
        label: `${batch.toLocaleString('en-US')} jobs at once, or 16 through p-limit`,
        task: 'throttle',
        file: 'small',
        params: { batch, limit: 16 },
        // a fan-out of `batch` jobs needs that many in the cell, whatever --duration would pick
        iterations: batch,
        modes: procsOnly,
        k: 1,
      })),
    table: throttleTable,
    verdicts: (d) => [
      claim(
        'an unthrottled Promise.all holds about a descriptor per job (peak fds at least half the jobs it started, 10,000 at once)',
        above(d.withinCell('batch-10000', 'procs', 'allPeakFds', 'allFanOut'), 0.5, 'peak fds / jobs started'),
      ),
      claim(
        'a queue of 16 keeps descriptors small (p-limit peak fds / Promise.all peak fds below 0.1, 10,000 jobs)',
        below(d.withinCell('batch-10000', 'procs', 'limitPeakFds', 'allPeakFds'), 0.1, 'p-limit / Promise.all fds'),
      ),
      claim(
        'the queue keeps the event loop responsive (worst loop delay through p-limit / Promise.all below 1, 10,000 jobs)',
        below(
          d.withinCell('batch-10000', 'procs', 'limitLoopDelayMaxMs', 'allLoopDelayMaxMs'),
          1,
          'p-limit / Promise.all worst delay',
        ),
      ),
      claim(
        'bounding saves wall time here too (Promise.all / p-limit wall time above 1; published 115 s / 9 s = 12.8x, from glibc fclose on FILE*, which Node fs does not use)',
        above(d.withinCell('batch-10000', 'procs', 'allWallMs', 'limitWallMs'), 1, 'Promise.all / p-limit wall time'),
      ),
    ],
  },
];

for (const experiment of EXPERIMENTS) {
  /** @type {{ claim: string, source: string, setup?: string }} */
  const table = TABLES[/** @type {TableName} */ (experiment.name)];
  experiment.claim = table.claim;
  experiment.source = table.source;
  experiment.setup = table.setup;
}

export { EXPERIMENT_NAMES };
if (EXPERIMENTS.map((e) => e.name).join() !== EXPERIMENT_NAMES.join())
  throw new Error('names.js must list the experiments of experiments.js, in order');

/** The modes a variant runs in. */
export const variantModes = (/** @type {Variant} */ variant) => variant.modes ?? MODES;
