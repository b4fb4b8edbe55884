// The lock trace (Hypothesis 8) and the related sources' own benchmarks: the threadpool
// clog, promises and throttling.
import { TABLES } from '../../reference/published.js';
import { above, all, below, within } from './verdict.js';
import { clogTable, locksTable, promisesTable, throttleTable } from './tables.js';
import { claim, procsOnly } from './experiment-parts.js';

/**
 * @typedef {import('./experiment-parts.js').Experiment} Experiment
 * @typedef {import('./experiment-parts.js').Variant} Variant
 */

/** @type {import('./experiment-parts.js').Definition[]} */
export const RELATED_EXPERIMENTS = [
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
        trace: true,
      },
      {
        id: 'async',
        label: 'readFile 64 KiB (C=8)',
        task: 'readfile-async',
        params: { concurrency: 8 },
        trace: true,
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
