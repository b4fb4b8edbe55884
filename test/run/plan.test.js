import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlan, parseEnv, resolveParams } from '../../src/run/plan.js';
import { loadTask } from '../../src/tasks/index.js';

test('--env takes KEY=VALUE, values may contain =', () => {
  assert.deepEqual(parseEnv(['MALLOC_ARENA_MAX=1', 'GLIBC_TUNABLES=glibc.malloc.trim_threshold=1']), {
    MALLOC_ARENA_MAX: '1',
    GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=1',
  });
  assert.throws(() => parseEnv(['FOO']), { kind: 'usage', message: /--env FOO is not KEY=VALUE/ });
  assert.throws(() => parseEnv(['=x']), { kind: 'usage' });
});

test('task parameters take defaults, flags and --param, and reject what the task lacks', async () => {
  const pool = await loadTask('pool-size');
  assert.deepEqual(resolveParams(pool, {}), { poolSize: 256 * 1024 });
  assert.deepEqual(resolveParams(pool, { poolSize: '1m' }), { poolSize: 1024 * 1024 });
  assert.deepEqual(resolveParams(pool, { param: ['poolSize=8k'] }), { poolSize: 8192 });
  assert.throws(() => resolveParams(pool, { concurrency: 4 }), { kind: 'usage', message: /has no parameter concurrency \(its parameters: --pool-size\)/ });
  const async = await loadTask('readfile-async');
  assert.deepEqual(resolveParams(async, { concurrency: 8 }), { concurrency: 8 });
  assert.throws(() => resolveParams(async, { param: ['concurrency=x'] }), { kind: 'usage' });
});

test('smoke plans are small; k above the CPU count warns', async () => {
  const smoke = await buildPlan({ smoke: true }, 'compare');
  assert.equal(smoke.iterations, 20);
  assert.equal(smoke.duration, null);
  assert.equal(smoke.rounds, 2);
  const wide = await buildPlan({ k: 64, iterations: 5 }, 'workers');
  assert.equal(wide.rounds, 1);
  assert.match(wide.warnings[0], /-k 64 exceeds/);
  const timed = await buildPlan({}, 'compare');
  assert.equal(timed.iterations, null);
  assert.equal(timed.duration, 1);
  assert.equal(timed.rounds, 5);
});

test('a --duration close to --timeout is warned about; k beyond the cap needs --force', async () => {
  const plan = await buildPlan({ duration: 5, timeout: 6, k: 1 }, 'compare');
  assert.ok(plan.warnings.some((w) => /^--duration 5 is close to --timeout 6: .* raise --timeout$/.test(w)), plan.warnings.join('\n'));
  const fine = await buildPlan({ duration: 1, timeout: 300, k: 1 }, 'compare');
  assert.equal(fine.warnings.length, 0);
  await assert.rejects(buildPlan({ k: 100000, iterations: 1 }, 'procs'), { kind: 'usage', message: /pass --force/ });
  assert.equal((await buildPlan({ k: 100000, force: true, iterations: 1 }, 'procs')).k, 100000);
});
