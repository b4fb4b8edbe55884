// Files saved by an earlier mmapbench load in this one's layout: each old fixture goes through the
// migration (saved/migrate.js) and comes out at SCHEMA, with what its readers no longer guess at
// filled in, valid against the results schema, and the file and the caller's object untouched.
// What each prints is test/view/outputs.test.js's: every kept output as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSaved, checkDocument } from '../../src/commands/index.js';
import { upgraded, upgradedHeader } from '../../src/saved/migrate.js';
import { readResultsFile } from '../../src/saved/reproduce-file.js';
import { firstBadField } from '../../src/saved/validate.js';
import { SCHEMA } from '../../src/version.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
// the fixtures saved at this layout: each other was saved at schema 1
const TODAY = ['compare-ramp.json', 'sweep-ramp.json'];
const OLD = readdirSync(SAVED).filter((name) => name.endsWith('.json') && !TODAY.includes(name));

test('the layout is at schema 2, and every kept fixture but those of today was saved at 1', () => {
  assert.equal(SCHEMA, 2);
  assert.ok(OLD.length >= 18, OLD.join(' '));
  for (const name of OLD) assert.equal(JSON.parse(readFileSync(SAVED + name, 'utf8')).schema, 1, name);
  for (const name of TODAY) assert.equal(JSON.parse(readFileSync(SAVED + name, 'utf8')).schema, SCHEMA, name);
});

for (const name of OLD)
  test(`${name} loads through the migration`, () => {
    const text = readFileSync(SAVED + name, 'utf8');
    const { document } = loadSaved(SAVED + name);
    assert.equal(document.schema, SCHEMA);
    assert.equal(firstBadField(document), null);
    assert.equal(readFileSync(SAVED + name, 'utf8'), text, 'the file is only read');
    if (document.axes) {
      assert.ok(document.axes.cycles.length >= 1, 'a sweep has its cycles axis');
      for (const point of document.points) assert.equal(typeof point.cycles, 'number', point.id);
    }
    if (document.advice) {
      const { advice } = document;
      assert.ok(['throughput', 'memory', 'main-latency', 'kept-memory'].includes(advice.for), advice.for);
      assert.ok(Array.isArray(advice.defaults));
      assert.ok('bestProcs' in advice);
      const savedRows = JSON.parse(text).advice.rows;
      advice.rows.forEach((row, i) => {
        assert.ok(['workers', 'procs'].includes(row.mode), row.name);
        // a row saved before rows had a score was ranked by its throughput gain
        assert.deepEqual(row.score, 'score' in savedRows[i] ? savedRows[i].score : row.gain, row.name);
        assert.ok('rank' in row, row.name);
      });
    }
  });

test("schema 1's advise ranked by throughput, in the workers, each row by its gain", () => {
  const { document } = loadSaved(SAVED + 'advise.json');
  const saved = JSON.parse(readFileSync(SAVED + 'advise.json', 'utf8'));
  assert.ok(!('for' in saved.advice) && !('mode' in saved.advice.rows[1]) && !('score' in saved.advice.rows[1]));
  assert.equal(document.advice.for, 'throughput');
  assert.equal(document.advice.rows[1].mode, 'workers');
  assert.deepEqual(document.advice.rows[1].score, saved.advice.rows[1].gain);
  assert.deepEqual(document.advice.defaults, []);
  assert.equal(document.advice.bestProcs, null);
});

test('a kept sweep from before --cycles goes on with the default cycles', () => {
  const saved = JSON.parse(readFileSync(SAVED + 'sweep.json', 'utf8'));
  const kept = { ...saved, status: 'incomplete', resume: { axes: { k: [1, 2], file: [null] } } };
  const document = upgraded(kept);
  assert.deepEqual(document.resume.axes.cycles, [null]);
  assert.deepEqual(document.axes.cycles, [1]);
  assert.ok(!('cycles' in kept.resume.axes), "the caller's object is not changed");
});

test("schema 1's reproduce header: 5%, steady cells, the CLI's node alone", () => {
  const { header } = readResultsFile(SAVED + 'reproduce.jsonl');
  assert.equal(header.schema, SCHEMA);
  const old = upgradedHeader({ type: 'run', options: { k: 2 } });
  assert.deepEqual(old, { type: 'run', options: { k: 2, precision: 0.05, protocol: 'steady' }, nodes: [], schema: 2 });
  const kept = { type: 'run', options: { precision: 0.1, protocol: 'published' }, nodes: ['24'] };
  assert.deepEqual(upgradedHeader(kept), { ...kept, schema: 2 }, 'what it has, it keeps');
});

test("a reproduce file of a newer mmapbench's schema is refused, as a document is", () => {
  const file = join(mkdtempSync(join(tmpdir(), 'mmapbench-migrate-')), 'results.jsonl');
  writeFileSync(file, `${JSON.stringify({ type: 'run', mmapbench: '9.0.0', schema: SCHEMA + 1, options: {} })}\n`);
  assert.throws(
    () => readResultsFile(file),
    (error) => error.exitCode === 2 && /from a newer mmapbench .*upgrade mmapbench to read it$/.test(error.message),
  );
  writeFileSync(file, `${JSON.stringify({ type: 'run', schema: 0, options: {} })}\n`);
  assert.throws(() => readResultsFile(file), /has an invalid "schema" \(0\)/);
});

test('a document at this schema is returned as it is', () => {
  const { document } = loadSaved(SAVED + 'compare.json');
  assert.equal(upgraded(document), document);
  assert.equal(checkDocument(document, 'report(document)').document, document);
});
