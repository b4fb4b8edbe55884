import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUFFER_OPTION,
  hasBufferOption,
  hasChange,
  NODE_CHANGES,
  sinceText,
} from '../../src/reference/node-changes.js';

test('every upstream change names its source, a probe, and a first release (or none) in each supported line', () => {
  for (const change of NODE_CHANGES) {
    assert.match(change.source, /nodejs\/node#\d+/, change.id);
    assert.ok(change.probe === null || change.probe.length > 0, change.id);
    assert.ok(change.premise.length > 0, change.id);
    assert.deepEqual(Object.keys(change.since), ['20', '22', '24', '26'], change.id);
    for (const [line, since] of Object.entries(change.since))
      assert.ok(since === null || since.startsWith(`${line}.`), `${change.id}: ${since} is in line ${line}`);
  }
});

test("a release has a change from its line's first release on, and every later major has it", () => {
  assert.equal(hasChange('pool-64k', 'v24.17.0'), false);
  assert.equal(hasChange('pool-64k', 'v24.18.0'), true);
  assert.equal(hasChange('pool-64k', 'v26.2.0'), false);
  assert.equal(hasChange('pool-64k', 'v26.3.0'), true);
  assert.equal(hasChange('pool-64k', 'v22.23.3'), false);
  assert.equal(hasChange('pool-64k', 'v25.9.0'), false, 'an odd line the table does not name, before the newest');
  assert.equal(hasChange('pool-64k', 'v28.0.0'), true);
  assert.equal(hasChange('lazy-stat-arrays', 'v26.8.0-alpha.0.0.0'), true, "the registry's 26.8.0 calls itself so");
  assert.equal(hasChange('partitioned-readfile', 'v20.20.2'), true);
  assert.equal(hasBufferOption('v24.19.0'), true);
  assert.deepEqual(BUFFER_OPTION.since, ['24.19.0', '26.4.0']);
  assert.equal(sinceText('pool-64k'), '24.18.0 and 26.3.0');
  assert.throws(() => hasChange('nothing', 'v24.0.0'), /no Node change nothing/);
});
