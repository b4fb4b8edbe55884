// `mmapbench reproduce` as a user runs it: the THP guard against a stand-in file (SIGINT and
// SIGKILL mid-run), resume after a kill, and bad input; --list is in test/cli/. Every experiment
// at once: reproduce-all.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BIN,
  cellCount,
  cli,
  cellKey,
  noneLeft,
  records,
  resultsFile,
  startUntil,
  thpArgs,
  uniqueMark,
  reproduceWorkspace as workspace,
  assertBencher,
} from '../helpers.js';
import { readChoice, THP_PATH } from '../../src/system/environment.js';
import { thpProblem } from '../../src/system/thp.js';

test("--protocol published: the investigation's protocol alone, said in the report; --export writes its settings", async () => {
  const w = workspace();
  const exported = join(w.out, '..', 'bmf.json');
  const result = await cli([
    'reproduce',
    'gap',
    '--quick',
    '--protocol',
    'published',
    '--out',
    w.out,
    '--export',
    `bencher=${exported}`,
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stderr.trimEnd().split('\n').at(-1), `mmapbench: exported ${exported}`);
  const bencher = JSON.parse(readFileSync(exported, 'utf8'));
  assertBencher(bencher);
  assert.ok(
    Object.keys(bencher).every((name) => name.startsWith('gap · ')),
    Object.keys(bencher).join(', '),
  );
  const report = readFileSync(join(w.out, 'REPORT.md'), 'utf8');
  assert.match(
    report,
    /\| protocol \| published: 2,000 iterations per worker and no warmup, as the investigation ran them \|/,
  );
  assert.match(report, /^\| experiment \| claim \| verdict \(published\) \|$/m);
  assert.match(report, /^\| setting \(published\) \| workers ops\/s \|/m);
  const cells = records(resultsFile(w.out)).filter((r) => r.type === 'cell');
  assert.ok(cells.length > 0 && cells.every((r) => r.variant === 'default@published'));
});

test('a run killed midway resumes where it stopped: nothing measured is lost or measured twice', async () => {
  const w = workspace();
  const mark = uniqueMark();
  const { run } = await startUntil(
    ['reproduce', 'gap', 'arena', '--quick', '--out', w.out],
    () => cellCount(w.out)() >= 5,
    { MMAPBENCH_TEST_MARK: mark },
  );
  run.kill('SIGKILL');
  await run;
  await noneLeft(mark);
  const file = resultsFile(w.out);
  const before = records(file);
  const kept = before.filter((r) => r.type === 'cell').length;
  assert.ok(kept >= 5 && kept < 16, `${kept} cells before the kill`);

  const resumed = await cli(['reproduce', '--resume', file]);
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.deepEqual(
    records(file).slice(0, before.length),
    before,
    'the cells measured before the kill are kept as they were',
  );
  const cells = records(file).filter((r) => r.type === 'cell');
  assert.equal(cells.length, 16, 'gap 2 cells and arena 6 per round, 2 rounds');
  assert.equal(new Set(cells.map(cellKey)).size, 16);
  assert.match(readFileSync(join(w.out, 'REPORT.md'), 'utf8'), /\| status \| complete \|/);
});

test('Ctrl-C keeps what finished: exit 130, REPORT.md marked interrupted, the resume command, no process left', async () => {
  const w = workspace();
  const mark = uniqueMark();
  const { run } = await startUntil(
    ['reproduce', 'gap', 'arena', '--quick', '--out', w.out],
    () => cellCount(w.out)() >= 2,
    { MMAPBENCH_TEST_MARK: mark },
  );
  run.kill('SIGINT');
  const { exitCode, stderr } = await run;
  assert.equal(exitCode, 130, stderr);
  assert.match(stderr, /to finish the run: mmapbench reproduce --resume .*reproduce-.*\.json/);
  assert.match(readFileSync(join(w.out, 'REPORT.md'), 'utf8'), /\| status \| interrupted: resume with --resume \|/);
  assert.ok(cellCount(w.out)() >= 2);
  await noneLeft(mark);
});

/** A `reproduce thp --quick` run against a stand-in file, once it has changed the mode. */
async function thpChanged() {
  const w = workspace();
  const mark = uniqueMark();
  const changed = () => existsSync(w.restoreFile) && readFileSync(w.thp, 'utf8') !== 'always [madvise] never\n';
  const { run } = await startUntil(['reproduce', 'thp', '--quick', '--out', w.out, ...thpArgs(w)], changed, {
    MMAPBENCH_TEST_MARK: mark,
  });
  return { w, mark, run };
}

test('THP: SIGINT mid-run puts the original mode back', async () => {
  const { w, mark, run } = await thpChanged();
  run.kill('SIGINT');
  const { exitCode, stderr } = await run;
  assert.equal(exitCode, 130, stderr);
  assert.equal(readChoice(w.thp), 'madvise');
  assert.equal(existsSync(w.restoreFile), false);
  await noneLeft(mark);
});

test('THP: after SIGKILL the next thp run refuses until `mmapbench restore` puts the original back', async () => {
  const { w, mark, run } = await thpChanged();
  run.kill('SIGKILL');
  await run;
  await noneLeft(mark);
  const changed = readChoice(w.thp);
  assert.notEqual(changed, 'madvise', 'a SIGKILL leaves it changed');

  const refused = await cli(['reproduce', 'thp', '--quick', '--out', w.out, ...thpArgs(w)]);
  assert.equal(refused.exitCode, 3);
  assert.equal(
    refused.stderr,
    `mmapbench: a previous run left THP changed (${w.restoreFile} exists); run \`mmapbench restore --thp-restore-file ${w.restoreFile} --thp-path ${w.thp}\` first`,
  );
  assert.equal(readChoice(w.thp), changed, 'the refusal touched nothing');

  const restored = await cli(['restore', '--thp-restore-file', w.restoreFile, '--thp-path', w.thp]);
  assert.equal(restored.stdout, `restored ${w.thp}: ${changed} -> madvise`);
  const again = await cli(['reproduce', 'thp', '--quick', '--out', w.out, ...thpArgs(w)]);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.equal(readChoice(w.thp), 'madvise');
});

// It changes the machine's real THP mode for a few seconds, which would disturb any measurement
// running beside `npm test`: it runs only when asked (.ci/run asks), and CI must ask.
const realThp = process.env.MMAPBENCH_TEST_REAL_THP === '1';
test('THP on the real sysfs file: the mode is the same after the run', async (t) => {
  if (!realThp) {
    if (process.env.CI) assert.fail('CI must run this test: set MMAPBENCH_TEST_REAL_THP=1 in .ci/run');
    return t.skip("changes the machine's THP mode: set MMAPBENCH_TEST_REAL_THP=1 to run it");
  }
  const problem = thpProblem(THP_PATH);
  if (problem && !process.env.CI) return t.skip(problem);
  assert.equal(problem, null, 'CI runs as root with a writable THP setting');
  const original = readChoice(THP_PATH);
  t.after(() => {
    if (readChoice(THP_PATH) !== original) writeFileSync(THP_PATH, original);
  });
  const w = workspace();
  const result = await cli(['reproduce', 'thp', '--quick', '--out', w.out, '--thp-restore-file', w.restoreFile]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(records(resultsFile(w.out)).filter((r) => r.type === 'cell').length, 12);
  assert.equal(readChoice(THP_PATH), original);
  assert.equal(existsSync(w.restoreFile), false);
});

for (const [args, pattern, code] of [
  [
    ['reproduce', 'gapp'],
    /^mmapbench: no experiment gapp; the experiments are gap, arena, .*async, locks, clog, promises, throttle \(see `mmapbench reproduce --list`\)$/,
    2,
  ],
  [
    ['reproduce', '--resume', '/nonexistent/results.jsonl'],
    /^mmapbench: --resume \/nonexistent\/results.jsonl: no such file; pass a results file mmapbench saved \(in .\/mmapbench-results by default\)$/,
    2,
  ],
  [
    ['reproduce', '--resume', BIN, '--quick'],
    /^mmapbench: --quick cannot be used with --resume: the run goes on with the settings it was started with; drop --quick$/,
    2,
  ],
  [
    ['reproduce', '--resume', BIN, 'gap'],
    /^mmapbench: the experiment names cannot be used with --resume: the run goes on with the settings it was started with; drop the experiment names$/,
    2,
  ],
  [
    ['reproduce', 'gap', '--jemalloc', '/nonexistent/libjemalloc.so.2'],
    /^mmapbench: --jemalloc \/nonexistent\/libjemalloc.so.2 is not a readable file; pass the path of libjemalloc.so.2$/,
    2,
  ],
  [
    ['reproduce', 'thp', '--thp-path', '/nonexistent/enabled'],
    /^mmapbench: thp cannot run here: no THP setting at \/nonexistent\/enabled \(a kernel without transparent hugepages\)$/,
    3,
  ],
]) {
  test(`bad input: mmapbench ${args.join(' ')}`, async () => {
    const { exitCode, stderr, stdout } = await cli(args);
    assert.equal(exitCode, code);
    assert.match(stderr, pattern);
    assert.equal(stdout, '');
  });
}
