// `mmapbench trace` in depth, beyond test/cli/trace.test.js's one run of each path: every cell
// traced whole, and --trace on compare against the trace command. Real bpftrace; under CI a
// missing piece is a failure, never a quiet skip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSums, cli, processesMarked, tracers, tracingHere, uniqueMark } from '../helpers.js';

const { skip: tracing, requireTracing } = tracingHere();

const pidsOf = (cell) => [...new Set(cell.workers.map((worker) => worker.pid))].sort();

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
    const doc = JSON.parse(result.stdout);
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
  const doc = JSON.parse(result.stdout);
  assert.ok(doc.rounds[0].traced.workers.trace && doc.rounds[0].traced.procs.trace);
});
