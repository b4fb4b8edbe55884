// Round five of hostile inputs, the rows that run no fault round or pool (the rest are
// test/long/round-five-cells.test.js): each test is one row of what broke, and fails on the code
// before it was mended. What a run's figures are is never asserted, only what it does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, ENV, asRoot, cli, killedCompare, measured, namedAgain, tmpfs } from '../helpers.js';

const LIMIT = { timeout: 90000 };

test(
  'row 7: a kept file and a hard link to it are one file: a second run going on with it by the other name is refused',
  LIMIT,
  async () => {
    const { path, document } = await killedCompare(200);
    const hard = join(mkdtempSync(join(tmpdir(), 'mmapbench-five-link-')), 'hard.json');
    linkSync(path, hard);
    const first = execa(process.execPath, [BIN, 'compare', '--resume', path, ...namedAgain(document)], {
      reject: false,
      env: ENV,
    });
    // its file taken: the line it starts with is said after
    await new Promise((resolve) =>
      first.stderr?.on('data', (chunk) => String(chunk).includes('resuming ') && resolve(undefined)),
    );
    const second = await cli(['compare', '--resume', hard, ...namedAgain(document)], { timeout: 20000 });
    assert.equal(second.exitCode, 2, second.stderr);
    assert.match(
      second.stderr,
      new RegExp(`^mmapbench: --resume ${hard} is in use by another mmapbench run \\(pid ${first.pid}, `),
    );
    first.kill('SIGINT');
    assert.equal((await first).exitCode, 130);
  },
);

test(
  "row 15: a --batch past a worker's window, or past a safe whole number, is refused before any cell",
  LIMIT,
  async () => {
    for (const [batch, said] of [
      [
        '1000000000',
        /^mmapbench: --batch 1000000000 is more than a worker's window of 20 ops: a pool task is at most that; give --batch 20 or less/,
      ],
      [
        '99999999999999999999',
        /^mmapbench: --batch 99999999999999999999 is too large: it must be a whole number of 1 or more, at most 9007199254740991$/,
      ],
    ]) {
      const result = await cli(['compare', '--quick', '--pool', 'tinypool', '--batch', batch, '--no-save'], {
        timeout: 20000,
      });
      assert.equal(result.exitCode, 2, result.stderr);
      assert.match(result.stderr.trim(), said);
      assert.equal(result.stdout, '', 'nothing measured, nothing said of a run');
    }
    const { compare, MmapbenchError } = await import('mmapbench');
    await assert.rejects(
      () => compare({ pool: 'tinypool', batch: 2 ** 60, quick: true, save: false }),
      (error) => error instanceof MmapbenchError && /--batch \S+ is too large/.test(error.message),
    );
  },
);

test(
  'row 18: a --file whose bytes cannot be read (/proc/self/mem) is refused before anything is measured',
  LIMIT,
  async () => {
    const result = await cli(['compare', '--quick', '-k', '1', '--file', '/proc/self/mem', '--no-save']);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.equal(
      result.stderr.trim(),
      'mmapbench: --file /proc/self/mem cannot be read as a file (EIO); pass a file the task can read, a name (med) or a size (64k)',
    );
    assert.equal(result.stdout, '');
  },
);

test('row 21: a pool not installed is exit 3, as docs/exit-codes.md says of its row 3', LIMIT, async () => {
  const empty = mkdtempSync(join(tmpdir(), 'mmapbench-five-nopool-'));
  const result = await cli(['compare', '--quick', '--pool', 'piscina', '--no-save'], { cwd: empty });
  assert.equal(result.exitCode, 3, result.stderr);
  assert.match(
    result.stderr,
    /^mmapbench: --pool piscina: piscina is not installed in \S+, and mmapbench does not carry it; install it in your project \(npm install piscina\)/,
  );
  const docs = readFileSync(new URL('../../docs/exit-codes.md', import.meta.url), 'utf8');
  const three = docs.split('\n').find((line) => line.startsWith('| 3 |')) ?? '';
  assert.match(
    three,
    /a `--pool` whose package is installed neither in your project nor beside mmapbench \(`piscina`: your project's alone\)/,
  );
});

test(
  'row 23: a disk that fills before the end leaves no file that says fewer rounds ran than did',
  { ...LIMIT, ...asRoot },
  async (t) => {
    const out = await tmpfs(t, 'size=64k');
    for (let run = 1; run <= 2; run++) {
      const result = await cli(['compare', '--quick', '-k', '1', '--out', out, '--json']);
      assert.equal(result.exitCode, 3, result.stderr);
      assert.match(result.stderr, /no space left to write .*\(ENOSPC\)/);
      // every round that ran prints, with the save's failure
      const document = measured(result.stdout);
      assert.equal(document.status, 'failed');
      assert.equal(document.rounds.length, 2);
      for (const name of readdirSync(out)) {
        const kept = measured(readFileSync(join(out, name), 'utf8'));
        assert.ok(
          kept.rounds.length === 2 || kept.status === 'failed',
          `${name}: ${kept.status}, ${kept.rounds.length} rounds`,
        );
      }
    }
  },
);
