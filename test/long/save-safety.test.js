// compare keeping its results on a disk that cannot take them: a read-only folder stops it
// before anything runs; a disk that fills mid-run costs no table and no earlier file; a resumed
// file on a read-only disk is refused before anything is measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { compare, MmapbenchError } from 'mmapbench';
import {
  asRoot,
  BIN,
  cli,
  ENV,
  keptIn,
  killedCompare,
  namedAgain,
  processesMarked,
  SLEEPS,
  tmpfs,
  uniqueMark,
  until,
  measured,
} from '../helpers.js';

test('compare --out on a read-only file system: exit 3, one line, nothing run', asRoot, async (t) => {
  const dir = await tmpfs(t, 'ro,size=1m');
  const mark = uniqueMark();
  const result = await cli(['compare', '--quick', '--out', join(dir, 'out'), '--env', `MMAPBENCH_TEST_MARK=${mark}`]);
  assert.equal(result.exitCode, 3);
  assert.equal(result.stdout, '', 'nothing ran');
  assert.equal(
    result.stderr,
    `mmapbench: ${join(dir, 'out')} is on a read-only file system (EROFS); pass --out a writable folder`,
  );
  assert.deepEqual(processesMarked(mark), []);
});

test(
  'compare on a disk that is full: its tables print, one warning while it measures, exit 3 naming the folder, an earlier file untouched',
  asRoot,
  async (t) => {
    const dir = await tmpfs(t, 'size=1m');
    const earlier = join(dir, 'compare-earlier.json');
    writeFileSync(earlier, '{"an earlier run": true}\n');
    // leave two 4 KiB pages: less than a kept document
    writeFileSync(join(dir, 'filler'), Buffer.alloc(253 * 4096));
    const result = await cli(['compare', '--quick', '--out', dir]);
    assert.equal(result.exitCode, 3, result.stderr);
    assert.match(result.stdout, /^mmapbench compare: readfilesync, /m, 'the tables print');
    assert.match(result.stdout, /^workers\/procs ratio /m);
    const warnings = result.stderr.match(/^mmapbench: warning: no space left to write .*/gm) ?? [];
    assert.equal(warnings.length, 1, result.stderr);
    assert.match(warnings[0], /; measuring on: the results print at the end$/);
    assert.equal(
      result.stderr.trim().split('\n').at(-1),
      `mmapbench: no space left to write ${dir} (ENOSPC); free some space or pass --out another folder`,
    );
    assert.equal(readFileSync(earlier, 'utf8'), '{"an earlier run": true}\n');
    assert.deepEqual(readdirSync(dir).sort(), ['compare-earlier.json', 'filler'], 'no half-written file left');
  },
);

test(
  'compare --json on a disk that is full: the document printed says the run failed to keep its results, as exit 3 does',
  asRoot,
  async (t) => {
    const dir = await tmpfs(t, 'size=1m');
    writeFileSync(join(dir, 'filler'), Buffer.alloc(254 * 4096));
    const result = await cli(['compare', '--quick', '--json', '--out', dir]);
    assert.equal(result.exitCode, 3, result.stderr);
    const document = measured(result.stdout);
    assert.equal(document.status, 'failed');
    assert.equal(document.error.kind, 'environment');
    assert.match(document.error.message, /^no space left to write /);
    assert.ok(document.rounds.length > 0, 'what was measured is all there');
  },
);

test(
  'the API on a disk that is full: it rejects as the CLI exits (environment), with the document of what was measured attached',
  asRoot,
  async (t) => {
    const dir = await tmpfs(t, 'size=1m');
    writeFileSync(join(dir, 'filler'), Buffer.alloc(254 * 4096));
    const warned = [];
    const error = await compare({ quick: true, out: dir, onWarning: (warning) => warned.push(warning) }).then(
      () => assert.fail('resolved on a full disk'),
      (caught) => caught,
    );
    assert.ok(error instanceof MmapbenchError, String(error));
    assert.equal(error.code, 'environment');
    assert.match(error.message, /^no space left to write /);
    assert.equal(error.document.status, 'failed');
    assert.ok(error.document.points[0].rounds.length > 0, 'what was measured is all there');
    assert.deepEqual(
      warned.map(({ code }) => code),
      ['save-failed'],
      'the failed save while it measured, as a warning',
    );
    assert.deepEqual(error.document.warnings, warned);
  },
);

test(
  '--resume of a file on a read-only disk fails before measuring (exit 3); with --out the continued run is kept there',
  { ...asRoot, timeout: 60000 },
  async (t) => {
    const { path, document: kept } = await killedCompare(4);
    const ro = await tmpfs(t, 'size=1m');
    const file = join(ro, 'compare.json');
    copyFileSync(path, file);
    await execa('mount', ['-o', 'remount,ro', ro]);
    const refused = await cli(['compare', '--resume', file, ...namedAgain(kept)]);
    assert.equal(refused.exitCode, 3);
    assert.equal(refused.stdout, '', 'nothing measured');
    assert.equal(
      refused.stderr.trim().split('\n').at(-1),
      `mmapbench: --resume ${file} cannot be replaced: ${ro} is on a read-only file system (EROFS); pass --out a writable folder to keep the continued run there`,
    );

    const rw = mkdtempSync(join(tmpdir(), 'mmapbench-continued-'));
    const continued = await cli(['compare', '--resume', file, ...namedAgain(kept), '--out', rw, '--json']);
    assert.equal(continued.exitCode, 0, continued.stderr);
    const written = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(rw));
    assert.match(continued.stderr, new RegExp(`^mmapbench: saved ${written.path}$`, 'm'));
    assert.equal(written.document.status, 'complete');
    const [point] = written.document.points;
    assert.deepEqual(
      point.rounds.map((round) => round.index),
      [1, 2, 3, 4],
    );
    assert.deepEqual(point.rounds[0].workers, kept.points[0].rounds[0].workers, 'the kept rounds come along');
    assert.equal(readFileSync(file, 'utf8'), readFileSync(path, 'utf8'), 'the read-only file is as it was');
  },
);

test(
  'init-task in a folder on a read-only disk is one line naming the disk and the fix (exit 3)',
  asRoot,
  async (t) => {
    const ro = await tmpfs(t, 'size=1m');
    await execa('mount', ['-o', 'remount,ro', ro]);
    const result = await cli(['init-task', 'parse-body'], { cwd: ro });
    assert.equal(result.exitCode, 3, result.stderr);
    assert.equal(
      result.stderr.trim(),
      `mmapbench: ${join(ro, 'parse-body.mjs')} is on a read-only file system (EROFS); run init-task in a writable folder`,
    );
  },
);

test(
  'two runs on one --out folder, or on one --resume file: the second is refused (exit 2) and no round is lost',
  { timeout: 90000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'mmapbench-shared-out-'));
    const { run: first } = await holding(
      ['compare', ...SLEEPS, '--rounds', '200', '--out', out],
      join(out, '.mmapbench.lock'),
    );
    const second = await cli(['compare', ...SLEEPS, '--rounds', '2', '--out', out]);
    assert.equal(second.exitCode, 2);
    assert.match(
      second.stderr,
      new RegExp(
        `^mmapbench: --out ${out} is in use by another mmapbench run \\(pid ${first.pid}, started [^)]+\\); wait for it to finish or pass another folder$`,
      ),
    );
    // a round kept before the interrupt, so there is a file to resume (not a race with the first)
    assert.ok(await until(() => keptIn(out) !== null, 20000), 'the first run kept a round');
    first.kill('SIGINT');
    assert.equal((await first).exitCode, 130);

    // the interrupted run's file, resumed twice at once
    const { path, document: kept } = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
    const { run: resumed } = await holding(['compare', '--resume', path, ...namedAgain(kept)], `${path}.lock`);
    const again = await cli(['compare', '--resume', path, ...namedAgain(kept)]);
    assert.equal(again.exitCode, 2);
    assert.match(
      again.stderr,
      new RegExp(`^mmapbench: --resume ${path} is in use by another mmapbench run \\(pid ${resumed.pid}, `),
    );
    const keptRounds = kept.points[0].rounds;
    assert.ok(await until(() => measured(readFileSync(path, 'utf8')).rounds.length > keptRounds.length, 20000));
    resumed.kill('SIGINT');
    assert.equal((await resumed).exitCode, 130);
    const rounds = measured(readFileSync(path, 'utf8')).rounds.map((round) => round.index);
    assert.deepEqual(
      rounds.slice(0, keptRounds.length),
      keptRounds.map((round) => round.index),
      "the first run's rounds are kept",
    );
    assert.deepEqual(
      rounds,
      rounds.map((_, i) => i + 1),
      'numbered on, none repeated',
    );
    assert.ok(!existsSync(`${path}.lock`) && !existsSync(join(out, '.mmapbench.lock')), 'both locks released');
  },
);

/** Starts the CLI and waits until the lock at `lock` is taken; the subprocess, wrapped. */
async function holding(args, lock) {
  const run = execa(process.execPath, [BIN, ...args], { reject: false, env: ENV });
  assert.ok(await until(() => existsSync(lock) || run.exitCode !== null, 20000), 'the first run took its lock');
  assert.equal(run.exitCode, null, 'the first run is still measuring');
  return { run };
}
