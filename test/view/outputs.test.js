// Every output of the saved documents in test/fixtures/saved/, as the commands print and write
// them (terminal, markdown, JSON, the HTML page, both exports, diff), against the copies in
// test/fixtures/outputs/. A change to how results are modelled or drawn must leave them as they
// are; a change meant to show something new updates them, and the diff of that commit shows
// exactly what a user will see differently:
//   MMAPBENCH_UPDATE_OUTPUTS=1 node --test test/view/outputs.test.js
import { loadSaved, render, renderSaved } from '../../src/commands/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffResults } from '../../src/commands/diff/files.js';
import { exportOf, FORMATS } from '../../src/saved/export.js';
import { diffModel } from '../../src/commands/diff/model.js';
import { renderMarkdown, renderTerminal } from '../../src/view/table.js';
import { writeHtmlReport } from '../../src/commands/report/html.js';
import { assertActionBenchmark, assertBencher } from '../helpers.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const OUTPUTS = here('../fixtures/outputs/');
const update = Boolean(process.env.MMAPBENCH_UPDATE_OUTPUTS);
// named as in the repository, so the outputs do not depend on where it is checked out
const saved = (name) => ({ ...loadSaved(here(`../fixtures/saved/${name}`)), path: `test/fixtures/saved/${name}` });
/** An 80-column stream that is not a terminal, as a pipe or CI log is. */
const pipe = { columns: undefined, isTTY: false, write() {} };

/** Compares `text` with the copy kept as `name`, or keeps it when updating. */
function matches(name, text) {
  const path = join(OUTPUTS, name);
  if (update) {
    mkdirSync(OUTPUTS, { recursive: true });
    writeFileSync(path, text);
    return;
  }
  assert.ok(existsSync(path), `${name} has no kept copy: run with MMAPBENCH_UPDATE_OUTPUTS=1 and commit it`);
  assert.equal(text, readFileSync(path, 'utf8'), `${name} changed`);
}

const FILES = [
  'compare.json',
  'compare-quick.json',
  'compare-aa.json',
  'compare-account.json',
  'compare-tradeoff.json',
  'compare-spread.json',
  'compare-app.json',
  'compare-end.json',
  'compare-ramp.json',
  'compare-two-states.json',
  'compare-turns.json',
  'compare-plain-trees.json',
  'workers.json',
  'trace-compare.json',
  'sweep.json',
  'sweep-quick.json',
  'sweep-tradeoff.json',
  'sweep-ramp.json',
  'advise.json',
  'advise-message.json',
  'audit.json',
  'audit-idle.json',
  'reproduce.jsonl',
  'reproduce-fresh.jsonl',
  'reproduce-gap.json',
];

for (const file of FILES) {
  test(`${file}: every output as it was`, async () => {
    const one = saved(file);
    // the answer a run prints, and with --verbose its whole text
    for (const format of /** @type {const} */ (['terminal', 'markdown']))
      matches(`${file}.${format === 'terminal' ? 'txt' : 'md'}`, renderSaved(one, format, pipe));
    matches(`${file}.verbose.txt`, renderSaved(one, 'terminal', pipe, { verbose: true }));
    if (one.kind.name !== 'reproduce') matches(`${file}.out.json`, render(one.document, 'json', pipe));
    if (one.kind.name !== 'audit') {
      for (const format of FORMATS)
        matches(`${file}.${format}.json`, `${JSON.stringify(exportOf(one, format), null, 2)}\n`);
      // as it was, and as its dashboard reads it: no figure a JSON null
      assertActionBenchmark(/** @type {any} */ (exportOf(one, 'github-action-benchmark')));
      assertBencher(exportOf(one, 'bencher'));
    }
    const page = join(mkdtempSync(join(tmpdir(), 'mmapbench-outputs-')), 'report.html');
    await writeHtmlReport([one], page);
    matches(`${file}.html`, readFileSync(page, 'utf8'));
  });
}

for (const [base, next] of [
  ['compare-quick.json', 'compare.json'],
  ['sweep-quick.json', 'sweep.json'],
  ['compare-tradeoff.json', 'compare-tradeoff-2.json'],
]) {
  test(`diff ${base} ${next}: as it was`, () => {
    const diff = diffResults(saved(base), saved(next));
    matches(`diff-${base}-${next}.txt`, renderTerminal(diffModel(diff), { color: false, width: 80 }));
    matches(`diff-${base}-${next}.md`, renderMarkdown(diffModel(diff)));
    matches(`diff-${base}-${next}.json`, `${JSON.stringify(diff, null, 2)}\n`);
  });
}
