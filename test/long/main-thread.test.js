// The app's main thread while the workers run: both parents serve requests during the timed
// windows (and alone, before their workers start, in one round in 3), and the run reports them
// per mode. Structure and behaviour only: no test asserts a latency.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, measured } from '../helpers.js';

const QUICK = ['compare', '--quick'];
// --quick's cells of 20 ops can end before the app's first request: windows of 0.25 s hold ~125,
// so that two rounds pool the 100 a p99 is read from at least (stats/pooled.js)
const WINDOWS = [...QUICK, '--duration', '0.25'];

/**
 * One run, saved: its document, and its answer and whole text as `report` prints them (as the
 * run did), so that one run serves every format.
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 */
async function runOnce(args, env = {}) {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-main-'));
  const result = await cli([...args, '--json', '--out', out], { env });
  assert.equal(result.exitCode, 0, result.stderr);
  const file = join(out, readdirSync(out).find((name) => name.endsWith('.json')) ?? '');
  return {
    document: measured(result.stdout),
    text: (await cli(['report', file])).stdout,
    verbose: (await cli(['report', file, '--verbose'])).stdout,
  };
}

test("a compare measures the app's main thread in both modes: each cell's requests and loop delay, the app alone in round 1, and rows per mode", async () => {
  const { document, text, verbose } = await runOnce(WINDOWS);
  assert.deepEqual(document.config.main, { everyMs: 2, size: 65536, aloneMs: 20, request: 'default' });
  for (const round of document.rounds)
    for (const mode of ['workers', 'procs']) {
      const { main } = round[mode];
      assert.ok(main.during.requests > 0, `round ${round.index} ${mode}`);
      for (const key of ['p50Ns', 'p99Ns', 'p999Ns', 'maxNs']) assert.equal(typeof main.during[key], 'number', key);
      assert.ok(main.during.p50Ns <= main.during.p99Ns);
      assert.ok(main.during.lag.ticks > 0 && main.during.lag.histogram.length > 0);
      assert.ok(main.during.lag.p99Ns >= main.during.lag.p50Ns);
      // the app alone: read in round 1 (of every 3), before the workers started
      assert.equal(main.alone !== null, round.index % 3 === 1, `round ${round.index} ${mode} alone`);
    }
  assert.equal(document.appAlone.cells, 2);
  assert.ok(document.appAlone.requests > 0);
  assert.ok(document.appAlone.p50Ns <= document.appAlone.p99Ns);
  for (const key of ['mainRequestP99Us', 'lagP99Ms']) {
    for (const mode of ['workers', 'procs'])
      assert.equal(typeof document[mode][key].median, 'number', `${mode} ${key}`);
    assert.equal(document.measures[key].n, 2, key);
  }
  // the request p99 is every round's requests pooled (a cell holds ~50), its ratio the two
  // pooled figures', with no interval from 2 rounds (a bootstrap needs 5)
  for (const mode of ['workers', 'procs'])
    for (const key of ['mainRequestP99Us', 'lagP99Ms'])
      assert.equal(typeof document[mode][key].pooled, 'number', `${mode} ${key}`);
  for (const key of ['mainRequestP99Us', 'lagP99Ms']) {
    assert.equal(document.measures[key].pooled, true, key);
    assert.equal(document.measures[key].ci95, null, key);
  }
  // the app alone's lag: its ticks pooled over the cells that read it
  assert.equal(typeof document.appAlone.lagP99Ns, 'number');
  const pooledRatio = document.workers.mainRequestP99Us.pooled / document.procs.mainRequestP99Us.pooled;
  assert.ok(Math.abs(document.measures.mainRequestP99Us.median / pooledRatio - 1) < 1e-9);

  assert.match(text, /^│ app request p99 +│ +[\d.,]+ µs │ +[\d.,]+ µs │/m);
  assert.match(text, /^│ app lag p99 +│ +[\d.]+ ms │ +[\d.]+ ms │/m);
  // the note as one line, however the terminal's width wrapped it
  assert.match(
    text.replace(/\s+/g, ' '),
    / app: the main thread served a 64 KiB request every 2 ms \(alone: p99 \d+ µs, loop lag p99 [\d.]+ ms\); with k=2 on 2 CPUs it also waited for one; more with --verbose /,
  );
  // and whole with --verbose: what the workers added, the requests' p50, where its time went
  assert.match(
    verbose.replace(/\s+/g, ' '),
    / app: the parent's main thread served a request every 2 ms while the workers ran \(a 64 KiB Buffer allocated and filled, then a small JSON round trip\); alone, before its workers started, request p99 \d+ µs and loop lag p99 [\d.]+ ms \([\d,]+ requests in 2 cells, one round in 3\); beside them, workers [−+][\d.]+ µs and [−+][\d.]+ ms, procs [−+][\d.]+ µs and [−+][\d.]+ ms; request p50, every request pooled: workers \d+ µs, procs \d+ µs, alone \d+ µs; its main thread per request: workers \d+ µs on a CPU/,
  );
});

test('--main off measures no app: no main-thread figures in the cells, rows or answer', async () => {
  const { document, text } = await runOnce([...QUICK, '--main', 'off']);
  assert.equal(document.config.main, null);
  assert.equal(document.appAlone, undefined);
  for (const round of document.rounds)
    for (const mode of ['workers', 'procs']) assert.equal(round[mode].main, undefined);
  assert.equal(document.workers.mainRequestP99Us, undefined);
  assert.doesNotMatch(text, /app request p99|^app:/m);
});

test("a task's own request(context) is what the app serves, on the parent's main thread, async awaited", async () => {
  const marker = join(mkdtempSync(join(tmpdir(), 'mmapbench-request-')), 'ran');
  const result = await cli(
    [
      ...QUICK,
      '--no-save',
      '--json',
      '--task',
      fixture('serves-requests.mjs'),
      '--request-every',
      '5',
      '--request-size',
      '1k',
    ],
    { env: { MMAPBENCH_TEST_REQUESTS: marker } },
  );
  assert.equal(result.exitCode, 0, result.stderr);
  const document = measured(result.stdout);
  assert.deepEqual(document.config.main, { everyMs: 5, size: 1024, aloneMs: 20, request: 'task' });
  assert.ok(
    document.rounds.every((round) => round.workers.main.during.requests > 0 && round.procs.main.during.requests > 0),
  );
  assert.ok(existsSync(marker), 'the task module served the requests');
  assert.equal(readFileSync(marker, 'utf8'), 'number', 'its context has the request size');
});

test("a task whose request(context) throws fails the run with one line naming the app's main thread (exit 1), no process left", async () => {
  const result = await cli([...QUICK, '--no-save', '--task', fixture('request-throws.mjs')]);
  assert.equal(result.exitCode, 1, result.stderr);
  assert.equal(
    result.stderr.trim().split('\n').at(-1),
    "mmapbench: the app's main thread failed: its request(context) threw: no such user (task request-throws); the workers were stopped",
  );
});

test('a task that gives op(ctx), sync or async, gets its ops timed: op latency p99 and p99.9 per mode; one with its own run() gets none', async () => {
  for (const task of ['sync-op.mjs', 'async-op.mjs']) {
    const { document, verbose } = await runOnce([...QUICK, '--main', 'off', '--task', fixture(task)]);
    for (const mode of ['workers', 'procs'])
      for (const key of ['latencyP99Us', 'latencyP999Us'])
        assert.equal(typeof document[mode][key]?.median, 'number', `${task} ${mode} ${key}`);
    // the workers' own latency: --verbose's rows (the default answer's are what the app pays)
    assert.match(verbose, /^│ op latency p99 /m, task);
    assert.match(verbose, /^│ op latency p99\.9 /m, task);
  }
  const own = measured(
    (await cli([...QUICK, '--no-save', '--json', '--main', 'off', '--task', fixture('account-probe.js')])).stdout,
  );
  assert.equal(own.workers.latencyP99Us, undefined);
});
