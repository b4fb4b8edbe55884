// The HTML page from saved documents, drawn in-process (vega renders the charts to SVG in Node):
// what each chart is titled and labelled. test/cli/results.test.js opens a page in a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSaved } from '../../src/commands/index.js';
import { writeHtmlReport } from '../../src/commands/report/html.js';

const saved = (name) => loadSaved(fileURLToPath(new URL(`../fixtures/saved/${name}`, import.meta.url)));
const page = async (...names) => {
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-html-')), 'page.html');
  const written = await writeHtmlReport(names.map(saved), path);
  return { ...written, html: readFileSync(path, 'utf8') };
};
const labels = (html) => [...html.matchAll(/<svg role="img" aria-label="([^"]*)"/g)].map((m) => m[1]);

test('a compare draws its rounds and its ratio, named workers and procs', async () => {
  const { html, charts } = await page('compare.json');
  assert.equal(charts, 2);
  assert.deepEqual(labels(html), ['Throughput in every round', 'workers/procs ratio with its 95% CI']);
  assert.match(html, /workers\/procs \(log scale; below 1: procs faster, above 1: workers faster\)/);
});

test('an A/A run names its arms A and B in its charts, not the modes they did not run', async () => {
  const { html } = await page('compare-aa.json');
  assert.deepEqual(labels(html), ['Throughput in every round', 'A/B ratio with its 95% CI']);
  assert.match(html, /A\/B \(log scale; below 1: B faster, above 1: A faster\)/);
  assert.match(html, />arm<\/text>/, 'the legend names arms');
  assert.doesNotMatch(html.replace(/<table[\s\S]*?<\/table>/g, ''), /<text[^>]*>procs<\/text>/);
});

test('an audit draws its waits only when it has some', async () => {
  assert.equal((await page('audit-idle.json')).charts, 0);
  assert.equal((await page('audit.json')).charts, 2);
});

test('a sweep over k draws where the time went, and page faults and blocked time against k beside the ratio', async () => {
  const { html } = await page('sweep.json');
  assert.deepEqual(labels(html), [
    'Throughput in every round',
    'Where the time per op went',
    'workers/procs ratio with its 95% CI',
    'Throughput against k',
    'workers/procs against k',
    'Page faults and blocked time against k',
  ]);
  const chart = html.slice(html.indexOf('aria-label="Page faults and blocked time against k"'));
  for (const panel of ['page faults per op', 'blocked µs per op']) assert.ok(chart.includes(`>${panel}</text>`), panel);
});

test("a compare whose cells kept their latency histograms draws each mode's latency by percentile, its tail legible", async () => {
  const one = saved('compare-tradeoff.json');
  // each mode's merged histogram as a run of now keeps it: most ops near 12 µs, a tail to 2 ms
  const histogram = (/** @type {number} */ tail) => ({
    cells: 10,
    ops: 10_000,
    bits: 4,
    ns: /** @type {Array<[number, number]>} */ ([
      [11_264, 9_000],
      [40_960, 900],
      [327_680, 90],
      [tail, 10],
    ]),
  });
  const document = structuredClone(one.document);
  const [point] = document.points;
  Object.assign(/** @type {any} */ (point.workers), { latencyHistogram: histogram(2_097_152) });
  Object.assign(/** @type {any} */ (point.procs), { latencyHistogram: histogram(1_048_576) });
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-html-')), 'page.html');
  await writeHtmlReport([{ ...one, document }], path);
  const html = readFileSync(path, 'utf8');
  assert.ok(labels(html).includes('Op latency by percentile'), labels(html).join(', '));
  for (const tick of ['90%', '99%', '99.9%']) assert.match(html, new RegExp(`>${tick.replace('.', '\\.')}</text>`));
  assert.match(html, /workers 10,000 ops of 10 cells, procs 10,000 ops of 10 cells/);
  // and a file saved before cells kept them draws no such chart
  assert.ok(!labels((await page('compare-tradeoff.json')).html).includes('Op latency by percentile'));
});

test('a sweep over a numeric task parameter draws the ratio against it, a line for each setting of the others: where the modes cross', async () => {
  // sweep-quick's two points, as if they had been a message of 100 B and 64 KiB, one shape
  const one = /** @type {any} */ (saved('sweep-quick.json'));
  const { document } = one;
  document.axes = { ...document.axes, k: [2], params: { size: [100, 65536], shape: ['buffer'] } };
  document.scaling = [];
  document.points.forEach((/** @type {any} */ point, /** @type {number} */ i) => {
    point.k = 2;
    point.params = { size: [100, 65536][i], shape: 'buffer' };
  });
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-html-')), 'page.html');
  await writeHtmlReport([one], path);
  const html = readFileSync(path, 'utf8');
  assert.ok(labels(html).includes('workers/procs against --size'), labels(html).join('; '));
  const chart = html.slice(html.indexOf('aria-label="workers/procs against --size"'));
  assert.ok(chart.includes('>64 KiB</text>'), 'bytes as a user writes them');
  assert.ok(chart.includes('>100</text>'));
  // one value of every other axis: one line, named by the task
  assert.ok(chart.slice(0, chart.indexOf('</svg>')).includes('>readfilesync</text>'));
  // a non-numeric axis is a table's column, not an axis to draw against
  document.axes.params = { shape: ['object', 'buffer'] };
  document.points.forEach(
    (/** @type {any} */ point, /** @type {number} */ i) => (point.params = { shape: ['object', 'buffer'][i] }),
  );
  await writeHtmlReport([one], path);
  assert.ok(!labels(readFileSync(path, 'utf8')).some((label) => label.startsWith('workers/procs against --')));
});
