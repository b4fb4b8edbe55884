// Where a run writes is taken before it measures: a resumed file replaced in place is held with
// its folder, which a run still writing that file holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdingResults } from '../../src/saved/claim.js';
import { lockFolder } from '../../src/system/out-lock.js';

const kept = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-claim-'));
  const file = join(dir, 'compare-20261129T000000.000Z.json');
  writeFileSync(file, '{}\n');
  return { dir, file };
};

test("a --resume in place is refused while a run holds the file's folder: that run is still writing it", async () => {
  const { dir, file } = kept();
  // the run that wrote the file, still going: it holds its --out folder
  const release = await lockFolder(dir, '--out');
  try {
    let ran = false;
    await assert.rejects(
      holdingResults(
        { out: 'unused', command: 'compare' },
        { path: file },
        () => {},
        async () => {
          ran = true;
        },
      ),
      (error) =>
        /^--resume .* is in use by another mmapbench run \(pid \d+, .*\); wait for it to finish or pass --out DIR to go on in another folder$/.test(
          /** @type {Error} */ (error).message,
        ),
    );
    assert.equal(ran, false, 'nothing ran');
  } finally {
    release();
  }
  // once it has ended, the file goes on, in place
  let keeping = null;
  await holdingResults(
    { out: 'unused', command: 'compare' },
    { path: file },
    () => {},
    async (journal) => {
      keeping = journal;
    },
  );
  assert.notEqual(keeping, null);
});

test('a --resume into another --out reads the file in a busy folder, and holds the new folder', async () => {
  const { dir, file } = kept();
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-claim-out-'));
  const release = await lockFolder(dir, '--out');
  try {
    let ran = false;
    await holdingResults(
      { out, outGiven: true, command: 'compare' },
      { path: file },
      () => {},
      async () => {
        ran = true;
        await assert.rejects(lockFolder(out, '--out'), /in use by another mmapbench run/);
      },
    );
    assert.equal(ran, true);
  } finally {
    release();
  }
});
