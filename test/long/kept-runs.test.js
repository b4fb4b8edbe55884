// A kept run's file, edited or interrupted, end to end (issue rows 2-5): a resumed compare whose
// settings were edited is refused before it measures, a sweep whose axes were reordered goes on
// at each point's own values, and an interrupted advise's file reads back and goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { parse } from 'shell-quote';
import { BIN, cli, ENV, fixture, keptIn, SLEEPS, until } from '../helpers.js';

/** A run of `args` into a fresh --out, SIGKILLed once `rounds` of it are kept: its file and document. */
async function killedRun(args, rounds, roundsOf) {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-kept-'));
  const run = execa(process.execPath, [BIN, ...args, '--out', out], { reject: false, env: ENV });
  assert.ok(await until(() => roundsOf(keptIn(out)?.document) >= rounds, 90000), `${rounds} rounds kept`);
  run.kill('SIGKILL');
  await run;
  return /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
}

const edited = (/** @type {string} */ path, /** @type {(document: any) => void} */ edit) => {
  const document = JSON.parse(readFileSync(path, 'utf8'));
  edit(document);
  const to = join(mkdtempSync(join(tmpdir(), 'mmapbench-edited-')), 'kept.json');
  writeFileSync(to, JSON.stringify(document));
  return to;
};

test('rows 2 and 3: a resumed compare whose settings were edited is refused before it measures, naming the field', async () => {
  const kept = await killedRun(
    ['compare', '-k', '1', '--iterations', '500', '--rounds', '8'],
    2,
    (d) => d?.order.length ?? 0,
  );
  for (const [edit, message] of /** @type {Array<[(d: any) => void, RegExp]>} */ ([
    [(d) => (d.resume.task = 'json'), /resume\.task asks for task json, but its rounds ran readfilesync/],
    [(d) => (d.resume.file = '/etc/hostname'), /resume\.file asks for file \/etc\/hostname/],
    [(d) => (d.resume.aa = 'workers'), /resume\.aa is workers/],
    [(d) => (d.resume.quick = true), /resume\.quick/],
    [(d) => ((d.resume.k = 2), (d.config.k = 2)), /resume\.k asks for 2 workers, but round 1 ran 1/],
    [(d) => (d.config.iterations = 1e9), /config\.iterations says 1000000000 ops a worker, but in round 1/],
  ])) {
    const file = edited(kept.path, edit);
    const before = readFileSync(file, 'utf8');
    const result = await cli(['compare', '--resume', file]);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /round \d+\/|resuming/);
    assert.equal(readFileSync(file, 'utf8'), before, 'the kept file is as it was');
  }
});

test('row 4: a sweep whose k axis was reordered goes on with each kept round at its own point', async () => {
  const kept = await killedRun(
    ['sweep', '-k', '1,2', '--iterations', '300', '--rounds', '4'],
    1,
    (d) => d?.order?.length ?? 0,
  );
  const file = edited(kept.path, (d) => (d.resume.axes.k = [2, 1]));
  const result = await cli(['sweep', '--resume', file, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = JSON.parse(readFileSync(file, 'utf8'));
  for (const point of document.points) {
    const before = kept.document.points.find((/** @type {any} */ one) => one.id === point.id);
    assert.equal(point.k, before.k, `${point.id} stays at its k`);
    for (const round of point.rounds) assert.equal(round.workers.workers.length, point.k);
  }
  const dropped = edited(kept.path, (d) => (d.resume.axes.k = [1]));
  const refused = await cli(['sweep', '--resume', dropped]);
  assert.equal(refused.exitCode, 2);
  assert.match(refused.stderr, /resume\.axes no longer asks for point p2 \(k 2/);
});

test('a killed advise goes on with --resume: its kept rounds as they were, each candidate to its --rounds, one file', async () => {
  const kept = await killedRun(
    ['advise', '-k', '1', '--iterations', '300', '--rounds', '3', '--only', 'TOP_PAD'],
    2,
    (d) => d?.order?.length ?? 0,
  );
  assert.deepEqual(kept.document.resume.advise, {
    for: 'throughput',
    only: 'TOP_PAD',
    race: true,
    kAuto: false,
    node: [],
  });
  const result = await cli(['advise', '--resume', kept.path, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stderr, /^mmapbench: resuming \S+: \d+ rounds? kept/m);
  const document = JSON.parse(readFileSync(kept.path, 'utf8'));
  assert.equal(document.status, 'complete');
  assert.equal(document.command, 'advise');
  assert.ok(document.advice.rows.length >= 1, 'ranked');
  for (const point of document.points) {
    const before = kept.document.points.find((/** @type {any} */ one) => one.id === point.id);
    // what was kept is there as it was, under the same round numbers
    for (const round of before.rounds)
      assert.deepEqual(
        point.rounds.find((/** @type {any} */ one) => one.index === round.index),
        round,
      );
    assert.equal(point.rounds.filter((/** @type {any} */ round) => round.complete).length, 3, point.id);
  }
});

test('an interrupted sweep prints the command that finishes it, with what it must be given again, and that command does', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-finish-'));
  const args = ['sweep', ...SLEEPS, '--rounds', '3', '--variant', 'default', '--variant', 'mine:FOO=1'];
  const run = execa(process.execPath, [BIN, ...args, '--out', out], { reject: false, env: ENV });
  assert.ok(await until(() => (keptIn(out)?.document.order?.length ?? 0) >= 1, 60000), 'a round kept');
  run.kill('SIGINT');
  const stopped = await run;
  assert.equal(stopped.exitCode, 130, stopped.stderr);
  const line = stopped.stderr.match(/^mmapbench: to finish the run: mmapbench (.+)$/m)?.[1];
  assert.ok(line, stopped.stderr);
  const words = /** @type {string[]} */ (parse(line));
  assert.deepEqual(words.slice(0, 2), ['sweep', '--resume']);
  assert.ok(words.includes('FOO=1') && words.includes(resolve(SLEEPS[1])), line);
  const finished = await cli(words);
  assert.equal(finished.exitCode, 0, finished.stderr);
  assert.equal(JSON.parse(readFileSync(words[2], 'utf8')).status, 'complete');
});

test("row 5: an interrupted advise's own file reads back in report, report --html and diff", async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-advise-'));
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    const run = execa(process.execPath, [BIN, 'advise', '--quick', '--out', out], { reject: false, env: ENV });
    const files = () => readdirSync(out).filter((name) => /^advise-.*\.json$/.test(name));
    const before = files().length;
    assert.ok(await until(() => files().length > before, 60000), 'a file kept');
    run.kill(signal);
    await run;
    const path = join(out, /** @type {string} */ (files().sort().at(-1)));
    assert.notEqual(JSON.parse(readFileSync(path, 'utf8')).status, 'complete');
    for (const args of [
      ['report', path],
      ['report', path, '--html', join(out, `${signal}.html`)],
      ['diff', path, path],
    ]) {
      const result = await cli(args);
      assert.equal(result.exitCode, 0, `${args.join(' ')}: ${result.stderr}`);
    }
  }
});

test(
  'row 6: report --html of a file whose warm-up ramp was edited to an object of length 1e9 is exit 2 naming it, at once',
  { timeout: 30000 },
  async () => {
    const file = edited(
      fixture('saved/compare-ramp.json'),
      (d) => (d.rounds[0].workers.workers[0].warmup.ramp.atUs = { length: 1e9 }),
    );
    const page = join(mkdtempSync(join(tmpdir(), 'mmapbench-page-')), 'page.html');
    const result = await cli(['report', file, '--html', page]);
    assert.equal(result.exitCode, 2);
    assert.match(
      result.stderr,
      /^mmapbench: \S+: rounds\[0\]\.workers\.workers\[0\]\.warmup\.ramp\.atUs must be an array \(it is an object\)/,
    );
    assert.equal(existsSync(page), false);
  },
);
