// The HTML page from saved documents, drawn in-process (vega renders the charts to SVG in Node):
// what each chart is titled and labelled. test/cli/results.test.js opens a page in a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadResults } from '../../src/results/load.js';
import { writeHtmlReport } from '../../src/view/html.js';

const saved = (name) => loadResults(fileURLToPath(new URL(`../fixtures/saved/${name}`, import.meta.url)));
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
