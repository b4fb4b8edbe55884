// `mmapbench trace` in depth, beyond test/cli/trace.test.js's one run of each path: every cell
// traced whole, --trace on compare against the trace command, auditing a process mmapbench
// did not start (--pid) or starts under the trace (-- COMMAND), and a terminal's Ctrl-C or a
// SIGKILL while bpftrace traces a long cell. Real bpftrace; under CI a
// missing piece is a failure, never a quiet skip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import {
  assertSums,
  cli,
  fixture,
  interruptsTracedRun,
  killedLeavesNothing,
  tracedCompareUnderWay,
  processesMarked,
  tracers,
  tracingHere,
  uniqueMark,
  measured,
} from '../helpers.js';

const { skip: tracing, requireTracing } = tracingHere();

// the cell's processes: its parent, and in procs mode the children it forked
const pidsOf = (cell) => [...new Set(cell.memory.processes.map((one) => one.pid))].sort();

test(
  'trace compare --trace-window cell: every cell traced, exactly its own processes, ratios beside the published ones',
  tracing,
  async () => {
    requireTracing();
    const mark = uniqueMark();
    const result = await cli([
      'trace',
      'compare',
      '--quick',
      '--trace-window',
      'cell',
      '--json',
      '--env',
      `MMAPBENCH_TEST_MARK=${mark}`,
    ]);
    assert.equal(result.exitCode, 0, result.stderr);
    const doc = measured(result.stdout);
    assert.equal(doc.config.trace, true);
    assert.equal(doc.trace.window, 'cell');
    assert.match(doc.trace.bpftrace.version, /^\d+\.\d+/);
    for (const round of doc.rounds) {
      for (const mode of ['workers', 'procs']) {
        assert.ok(round[mode], 'the untraced cell ran');
        const traced = round.traced[mode];
        const { trace } = traced;
        // the process-tree filter: the processes that took the lock are the cell's own, no others
        assert.deepEqual([...new Set(trace.processes.map((p) => p.pid))].sort(), pidsOf(traced));
        // process and thread startup always maps memory, so a whole cell has write acquisitions
        assert.ok(trace.write.count > 0 && trace.write.totalNs > 0);
        assert.equal(
          trace.write.histogram.reduce((sum, bucket) => sum + bucket.count, 0),
          trace.write.count,
        );
        assertSums(trace);
      }
    }
    // summed over the cells, the by-syscall rows still add up to the cells' acquisitions
    for (const mode of ['workers', 'procs']) {
      const cells = doc.rounds.map((round) => round.traced[mode].trace.write.count);
      const rows = doc.trace.modes[mode].bySyscall.write;
      assert.equal(
        rows.reduce((sum, row) => sum + row.count, 0),
        cells.reduce((sum, count) => sum + count, 0),
      );
      assert.ok(doc.trace.modes[mode].timeShare.write > 0 && doc.trace.modes[mode].timeShare.write < 1);
    }
    assert.equal(doc.trace.ratios.totalWrite.n, 2);
    assert.equal(doc.trace.ratios.avgWrite.n, 2);
    assert.ok(doc.trace.modes.workers.observer > 0 && doc.trace.modes.procs.observer > 0);
    assert.match(doc.trace.published.source, /Hypothesis 8/);
    assert.deepEqual(processesMarked(mark), []);
    assert.deepEqual(tracers(), []);
  },
);

test('--trace on compare is the same as the trace command', tracing, async () => {
  requireTracing();
  const result = await cli(['compare', '--trace', '--quick', '--rounds', '1', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = measured(result.stdout);
  assert.ok(doc.rounds[0].traced.workers.trace && doc.rounds[0].traced.procs.trace);
});

test(
  'trace --pid audits a process started outside mmapbench, all its threads, and leaves it running',
  tracing,
  async () => {
    requireTracing();
    const app = execa(process.execPath, [fixture('allocates.js'), '20', 'workers'], { reject: false });
    await new Promise((resolve) => app.stdout.once('data', resolve));
    try {
      const result = await cli(['trace', '--pid', String(app.pid), '--seconds', '1.5', '--stacks', '--json']);
      assert.equal(result.exitCode, 0, result.stderr);
      const doc = JSON.parse(result.stdout);
      assert.equal(doc.command, 'trace');
      assert.equal(doc.stop, 'time');
      assert.equal(doc.target.pid, app.pid);
      assert.match(doc.target.commandLine, /allocates\.js 20 workers/);
      const [only] = doc.trace.processes;
      assert.equal(only.pid, app.pid, 'the process itself is traced, not only what it starts');
      assert.ok(only.writes > 0 && only.writeNs > 0);
      assert.match(only.commandLine, /allocates\.js/);
      assertSums(doc.trace);
      // the 40 MiB buffers are mmapped whatever glibc learned, so freeing them is munmap (whether
      // the 64 KiB ones still brk or mprotect by then depends on what their arenas kept)
      const writes = doc.trace.bySyscall.write.map((row) => row.name);
      assert.ok(writes.includes('munmap'), writes.join(', '));
      assert.ok(doc.trace.writeStacks.length > 0 && doc.trace.writeStacks[0].frames.length > 0);
      // --stacks, resolved while the process still ran: the wrapper in libc that made the call
      assert.equal(doc.trace.userStacksResolved, true);
      assert.match(doc.trace.writeUserStacks[0].frames[0].object, /libc\.so/);
      assert.equal(app.exitCode, null, 'the audited process is left running');
      assert.deepEqual(tracers(), []);
      const saved = result.stderr.match(/^mmapbench: saved (\S+)$/m)[1];
      assert.match(saved, /\/trace-[^/]+\.json$/);
      const table = await cli(['report', saved]);
      assert.equal(table.exitCode, 0, table.stderr);
      assert.match(table.stdout, /^mmapbench trace: mmap_lock waits of pid \d+/);
      assert.match(table.stdout, /writes by syscall in flight/);
      assert.match(table.stdout, /kernel call chain of the write acquisitions/);
      assert.match(table.stdout, /user call chain of the write acquisitions/);
      assert.match(table.stdout, /stop inside libc/);
    } finally {
      app.kill('SIGKILL');
    }
  },
);

test(
  'trace -- COMMAND runs it under the trace from its first instruction until it exits; its output goes to stderr',
  tracing,
  async () => {
    requireTracing();
    const result = await cli(['trace', '--json', '--', process.execPath, fixture('allocates.js'), '1']);
    assert.equal(result.exitCode, 0, result.stderr);
    const doc = JSON.parse(result.stdout);
    assert.equal(doc.stop, 'exited');
    assert.deepEqual(doc.exit, { code: 0, signal: null });
    assert.deepEqual(doc.target.command, [process.execPath, fixture('allocates.js'), '1']);
    assert.match(result.stderr, /^ready$/m, "the command's own output");
    assertSums(doc.trace);
    // traced from exec on: loading the program maps it
    assert.ok(
      doc.trace.bySyscall.write.some((row) => row.name === 'execve'),
      'execve is traced',
    );
    assert.deepEqual(tracers(), []);
  },
);

// A terminal's Ctrl-C goes to the whole process group: bpftrace gets it as well as the CLI, here
// while it traces. The CLI's own Ctrl-C, while bpftrace attaches, is in test/cli/trace.test.js.
test(
  'Ctrl-C to its process group, as a terminal sends it, while bpftrace traces: exit 130, status interrupted, no cell and no bpftrace left',
  tracing,
  async () => {
    requireTracing();
    await interruptsTracedRun({
      iterations: '150000',
      settle: 1500,
      kill: (run) => process.kill(-run.pid, 'SIGINT'),
    });
  },
);

test(
  "bpftrace does not outlive a SIGKILLed CLI: the parent-death signal and the script's watchdog",
  tracing,
  async () => {
    requireTracing();
    const { run, mark } = await tracedCompareUnderWay('150000');
    await killedLeavesNothing(run, mark);
  },
);
