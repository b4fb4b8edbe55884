// The view layer from saved documents committed to the tests (test/fixtures/saved/, saved by real
// runs on a 2-CPU VM): no process is started, so every kind and format is checked in-process.
import { loadSaved, render, renderSaved } from '../../src/commands/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { spreadAttribution } from '../../src/stats/spread.js';

const saved = (name) => loadSaved(fileURLToPath(new URL(`../fixtures/saved/${name}`, import.meta.url)));
/** An 80-column stream that is not a terminal, as a pipe or CI log is. */
const pipe = { columns: undefined, isTTY: false, write() {} };
const ESC = '\u001b[';
const widest = (text) => Math.max(...text.split('\n').map((line) => [...line].length));

const KINDS = {
  'compare.json': 'compare',
  'compare-quick.json': 'compare',
  'compare-aa.json': 'compare',
  'compare-tradeoff.json': 'compare',
  'workers.json': 'compare',
  'trace-compare.json': 'compare',
  'sweep.json': 'sweep',
  'sweep-quick.json': 'sweep',
  'sweep-tradeoff.json': 'sweep',
  'advise.json': 'advise',
  'audit.json': 'audit',
  'audit-idle.json': 'audit',
  'reproduce.jsonl': 'reproduce',
};

for (const [name, kind] of Object.entries(KINDS)) {
  test(`${name}: loads as a ${kind} document and renders in every format, within 80 columns off a terminal`, () => {
    const one = saved(name);
    assert.equal(one.kind.name, kind);
    const terminal = renderSaved(one, 'terminal', pipe);
    const markdown = renderSaved(one, 'markdown', pipe);
    assert.match(terminal, /^mmapbench /);
    assert.match(markdown, /^#+ mmapbench /m);
    assert.ok(!terminal.includes(ESC), 'no color off a terminal');
    // reproduce's tables of published figures are the one place allowed to run wider (see its listing test)
    if (kind !== 'reproduce') assert.ok(widest(terminal) <= 80, `${name}: ${widest(terminal)} columns`);
    if (kind === 'reproduce') return;
    // --json prints the document as it was saved
    assert.deepEqual(JSON.parse(render(one.document, 'json', pipe)), one.document);
  });
}

test('a compare renders its ratio, CI and verdict; a traced one adds the mmap_lock tables', () => {
  const compare = renderSaved(saved('compare.json'), 'terminal', pipe);
  assert.match(compare, /workers\/procs/);
  assert.match(compare, /95% CI/);
  const traced = renderSaved(saved('trace-compare.json'), 'terminal', pipe);
  assert.match(traced, /mmap_lock/);
  assert.ok(traced.length > renderSaved(saved('compare-quick.json'), 'terminal', pipe).length);
});

test('an audit of a process that took no acquisition shows the totals, and no table without rows', () => {
  const text = renderSaved(saved('audit-idle.json'), 'terminal', pipe);
  assert.equal(text.match(/┌/g).length, 1, text);
  assert.match(text, /no mmap_lock acquisition by the target/);
  const busy = renderSaved(saved('audit.json'), 'terminal', pipe);
  assert.match(busy, /writes by syscall in flight/);
});

test("a sweep with an account gives each point's page faults and blocked time per op, in both modes", () => {
  const one = saved('sweep.json');
  const text = renderSaved(one, 'terminal', pipe, { verbose: true });
  const table = text.split('\n').filter((line) => /^│ [12] /.test(line));
  // the first table's two rows, then the account's: k, then four figures
  assert.equal(table.length, 4, text);
  for (const row of table.slice(2)) assert.match(row, /^│ [12] +│ +[\d.]+ │ +[\d.]+ │ +[\d.]+ │ +[\d.]+ │$/);
  assert.match(text, /page faults per op: workers/);
  const without = { ...one, document: structuredClone(one.document) };
  for (const point of without.document.points) delete point.account;
  assert.doesNotMatch(renderSaved(without, 'terminal', pipe, { verbose: true }), /page faults per op/);
});

test('workers and procs mark a pilot round as compare does, and the header counts it', () => {
  const one = saved('workers.json');
  const document = structuredClone(one.document);
  const [point] = document.points;
  // as a calibrated run that resized its cells after the first round saves it
  point.rounds[0].pilot = true;
  point.rounds[0].complete = false;
  document.config.rounds = 1;
  const terminal = renderSaved({ ...one, document }, 'terminal', pipe, { verbose: true });
  assert.match(terminal, /^1 round × [\d,]+ iterations per worker and a pilot round that sized them\b/m);
  const rows = terminal.split('\n').filter((line) => /^│ \d/.test(line));
  const [first, second] = point.rounds.map((round) => round.workers.workers.length + 1);
  assert.equal(rows.filter((row) => row.startsWith('│ 1 (pilot) │')).length, first, terminal);
  assert.equal(rows.filter((row) => /^│ 2 +│/.test(row)).length, second, terminal);
});

test('a measure no cell could have says why in one line, and its rows and line are left out', () => {
  const one = saved('compare-tradeoff.json');
  const hidden = { pssBytes: null, processes: [], unavailable: '/proc hides other processes here (hidepid)' };
  const [point] = one.document.points;
  for (const round of point.rounds) for (const mode of ['workers', 'procs']) round[mode].memory = hidden;
  for (const mode of ['workers', 'procs']) delete point[mode].memoryPerWorker;
  delete point.measures.memoryPerWorker;
  const text = renderSaved(one, 'terminal', pipe, { verbose: true });
  // one line, wrapped at 80 columns
  assert.match(
    text.replace(/\n/g, ' '),
    /(^| )memory per added worker: not measured here: \/proc hides other processes here \(hidepid\)( |$)/,
  );
  assert.doesNotMatch(text, /memory per (added )?worker +│|memory per (added )?worker \d/);
  assert.match(text, /^│ start-up \(from spawn, +│/m, 'the other measures stay');
  const before = renderSaved(saved('compare-tradeoff.json'), 'terminal', pipe, { verbose: true });
  assert.doesNotMatch(before, /not measured here/);
});

test('a budget that ran out on rounds that disagree says what their spread goes with, in each mode', () => {
  const text = renderSaved(saved('compare-spread.json'), 'terminal', pipe, { verbose: true }).replace(/\n/g, ' ');
  assert.match(text, /the rounds disagree \(spread of the cells' log ops\/s: workers \d\.\d\d, procs \d\.\d\d\)/);
  assert.match(text, /workers: \d+% of it goes with [a-z ]+ per op \(the (slower|faster) cells have more\)/);
  // a run that met its target says nothing of it
  assert.doesNotMatch(
    renderSaved(saved('compare-tradeoff.json'), 'terminal', pipe, { verbose: true }),
    /rounds disagree/,
  );
});

test("a current run's spread names the two groups its cells fall in, and the stop line what would remove the spread before more minutes", () => {
  const one = saved('compare-spread.json');
  const [document] = /** @type {any} */ (one.document).points;
  // as this version saves it: with the groups
  for (const mode of ['workers', 'procs'])
    document.spread[mode] = spreadAttribution(document.rounds.filter((r) => r.complete).map((r) => r[mode]));
  const text = renderSaved(one, 'terminal', pipe, { verbose: true }).replace(/\n/g, ' ');
  assert.match(
    text,
    /workers: 88% of it goes with system time per op \(the slower cells have more\); the cells fall in two groups: 53,308 ops\/s at 16\.51 µs system time per op \(5 cells\), 15,888 at 59\.72 µs \(9\)/,
  );
  assert.match(
    text,
    /stopped: the 20 s budget ran out at ±45\.0% after 14 rounds in 20 s; the cells disagree with their page faults per op \(above\), which glibc's heap settings change \(--env MALLOC_TOP_PAD_=67108864 keeps 64 MiB at its top, so freed pages are not faulted in again; `mmapbench advise` measures each fix on this task\); else about 656 more rounds \(~15 min\) would reach ±5\.0%: --max-time 946/,
  );
  // a spread no figure explains half of leaves the stop line to the minutes
  for (const mode of ['workers', 'procs'])
    for (const figure of document.spread[mode].figures) figure.share = Math.min(figure.share, 0.4);
  const unexplained = renderSaved(one, 'terminal', pipe, { verbose: true }).replace(/\n/g, ' ');
  assert.match(
    unexplained,
    /stopped: the 20 s budget ran out at ±45\.0% after 14 rounds in 20 s; about 656 more rounds/,
  );
});

test('next: a run that did not decide, on cells that disagree with their page faults, is pointed at advise for its task', async () => {
  const { nextStep } = await import('../../src/commands/compare/words.js');
  const { pointView } = await import('../../src/document/points-of.js');
  // the run's one point with the run around it, as compare's readers take it
  const document = /** @type {any} */ (pointView(saved('compare-spread.json').document));
  assert.equal(document.verdict.significant, false);
  assert.equal(
    nextStep(document),
    'next: the cells disagree with their page faults per op: `mmapbench advise --task readfilesync -k 2` measures the fixes for this task side by side and ranks them',
  );
  // a run that met its target, or whose spread no figure explains, gets none of it
  assert.equal(nextStep({ ...document, stop: 'precision' }), null);
  const unexplained = structuredClone(document);
  for (const mode of ['workers', 'procs']) for (const figure of unexplained.spread[mode].figures) figure.share = 0.2;
  assert.equal(nextStep(unexplained), null);
});

test('a sweep stopped before any point counted a round (its pilot only) prints, with no scaling reading', () => {
  const { document } = saved('sweep.json');
  const stopped = structuredClone(document);
  stopped.status = 'interrupted';
  const none = { steps: [], stopsGaining: null, decided: true, memory: null };
  stopped.scaling = [
    { points: stopped.points.map((point) => point.id), workers: none, procs: none, ratioLeaves1: null },
  ];
  for (const format of ['terminal', 'markdown']) {
    const text = render(stopped, format, pipe, { verbose: true });
    assert.match(text, /INTERRUPTED/);
    assert.doesNotMatch(text, /^scaling/m);
  }
});
