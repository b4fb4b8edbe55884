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
