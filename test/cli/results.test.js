// What a run leaves behind and what reads it back: the saved document, `report` (terminal,
// markdown) and `diff`, end to end through the real CLI; diff of two real runs and the HTML page
// in a real browser are in test/long/results.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-results-test-'));

test('an --out that cannot take the results stops the run before it measures anything', async () => {
  const dir = folder();
  const file = join(dir, 'a-file');
  writeFileSync(file, 'kept\n');
  const result = await cli(['compare', '--smoke', '--out', file]);
  assert.equal(result.exitCode, 2);
  assert.equal(result.stdout, '', 'nothing ran');
  assert.match(result.stderr, /^mmapbench: --out .*a-file: a file is in the way of a folder .*; pass --out a folder$/);
  assert.equal(readFileSync(file, 'utf8'), 'kept\n');
});
