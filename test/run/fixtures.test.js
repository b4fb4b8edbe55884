import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import { join } from 'node:path';
import { defaultFixturesDir, resolveFile } from '../../src/run/fixtures.js';
import { formatSize, parseSize } from '../../src/words/spelling.js';
import { MmapbenchError } from '../../src/errors.js';
import { asNobody, asRoot, sharedTmp, victim } from '../helpers.js';

test('sizes parse with binary units', () => {
  assert.equal(parseSize('64k'), 65536);
  assert.equal(parseSize('8m'), 8 * 1024 * 1024);
  assert.equal(parseSize('512'), 512);
  assert.equal(parseSize('64KiB'), 65536);
  assert.equal(parseSize('1.5k'), 1536);
  assert.equal(parseSize('abc'), null);
  assert.equal(parseSize('-4k'), null);
  assert.equal(formatSize(65536), '64 KiB');
  assert.equal(formatSize(128), '128 B');
});

test('names and sizes create fixture files of exactly that size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const med = resolveFile('med', dir);
  assert.equal(med.size, 65536);
  assert.equal(statSync(med.path).size, 65536);
  assert.match(med.label, /med \(64 KiB\)/);
  const sized = resolveFile('3k', dir);
  assert.equal(statSync(sized.path).size, 3072);
});

test('an existing file is used as is; a missing one is a usage error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const path = join(dir, 'data.bin');
  writeFileSync(path, Buffer.alloc(100));
  assert.equal(resolveFile(path).size, 100);
  assert.throws(
    () => resolveFile(join(dir, 'missing')),
    (error) => error instanceof MmapbenchError && error.kind === 'usage' && /does not exist/.test(error.message),
  );
  assert.throws(() => resolveFile(dir), /not a regular file/);
});

// Root reads a file whatever its mode, so as root the check runs without the capabilities that allow it.
test('an unreadable file is a usage error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  chmodSync(dir, 0o755);
  const path = join(dir, 'secret.bin');
  writeFileSync(path, 'x');
  chmodSync(path, 0);
  if (process.getuid?.() !== 0) {
    assert.throws(
      () => resolveFile(path),
      (error) => error.kind === 'usage' && /is not readable \(EACCES\)/.test(error.message),
    );
    return;
  }
  const module = new URL('../../src/run/fixtures.js', import.meta.url).href;
  const script = `import(${JSON.stringify(module)}).then((m) => { try { m.resolveFile(${JSON.stringify(path)}); console.log('read it'); } catch (e) { console.log(e.kind, e.message); } })`;
  // root reads any file through CAP_DAC_OVERRIDE; a root without it (rather than another user,
  // who may not be able to enter the checkout at all) meets the file's mode as a user would
  const { stdout } = await execa('setpriv', [
    '--inh-caps=-dac_override,-dac_read_search',
    '--bounding-set=-dac_override,-dac_read_search',
    process.execPath,
    '-e',
    script,
  ]);
  assert.match(stdout, /^usage --file .*secret\.bin is not readable \(EACCES\)/);
});

test('a fixtures folder another user made is refused, and no file is written through its links', asRoot, async () => {
  const shared = sharedTmp();
  const target = victim();
  const planted = join(shared, 'fixtures');
  await asNobody(
    `mkdir ${planted} && chmod 777 ${planted} && ln -s ${target.path} ${planted}/med && ln -s ${target.path} ${planted}/size-3072`,
  );
  for (const spec of ['med', '3k']) {
    assert.throws(
      () => resolveFile(spec, planted),
      (error) => {
        assert.equal(error.kind, 'usage');
        assert.match(
          error.message,
          /^--fixtures-dir .*\/fixtures belongs to uid 65534, not to you \(uid 0\); another user could plant files in it: pass --fixtures-dir a folder of your own$/,
        );
        return true;
      },
    );
  }
  assert.equal(readFileSync(target.path, 'utf8'), target.content);
});

test(
  'the default fixtures folder is per user (XDG_CACHE_HOME), created 0700, and refused when another user planted it',
  asRoot,
  async () => {
    const shared = sharedTmp();
    const target = victim();
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = shared;
    try {
      assert.equal(defaultFixturesDir(), join(shared, 'mmapbench', 'fixtures'));
      await asNobody(`mkdir -p ${shared}/mmapbench/fixtures && ln -s ${target.path} ${shared}/mmapbench/fixtures/med`);
      assert.throws(() => resolveFile('med'), /belongs to uid 65534/);
      assert.equal(readFileSync(target.path, 'utf8'), target.content);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
    const mine = join(mkdtempSync(join(tmpdir(), 'mmapbench-test-')), 'cache', 'fixtures');
    resolveFile('small', mine);
    assert.equal(statSync(mine).mode & 0o777, 0o700);
  },
);

test('a folder others can write, or a link in our own folder, is refused; the link is never followed', () => {
  const open = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  chmodSync(open, 0o777);
  assert.throws(() => resolveFile('med', open), /can be written by other users \(mode 777\)/);

  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const target = victim();
  symlinkSync(target.path, join(dir, 'med'));
  assert.throws(
    () => resolveFile('med', dir),
    /^MmapbenchError: fixture .*\/med is a symbolic link; remove it and run again$/,
  );
  assert.equal(readFileSync(target.path, 'utf8'), target.content);
  assert.deepEqual(readdirSync(dir), ['med'], 'no temporary left behind');
});

test('a size too big to create is a usage error; a file name with a newline prints as one line', () => {
  assert.throws(
    () => resolveFile('100g'),
    (error) => error.kind === 'usage' && /--file 100g: mmapbench creates files of at most 1 GiB/.test(error.message),
  );
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-test-')), 'two\nlines');
  writeFileSync(path, 'x');
  assert.equal(resolveFile(path).label.includes('\n'), false);
  assert.match(resolveFile(path).label, /two\\nlines$/);
});
