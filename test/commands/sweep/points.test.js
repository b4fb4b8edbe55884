import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepSettings } from '../../../src/commands/sweep/points.js';

const request = (axes, shared = {}) => ({
  axes: {
    node: [undefined],
    task: [undefined],
    variant: [{ name: 'default', env: {} }],
    file: [undefined],
    params: {},
    k: [undefined],
    ...axes,
  },
  shared: { command: 'compare', env: { SHARED: '1' }, params: {}, ...shared },
});

test('the points are the product of the axes, k varying fastest, then parameters, file, variant, task, node', () => {
  const points = sweepSettings(
    request({
      k: [1, 2],
      file: ['4k', '1m'],
      variant: [
        { name: 'default', env: {} },
        { name: 'a1', env: { MALLOC_ARENA_MAX: '1' } },
      ],
      params: { poolSize: [8192, 262144] },
    }),
  );
  assert.equal(points.length, 16);
  assert.deepEqual(
    points.slice(0, 5).map((p) => [p.id, p.at.variant.name, p.at.file, p.at.params.poolSize, p.at.k]),
    [
      ['p1', 'default', '4k', 8192, 1],
      ['p2', 'default', '4k', 8192, 2],
      ['p3', 'default', '4k', 262144, 1],
      ['p4', 'default', '4k', 262144, 2],
      ['p5', 'default', '1m', 8192, 1],
    ],
  );
  assert.equal(points[8].at.variant.name, 'a1');
});

test("a point's options: the shared ones, its variant's variables over --env, its own k, file and parameters", () => {
  const [, second] = sweepSettings(
    request(
      { k: [1, 8], variant: [{ name: 'a1', env: { MALLOC_ARENA_MAX: '1', SHARED: 'variant' } }] },
      { rounds: 3, params: { size: 4096 } },
    ),
  );
  assert.equal(second.options.command, 'compare');
  assert.equal(second.options.k, 8);
  assert.equal(second.options.rounds, 3);
  assert.deepEqual(second.options.env, { SHARED: 'variant', MALLOC_ARENA_MAX: '1' });
  assert.deepEqual(second.options.params, { size: 4096 });
});

test('more than 64 points is a usage error unless --force', () => {
  const k = Array.from({ length: 65 }, (_, i) => i + 1);
  assert.throws(
    () => sweepSettings(request({ k })),
    (error) => {
      assert.equal(error.kind, 'usage');
      assert.match(error.message, /^the sweep has 65 points \(65\), more than 64; shorten a list, or pass --force/);
      return true;
    },
  );
  assert.equal(sweepSettings(request({ k }, { force: true })).length, 65);
});
