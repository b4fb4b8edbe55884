// Every reproduce experiment at once, as a user runs `reproduce --quick`, under each protocol:
// minutes, not seconds, so these run in `npm run test:long` (which .ci/run runs after npm test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cellKey,
  cli,
  noneLeft,
  records,
  reproduceWorkspace as workspace,
  resultsFile,
  thpArgs,
  uniqueMark,
} from '../helpers.js';
import { EXPERIMENTS, variantModes } from '../../src/commands/reproduce/experiments.js';
import { ExperimentData } from '../../src/commands/reproduce/data.js';
import { findJemalloc } from '../../src/system/jemalloc.js';
import { readChoice } from '../../src/system/environment.js';

/** How many claims an experiment's section should show: from the cells the run measured. */
const claimsOf = (experiment, out) =>
  experiment.verdicts(
    new ExperimentData(records(resultsFile(out)).filter((r) => r.type === 'cell' && r.experiment === experiment.name)),
  ).length;

test('reproduce --quick runs every experiment and writes REPORT.md with tables, published figures and verdicts', async () => {
  const w = workspace();
  const mark = uniqueMark();
  const jemalloc = findJemalloc();
  const result = await cli(['reproduce', '--quick', '--out', w.out, ...thpArgs(w)], {
    env: { NO_COLOR: '1', MMAPBENCH_TEST_MARK: mark },
    timeout: 600000,
  });
  assert.equal(result.exitCode, 0, result.stderr);
  const report = readFileSync(join(w.out, 'REPORT.md'), 'utf8');
  assert.match(report, /^# mmapbench reproduce/);
  assert.ok(report.indexOf('| node |') < report.indexOf('## Verdicts'), 'the environment block comes first');
  assert.match(report, /\| status \| complete \|/);
  assert.match(report, /\| k \| k=\d+ \(/);

  const ran = EXPERIMENTS.filter((e) => e.name !== 'jemalloc' || jemalloc.path || process.env.CI);
  if (ran.length < EXPERIMENTS.length)
    assert.match(report, /\| skipped: jemalloc \| libjemalloc not found .*apt-get install libjemalloc2/);
  for (const experiment of ran) {
    const section = report.split(`\n## ${experiment.name} — `)[1]?.split('\n## ')[0];
    assert.ok(section, `a section for ${experiment.name}`);
    assert.match(
      section,
      experiment.k
        ? /published figures \(quoted, not measured here\): (nodejs\/node|Momtchil Momtchev)/
        : /published figures \(quoted, not measured here\): .*(Hypothesis|step)/,
    );
    assert.match(section, /\| claim \| verdict \| evidence/);
    const verdicts = [...section.matchAll(/\| (holds|does not hold|inconclusive) \(smoke\) \|/g)];
    assert.equal(verdicts.length, claimsOf(experiment, w.out), `${experiment.name}: a verdict per claim`);
  }
  assert.match(
    report,
    // two --quick rounds: the median without an interval (too few rounds for one)
    /\| readfilesync 64 KiB \| [\d,]+ \| [\d,]+ \| [\d.]+ \| 79,027 \| 146,526 \| 0\.54 \|/,
  );
  // the answer: every claim's verdict first; REPORT.md is the whole report
  assert.match(result.stdout, /^mmapbench reproduce: [^\n]*\n┌[^\n]*\n│ experiment +│ claim +│ verdict/);
  // the sibling sources: the task's own figures beside the published ones (per second), one process
  assert.match(report, /^## clog — Node PR .fs: partition readFile. · k=1, one process, as published/m);
  assert.match(report, /^\| 16 MiB, 10 in flight, whole \| [\d,]+ \| [\d,]+ \| 552 \| 141 \|$/m);
  assert.match(report, /^\| 16 MiB, 10 in flight, partitioned 512k \| [\d,]+ \| [\d,]+ \| - \| - \|$/m);
  assert.match(report, /^\| readFile 1 KiB, 64 in flight \| [\d,]+ \| [\d,]+ \| [\d.]+ \| \+22% \|$/m);
  assert.match(
    report,
    /^\| 10,000 jobs at once, or 16 through p-limit \| [\d,]+ \/ [\d,]+ \| [\d.]+ ms \/ [\d.]+ ms \|/m,
  );
  assert.match(report, /^\| published \(one run each way\) \| 47,577 \/ - \| - \/ - \| 115 s \/ 9 s \| 12\.8 \|$/m);

  const document = JSON.parse(readFileSync(resultsFile(w.out), 'utf8'));
  assert.equal(document.command, 'reproduce');
  const cells = document.records.filter((/** @type {any} */ r) => r.type === 'cell');
  // node-fix's settings are named by the Nodes the run found (the results document's nodes)
  const expected = ran.reduce(
    (n, e) =>
      n +
      e.variants({ jemalloc: { path: 'x' }, nodes: document.nodes }).reduce((m, v) => m + variantModes(v).length, 0) *
        2,
    0,
  );
  // node-fix: this Node (without the option) and Node 24 and 26 from the registry (with it)
  assert.deepEqual(
    document.nodes.map((/** @type {any} */ node) => [node.label, node.hasOption]),
    [
      ["the run's Node", false],
      ['Node 24', true],
      ['Node 26', true],
    ],
  );
  assert.match(report, /^\| Node v20\.[\d.]+, 64 KiB \| [\d.]+ \| not on this Node \| [\d.]+ \| - \| - \|$/m);
  assert.match(report, /^\| Node v26\.[\d.]+, 1 MiB \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \|$/m);
  assert.equal(cells.length, expected, 'two rounds of every variant and mode');
  assert.equal(new Set(cells.map(cellKey)).size, cells.length);
  assert.ok(cells.every((r) => r.cell.totalOps > 0));

  for (const r of cells.filter((c) => ['clog', 'promises', 'throttle'].includes(c.experiment))) {
    assert.equal(r.mode, 'procs');
    assert.equal(r.cell.workers.length, 1, `${r.experiment} ${r.variant}: one process, k=1`);
  }
  const thpCells = cells.filter((r) => r.experiment === 'thp');
  assert.equal(thpCells.length, 12);
  assert.equal(readChoice(w.thp), 'madvise', 'THP is as it was found');
  assert.equal(existsSync(w.restoreFile), false);
  await noneLeft(mark);
});

test('--protocol both --quick: every experiment measured both ways in the same rounds, both verdicts side by side, the published one first', async () => {
  const w = workspace();
  const jemalloc = findJemalloc();
  const result = await cli(['reproduce', '--quick', '--protocol', 'both', '--out', w.out, ...thpArgs(w)], {
    timeout: 600000,
  });
  assert.equal(result.exitCode, 0, result.stderr);
  const report = readFileSync(join(w.out, 'REPORT.md'), 'utf8');
  assert.match(report, /\| protocol \| both: published and steady cells in the same interleaved rounds/);
  assert.match(report, /^\| experiment \| claim \| published \| steady \|$/m);
  const ran = EXPERIMENTS.filter((e) => e.name !== 'jemalloc' || jemalloc.path || process.env.CI);
  for (const experiment of ran) {
    const section = report.split(`\n## ${experiment.name} — `)[1]?.split('\n## ')[0];
    assert.ok(section, `a section for ${experiment.name}`);
    assert.match(section, /^\| [^|]+ \(steady\) \|/m, `${experiment.name}: a steady table`);
    assert.match(section, /^\| [^|]+ \(published\) \|/m, `${experiment.name}: a published table`);
    assert.match(section, /^\| claim \| published \| steady \| evidence: published; steady \|$/m);
    const rows = [
      ...section.matchAll(
        /\| (holds|does not hold|inconclusive) \(smoke\) \| (holds|does not hold|inconclusive) \(smoke\) \|/g,
      ),
    ];
    assert.equal(rows.length, claimsOf(experiment, w.out), `${experiment.name}: both verdicts per claim`);
    assert.match(
      section,
      /^the published protocol and warm workers (agree|get different verdicts on \d+ of \d+ claims?)/m,
    );
  }
  const cells = records(resultsFile(w.out)).filter((r) => r.type === 'cell');
  const published = cells.filter((r) => r.variant.endsWith('@published'));
  assert.equal(published.length * 2, cells.length, 'as many published cells as steady ones');
  // every round of an experiment holds both protocols' cells
  for (const experiment of ran) {
    const mine = cells.filter((r) => r.experiment === experiment.name);
    for (const round of [1, 2]) {
      const inRound = mine.filter((r) => r.round === round);
      assert.ok(
        inRound.some((r) => r.variant.endsWith('@published')) && inRound.some((r) => !r.variant.endsWith('@published')),
      );
    }
  }
});
