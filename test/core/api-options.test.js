// The API's options object and the command line read into the same typed options: what a
// function is given and what was typed mean the same, in one unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optionsOf } from '../../src/core/command-options.js';
import { readObject, readOptions } from '../../src/core/option-spec.js';

const { specs } = optionsOf('compare');

test('{ precision: 0.05 } and --precision 5% are one precision, a fraction everywhere; a size and a warm-up read alike', () => {
  const api = readObject(
    { k: 2, precision: 0.05, margin: 0.1, size: '64k', warmup: 'steady', env: { MALLOC_ARENA_MAX: 1 } },
    specs,
    'compare',
  );
  const cli = readOptions(
    { k: '2', precision: '5%', margin: '10%', size: '65536', warmup: 'steady', env: ['MALLOC_ARENA_MAX=1'] },
    specs,
    'compare',
  );
  assert.deepEqual(api, cli);
  assert.equal(api.precision, 0.05, 'a fraction, as the plan and the saved file hold it');
  assert.equal(api.margin, 0.1, "the verdict's margin, read as --precision is");
  assert.equal(api.size, 65536);
});

test('a value of the wrong type is refused by the schema, naming the field; a wrong range by its option', () => {
  assert.throws(
    () => readObject({ rounds: '3' }, specs, 'compare'),
    /^MmapbenchError: rounds must be a number \(it is "3"\)/,
  );
  assert.throws(
    () => readObject({ main: 'sideways' }, specs, 'compare'),
    /^MmapbenchError: main must be one of on, off/,
  );
  assert.throws(() => readObject({ rounds: 0 }, specs, 'compare'), /^MmapbenchError: --rounds 0 is invalid/);
});
