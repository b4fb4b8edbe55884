// reproduce as root in places other users share, on a full or read-only disk, twice at once,
// and resuming a results file someone else wrote: nothing outside --out is written, nothing
// measured is lost, and every refusal is one line with its exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSaved } from '../../src/commands/index.js';
import {
  asNobody,
  asRoot,
  cellCount,
  cli,
  fixture,
  processesMarked,
  resultsFile,
  sharedTmp,
  startUntil,
  tmpfs,
  uniqueMark,
  victim,
} from '../helpers.js';

const cells = (out) => cellCount(out)();

test('a REPORT.md planted as a link by another user is replaced, and its target left alone', asRoot, async () => {
  const shared = sharedTmp();
  const target = victim();
  const out = join(shared, 'out');
  await asNobody(`mkdir ${out} && chmod 777 ${out} && ln -s ${target.path} ${out}/REPORT.md`);
  const result = await cli(['reproduce', 'gap', '--quick', '--out', out]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(readFileSync(target.path, 'utf8'), target.content);
  assert.ok(lstatSync(join(out, 'REPORT.md')).isFile(), 'REPORT.md is a file of its own now');
  assert.match(readFileSync(join(out, 'REPORT.md'), 'utf8'), /^# mmapbench reproduce/);
});

test('--out naming a file is a usage error, and the file is untouched', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'mmapbench-test-')), 'taken');
  writeFileSync(file, 'keep me');
  const result = await cli(['reproduce', 'gap', '--quick', '--out', file]);
  assert.equal(result.exitCode, 2);
  assert.equal(
    result.stderr,
    `mmapbench: --out ${file}: a file is in the way of a folder (EEXIST); pass --out a folder`,
  );
  assert.equal(readFileSync(file, 'utf8'), 'keep me');
});

test('--out on a read-only file system: exit 3, one line, nothing run', asRoot, async (t) => {
  const dir = await tmpfs(t, 'ro,size=1m');
  const mark = uniqueMark();
  const result = await cli(['reproduce', 'gap', '--quick', '--out', join(dir, 'out')], {
    env: { NO_COLOR: '1', MMAPBENCH_TEST_MARK: mark },
  });
  assert.equal(result.exitCode, 3);
  assert.equal(
    result.stderr,
    `mmapbench: ${join(dir, 'out')} is on a read-only file system (EROFS); pass --out a writable folder`,
  );
  assert.deepEqual(processesMarked(mark), []);
});

test(
  'the disk filling up mid-run: exit 3, the cells already saved kept, the report printed, the resume command',
  asRoot,
  async (t) => {
    const dir = await tmpfs(t, 'size=1m');
    // leave sixteen 4 KiB pages: the lock's owner file, and room for the results document (its
    // machine and options, then a cell of about 2 KiB more each time) twice over, as it is
    // written whole beside the last copy and then renamed over it, until a few cells in
    writeFileSync(join(dir, 'filler'), Buffer.alloc(240 * 4096));
    const out = join(dir, 'out');
    const result = await cli(['reproduce', 'gap', 'arena', '--quick', '--out', out]);
    assert.equal(result.exitCode, 3, result.stderr);
    const kept = cells(out);
    assert.ok(kept >= 2 && kept < 16, `${kept} cells kept`);
    assert.match(result.stderr, /^mmapbench: no space left to write .* \(ENOSPC\)/m);
    assert.match(result.stderr, /^mmapbench: to finish the run: mmapbench reproduce --resume .*reproduce-.*\.json$/m);
    assert.match(result.stdout.replace(/\s+/g, ' '), /^mmapbench reproduce: .* — failed: no space left/);
    assert.doesNotMatch(result.stderr, /internal error/);
  },
);

test('two runs on one --out: the second is refused while the first holds it; the first finishes', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'mmapbench-test-')), 'out');
  const { run: first } = await startUntil(
    ['reproduce', 'gap', 'arena', '--quick', '--out', out],
    () => cells(out) >= 1,
  );
  const second = await cli(['reproduce', 'gap', '--quick', '--out', out]);
  assert.equal(second.exitCode, 2, second.stderr);
  assert.match(
    second.stderr,
    new RegExp(
      `^mmapbench: --out ${out} is in use by another mmapbench run \\(pid ${first.pid}, started [^)]+\\); wait for it to finish or pass another folder$`,
    ),
  );
  const resumed = await cli(['reproduce', '--resume', resultsFile(out)]);
  assert.equal(resumed.exitCode, 2, 'a second --resume of the same file is refused too');
  assert.match(resumed.stderr, /is in use by another mmapbench run/);
  const done = await first;
  assert.equal(done.exitCode, 0, done.stderr);
  assert.equal(cells(out), 16, 'every cell once');
  assert.deepEqual(
    readdirSync(out).filter((name) => name.includes('lock')),
    [],
    'the lock is gone',
  );
});

/** A results file as reproduce writes it, of a run that was killed, with these stored options. */
function storedRun(options) {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const file = join(dir, 'reproduce-20261128T000000.000Z.json');
  const { document } = loadSaved(fixture('saved/reproduce.jsonl'));
  const stored = {
    experiments: ['gap'],
    quick: true,
    k: 2,
    rounds: null,
    maxRounds: 12,
    duration: 1,
    timeout: 300,
    thpPath: '/sys/kernel/mm/transparent_hugepage/enabled',
    ...options,
  };
  writeFileSync(file, JSON.stringify({ ...document, status: 'incomplete', records: [], options: stored }));
  return { dir, file };
}

test('--resume never runs what a results file names: a stored --node must be given again', async () => {
  const { dir, file } = storedRun({ node: join(tmpdir(), 'evil.sh') });
  const ran = join(dir, 'ran');
  const evil = join(dir, 'evil.sh');
  writeFileSync(evil, `#!/bin/sh\ntouch ${ran}\n`);
  chmodSync(evil, 0o755);
  const { file: stored } = storedRun({ node: evil });
  for (const resumeFile of [file, stored]) {
    const before = readFileSync(resumeFile, 'utf8');
    const result = await cli(['reproduce', '--resume', resumeFile]);
    assert.equal(result.exitCode, 2);
    assert.match(
      result.stderr,
      /^mmapbench: --resume .* runs .*evil\.sh \(--node\); a results file may come from anyone, so name it yourself: add --node .*evil\.sh$/,
    );
    assert.equal(readFileSync(resumeFile, 'utf8'), before);
  }
  assert.equal(existsSync(ran), false, 'the script never ran');

  const other = await cli(['reproduce', '--resume', stored, '--node', process.execPath]);
  assert.equal(other.exitCode, 2);
  assert.match(
    other.stderr,
    /--node .* is not what --resume .* ran with \(.*evil\.sh\): a resumed run goes on with the same node; drop --node, or start a new run$/,
  );
});

for (const [options, message] of [
  [
    { k: 0 },
    /its stored options are invalid \(k is refused as the command line would refuse it: -k 0 is invalid: it must be a whole number of 1 or more\)$/,
  ],
  [
    { k: 100000 },
    /its stored options are invalid \(-k 100000 is more than 4096, the most threads or processes one cell may start, even with --force/,
  ],
  [
    { timeout: 1e9 },
    /its stored options are invalid \(timeout is refused as the command line would refuse it: --timeout 1000000000 is invalid/,
  ],
  // typed when the file is read, as report reads it (results.schema.json's reproduceOptions)
  [{ k: '8' }, /: options\.k must be a number \(it is "8"\); the file was changed or damaged/],
  [{ jemalloc: 5 }, /: options\.jemalloc must be a string \(it is 5\); the file was changed or damaged/],
  [{ experiments: ['gap', 'rm -rf'] }, /its stored options are invalid \(no experiment rm -rf;/],
  [
    { thpPath: '/etc/passwd' },
    /runs \/etc\/passwd \(--thp-path\); a results file may come from anyone, so name it yourself: add --thp-path \/etc\/passwd$/,
  ],
  [
    { jemalloc: '/tmp/evil.so' },
    /runs \/tmp\/evil\.so \(--jemalloc\); a results file may come from anyone, so name it yourself: add --jemalloc \/tmp\/evil\.so$/,
  ],
]) {
  test(`--resume checks stored options like new ones: ${JSON.stringify(options)}`, async () => {
    const { file } = storedRun(options);
    const before = readFileSync(file, 'utf8');
    const result = await cli(['reproduce', '--resume', file]);
    assert.equal(result.exitCode, 2);
    assert.match(result.stderr, message);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.equal(readFileSync(file, 'utf8'), before, 'the file is untouched');
  });
}

test('--resume of a file that is not ours leaves it as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  mkdirSync(join(dir, 'sub'));
  const file = join(dir, 'sub', 'notes');
  const content = 'fifty-two bytes of notes with no newline at the end!';
  writeFileSync(file, content);
  const result = await cli(['reproduce', '--resume', file]);
  assert.equal(result.exitCode, 2);
  assert.match(result.stderr, /notes is not an mmapbench results document \(not JSON\); pass a file that .* saved$/);
  assert.equal(readFileSync(file, 'utf8'), content);
});
