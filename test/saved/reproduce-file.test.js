// The results file is what survives a kill: header first, one record per line. Resume never
// truncates it: a line cut off mid-write is skipped and ended with a newline, so the next record
// starts cleanly. As root it must never be a way to write someone else's file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendRecord, createResultsFile, readResultsFile } from '../../src/saved/reproduce-file.js';
import { victim } from '../helpers.js';
import { SCHEMA } from '../../src/version.js';

/** A cell record as a run appends it. */
const cell = (/** @type {number} */ round) => ({
  type: 'cell',
  experiment: 'gap',
  variant: 'default',
  round,
  mode: 'workers',
  cell: { throughput: 1000 },
});

const temp = () => join(mkdtempSync(join(tmpdir(), 'mmapbench-results-')), 'out', 'results.jsonl');

test('header, then records in the order appended', () => {
  const file = temp();
  createResultsFile(file, { schema: SCHEMA, options: { quick: true } });
  appendRecord(file, cell(1));
  appendRecord(file, cell(2));
  const { header, records } = readResultsFile(file);
  assert.deepEqual(header, { type: 'run', schema: SCHEMA, options: { quick: true } });
  assert.equal(statSync(file).mode & 0o777, 0o644);
  assert.deepEqual(
    records.map((r) => r.round),
    [1, 2],
  );
});

test('a new run never overwrites an existing results file', () => {
  const file = temp();
  createResultsFile(file, { options: {} });
  assert.throws(
    () => createResultsFile(file, {}),
    (error) => error.exitCode === 2 && /already exists; a new run never writes over results$/.test(error.message),
  );
});

test('a last line cut off by a kill is kept, ended with a newline by mend(), and skipped', () => {
  const file = temp();
  createResultsFile(file, { options: {} });
  appendRecord(file, cell(1));
  appendFileSync(file, '{"type":"cell","rou');
  const before = readFileSync(file, 'utf8');
  const read = readResultsFile(file);
  assert.equal(read.records.length, 1);
  assert.equal(read.cutLines, 1);
  assert.equal(readFileSync(file, 'utf8'), before, 'reading writes nothing');
  read.mend();
  assert.equal(readFileSync(file, 'utf8'), `${before}\n`, 'nothing truncated: a newline added');
  appendRecord(file, cell(2));
  assert.deepEqual(
    readResultsFile(file).records.map((r) => r.round),
    [1, 2],
  );
});

test('a file that is not ours is refused before anything is written to it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-results-'));
  const file = join(dir, 'notes.txt');
  const content = 'my notes\nsecond line, no newline at the end';
  writeFileSync(file, content);
  assert.throws(
    () => readResultsFile(file),
    (error) =>
      error.exitCode === 2 && /line 1 is not JSON; the file is not one mmapbench reproduce wrote/.test(error.message),
  );
  assert.equal(readFileSync(file, 'utf8'), content, 'not truncated');
});

test('records are appended only to our own file: a symbolic link in its place is refused', () => {
  const file = temp();
  createResultsFile(file, { options: {} });
  const target = victim();
  rmSync(file);
  symlinkSync(target.path, file);
  assert.throws(
    () => appendRecord(file, { type: 'cell' }),
    (error) => error.exitCode === 2 && /is a symbolic link/.test(error.message),
  );
  assert.equal(readFileSync(target.path, 'utf8'), target.content);
});

test('a file that is not a results file is a usage error naming it', () => {
  const file = temp();
  createResultsFile(file, { options: {} });
  writeFileSync(file, '{"type":"cell"}\n');
  assert.throws(
    () => readResultsFile(file),
    (error) => error.exitCode === 2 && /no run header on line 1/.test(error.message),
  );
  writeFileSync(file, 'not json\n');
  assert.throws(() => readResultsFile(file), /line 1 is not JSON/);
  assert.throws(
    () => readResultsFile(`${file}.missing`),
    (error) => error.exitCode === 2 && /no such file/.test(error.message),
  );
});
