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
import { upgraded } from '../../src/saved/migrate.js';
import { firstBadField } from '../../src/saved/validate.js';
import { SCHEMA } from '../../src/version.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
// the fixtures saved at schema 2: each other was saved at schema 1
const TWO = ['compare-ramp.json', 'sweep-ramp.json', 'reproduce-gap.json', 'compare-pool-interrupted.json'];
// at schema 3, a compare's figures at its top level
const THREE = ['compare-five.json', 'compare-two-states.json', 'compare-turns.json', 'compare-plain-trees.json'];
// and at this layout
const TODAY = ['compare-points.json'];
const OLD = readdirSync(SAVED).filter((name) => name.endsWith('.json') && !TODAY.includes(name));

test('the layout is at schema 4, and every kept fixture but those of today was saved at 1, 2 or 3', () => {
  assert.equal(SCHEMA, 4);
  assert.ok(OLD.length >= 26, OLD.join(' '));
  for (const name of OLD)
    assert.equal(
      JSON.parse(readFileSync(SAVED + name, 'utf8')).schema,
      THREE.includes(name) ? 3 : TWO.includes(name) ? 2 : 1,
      name,
    );
  for (const name of TODAY) assert.equal(JSON.parse(readFileSync(SAVED + name, 'utf8')).schema, SCHEMA, name);
});

test("schema 3 to 4: a compare's figures and rounds move, as they were, into its one point, and its rounds' order is said", () => {
  for (const name of ['compare-plain-trees.json', 'workers.json', 'trace-compare.json']) {
    const saved = JSON.parse(readFileSync(SAVED + name, 'utf8'));
    const { document } = loadSaved(SAVED + name);
    const [point] = document.points;
    assert.equal(document.points.length, 1, name);
    assert.equal(point.id, 'p1');
    for (const key of ['rounds', 'workers', 'procs', 'ratio', 'verdict', 'calibration', 'sizing', 'stop', 'trace'])
      if (key in saved) {
        assert.ok(!(key in document), `${name}: ${key} left at the top`);
        // a verdict schema 3 read again stays as it read it
        if (key !== 'verdict' && key !== 'ratio') assert.deepEqual(point[key], saved[key], `${name}: ${key}`);
      }
    assert.equal(point.seconds, saved.seconds);
    for (const key of ['config', 'environment', 'machine', 'status', 'command'])
      assert.deepEqual(document[key], saved[key], `${name}: ${key}`);
    assert.deepEqual(
      document.order.map((/** @type {{ index: number }} */ round) => round.index),
      saved.rounds.map((/** @type {{ index: number }} */ round) => round.index),
    );
  }
});

test('schema 2 to 3: a verdict read from two rounds is read again as none, with no half-width', () => {
  const saved = JSON.parse(readFileSync(SAVED + 'compare-pool-interrupted.json', 'utf8'));
  assert.equal(saved.ratio.samples.length, 2);
  assert.equal(saved.verdict.outcome, 'workers', 'as 27ce800 saved it');
  const [document] = loadSaved(SAVED + 'compare-pool-interrupted.json').document.points;
  assert.equal(document.verdict.outcome, 'inconclusive');
  assert.equal(document.verdict.interval, null);
  assert.equal(document.verdict.significant, false);
  assert.equal(document.ratio.halfWidth, null);
  assert.deepEqual(document.ratio.samples, saved.ratio.samples, 'its figures as they were');
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

test("schema 1's reproduce run: 5%, steady cells, the CLI's node alone", () => {
  const { document } = loadSaved(SAVED + 'reproduce.jsonl');
  assert.equal(document.schema, SCHEMA);
  const old = { command: 'reproduce', options: { k: 2 } };
  assert.deepEqual(upgraded(old), {
    ...old,
    options: { k: 2, precision: 0.05, protocol: 'steady' },
    nodes: [],
    schema: SCHEMA,
  });
  const kept = { command: 'reproduce', options: { precision: 0.1, protocol: 'published' }, nodes: ['24'] };
  assert.deepEqual(upgraded(kept), { ...kept, schema: SCHEMA }, 'what it has, it keeps');
});

/** A reproduce run as an earlier mmapbench saved it: a header line, then a record per line. */
const lines = (/** @type {object[]} */ records, header = {}) => {
  const { document } = loadSaved(SAVED + 'reproduce.jsonl');
  const { command, status, error, records: kept, skipped, ...fields } = document;
  const file = join(mkdtempSync(join(tmpdir(), 'mmapbench-migrate-')), 'results.jsonl');
  const text = [{ type: 'run', ...fields, ...header }, ...records].map((r) => JSON.stringify(r)).join('\n');
  writeFileSync(file, `${text}\n`);
  return { file, cell: kept.find((/** @type {any} */ r) => r.type === 'cell') };
};

test('a reproduce run saved as lines loads as the document reproduce saves now', () => {
  const { file, cell } = lines([]);
  writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(cell)}\n{"type":"cell","rou`);
  const before = readFileSync(file, 'utf8');
  const { kind, document } = loadSaved(file);
  assert.equal(kind.name, 'reproduce');
  assert.equal(document.command, 'reproduce');
  assert.equal(document.records.length, 1, 'the line a kill cut off is left out: its cell runs again');
  assert.equal(document.status, 'incomplete', 'no end record: killed');
  assert.equal(readFileSync(file, 'utf8'), before, 'reading writes nothing');
  const ended = (/** @type {string} */ status) =>
    loadSaved(lines([cell, { type: 'end', status, skipped: [{ name: 'thp', reason: 'needs root' }] }]).file).document;
  assert.deepEqual(ended('complete').skipped, [{ name: 'thp', reason: 'needs root' }]);
  assert.equal(ended('interrupted: resume with --resume').status, 'interrupted');
  const failed = ended('failed: a cell timed out: it ran 60 s');
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error.message, 'a cell timed out: it ran 60 s');
  assert.equal(kind.status(failed), 'failed: a cell timed out: it ran 60 s', 'printed as it was saved');
});

test('a reproduce file saved as lines is checked as any document: a bad record, a newer schema', () => {
  const { file, cell } = lines([]);
  writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify({ ...cell, round: 0 })}\n`);
  assert.throws(
    () => loadSaved(file),
    (error) => error.exitCode === 2 && /records\[0\]\.round/.test(error.message),
  );
  assert.throws(
    () => loadSaved(lines([], { mmapbench: '9.0.0', schema: SCHEMA + 1 }).file),
    (error) => error.exitCode === 2 && /from a newer mmapbench .*upgrade mmapbench to read it$/.test(error.message),
  );
  assert.throws(() => loadSaved(lines([], { schema: 0 }).file), /has an invalid "schema" \(0\)/);
  writeFileSync(file, '{"type":"run","options":{}\nnot json\n');
  assert.throws(
    () => loadSaved(file),
    (error) => error.exitCode === 2 && /line 1 is not JSON/.test(error.message),
  );
});

test('a document at this schema is returned as it is', () => {
  const { document } = loadSaved(SAVED + 'compare.json');
  assert.equal(upgraded(document), document);
  assert.equal(checkDocument(document, 'report(document)').document, document);
});
