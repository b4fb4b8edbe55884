// A CI job's view, end to end through the real CLI: the gate's exit codes and last line, the
// exports a dashboard reads, GitHub's step summary, --ci's log and its saved file, and diff's
// gate between two saved runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture } from '../helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-ci-test-'));
const lastLine = (text) => text.trimEnd().split('\n').at(-1);

test('a gate far above the ratio fails with exit 4, after saving, exporting and summarising the run; --ci logs each round', async () => {
  const dir = folder();
  const out = join(dir, 'results');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '# earlier steps\n');
  const result = await cli(
    [
      'compare',
      '--quick',
      // two rounds' interval can span 0.00-10^6 (t = 12.7); four rounds' cannot reach 10^6
      '--rounds',
      '4',
      '--ci',
      '--out',
      out,
      '--fail-below',
      '1000000',
      '--export',
      `github-action-benchmark=${join(dir, 'gab.json')}`,
      '--export',
      `bencher=${join(dir, 'bmf.json')}`,
    ],
    { env: { GITHUB_STEP_SUMMARY: summary } },
  );
  assert.equal(result.exitCode, 4, result.stderr);
  assert.match(
    lastLine(result.stderr),
    /^mmapbench: gate failed \(workers\/procs, --fail-below 1000000\): \d+\.\d\d \(95% CI \S+-\S+\) is below 1000000$/,
  );
  const log = result.stderr.split('\n');
  assert.deepEqual(
    log.filter((line) => line.startsWith('mmapbench: round')).map((line) => line.split(':')[1]),
    [' round 1', ' round 2', ' round 3', ' round 4'],
    'a line per round',
  );
  assert.ok(log.includes(`mmapbench: saved ${join(out, 'compare-ci.json')}`));
  assert.deepEqual(readdirSync(out), ['compare-ci.json']);
  const saved = JSON.parse(readFileSync(join(out, 'compare-ci.json'), 'utf8'));
  assert.equal(saved.gate.outcome, 'fail');
  assert.equal(saved.gate.threshold, undefined, 'the threshold is per point');
  assert.equal(saved.gate.points[0].threshold, 1000000);

  const gab = JSON.parse(readFileSync(join(dir, 'gab.json'), 'utf8'));
  assert.deepEqual(
    gab.map((entry) => entry.unit),
    ['ops/s', 'ops/s', 'ratio'],
  );
  assert.ok(gab.every((entry) => typeof entry.range === 'string' && /Node v\d+/.test(entry.extra)));
  const bmf = JSON.parse(readFileSync(join(dir, 'bmf.json'), 'utf8'));
  assert.equal(Object.keys(bmf).length, 3);
  const markdown = readFileSync(summary, 'utf8');
  assert.ok(markdown.startsWith('# earlier steps\n**mmapbench compare readfilesync, k=2**: '), 'appended');
  assert.match(markdown, /^❌ \*\*gate failed \(workers\/procs, --fail-below 1000000\): .*\*\*$/m);
  assert.match(markdown, /^\| .* \|$/m, 'the tables');

  // again: the file keeps its name, replaced
  const again = await cli(['compare', '--quick', '--rounds', '4', '--ci', '--out', out, '--fail-below', '0.000001']);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.match(
    lastLine(again.stderr),
    /^mmapbench: gate passed \(workers\/procs, --fail-below 0\.000001\): .* is at or above 0\.000001$/,
  );
  assert.deepEqual(readdirSync(out), ['compare-ci.json']);
  assert.equal(JSON.parse(readFileSync(join(out, 'compare-ci.json'), 'utf8')).gate.outcome, 'pass');
});

test('diff gates the change between two saved runs: inconclusive passes unless --fail-inconclusive (exit 5), a fail exits 4', async () => {
  const base = fixture('saved/compare.json');
  const lenient = await cli(['diff', base, base, '--max-worsening', '10']);
  assert.equal(lenient.exitCode, 0, lenient.stderr);
  assert.match(
    lastLine(lenient.stderr),
    /^mmapbench: gate inconclusive \(new\/base, --max-worsening 10%\): readfilesync · med \(64 KiB\) · k=2: workers\/procs 1\.00 \(95% CI \S+\) straddles 0\.9; not failing the job \(--fail-inconclusive would\)$/,
  );
  const summary = join(folder(), 'summary.md');
  const strict = await cli(['diff', base, base, '--max-worsening', '10', '--fail-inconclusive', '--json', '--ci'], {
    env: { GITHUB_STEP_SUMMARY: summary },
  });
  assert.equal(strict.exitCode, 5, strict.stderr);
  assert.equal(JSON.parse(strict.stdout).gate.outcome, 'inconclusive');
  assert.match(lastLine(strict.stderr), /^mmapbench: gate inconclusive .*; failing the job \(--fail-inconclusive\)$/);
  const markdown = readFileSync(summary, 'utf8');
  assert.match(markdown, /^\*\*mmapbench diff \S+compare\.json \S+compare\.json\*\*$/m);
  assert.match(markdown, /^⚠️ \*\*gate inconclusive \(new\/base, --max-worsening 10%\)/m);

  // the same run with every workers throughput a tenth: the ratio surely fell by more than 10%
  const dir = folder();
  const slower = join(dir, 'slower.json');
  const document = JSON.parse(readFileSync(base, 'utf8'));
  for (const round of document.rounds) round.workers.throughput /= 10;
  writeFileSync(slower, JSON.stringify(document));
  const fail = await cli(['diff', base, slower, '--max-worsening', '10']);
  assert.equal(fail.exitCode, 4, fail.stderr);
  assert.match(lastLine(fail.stderr), /^mmapbench: gate failed .*workers\/procs 0\.10 \(95% CI \S+\) is below 0\.9$/);
});

test('$GITHUB_STEP_SUMMARY that is, by another name, a file the command reads or writes is refused before anything runs (exit 2); the file stays as it was', async () => {
  const dir = folder();
  const out = join(dir, 'results');
  mkdirSync(out);
  const results = join(out, 'compare-ci.json');
  const base = join(dir, 'base.json');
  const next = join(dir, 'new.json');
  copyFileSync(fixture('saved/compare.json'), base);
  copyFileSync(fixture('saved/compare.json'), next);
  const before = readFileSync(next, 'utf8');
  const linked = (name, target, how) => {
    const path = join(dir, name);
    (how === 'hard' ? linkSync : symlinkSync)(target, path);
    return path;
  };
  for (const [args, summary, what] of [
    // the results file --ci writes, not there yet: a symbolic link to where it will be
    [['compare', '--quick', '--ci', '--out', out], linked('to-results.md', results, 'symbolic'), /the results file/],
    [['diff', base, next, '--ci'], linked('to-new.md', next, 'symbolic'), /new\.json, which diff reads/],
    [
      ['diff', base, next, '--ci'],
      linked('hard-new.md', next, 'hard'),
      /new\.json, which diff reads \(the same file by another name\)/,
    ],
  ]) {
    const result = await cli(args, { env: { GITHUB_STEP_SUMMARY: summary } });
    assert.equal(result.exitCode, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr.trim(),
      new RegExp(`^mmapbench: \\$GITHUB_STEP_SUMMARY \\S+ would replace \\S*${what.source}`),
    );
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  assert.deepEqual(readdirSync(out), [], 'nothing measured, nothing saved');
  assert.equal(readFileSync(next, 'utf8'), before);
});
