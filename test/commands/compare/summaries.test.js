// A compare's further measures: each mode's figure and their ratio from the same rounds, and no
// percentile from fewer timings than it needs (round five, rows 11 and 12).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureRatios, measureSummaries } from '../../../src/commands/compare/summaries.js';
import { timingsFor } from '../../../src/stats/pooled.js';

const MiB = 2 ** 20;
const rounded = (/** @type {number[]} */ values) => values.map((value) => Number(value.toFixed(6)));
/** A cell of K=1 whose tree added `mib` MiB (null: no figure), its app's timer ticking `lags` (ns). */
const cell = (/** @type {number | null} */ mib, /** @type {number[]} */ lags = []) =>
  /** @type {any} */ ({
    throughput: 1000,
    workers: [{}],
    memory:
      mib === null
        ? { anonBytes: null, anonymousBefore: 10 * MiB }
        : { anonBytes: (10 + mib) * MiB, anonymousBefore: 10 * MiB },
    main: lags.length
      ? {
          alone: null,
          buffersAdded: 0,
          during: { lag: { ticks: lags.length, p99Ns: Math.max(...lags), histogram: lags.map((ns) => [ns, 1]) } },
        }
      : null,
  });

test('row 12: a mode figure and its ratio come from the same rounds: those whose two cells both have it', () => {
  // round 1 both measured; round 2's procs cell none (its workers' 17.3 MiB counts nowhere)
  const workers = [cell(3.8), cell(17.3)];
  const procs = [cell(11.3), cell(null)];
  const complete = workers.map((w, i) => ({ cells: { workers: w, procs: procs[i] } }));
  const ratio = /** @type {any} */ (measureRatios(/** @type {any} */ (complete))).addedMemory;
  const [w, p] = [measureSummaries(workers, procs).addedMemory, measureSummaries(procs, workers).addedMemory];
  assert.deepEqual(rounded(w.samples), [3.8]);
  assert.deepEqual(rounded(p.samples), [11.3]);
  assert.equal(ratio.n, 1);
  assert.ok(Math.abs(ratio.geomean - w.median / p.median) < 1e-9);
  // alone (a workers or procs run), every cell that has it
  assert.deepEqual(rounded(measureSummaries(workers).addedMemory.samples), [3.8, 17.3]);
});

test('row 11: no p99 of a few timer ticks, pooled or per mode: the row is left out until 100 are timed', () => {
  assert.equal(timingsFor(99), 100);
  assert.equal(timingsFor(99.9), 1000);
  const few = [cell(1, [1000, 200_000]), cell(1, [1000])];
  const others = [cell(1, [150_000, 230_000]), cell(1, [1000, 2000])];
  assert.equal(measureSummaries(few, others).lagP99Ms, undefined);
  const complete = few.map((w, i) => ({ cells: { workers: w, procs: others[i] } }));
  assert.equal(/** @type {any} */ (measureRatios(/** @type {any} */ (complete)))?.lagP99Ms, undefined);
  // 100 ticks a mode: a p99 and a ratio that agrees with it
  const many = (/** @type {number} */ ns) =>
    cell(
      1,
      Array.from({ length: 100 }, (_, i) => ns + i * 1000),
    );
  const w = [many(100_000)];
  const p = [many(200_000)];
  const row = measureSummaries(w, p).lagP99Ms;
  const ratio = /** @type {any} */ (measureRatios([{ cells: { workers: w[0], procs: p[0] } }]))?.lagP99Ms;
  assert.ok(row?.pooled && ratio);
  assert.ok(
    Math.abs(
      ratio.geomean -
        /** @type {number} */ (row.pooled) / /** @type {number} */ (measureSummaries(p, w).lagP99Ms.pooled),
    ) < 1e-9,
  );
});
