// The results file is what survives a kill: header first, one record per line, and a line cut
// off mid-write dropped on resume so the next record starts cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendRecord, createResultsFile, readResultsFile } from '../../src/reproduce/results-file.js';

const temp = () => join(mkdtempSync(join(tmpdir(), 'mmapbench-results-')), 'out', 'results.jsonl');

test('header, then records in the order appended', () => {
  const file = temp();
  createResultsFile(file, { options: { quick: true } });
  appendRecord(file, { type: 'cell', round: 1 });
  appendRecord(file, { type: 'cell', round: 2 });
  const { header, records } = readResultsFile(file);
  assert.deepEqual(header, { type: 'run', options: { quick: true } });
  assert.deepEqual(records.map((r) => r.round), [1, 2]);
});

test('a new run never overwrites an existing results file', () => {
  const file = temp();
  createResultsFile(file, {});
  assert.throws(() => createResultsFile(file, {}), { code: 'EEXIST' });
});

test('a last line cut off by a kill is dropped from the file', () => {
  const file = temp();
  createResultsFile(file, {});
  appendRecord(file, { type: 'cell', round: 1 });
  appendFileSync(file, '{"type":"cell","rou');
  assert.equal(readResultsFile(file).records.length, 1);
  appendRecord(file, { type: 'cell', round: 2 });
  assert.deepEqual(readResultsFile(file).records.map((r) => r.round), [1, 2]);
  assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 3);
});

test('a file that is not a results file is a usage error naming it', () => {
  const file = temp();
  createResultsFile(file, {});
  writeFileSync(file, '{"type":"cell"}\n');
  assert.throws(() => readResultsFile(file), (error) => error.exitCode === 2 && /no run header on line 1/.test(error.message));
  writeFileSync(file, 'not json\n');
  assert.throws(() => readResultsFile(file), /line 1 is not JSON/);
  assert.throws(() => readResultsFile(`${file}.missing`), (error) => error.exitCode === 2 && /no such file/.test(error.message));
});
