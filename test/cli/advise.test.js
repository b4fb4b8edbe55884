// advise's bad input, as a user meets it: one line naming the problem and the fix, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture } from '../helpers.js';

test('--only that names no candidate lists the ones there are, before anything is measured', async () => {
  const result = await cli(['advise', '-k', '2', '--only', 'nothing-of-the-kind']);
  assert.equal(result.exitCode, 2, result.stderr);
  assert.match(
    result.stderr,
    /^mmapbench: --only nothing-of-the-kind names no candidate; the candidates here are TOP_PAD 64 MiB, .*reuse-buffer.*$/,
  );
  assert.equal(result.stderr.trim().split('\n').length, 1, 'one line, no stack');
  assert.equal(result.stdout, '');
});

test('an advise file is read by report; --resume of a finished one is refused, and so is sweep --resume of it', async () => {
  const file = fixture('saved/advise.json');
  const report = await cli(['report', file]);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /^mmapbench advise: readfilesync, 5 candidates against the baseline$/m);
  const resume = await cli(['advise', '--resume', file]);
  assert.equal(resume.exitCode, 2);
  assert.match(resume.stderr, /finished \(status complete\): there is nothing to go on with; start a new run$/m);
  const sweep = await cli(['sweep', '--resume', file]);
  assert.equal(sweep.exitCode, 2);
  assert.match(sweep.stderr, /is an advise run; resume it with `mmapbench advise --resume`$/m);
});

/** The advise fixture as a run stopped part way, with `edit` made to it: its path. */
function stopped(/** @type {(document: any) => void} */ edit) {
  const document = JSON.parse(readFileSync(fixture('saved/advise.json'), 'utf8'));
  document.status = 'interrupted';
  document.resume = {
    shared: { command: 'compare', cwd: process.cwd(), k: 1, iterations: 300, rounds: 4, env: {}, params: {} },
    advise: { for: 'throughput', only: null, race: true, kAuto: false, node: [] },
  };
  edit(document);
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-advise-')), 'advise.json');
  writeFileSync(path, JSON.stringify(document));
  return path;
}

test('--resume of a stopped advise checks its kept settings before anything runs (each field: test/core/kept-options.test.js)', async () => {
  for (const [edit, message] of /** @type {Array<[(d: any) => void, RegExp]>} */ ([
    [
      (d) => (d.resume.advise.for = 'speed'),
      /resume\.advise\.for must be one of throughput, memory, kept-memory, main-latency \(it is "speed"\)/,
    ],
    [(d) => delete d.resume, /does not say how it was started/],
  ])) {
    const file = stopped(edit);
    const before = readFileSync(file, 'utf8');
    const result = await cli(['advise', '--resume', file]);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.equal(result.stderr.trim().split('\n').length, 1, `one line: ${result.stderr}`);
    assert.equal(readFileSync(file, 'utf8'), before, 'the kept file is as it was');
  }
  const only = await cli(['advise', '--resume', stopped(() => {}), '--only', 'jemalloc']);
  assert.equal(only.exitCode, 2);
  assert.match(only.stderr, /--only cannot be used with --resume/);
});
