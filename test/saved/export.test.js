// The exports dashboards read, checked against the shapes their tools document: an array of
// { name, unit, value, range?, extra? } for github-action-benchmark's custom tools, and
// { benchmark: { measure: { value, lower_value?, upper_value? } } } for Bencher.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSaved } from '../../src/commands/index.js';
import { exportOf, readExports, writeExports } from '../../src/saved/export.js';
import { pointsOf } from '../../src/saved/load.js';
import { assertActionBenchmark, assertBencher, fixture } from '../helpers.js';

const compare = loadSaved(fixture('saved/compare.json'));
const sweep = loadSaved(fixture('saved/sweep.json'));
const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-export-'));

test('github-action-benchmark: each mode in ops/s and the ratio, with the interval in range and the machine in extra', () => {
  const entries = exportOf(compare, 'github-action-benchmark');
  assertActionBenchmark(entries);
  assert.deepEqual(
    entries.map((entry) => [entry.name, entry.unit]),
    [
      ['readfilesync · med (64 KiB) · k=2 workers', 'ops/s'],
      ['readfilesync · med (64 KiB) · k=2 procs', 'ops/s'],
      ['readfilesync · med (64 KiB) · k=2 workers/procs', 'ratio'],
    ],
  );
  const ratio = entries[2];
  assert.ok(
    Math.abs(ratio.value - compare.document.points[0].ratio.geomean) < 1e-12,
    'the ratio is the run’s geometric mean',
  );
  assert.equal(ratio.range, '95% CI 0.4733-1.767');
  assert.match(ratio.extra, /^4 rounds; Node v20\.20\.2; kernel 6\.18\.\S+; glibc 2\.36; /);
});

test('bencher: throughput per mode and the ratio as its own measure, with lower and upper values', () => {
  const document = exportOf(compare, 'bencher');
  assertBencher(document);
  assert.deepEqual(Object.keys(document), [
    'readfilesync · med (64 KiB) · k=2 workers',
    'readfilesync · med (64 KiB) · k=2 procs',
    'readfilesync · med (64 KiB) · k=2',
  ]);
  const ratio = document['readfilesync · med (64 KiB) · k=2']['workers-procs-ratio'];
  assert.deepEqual([ratio.lower_value, ratio.upper_value], compare.document.points[0].ratio.ci95);
  assert.ok(document['readfilesync · med (64 KiB) · k=2 procs'].throughput.value > 0);
});

test('what the app keeps, which can be below 0, is the mean over rounds with its t interval; not a geometric mean', () => {
  const end = loadSaved(fixture('saved/compare-end.json'));
  const [point] = pointsOf(end, 'export');
  const document = exportOf(end, 'bencher');
  assertBencher(document);
  for (const mode of /** @type {const} */ (['workers', 'procs']))
    for (const [key, measure] of [
      ['keptMemory', 'kept-memory'],
      ['keptLastMemory', 'kept-last-memory'],
      ['keptGrowthPerCycle', 'kept-growth-per-cycle'],
    ]) {
      const values = point.perRound[key][mode];
      const { value, lower_value, upper_value } = document[`${point.label} ${mode}`][measure];
      assert.ok(Math.abs(value - values.reduce((a, b) => a + b, 0) / values.length) < 1e-9, `${mode} ${measure}`);
      assert.ok(lower_value < value && value < upper_value);
    }
  // the fixture's procs kept a round below 0, where a logarithm has nothing to say
  assert.ok(point.perRound.keptLastMemory.procs.some((value) => value < 0));
  assert.ok(document[`${point.label} procs`]['kept-last-memory'].value < 0);
});

test('a sweep exports every point', () => {
  assertActionBenchmark(exportOf(sweep, 'github-action-benchmark'));
  assert.equal(exportOf(sweep, 'github-action-benchmark').length, 3 * sweep.document.points.length);
  assertBencher(exportOf(sweep, 'bencher'));
});

test('an audit has nothing to export: a usage error that says what can be', () => {
  const audit = loadSaved(fixture('saved/audit.json'));
  assert.throws(() => exportOf(audit, 'bencher'), {
    name: 'MmapbenchError',
    kind: 'usage',
    message: /it has no workers\/procs rounds to export; export compare, sweep or reproduce results/,
  });
});

test('several runs go into one file, written whole, replacing what was there', () => {
  const dir = folder();
  const file = join(dir, 'bench.json');
  writeFileSync(file, 'old');
  // the same compare, as if run at k=8: a point the sweep does not have
  const atK8 = join(dir, 'compare-k8.json');
  writeFileSync(atK8, JSON.stringify({ ...compare.document, config: { ...compare.document.config, k: 8 } }));
  const [written] = writeExports([sweep, loadSaved(atK8)], readExports([`github-action-benchmark=${file}`]));
  assert.equal(written, file);
  const entries = JSON.parse(readFileSync(file, 'utf8'));
  assertActionBenchmark(entries);
  assert.equal(entries.length, 3 * sweep.document.points.length + 3);
  assert.deepEqual(readdirSync(dir).sort(), ['bench.json', 'compare-k8.json'], 'no temporary file left');
});

test('two runs of one point are refused: one name would hold two figures', () => {
  const file = join(folder(), 'bench.json');
  assert.throws(() => writeExports([compare, sweep], readExports([`bencher=${file}`])), {
    kind: 'usage',
    message:
      /compare\.json and .*sweep\.json both measured readfilesync · med \(64 KiB\) · k=2; export them one at a time/,
  });
});

test('bad --export values are one-line usage errors naming the fix', () => {
  const dir = folder();
  mkdirSync(join(dir, 'sub'));
  const cases = [
    ['bencher', /--export bencher is invalid: it must be FORMAT=FILE, such as bencher=bench\.json/],
    ['=x.json', /it must be FORMAT=FILE/],
    ['json=x.json', /--export json=x\.json: unknown format 'json'; it must be one of github-action-benchmark, bencher/],
    [`bencher=${join(dir, 'missing', 'b.json')}`, /the folder .*missing does not exist; create it or export elsewhere/],
    [`bencher=${join(dir, 'sub')}`, /sub is a folder; name a file in it/],
    [`bencher=${join(dir, 'sub', 'b.json', 'c.json')}`, /does not exist|is not a folder/],
  ];
  for (const [typed, message] of cases)
    assert.throws(() => readExports([/** @type {string} */ (typed)]), { kind: 'usage', message }, String(typed));
});

test('without --export nothing is checked or written: report reads audits and overlapping runs alike', () => {
  const audit = loadSaved(fixture('saved/audit.json'));
  assert.deepEqual(writeExports([compare, sweep, audit], []), []);
});

test('every format --export accepts has an exporter, which writes its shape', async () => {
  // the names are read with the command line, the exporters only when a run exports
  const { FORMATS } = await import('../../src/saved/export-request.js');
  assert.deepEqual(FORMATS, ['github-action-benchmark', 'bencher']);
  assertActionBenchmark(/** @type {any} */ (exportOf(compare, 'github-action-benchmark')));
  assertBencher(/** @type {any} */ (exportOf(compare, 'bencher')));
});

test('round five, row 6: the pool names a point in the exports, so raw and pool runs, or two pools, never share a series', () => {
  const tiny = loadSaved(fixture('saved/compare-pool-interrupted.json'));
  const names = exportOf(tiny, 'github-action-benchmark').map((/** @type {any} */ entry) => entry.name);
  assert.deepEqual(names.slice(0, 3), [
    'readfilesync · med (64 KiB) · tinypool · k=2 workers',
    'readfilesync · med (64 KiB) · tinypool · k=2 procs',
    'readfilesync · med (64 KiB) · tinypool · k=2 workers/procs',
  ]);
  // the same file through workerpool, and with --isolate and a --batch given
  const dir = folder();
  const again = (/** @type {string} */ name, /** @type {object} */ pool) => {
    const document = JSON.parse(readFileSync(fixture('saved/compare-pool-interrupted.json'), 'utf8'));
    Object.assign(document.pool, pool);
    writeFileSync(join(dir, name), JSON.stringify(document));
    return loadSaved(join(dir, name));
  };
  const workerpool = again('wp.json', {
    name: 'workerpool',
    runtimes: { workers: "workerType: 'thread'", procs: "workerType: 'process'" },
  });
  const isolated = again('iso.json', { isolate: true, batch: 1, batchGiven: true });
  // one file of all three: no name holds two of their figures
  const [written] = writeExports([tiny, workerpool, isolated], readExports([`bencher=${join(dir, 'b.json')}`]));
  assert.equal(Object.keys(JSON.parse(readFileSync(written, 'utf8'))).length, 3 * 3);
  const keys = Object.keys(exportOf(workerpool, 'bencher'));
  assert.ok(keys.every((key) => key.includes(' · workerpool · ')));
  assert.ok(Object.keys(exportOf(isolated, 'bencher')).every((key) => key.includes(' · tinypool isolate batch=1 · ')));
  assert.equal(pointsOf(compare)[0].key === pointsOf(tiny)[0].key, false);
  assert.equal(pointsOf(tiny)[0].key === pointsOf(workerpool)[0].key, false);
  assert.equal(pointsOf(tiny)[0].key === pointsOf(isolated)[0].key, false);
});
