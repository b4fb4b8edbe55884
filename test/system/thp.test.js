// THP is machine-wide: whatever a run changes must be put back, also after a crash. These run
// against a stand-in file, never the real sysfs one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { restoreThp, takeThp } from '../../src/system/thp.js';
import { cli, fixture, victim } from '../helpers.js';

function standIn(content = 'always [madvise] never') {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-thp-'));
  const file = join(dir, 'enabled');
  writeFileSync(file, content);
  return { file, restoreFile: join(dir, 'state', 'thp-restore.json') };
}

test('take, set, restore: the original mode comes back and the restore file goes', () => {
  const { file, restoreFile } = standIn();
  const thp = takeThp({ path: file, restoreFile });
  assert.equal(thp.original, 'madvise');
  assert.equal(JSON.parse(readFileSync(restoreFile, 'utf8')).original, 'madvise');
  thp.set('never');
  assert.equal(readFileSync(file, 'utf8'), 'never');
  thp.restore();
  assert.equal(readFileSync(file, 'utf8'), 'madvise');
  assert.equal(existsSync(restoreFile), false);
});

test('a leftover restore file is never overwritten: the run refuses and names `mmapbench restore`', () => {
  const { file, restoreFile } = standIn();
  takeThp({ path: file, restoreFile }).set('never'); // a run that "died" with THP changed
  assert.throws(
    () => takeThp({ path: file, restoreFile }),
    (error) => {
      assert.equal(error.exitCode, 3);
      assert.match(
        error.message,
        /a previous run left THP changed .*run `mmapbench restore --thp-restore-file .*thp-restore.json --thp-path .*enabled` first/,
      );
      return true;
    },
  );
  assert.equal(JSON.parse(readFileSync(restoreFile, 'utf8')).original, 'madvise', 'the true original is kept');
});

test('process.exit while THP is changed (a second Ctrl-C) still restores it', async () => {
  const { file, restoreFile } = standIn();
  const result = await execa(process.execPath, [fixture('thp-holder.js'), file, restoreFile, 'exit'], {
    reject: false,
  });
  assert.equal(result.exitCode, 130);
  assert.equal(result.stdout, 'set');
  assert.equal(readFileSync(file, 'utf8'), 'madvise');
  assert.equal(existsSync(restoreFile), false);
});

test('after SIGKILL, `mmapbench restore` puts the original back from the restore file', async () => {
  const { file, restoreFile } = standIn('[always] madvise never');
  const holder = execa(process.execPath, [fixture('thp-holder.js'), file, restoreFile, 'wait'], { reject: false });
  await new Promise((resolve) => holder.stdout.on('data', (chunk) => String(chunk).includes('set') && resolve()));
  holder.kill('SIGKILL');
  await holder;
  assert.equal(readFileSync(file, 'utf8'), 'never', 'a SIGKILL leaves it changed');

  const result = await cli(['restore', '--thp-restore-file', restoreFile, '--thp-path', file]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, `restored ${file}: never -> always`);
  assert.equal(readFileSync(file, 'utf8'), 'always');
  assert.equal(existsSync(restoreFile), false);

  const again = await cli(['restore', '--thp-restore-file', restoreFile, '--thp-path', file]);
  assert.equal(again.stdout, 'nothing to restore: no run left THP changed');
});

test('a restore file that is not ours is left for a person to check; none is nothing to do', () => {
  const { restoreFile } = standIn();
  assert.throws(() => restoreThp({ restoreFile: fixture('throws.js') }), /not a restore file mmapbench wrote/);
  assert.equal(existsSync(fixture('throws.js')), true, 'and is not removed');
  assert.equal(restoreThp({ restoreFile }), null);
});

test('restore writes only the THP file: a restore file naming another file is refused, which stays as it was', async () => {
  const { restoreFile } = standIn();
  const target = victim();
  mkdirSync(dirname(restoreFile), { recursive: true });
  writeFileSync(restoreFile, JSON.stringify({ path: target.path, original: 'never', pid: 999999999 }));
  const result = await cli(['restore', '--thp-restore-file', restoreFile]);
  assert.equal(result.exitCode, 2);
  assert.equal(
    result.stderr,
    `mmapbench: ${restoreFile} names ${target.path}, which is not the THP setting /sys/kernel/mm/transparent_hugepage/enabled; if that is the stand-in the run used, pass --thp-path ${target.path}`,
  );
  assert.equal(readFileSync(target.path, 'utf8'), target.content);
  assert.equal(existsSync(restoreFile), true, 'left for a person to check');
});

test('restore refuses while the run that changed THP is still alive: it restores the mode itself', async () => {
  const { file, restoreFile } = standIn();
  const holder = execa(process.execPath, [fixture('thp-holder.js'), file, restoreFile, 'wait'], { reject: false });
  await new Promise((resolve) => holder.stdout.on('data', (chunk) => String(chunk).includes('set') && resolve()));
  const result = await cli(['restore', '--thp-restore-file', restoreFile, '--thp-path', file]);
  holder.kill('SIGKILL');
  await holder;
  assert.equal(result.exitCode, 2);
  assert.match(
    result.stderr,
    /^mmapbench: the run that changed THP \(pid \d+\) is still running and will put it back itself; stop it first$/,
  );
  assert.equal(readFileSync(file, 'utf8'), 'never', 'untouched while its owner lived');
});
