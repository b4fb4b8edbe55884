// What a run leaves behind and what reads it back: the saved document, `report` (terminal,
// markdown) and `diff`, end to end through the real CLI; diff of two real runs and the HTML page
// in a real browser are in test/long/results.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-results-test-'));
const savedPath = (result) => result.stderr.match(/^mmapbench: saved (\S+)$/m)?.[1];
const lastLine = (text) => text.trimEnd().split('\n').at(-1);

test('compare saves the --json document, says where last, and report prints it exactly as the run did', async () => {
  const out = folder();
  // the same with --markdown: test/long/results.test.js
  const live = await cli(['compare', '--smoke', '--out', out]);
  assert.equal(live.exitCode, 0, live.stderr);
  const path = savedPath(live);
  assert.equal(lastLine(live.stderr), `mmapbench: saved ${path}`);
  assert.match(path, new RegExp(`^${out}/compare-\\d{8}T\\d{6}\\.\\d{3}Z\\.json$`));
  const again = await cli(['report', path]);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.equal(again.stdout, live.stdout);
  assert.equal(readdirSync(out).length, 1, 'one file per run, nothing else left in --out');
  const json = await cli(['compare', '--smoke', '--json', '--out', out]);
  const document = JSON.parse(json.stdout);
  assert.deepEqual(JSON.parse(readFileSync(savedPath(json), 'utf8')), document);
  assert.equal(document.schema, 2);
});

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
