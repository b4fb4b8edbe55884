// compare's default answer: the verdict alone, then what adding the workers costs the app in
// plain words, only where the interval says it differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHtmlReport } from '../../../src/commands/report/html.js';
import { loadSaved } from '../../../src/commands/index.js';
import { ANSWER_ROWS, compareAnswer } from '../../../src/commands/compare/answer.js';
import { costsText } from '../../../src/commands/compare/costs.js';
import { pointView, viewPoints } from '../../../src/document/points-of.js';
import { figureOf } from '../../../src/points/points.js';
import { MEASURES } from '../../../src/points/measures.js';
import { fixture } from '../../helpers.js';

// a compare's document as its readers take it: its one point with the run around it
const documentOf = (/** @type {string} */ name) => pointView(loadSaved(fixture(`saved/${name}`)).document);
const measure = (/** @type {string} */ key) =>
  /** @type {import('../../../src/points/measures.js').Measure} */ (MEASURES.find((one) => one.key === key));

test('the costs name each measure whose interval lies off no difference, and no other', () => {
  const document = documentOf('compare-end.json');
  const [point] = viewPoints(document);
  const text = costsText(document, point);
  // start-up 1.73 (1.60-1.86); kept +20.4 ±3.1 MiB (and after the last cycle +22.7 ±4.3 MiB:
  // past two lines, so left to the table); memory 0.86 (0.70-1.04) and the app's request p99
  // 0.91 (0.44-1.89) span no difference
  assert.equal(
    text,
    'with workers, they take 73% longer to start and your app keeps 20.4 MiB more a worker once they end (after 0.2 s of work); more in the table',
  );
  // the app is named the first time a part speaks of it, and "it" after: never an "it" of no one
  const ratio = { geomean: 0.7, median: 0.7, ci95: [0.6, 0.8], n: 10 };
  const app = { ...point, plain: { ...point.plain, mainRequestP99Us: { ratio }, readyMs: { ratio: null } } };
  assert.equal(
    costsText(document, /** @type {any} */ (app)),
    "with workers, your app's requests are 30% faster at p99 and it keeps 20.4 MiB more a worker once they end (after 0.2 s of work); more in the table",
  );
  for (const key of ['addedMemory', 'mainRequestP99Us']) {
    const { ratio } = figureOf(measure(key), point);
    assert.ok(ratio?.ci95 && ratio.ci95[0] < 1 && ratio.ci95[1] > 1, key);
  }
  // an A/A run has no costs
  assert.equal(costsText({ ...document, aa: 'workers' }, point), null);
});

test('the answer: the verdict alone, the costs under it, how it stopped under the table', () => {
  const answer = compareAnswer(documentOf('compare-app.json'));
  assert.deepEqual(answer.lines, [
    'procs are 1.19x faster than workers (95% CI 1.04-1.37)',
    "with workers, they start 11% sooner and your app's requests are 41% faster at p99",
  ]);
  assert.equal(answer.notes[0], '±14.8% when the 20 s budget ran out, after 21 rounds; ±5.0% needs ~2 min here');
  assert.match(answer.notes.at(-1) ?? '', /^more: /);
  // an undecided verdict's way to tighten it goes under the table
  const undecided = compareAnswer(documentOf('compare.json'));
  assert.equal(undecided.lines[0], 'no significant difference: workers/procs ratio 0.91 (95% CI 0.47-1.77 spans 1)');
  assert.ok(
    undecided.notes.includes('more --rounds or a longer --duration would tighten it'),
    undecided.notes.join('\n'),
  );
});

test('a budget that ran out says how long the target takes here, at the spread its rounds had', () => {
  // 16 rounds whose log ratios have a standard deviation of 0.2: t(15) × 0.2 / 4 = 0.1066 either
  // side; ±5% (0.0488 in logs) needs t(n − 1) × 0.2 / √n under it: n = 67 (t(66) 1.997 × 0.2 /
  // 8.19 = 0.0488), 65-70 by hand; at 2.5 s a round (40 s over 16), 162-175 s: about 3 min
  const half = (2.1314 * 0.2) / 4;
  const document = documentOf('compare-app.json');
  Object.assign(document, {
    stop: 'max-time',
    seconds: 40,
    ratio: { ...document.ratio, n: 16, ci95: [Math.exp(-half), Math.exp(half)], halfWidth: Math.exp(half) - 1 },
  });
  document.config.maxTime = 40;
  assert.equal(
    compareAnswer(document).notes[0],
    '±11.2% when the 40 s budget ran out, after 16 rounds; ±5.0% needs ~3 min here',
  );
  // where the run split its noise, the time is the split's, as --verbose's noise line says it
  Object.assign(document, {
    noise: { rounds: 16, sd: 0.2, trees: 0.9, windows: 0.1, drift: 0, floor: { scale: 1, seconds: 300 }, seconds: 300 },
  });
  assert.equal(
    compareAnswer(document).notes[0],
    '±11.2% when the 40 s budget ran out, after 16 rounds; ±5.0% needs ~5 min here',
  );
  // a run that reached its target says nothing of the sort
  Object.assign(document, { stop: 'precision' });
  assert.doesNotMatch(compareAnswer(document).notes[0], /needs/);
});

test("the answer table's row names take one line beside 6-digit throughputs: 15 characters at most", () => {
  // 80 columns less the borders, two figures like `201,637 ops/s`, an interval like
  // `+0.91 ±11.44 MiB` and `workers` leave the name 15
  for (const key of ['throughput', ...ANSWER_ROWS]) {
    const { name, short } = measure(key);
    assert.ok((short ?? name).length <= 15, `${key}: ${short ?? name}`);
  }
});

test("fresh workers' rows follow throughput, the costs say them in words, and next names a pool", () => {
  // k=8 on 16 CPUs: the first 2,000 ops 0.59 (0.56-0.63), to full speed +86 ±41 ms
  const document = documentOf('compare-ramp.json');
  const [point] = viewPoints(document);
  const answer = compareAnswer(document);
  assert.deepEqual(
    answer.tables[0].rows.slice(0, 3).map((row) => row[0]),
    ['throughput', 'first 2k ops', 'to full speed'],
  );
  assert.match(
    String(costsText(document, point)),
    /^with workers, fresh ones do their first 2,000 ops 1\.7x slower and they take 86 ms longer to reach full speed/,
  );
  assert.ok(
    answer.notes.some((note) => note.startsWith('next: fresh workers are slow: keep them in a pool, or use processes')),
  );
  // a file from before the ramp has neither row, and its next is its own
  const before = compareAnswer(documentOf('compare-end.json'));
  assert.ok(!before.tables[0].rows.some((row) => ['first 2k ops', 'to full speed'].includes(row[0])));
  assert.ok(!before.notes.some((note) => note.includes('keep them in a pool')));
});

test('the title is one line however long the --file path: its name, cut in the middle if need be', () => {
  const document = structuredClone(documentOf('compare.json'));
  for (const label of [
    '/srv/data/uploads/2026/november/customer-exports/batch-0042.bin',
    `/x/${'n'.repeat(120)}.bin`,
  ]) {
    document.config.file.label = label;
    const { title } = compareAnswer(document);
    assert.ok(title.length <= 80, title);
    assert.match(title, /^mmapbench compare: readfilesync, \S+, k=2 · node v20\.20\.2 · 2 CPUs$/);
  }
  assert.match(compareAnswer(document).title, /, n+…n+\.bin, /);
});

test('a k the default chose is said, with the sweep that measures the k a user deploys; a k given with -k is not', () => {
  // the k=8 run on 16 CPUs gave -k 8
  const given = documentOf('compare-ramp.json');
  assert.ok(!compareAnswer(given).notes.some((note) => note.includes('one per CPU')));
  const chosen = structuredClone(given);
  chosen.config.k = 16;
  chosen.config.kDefault = true;
  assert.ok(
    compareAnswer(chosen).notes.includes(
      'k=16 is the default, one per CPU; your own k: `mmapbench sweep -k 1,2,4,8,16`',
    ),
    compareAnswer(chosen).notes.join('\n'),
  );
  // the screen holds it
  const { lines, tables, notes } = compareAnswer(chosen);
  assert.ok(1 + lines.length + tables[0].rows.length + 4 + notes.length <= 24);
  // an A/A run has no k to choose between
  assert.ok(!compareAnswer({ ...chosen, aa: 'workers' }).notes.some((note) => note.includes('one per CPU')));
});

test("the page's answer says the default k as the terminal's does", async () => {
  const saved = loadSaved(fixture('saved/compare-ramp.json'));
  const chosen = structuredClone(saved.document);
  chosen.config.kDefault = true;
  const page = join(mkdtempSync(join(tmpdir(), 'mmapbench-k-')), 'page.html');
  await writeHtmlReport([{ ...saved, document: chosen }], page);
  assert.ok(
    readFileSync(page, 'utf8').includes('k=8 is the default, one per CPU; your own k: `mmapbench sweep -k 1,2,4,8`'),
  );
});

test('a run that stopped once decided says so in every place that names its rule, never as a width it had none of', async () => {
  const { loadSaved: load, renderSaved } = await import('../../../src/commands/index.js');
  const { verdictOf } = await import('../../../src/stats/sequential.js');
  const one = load(fixture('saved/compare-app.json'));
  const { document } = one;
  const [point] = document.points;
  // the same rounds, as a run that stops once decided keeps them when its budget ran out first
  Object.assign(document.config, { precision: null, sequential: true, margin: 0.1 });
  Object.assign(point, {
    stop: 'max-time',
    verdict: verdictOf(point.ratio.samples, { look: 'final', margin: 0.1 }),
  });
  const pipe = { columns: undefined, isTTY: false, write() {} };
  const answer = renderSaved(one, 'terminal', pipe);
  const verbose = renderSaved(one, 'terminal', pipe, { verbose: true });
  // the fixture's 95% interval of procs over workers, 1.04-1.37, read at the budget's 95.5%: 1.03-1.37
  assert.match(answer, /^procs are 1\.19x faster than workers \(95\.5% CI 1\.03-1\.37\)$/m);
  assert.match(
    answer,
    new RegExp(`decided at the last look, when the 20 s budget ran out,\\s+after ${point.ratio.n} rounds`),
  );
  assert.match(answer, /throughput's interval is the verdict's\s+\(95\.5%, at the budget\)/);
  assert.match(verbose, /^rounds until decided: one mode faster, or equal within ±10%, or 20 s/m);
  assert.doesNotMatch(`${answer}\n${verbose}`, /±0(\.0)?%/);
});

test('round five, row 10: two rounds tell one story, no verdict: no faster arm, no `better`, no next step built on one, no noise floor', () => {
  // two rounds whose ratios agree (1.89 and 1.88): saved by 27ce800 as workers faster, significant
  const pooled = documentOf('compare-pool-interrupted.json');
  assert.equal(pooled.verdict.outcome, 'inconclusive');
  assert.equal(pooled.verdict.significant, false);
  assert.equal(pooled.verdict.interval, null);
  const answer = compareAnswer(pooled);
  assert.match(String(answer.lines?.[0]), /from 2 rounds: too few for a meaningful interval/);
  const better = (answer.tables?.[0].rows ?? []).map((row) => row.at(-1));
  assert.ok(better.length > 1 && better.every((word) => word === '-'), better.join(' '));
  assert.ok(!answer.notes?.some((note) => /threads lose nothing|trace compare/.test(note)), answer.notes?.join('\n'));
  // an A/A run of two rounds sets no noise floor
  const aa = documentOf('compare-aa.json');
  assert.equal(aa.ratio.halfWidth, null);
  assert.ok(!compareAnswer(aa).notes?.some((note) => /noise floor/.test(note)));
});

test('issue 102: where trees fell in two states, the answer says so in two lines at most, before every note of rank 2 or more, within 24 lines', async () => {
  const { renderSaved } = await import('../../../src/commands/index.js');
  const saved = {
    ...loadSaved(fixture('saved/compare-two-states.json')),
    path: 'test/fixtures/saved/compare-two-states.json',
  };
  assert.equal(
    saved.document.points[0].workers.trees.states.length,
    2,
    'a run of this version whose workers fell in two states',
  );
  const lines = renderSaved(saved, 'terminal', { columns: 80, isTTY: false, write() {} })
    .trimEnd()
    .split('\n');
  assert.ok(lines.length <= 24, `${lines.length} lines`);
  assert.ok(lines.every((line) => line.length <= 80));
  const at = lines.findIndex((line) => line.startsWith('fresh trees in two states: workers 6 of 16 at'));
  assert.ok(at > 0, lines.join('\n'));
  // two lines at most: the next begins a note of its own
  assert.ok(!lines[at + 2]?.includes('more with --verbose'));
  assert.ok(`${lines[at]} ${lines[at + 1]}`.includes('more with --verbose'));
  // before the account's reading (rank 3), the start-up note (6) and next (2)
  for (const later of [/^workers and procs spend/, /^start-up ran without/, /^next:/]) {
    const index = lines.findIndex((line) => later.test(line));
    if (index >= 0) assert.ok(index > at, `${later} at ${index}, the trees at ${at}`);
  }
  // the whole line is --verbose's
  const verbose = renderSaved(saved, 'terminal', { columns: 80, isTTY: false, write() {} }, { verbose: true });
  assert.match(verbose.replace(/\n/g, ' '), /fresh trees: workers 6 of 16 ran at \d+% of the others' speed/);
});

test("issue 102: a run with plain trees beside its cells says each mode's share of them in the trees' two lines, and --verbose's line gives their intervals", async () => {
  const { renderSaved } = await import('../../../src/commands/index.js');
  const saved = {
    ...loadSaved(fixture('saved/compare-plain-trees.json')),
    path: 'test/fixtures/saved/compare-plain-trees.json',
  };
  const [document] = saved.document.points;
  assert.equal(document.workers.trees.states.length, 2, 'a run of this version whose workers fell in two states');
  assert.ok(document.rounds.some((/** @type {any} */ round) => round.plain));
  const stream = { columns: 80, isTTY: false, write() {} };
  const lines = renderSaved(saved, 'terminal', stream).trimEnd().split('\n');
  assert.ok(lines.length <= 24, `${lines.length} lines`);
  const at = lines.findIndex((line) => line.startsWith('fresh trees in two states:'));
  assert.ok(at > 0, lines.join('\n'));
  const split = `${lines[at]} ${lines[at + 1]}`;
  assert.ok(split.endsWith('more with --verbose'), split);
  for (const mode of /** @type {const} */ (['workers', 'procs'])) {
    const { slow, trees } = document[mode].plain;
    assert.ok(split.includes(`, a plain app ${slow} of ${trees}`), `${mode}: ${split}`);
  }
  const verbose = renderSaved(saved, 'terminal', stream, { verbose: true }).replace(/\n/g, ' ');
  const { ci95 } = document.workers.plain;
  assert.ok(
    verbose.includes(
      `a plain app of the same work, the same minutes (above 1 page fault per op): workers ${document.workers.plain.slow} of ${document.workers.plain.trees} slow (95% CI ${Math.round(ci95[0] * 100)}-${Math.round(ci95[1] * 100)}%)`,
    ),
    verbose,
  );
  // a run without them reads as before: no plain clause
  const before = renderSaved(
    { ...loadSaved(fixture('saved/compare-two-states.json')), path: 'test/fixtures/saved/compare-two-states.json' },
    'terminal',
    stream,
    { verbose: true },
  );
  assert.ok(!before.includes('a plain app'));
});
