// What a person reads at 80 columns: every kept terminal output (test/fixtures/outputs), the task
// listing and a header of a task that reads no file. No line wider than the screen, no value
// missing as `undefined`, no word cut with `…`, and no number or interval split across lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSaved, renderSaved } from '../../src/commands/index.js';
import { taskListing } from '../../src/commands/tasks/list.js';
import { BUILTIN_TASKS, loadTask } from '../../src/tasks/index.js';

const here = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url));
const OUTPUTS = here('../fixtures/outputs/');
const pipe = { columns: undefined, isTTY: false };

/**
 * What must never be on a screen, each with the line it is on.
 * @param {string} text
 */
function defects(text) {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    const found = [];
    if ([...line].length > 80) found.push(`wider than 80 columns (${[...line].length})`);
    if (/\bundefined\b/.test(line)) found.push('undefined');
    if (/\p{L}…/u.test(line)) found.push('a word cut with …');
    // a range cut at its dash (`0.89 (0.79-` / `1.01)`), at the end of a line or of a cell
    if (/\d-\s*(│|$)/.test(line)) found.push('an interval split');
    // a number cut from its decimals: a line or cell that starts with a number's tail
    if (/(^|│)\s*\.\d/.test(line)) found.push('a number split');
    return found.map((what) => `line ${i + 1}: ${what}: ${line}`);
  });
}

test('every kept terminal output fits 80 columns and splits no number, interval or word', () => {
  const files = readdirSync(OUTPUTS).filter((name) => name.endsWith('.txt'));
  assert.ok(files.length > 20, 'the kept outputs are there');
  const found = files.flatMap((name) =>
    defects(readFileSync(`${OUTPUTS}${name}`, 'utf8')).map((one) => `${name}: ${one}`),
  );
  assert.deepEqual(found, []);
});

test('the check finds each defect it names', () => {
  assert.equal(defects('│ 0.94 (0.48- │\n│ 1.85) │').length, 1);
  assert.equal(defects('into one bu…').length, 1);
  assert.equal(defects('message=undefined size=100').length, 1);
  assert.equal(defects('│ budget, ±21 │\n│ .4% │').length, 1);
  assert.equal(defects('x'.repeat(81)).length, 1);
  assert.deepEqual(defects('│ 0.94 │\n│ (0.48-1.85) │\nreadfilesync-\ninto'), []);
});

test('mmapbench tasks at 80 columns: each description whole, wrapped between words, its flags after it', async () => {
  const tasks = await Promise.all(BUILTIN_TASKS.map((name) => loadTask(name)));
  const text = taskListing(tasks, { node: 'v20.20.2', width: 80 });
  assert.deepEqual(defects(text), []);
  assert.doesNotMatch(text, /…/);
  for (const task of tasks) {
    const clause = task.description.split(/ \(|; |: /)[0];
    // the clause, whatever lines it was wrapped onto
    assert.ok(
      text
        .replace(/\n {2,}/g, ' ')
        .replace(/ {2,}/g, ' ')
        .includes(clause),
      `${task.name}: ${clause}`,
    );
  }
  assert.match(
    text,
    /^message +one round trip to the worker's parent per op\n +--shape --size --serialization --message$/m,
  );
});

test('a task that reads no file: no header names one; one that does names it', () => {
  const saved = loadSaved(here('../fixtures/saved/compare.json'));
  const header = (/** @type {any} */ task) =>
    renderSaved(
      { ...saved, document: { ...saved.document, config: { ...saved.document.config, task } } },
      'terminal',
      pipe,
    )
      .split('\n')
      .slice(0, 2)
      .join(' ');
  const reads = header(saved.document.config.task);
  assert.match(reads, /readfilesync, med \(64 KiB\), k=2/);
  const none = header({ ...saved.document.config.task, name: 'message', readsFile: false });
  assert.match(none, /^mmapbench compare: message, k=2 /);
  assert.doesNotMatch(none, /KiB|undefined/);
});
