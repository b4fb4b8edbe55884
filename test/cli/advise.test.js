// advise's bad input, as a user meets it: one line naming the problem and the fix, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

test('an advise file is read by report, and --resume of it says to start a new advise', async () => {
  const file = fixture('saved/advise.json');
  const report = await cli(['report', file]);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /^mmapbench advise: readfilesync, 5 candidates against the baseline$/m);
  const resume = await cli(['sweep', '--resume', file]);
  assert.equal(resume.exitCode, 2);
  assert.match(resume.stderr, /is an advise run, which does not go on: start a new `mmapbench advise`/);
});
