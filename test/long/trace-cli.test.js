// `mmapbench trace` end to end: real bpftrace on real cells. Where this machine cannot trace the
// tests say why and skip, except under CI (which installs bpftrace and mounts tracefs): there
// a missing piece is a failure, never a quiet skip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import {
  childrenOf,
  cli,
  fixture,
  interruptsTracedRun,
  killedLeavesNothing,
  processesMarked,
  tracers,
  tracingHere,
  uniqueMark,
  until,
  measured,
} from '../helpers.js';

const { skip: tracing, requireTracing } = tracingHere();

test('trace workers: the default window, as tables with the histogram and observer effect', tracing, async () => {
  requireTracing();
  const result = await cli(['trace', 'workers', '--quick']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /mmap_lock waits \(bpftrace [\d.]+, mmap-lock\.bt\)/);
  assert.match(result.stdout, /traced: from the barrier release/);
  for (const row of [
    'write acquisitions',
    'avg write wait',
    'write wait',
    'write acquisitions per process',
    'observer effect',
  ])
    assert.match(result.stdout, new RegExp(row));
  assert.doesNotMatch(result.stdout, /workers\/procs/, 'one mode has no ratio column');
  // bpftrace's own chatter stays out of the output: the one line on stderr is the saved file,
  // under the command's own name
  assert.match(result.stderr, /^mmapbench: saved \S+\/trace-[^/]+\.json$/);
  const saved = JSON.parse(readFileSync(result.stderr.trim().replace('mmapbench: saved ', ''), 'utf8'));
  assert.equal(saved.config.trace, true);
});

// A Ctrl-C to the whole process group while bpftrace traces is in test/long/trace.test.js.
test(
  'Ctrl-C to the CLI while bpftrace attaches: exit 130, status interrupted, no cell and no bpftrace left',
  tracing,
  async () => {
    requireTracing();
    await interruptsTracedRun({ iterations: '20000', settle: 0, kill: (run) => run.kill('SIGINT') });
  },
);

test('trace with a bpftrace that is not there: exit 3, one line with the fix, nothing started', async () => {
  const mark = uniqueMark();
  const result = await cli([
    'trace',
    'compare',
    '--quick',
    '--bpftrace',
    '/nonexistent/bpftrace',
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
  ]);
  assert.equal(result.exitCode, 3);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1);
  const root = process.getuid?.() === 0;
  assert.match(
    lines[0],
    root
      ? /^mmapbench: bpftrace not found at \/nonexistent\/bpftrace: install it with `apt-get install bpftrace`/
      : /^mmapbench: tracing needs root/,
  );
  assert.equal(result.stdout, '');
  assert.deepEqual(processesMarked(mark), []);
});

test('bpftrace failing to load its program: exit 1, its own error line, no cell left', tracing, async () => {
  requireTracing();
  const mark = uniqueMark();
  const result = await cli([
    'trace',
    'workers',
    '--quick',
    '--bpftrace',
    fixture('fake-bpftrace.sh'),
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
  ]);
  assert.equal(result.exitCode, 1);
  const last = result.stderr.trim().split('\n').at(-1);
  // the harmless RLIMIT_MEMLOCK line is passed over for the one that says what went wrong
  assert.match(last, /^mmapbench: bpftrace exited before tracing: ERROR: Error loading program: tracepoint:mmap_lock/);
  assert.deepEqual(processesMarked(mark), []);
});

test('trace with an unknown mode is a usage error', async () => {
  const result = await cli(['trace', 'threads', '--quick']);
  assert.equal(result.exitCode, 2);
  assert.match(result.stderr, /^mmapbench: .*threads/);
});

test('mmap-lock.bt runs by hand with -c, as documented', tracing, async () => {
  requireTracing();
  const script = new URL('../../mmap-lock.bt', import.meta.url).pathname;
  const result = await execa(
    'bpftrace',
    ['-f', 'json', script, '-c', `${process.execPath} -e "for (let i = 0; i < 2000; i++) Buffer.alloc(1 << 20)"`],
    { reject: false },
  );
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /"@cnt_write": [1-9]/);
});

test(
  'a cell dying between "ready" and "go" (while bpftrace attaches) fails the run with its name, keeping the rounds before',
  tracing,
  async () => {
    requireTracing();
    const mark = uniqueMark();
    const fixtures = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
    // procs only: the task kills its own process 200 ms after reporting ready in round 2
    const result = await cli(
      [
        'trace',
        'procs',
        '--task',
        fixture('late.js'),
        '--iterations',
        '5',
        '--warmup',
        '0',
        '--rounds',
        '3',
        '-k',
        '2',
        '--json',
        '--fixtures-dir',
        fixtures,
        '--env',
        `MMAPBENCH_TEST_MARK=${mark}`,
        '--env',
        'LATE=die-after-ready',
      ],
      { env: { NO_COLOR: '1', MMAPBENCH_TEST_MARK: mark } },
    );
    assert.equal(result.exitCode, 1, result.stderr);
    // the rounds before are saved, and the failure is the last line
    assert.match(result.stderr.trim(), /^mmapbench: saved \S+\nmmapbench: process \d was killed by SIGKILL/m);
    assert.doesNotMatch(result.stderr, /internal error/);
    const doc = measured(result.stdout);
    assert.equal(doc.status, 'failed');
    assert.equal(doc.rounds.filter((round) => round.complete).length, 1, 'round one is kept');
    assert.deepEqual(processesMarked(mark), []);
    assert.deepEqual(tracers(), []);
  },
);

test('mmap-lock.bt given a PID exits by itself when that process is gone', tracing, async () => {
  requireTracing();
  const sleeper = execa('sleep', ['60'], { reject: false });
  const script = new URL('../../mmap-lock.bt', import.meta.url).pathname;
  const tracer = execa('bpftrace', ['-f', 'json', script, String(sleeper.pid)], { reject: false });
  await new Promise((resolve) =>
    tracer.stdout.on('data', (chunk) => String(chunk).includes('mmap-lock: tracing') && resolve()),
  );
  sleeper.kill('SIGKILL');
  const result = await tracer;
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /"type": "map"/, 'it printed its maps on the way out');
});

test('a bpftrace that hangs on --version gives way to Ctrl-C', tracing, async () => {
  requireTracing();
  const run = cli(['trace', 'compare', '--quick', '--bpftrace', fixture('hangs-as-node.sh')]);
  assert.ok(await until(() => childrenOf(run.pid).length > 0), 'the version check is running');
  const started = Date.now();
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  assert.ok(Date.now() - started < 5000, 'it did not wait for the check to time out');
});

test('a SIGKILLed audit leaves neither bpftrace nor the command it started', tracing, async () => {
  requireTracing();
  const mark = uniqueMark();
  const run = cli(['trace', '--', process.execPath, fixture('allocates.js'), '60'], {
    env: { MMAPBENCH_TEST_MARK: mark },
  });
  for (let i = 0; i < 1200 && !(tracers().length && processesMarked(mark).length > 0); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(tracers().length > 0, 'bpftrace started');
  // the CLI itself carries the mark (it is in its environment), and so does the command
  await killedLeavesNothing(run, mark);
});
