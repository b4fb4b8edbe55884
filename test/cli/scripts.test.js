// The scripts that stand in for the investigation's run.sh and run-thp.sh, run as a user would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { readChoice } from '../../src/system/environment.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-scripts-'));
  const thp = join(dir, 'enabled');
  writeFileSync(thp, 'always [madvise] never\n');
  return { dir, out: join(dir, 'out'), thp, restoreFile: join(dir, 'state', 'thp-restore.json') };
}
const thpArgs = (w) => ['--thp-path', w.thp, '--thp-restore-file', w.restoreFile];

test('scripts/run.sh runs compare over files × k × arenas, and passes its arguments on', async () => {
  const script = new URL('../../scripts/run.sh', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa('bash', [script, '--quick'], {
    reject: false,
    env: { FILES: 'small', KS: '1 2', ARENAS: 'default 1' },
  });
  assert.equal(exitCode, 0, stderr);
  const titles = stdout.split('\n').filter((line) => line.startsWith('### mmapbench compare'));
  assert.deepEqual(
    titles.map((t) => /k=(\d)/.exec(t)[1]),
    ['1', '1', '2', '2'],
  );
  assert.ok(titles.every((t) => t.includes('file small (128 B)')));
  assert.equal(
    (stdout.match(/^2 rounds × 20 iterations per worker \(--quick: not a measurement\) {2}$/gm) ?? []).length,
    4,
  );
  assert.equal((stdout.match(/· MALLOC_ARENA_MAX=1/g) ?? []).length, 2);
});

test('scripts/run-thp.sh is reproduce thp', async () => {
  const w = workspace();
  const script = new URL('../../scripts/run-thp.sh', import.meta.url).pathname;
  const { exitCode, stderr } = await execa('bash', [script, '--quick', '--out', w.out, ...thpArgs(w)], {
    reject: false,
  });
  assert.equal(exitCode, 0, stderr);
  assert.match(readFileSync(join(w.out, 'REPORT.md'), 'utf8'), /\n## thp — Hypothesis 5, step 7/);
  assert.equal(readChoice(w.thp), 'madvise');
});
