// A project's own performance test, with node:test: threads must not fall far behind processes
// on this project's hot path. Run it with `node --test`; in CI, as part of the test suite.
// Only the public entry point: `import ... from 'mmapbench'`, as a project that installed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare } from 'mmapbench';

test('Worker threads keep up with child processes on JSON work', async () => {
  // three rounds of short cells: an interval in a few seconds. A real gate takes longer
  // (maxTime: 30) and its own task module (task: './bench/hot-path.mjs').
  const result = await compare({ task: 'json', k: 2, rounds: 3, duration: 0.1 });
  assert.equal(result.status, 'complete');
  // a compare's one point, laid out as each of a sweep's
  const [{ ratio }] = result.points;
  const [low, high] = ratio.ci95;
  assert.ok(low <= ratio.geomean && ratio.geomean <= high);
  // the gate: the whole 95% CI of workers/procs above 0.1, threads surely not ten times slower
  assert.ok(low > 0.1, `workers/procs ${ratio.geomean.toFixed(2)} (95% CI ${low.toFixed(2)}-${high.toFixed(2)})`);
});
