// More of the real bin, as a user runs it (test/cli/integration.test.js keeps one run of each
// command and path): calibration, the A/A and published protocols, CommonJS tasks, the
// environment the cells inherit, --markdown, the fault variants of procs and calibration, and an
// app's request that stalls or blocks, and a task module of named exports; compare's stop on
// width, and a gate far above the ratio failing with exit 4 after its save, exports and summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrationFails, failsNamingIt, FAULTS, hangIsKilled } from '../cases.js';
import { cli, fixture, processesMarked, uniqueMark, measured } from '../helpers.js';

const json = (result) => measured(result.stdout);
const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-ci-test-'));
const lastLine = (text) => text.trimEnd().split('\n').at(-1);
// a run's table without measuring again: `report` prints a saved run exactly as it printed
const tableOf = async (result, ...options) =>
  (await cli(['report', result.stderr.match(/^mmapbench: saved (\S+)$/m)[1], ...options])).stdout;

test('the cells do not inherit NODE_EXTRA_CA_CERTS, read by Node at every start and by no task; --env sets it', async () => {
  const env = {
    NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
    PROBE_NAMES: 'NODE_EXTRA_CA_CERTS,PROBE_NAMES',
  };
  const args = ['procs', '--task', fixture('env-seen.js'), '--quick'];
  const dropped = await cli(args, { env });
  assert.equal(dropped.exitCode, 1);
  // the rest of the CLI's environment still reaches the cells
  assert.match(dropped.stderr, /seen NODE_EXTRA_CA_CERTS=\(unset\) PROBE_NAMES=NODE_EXTRA_CA_CERTS,PROBE_NAMES /);
  const asked = await cli([...args, '--env', 'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt'], { env });
  assert.equal(asked.exitCode, 1);
  assert.match(asked.stderr, /seen NODE_EXTRA_CA_CERTS=\/etc\/ssl\/certs\/ca-certificates\.crt /);
  const inherited = await cli([...args, '--inherit-env'], { env });
  assert.equal(inherited.exitCode, 1);
  assert.match(inherited.stderr, /seen NODE_EXTRA_CA_CERTS=\/etc\/ssl\/certs\/ca-certificates\.crt /);
});

test('--duration calibrates iterations with tinybench and reports the latency', async () => {
  const result = await cli(['compare', '--duration', '0.1', '--rounds', '2', '-k', '1', '--warmup', '5', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = json(result);
  assert.ok(doc.calibration.p50Ns > 0 && doc.calibration.p99Ns >= doc.calibration.p50Ns);
  // the first round ran the calibration's work and sized the cells after it by its windows
  assert.equal(doc.rounds[0].workers.totalOps, doc.calibration.iterations);
  const { sizing } = doc;
  assert.equal(sizing.calibrated, doc.calibration.iterations);
  assert.equal(sizing.targetNs, 1e8);
  assert.equal(sizing.pilotWindowNs, (doc.rounds[0].workers.elapsedNs + doc.rounds[0].procs.elapsedNs) / 2);
  assert.equal(doc.config.iterations, sizing.iterations);
  // resized when the windows were more than a quarter shorter or half again as long
  const off = sizing.targetNs / sizing.pilotWindowNs;
  assert.equal(sizing.resized, off > 1.25 || off < 1 / 1.5);
  // a pilot counts in no figure: the 2 rounds asked for come after it
  assert.equal(doc.rounds.length, sizing.resized ? 3 : 2);
  assert.equal(doc.rounds[0].complete, !sizing.resized);
  assert.equal(doc.ratio.n, 2);
  assert.equal(doc.rounds.at(-1).workers.totalOps, sizing.iterations);
});

test('a user task in CommonJS takes its own --param', async () => {
  const result = await cli([
    'compare',
    '--task',
    fixture('commonjs-task.cjs'),
    '--param',
    'repeat=2',
    '--quick',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(json(result).config.params, { repeat: 2 });
});

test('--aa workers: both arms are fresh workers trees, labelled A and B, with the same statistics', async () => {
  const result = await cli(['compare', '--aa', 'workers', '--rounds', '3', '--quick', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = json(result);
  assert.equal(doc.aa, 'workers');
  assert.equal(doc.rounds.length, 3);
  for (const round of doc.rounds) {
    assert.equal(round.workers.mode, 'workers', 'arm A ran workers');
    assert.equal(round.procs.mode, 'workers', 'arm B ran workers too');
    assert.equal(new Set(round.procs.workers.map((w) => w.pid)).size, 1, 'arm B is one process hosting threads');
    assert.notEqual(round.workers.workers[0].pid, round.procs.workers[0].pid, 'two fresh trees per round');
  }
  assert.equal(doc.ratio.n, 3);
  const table = await tableOf(result, '--verbose');
  assert.match(table, /^mmapbench compare \(A\/A: both arms workers\)/);
  assert.match(table, /│ round +│ first +│ +A ops\/s +│ +B ops\/s +│ +A\/B \(95% CI\) +│/);
  const answer = await tableOf(result);
  assert.match(answer, /^mmapbench compare \(A\/A: both arms workers\)/);
  assert.match(answer, /│ +│ +A │ +B │ +A\/B \(95% CI\) │ better │/);
});

test("--protocol published: the investigation's 2,000 iterations with no warmup, said in the JSON and the table", async () => {
  const json = await cli(['compare', '--protocol', 'published', '--rounds', '2', '-k', '1', '--json']);
  assert.equal(json.exitCode, 0, json.stderr);
  const doc = measured(json.stdout);
  assert.equal(doc.config.protocol, 'published');
  assert.equal(doc.config.iterations, 2000);
  assert.equal(doc.config.warmup, 0);
  assert.equal(doc.calibration, null, 'the work is fixed: nothing is calibrated');
  for (const round of doc.rounds) assert.ok(round.workers.workers.every((worker) => worker.ops === 2000));
  assert.match(
    await tableOf(json, '--verbose'),
    /2 rounds × 2,000 iterations per worker \(--protocol published: no\s+warmup, as the\s+investigation measured\)/,
  );
  assert.match(
    (await tableOf(json)).replace(/\s+/g, ' '),
    /--protocol published: 2,000 iterations per worker and no warmup, as the investigation measured/,
  );
});

test('--markdown prints the same tables as markdown: the answer, and with --verbose every round', async () => {
  const answer = await cli(['compare', '--quick', '--markdown']);
  assert.equal(answer.exitCode, 0, answer.stderr);
  assert.match(answer.stdout, /^### mmapbench compare: readfilesync/m);
  assert.match(answer.stdout, /^\| throughput \| [\d,]+ ops\/s \| [\d,]+ ops\/s \|/m);
  const result = await cli(['compare', '--quick', '--markdown', '--verbose']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /^### mmapbench compare/m);
  assert.match(result.stdout, /^\| round \| first \| workers ops\/s \| procs ops\/s \| workers\/procs \(95% CI\) \|$/m);
  assert.match(result.stdout, /^\| median \|/m);
});

test('procs: a hang past --timeout ignoring SIGTERM is killed with SIGKILL', () => hangIsKilled('procs'));

test('procs: a process that reports its result and then never finishes exiting is killed, and its result kept', async () => {
  const mark = uniqueMark();
  const result = await cli([
    'procs',
    '--task',
    fixture('hangs-at-exit.js'),
    '--quick',
    '--rounds',
    '1',
    '-k',
    '1',
    '--timeout',
    '30',
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = json(result);
  assert.equal(doc.status, 'complete');
  assert.equal(doc.rounds[0].procs.workers.length, 1);
  assert.deepEqual(processesMarked(mark), []);
});

const calibrationFaults = [
  [
    ['--task', fixture('exits-zero.js')],
    /^mmapbench: the calibration process exited before reporting a result \(task exits-zero\)/,
  ],
  [
    ['--task', fixture('hangs.js'), '--timeout', '1'],
    /^mmapbench: the calibration process did not finish within --timeout 1s/,
  ],
];
for (const [args, message] of calibrationFaults)
  test(`calibration (--duration) fails like a cell: ${args[1].split('/').at(-1)}`, () =>
    calibrationFails(args, message));

// the processes' faults (test/cli/integration.test.js has the workers')
for (const [mode, task, message] of FAULTS.filter(([mode]) => mode === 'procs'))
  test(`${mode}: ${task} fails the run with a named worker and leaves no process`, () =>
    failsNamingIt(mode, task, message));

// The budget is checked after each round, so a budget shorter than any round gets exactly one;
// fixed work has no pilot, so that round counts.
test('a budget that ends before an interval says so, with the budget as given and one to give', async () => {
  const result = await cli(['compare', '--iterations', '300', '--max-time', '0.1', '-k', '1', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = json(result);
  assert.equal(doc.stop, 'max-time');
  assert.equal(doc.ratio.n, 1);
  assert.equal(doc.shortBudget.maxTime, 0.1);
  assert.equal(doc.shortBudget.counted, 1);
  assert.ok(doc.shortBudget.suggestMaxTime > doc.seconds, 'room for more rounds than it had');
  // the table wraps its lines where the figures' widths put the break: read it as one line
  assert.match(
    (await tableOf(result)).replace(/\s+/g, ' '),
    /stopped: the 0\.1 s budget ran out after 1 round in [\d.]+ s, too few for an interval \(3 or more\): a round took [\d.]+ s; give --max-time \d+ or more /,
  );
});

test('the JSON document carries configuration and environment', async () => {
  const result = await cli(['workers', '--quick', '-k', '1', '--env', 'MALLOC_ARENA_MAX=2', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = json(result);
  assert.equal(doc.command, 'workers');
  assert.equal(doc.procs, undefined);
  assert.deepEqual(doc.config.env, { MALLOC_ARENA_MAX: '2' });
  assert.equal(doc.environment.allocatorEnv.MALLOC_ARENA_MAX, '2');
  assert.equal(doc.environment.node.version, process.version);
  for (const key of ['kernel', 'glibc', 'cpu', 'thp', 'date']) assert.ok(key in doc.environment, key);
  assert.equal(doc.config.file.size, 65536);
  assert.equal(doc.rounds[0].workers.workers.length, 1);
});

test("a request(context) that never settles, or blocks the main thread, fails the run naming the app's request and its limit (exit 1), not the host's --timeout", async () => {
  for (const [kind, what] of [
    ['never', 'did not settle within 1 s, the most a request may take'],
    ['busy', 'took 2\\.\\d s, more than the 1 s a request may take'],
  ]) {
    const result = await cli([
      'compare',
      '--quick',
      '--no-save',
      '--task',
      fixture('request-stalls.mjs'),
      '--param',
      `kind=${kind}`,
    ]);
    assert.equal(result.exitCode, 1, result.stderr);
    assert.match(
      result.stderr.trim().split('\n').at(-1) ?? '',
      new RegExp(
        `^mmapbench: the app's main thread failed: its request\\(context\\) ${what} \\(task request-stalls\\); make the task's request\\(context\\) return, or settle, within a second: it is served every --request-every ms; the workers were stopped$`,
      ),
    );
  }
});

test('a task module of named exports, op and request, runs as a default export would (request on the main thread too)', async () => {
  const result = await cli(['compare', '--quick', '--no-save', '--json', '--task', fixture('named-exports.mjs')]);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = json(result);
  assert.equal(document.status, 'complete');
  assert.equal(document.config.main.request, 'task');
  assert.ok(document.rounds.every((round) => round.workers.main.during.requests > 0));
});

test("the start-up line names what of the shell's environment changes a Node start, given to the cells or not", async () => {
  const env = { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', NODE_OPTIONS: '' };
  const withheld = await cli(['compare', '--quick', '--no-save', '--json'], { env });
  assert.equal(withheld.exitCode, 0, withheld.stderr);
  assert.deepEqual(JSON.parse(withheld.stdout).environment.startupEnv, {
    given: [],
    withheld: ['NODE_EXTRA_CA_CERTS'],
  });
  const text = await cli(['compare', '--quick', '--no-save'], { env });
  assert.match(
    text.stdout.replace(/\n/g, ' '),
    /start-up ran without NODE_EXTRA_CA_CERTS from your environment, which each child process would pay at its start and a thread would not: --inherit-env measures with it/,
  );
  const given = await cli(['compare', '--quick', '--no-save', '--inherit-env', '--json'], { env });
  assert.equal(given.exitCode, 0, given.stderr);
  assert.deepEqual(JSON.parse(given.stdout).environment.startupEnv, { given: ['NODE_EXTRA_CA_CERTS'], withheld: [] });
});

// How many rounds fit in a budget is the machine's: each stop below is one the run cannot miss.
// Ops that sleep 2 ms take as long in either mode however busy the machine is, so a ±99% target
// is met at the first chance (the minimum rounds).
test('compare stops on width and says so; the JSON carries the half-width, the stop and the machine check', async () => {
  const sleeps = ['--task', fixture('account-probe.js'), '--param', 'kind=sleep', '--iterations', '20'];
  const result = await cli(['compare', ...sleeps, '--precision', '99%', '-k', '1', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = json(result);
  assert.equal(doc.config.rounds, null);
  assert.equal(doc.config.precision, 0.99);
  assert.equal(doc.stop, 'precision');
  assert.ok(doc.seconds > 0);
  assert.equal(doc.ratio.n, doc.rounds.filter((round) => round.complete).length);
  assert.equal(doc.ratio.halfWidth, Math.sqrt(doc.ratio.ci95[1] / doc.ratio.ci95[0]) - 1);
  assert.equal(doc.shortBudget, undefined);
  assert.deepEqual(Object.keys(doc.machine).sort(), ['cpus', 'load1', 'runnable', 'warning']);
  for (const round of doc.rounds.filter((r) => r.complete)) {
    for (const mode of ['workers', 'procs']) {
      const { machine } = round[mode];
      assert.ok(machine.cpuMs >= 0 && machine.involuntarySwitches >= 0, 'CPU time and preemptions per cell');
    }
  }
  assert.match(
    await tableOf(result, '--verbose'),
    /^stopped: ±[\d.]+% reached \(target ±99\.0%\) after \d+ rounds in/m,
  );
  // the answer says the same on a line of its own, under its table
  assert.match(await tableOf(result), /^└.*\nknown to ±[\d.]+% after \d+ rounds in [\d.]+ s$/m);
});

test('a gate far above the ratio fails with exit 4, after saving, exporting and summarising the run; --ci logs each round', async () => {
  const dir = folder();
  const out = join(dir, 'results');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '# earlier steps\n');
  const result = await cli(
    [
      'compare',
      '--quick',
      // two rounds' interval can span 0.00-10^6 (t = 12.7); four rounds' cannot reach 10^6
      '--rounds',
      '4',
      '--ci',
      '--out',
      out,
      '--fail-below',
      '1000000',
      '--export',
      `github-action-benchmark=${join(dir, 'gab.json')}`,
      '--export',
      `bencher=${join(dir, 'bmf.json')}`,
    ],
    { env: { GITHUB_STEP_SUMMARY: summary } },
  );
  assert.equal(result.exitCode, 4, result.stderr);
  assert.match(
    lastLine(result.stderr),
    /^mmapbench: gate failed \(workers\/procs, --fail-below 1000000\): \d+\.\d\d \(95% CI \S+-\S+\) is below 1000000$/,
  );
  const log = result.stderr.split('\n');
  assert.deepEqual(
    log.filter((line) => line.startsWith('mmapbench: round')).map((line) => line.split(':')[1]),
    [' round 1', ' round 2', ' round 3', ' round 4'],
    'a line per round',
  );
  assert.ok(log.includes(`mmapbench: saved ${join(out, 'compare-ci.json')}`));
  assert.deepEqual(readdirSync(out), ['compare-ci.json']);
  const saved = JSON.parse(readFileSync(join(out, 'compare-ci.json'), 'utf8'));
  assert.equal(saved.gate.outcome, 'fail');
  assert.equal(saved.gate.threshold, undefined, 'the threshold is per point');
  assert.equal(saved.gate.points[0].threshold, 1000000);

  const gab = JSON.parse(readFileSync(join(dir, 'gab.json'), 'utf8'));
  assert.deepEqual(
    gab.map((entry) => entry.unit),
    ['ops/s', 'ops/s', 'ratio'],
  );
  assert.ok(gab.every((entry) => typeof entry.range === 'string' && /Node v\d+/.test(entry.extra)));
  const bmf = JSON.parse(readFileSync(join(dir, 'bmf.json'), 'utf8'));
  assert.equal(Object.keys(bmf).length, 3);
  const markdown = readFileSync(summary, 'utf8');
  assert.ok(markdown.startsWith('# earlier steps\n**mmapbench compare readfilesync, k=2**: '), 'appended');
  assert.match(markdown, /^❌ \*\*gate failed \(workers\/procs, --fail-below 1000000\): .*\*\*$/m);
  assert.match(markdown, /^\| .* \|$/m, 'the tables');

  // again: the file keeps its name, replaced
  const again = await cli(['compare', '--quick', '--rounds', '4', '--ci', '--out', out, '--fail-below', '0.000001']);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.match(
    lastLine(again.stderr),
    /^mmapbench: gate passed \(workers\/procs, --fail-below 0\.000001\): .* is at or above 0\.000001$/,
  );
  assert.deepEqual(readdirSync(out), ['compare-ci.json']);
  assert.equal(JSON.parse(readFileSync(join(out, 'compare-ci.json'), 'utf8')).gate.outcome, 'pass');
});
