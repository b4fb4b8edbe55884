// The parser reads bpftrace 0.17's own `-f json` output, captured on a real run
// (scripts/capture-trace-fixtures.sh) and committed unedited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseBpftraceJson, summarizeTrace } from '../../src/trace/parse.js';
import { syscallOfKernelStack } from '../../src/trace/syscalls.js';
import { fixture } from '../helpers.js';

const captured = (name) => parseBpftraceJson(readFileSync(fixture(`bpftrace/${name}`), 'utf8'));

test('a workers cell: counts, sums, avg (a stats record) and histograms are read', () => {
  const output = captured('workers-k2.json');
  assert.equal(output.attachedProbes, 9);
  assert.match(output.printf[0], /^mmap-lock: tracing descendants of pid \d+$/);
  assert.deepEqual(output.other, []);
  const trace = summarizeTrace(output);
  assert.equal(trace.write.count, output.maps.cnt_write);
  assert.equal(trace.write.totalNs, output.maps.sum_write_ns);
  assert.equal(trace.write.avgNs, trace.write.totalNs / trace.write.count);
  assert.equal(trace.write.maxNs, output.maps.max_write_ns);
  assert.ok(trace.read.count > 0);
  // the histogram holds every acquisition, in ascending buckets
  assert.equal(
    trace.write.histogram.reduce((sum, bucket) => sum + bucket.count, 0),
    trace.write.count,
  );
  const lows = trace.write.histogram.map((bucket) => bucket.lowNs);
  assert.deepEqual(
    lows,
    [...lows].sort((a, b) => a - b),
  );
});

test('per-process writes: a two-key map becomes pid and comm, most writes first', () => {
  const { processes, write } = summarizeTrace(captured('procs-k2.json'));
  assert.ok(processes.length >= 2);
  assert.ok(
    processes.every(
      ({ pid, comm, writes }) => Number.isInteger(pid) && pid > 0 && typeof comm === 'string' && writes > 0,
    ),
  );
  assert.deepEqual(
    processes.map((p) => p.writes),
    processes.map((p) => p.writes).sort((a, b) => b - a),
  );
  assert.equal(
    processes.reduce((sum, p) => sum + p.writes, 0),
    write.count,
  );
});

test('nothing traced: count maps come as 0, the rest is absent, and nothing is invented', () => {
  const output = captured('nothing-traced.json');
  assert.deepEqual(Object.keys(output.hists), []);
  assert.equal(output.maps.sum_write_ns, undefined);
  const trace = summarizeTrace(output);
  assert.deepEqual(trace.write, { count: 0, totalNs: 0, avgNs: null, maxNs: null, histogram: [] });
  assert.deepEqual(trace.read, { count: 0, totalNs: 0, avgNs: null, maxNs: null, histogram: [] });
  assert.deepEqual(trace.processes, []);
});

test("run by hand with -c: the command's own output between records is kept aside", () => {
  const output = captured('by-hand-c.json');
  assert.ok(output.other.some((line) => line.includes('mmapbench procs')));
  const trace = summarizeTrace(output);
  assert.ok(trace.write.count > 0);
  // with -c the root is bpftrace itself; the forked command shows under its pre-exec name too
  assert.ok(trace.processes.some((p) => p.comm.split(', ').includes('bpftrace')));
});

test('a process that exec’d is one row under both its names, its writes summed, its waits its own', () => {
  const output = captured('by-hand-c.json');
  const names = Object.keys(output.maps.cnt_per_pid_write).map((key) => key.split(',')[0]);
  const twice = names.find((pid, i) => names.indexOf(pid) !== i);
  assert.ok(twice, 'the capture has a pid under two names');
  const trace = summarizeTrace(output);
  const rows = trace.processes.filter((p) => p.pid === Number(twice));
  assert.equal(rows.length, 1);
  assert.equal(rows[0].comm.split(', ').length, 2);
  assert.equal(rows[0].writeNs, output.maps.pid_write_ns[twice]);
  assert.equal(
    trace.processes.reduce((sum, p) => sum + p.writes, 0),
    trace.write.count,
  );
});

test('histogram corners: the negative bucket has no min, 0 and 1 are buckets of their own', () => {
  const output = captured('hist-edges.json');
  const buckets = output.hists.h;
  assert.deepEqual(buckets.slice(0, 3), [
    { lowNs: null, highNs: -1, count: 1 },
    { lowNs: 0, highNs: 0, count: 1 },
    { lowNs: 1, highNs: 1, count: 1 },
  ]);
  assert.deepEqual(buckets.at(-1), { lowNs: 65536, highNs: 131071, count: 1 });
  // contiguous power-of-two buckets from 1 up
  for (let i = 3; i < buckets.length; i++) assert.equal(buckets[i].lowNs, buckets[i - 1].highNs + 1);
  // a key may itself hold a comma: only the first one splits
  assert.deepEqual(output.maps.k, { '1,a': 1, '2,b,c': 1 });
});

test('empty buckets left out between two present ones are put back', () => {
  const text =
    '{"type": "hist", "data": {"@h": [{"min": 2, "max": 3, "count": 4}, {"min": 32, "max": 63, "count": 1}]}}';
  assert.deepEqual(parseBpftraceJson(text).hists.h, [
    { lowNs: 2, highNs: 3, count: 4 },
    { lowNs: 4, highNs: 7, count: 0 },
    { lowNs: 8, highNs: 15, count: 0 },
    { lowNs: 16, highNs: 31, count: 0 },
    { lowNs: 32, highNs: 63, count: 1 },
  ]);
});

test('bpftrace error records are collected, not dropped', () => {
  const output = parseBpftraceJson('{"type": "error", "data": "map full"}\nnot json\n{broken');
  assert.deepEqual(output.errors, ['map full']);
  assert.deepEqual(output.other, ['not json', '{broken']);
});

test('by system call in flight: number + 1 as the key, 0 as none; the rows add up to the totals', () => {
  const trace = summarizeTrace(captured('workers-k2.json'));
  for (const kind of ['write', 'read']) {
    const rows = trace.bySyscall[kind];
    assert.ok(rows.length > 0);
    assert.equal(
      rows.reduce((sum, row) => sum + row.count, 0),
      trace[kind].count,
    );
    assert.equal(
      rows.reduce((sum, row) => sum + row.totalNs, 0),
      trace[kind].totalNs,
    );
    assert.ok(rows.every((row) => row.syscall === null || (Number.isInteger(row.syscall) && row.syscall >= 0)));
  }
  // readFileSync reads the file under read(2): syscall 0 is key 1, not "none"
  assert.ok(trace.bySyscall.read.some((row) => row.syscall === 0));
  assert.deepEqual(trace.writeStacks, [], 'no stacks unless asked');
});

test('writes whose sys_enter the kernel lost go back under the call their kernel stack names', () => {
  // captured under load: the kernel dropped some of brk's and mprotect's sys_enter events
  const output = captured('audit-workers.json');
  const lost = output.maps.cnt_write_sys['0'];
  assert.ok(lost > 0, 'the capture has writes with no system call seen');
  const stacks = Object.values(output.maps.write_nosys_kstack).reduce((sum, { count }) => sum + count, 0);
  assert.equal(stacks, lost, 'one stack kept per such write');
  const trace = summarizeTrace(output);
  const rows = trace.bySyscall.write;
  assert.equal(
    rows.reduce((sum, row) => sum + row.count, 0),
    trace.write.count,
  );
  assert.equal(
    rows.reduce((sum, row) => sum + row.totalNs, 0),
    trace.write.totalNs,
  );
  // every one of them was inside a call its stack names, so none is left under "none"
  assert.equal(
    rows.find((row) => row.syscall === null),
    undefined,
  );
  const brk = rows.find((row) => row.syscall === 12);
  assert.ok(brk.count > output.maps.cnt_write_sys['13'], 'brk gained what the lost events hid');
});

test('writes in a process killed by a signal stay kernel work: no frame names a call', () => {
  const output = captured('procs-k2.json');
  const none = summarizeTrace(output).bySyscall.write.find((row) => row.syscall === null);
  assert.equal(none.count, output.maps.cnt_write_sys['0']);
});

test('the system call a kernel stack was taken in: its outermost syscall frame', () => {
  const brk = ['__mmap_lock_do_trace_acquire_returned', '__do_sys_brk', 'do_syscall_64'];
  assert.equal(syscallOfKernelStack(brk), 'brk');
  assert.equal(syscallOfKernelStack(['do_mprotect_pkey', '__x64_sys_mprotect', 'do_syscall_64']), 'mprotect');
  // sys_mmap tail-calls into vm_mmap_pgoff, which is all the stack shows
  assert.equal(syscallOfKernelStack(['vm_mmap_pgoff', 'do_syscall_64']), 'mmap');
  // the outermost call wins: an exec maps its program through vm_mmap_pgoff
  assert.equal(syscallOfKernelStack(['vm_mmap_pgoff', 'load_elf_binary', '__x64_sys_execve']), 'execve');
  assert.equal(syscallOfKernelStack(['exit_mmap', '__mmput', 'do_exit', 'get_signal', 'do_syscall_64']), null);
  assert.equal(syscallOfKernelStack([]), null);
});

test('an audit: the process itself, its waits per pid, and the kernel chains of its writes', () => {
  const output = captured('audit-workers.json');
  assert.match(output.printf[0], /^mmap-lock: tracing pid \d+ and its descendants$/);
  const trace = summarizeTrace(output);
  const root = Number(output.printf[0].match(/pid (\d+)/)[1]);
  const [self] = trace.processes;
  assert.equal(self.pid, root, 'the process itself is traced');
  assert.equal(self.writes, trace.write.count);
  assert.equal(self.writeNs, trace.write.totalNs);
  assert.equal(self.reads, trace.read.count);
  assert.ok(self.writeMaxNs > 0 && self.writeMaxNs <= self.writeNs);
  // every write left a kernel stack: the chains add up, innermost frame first, offsets gone
  assert.equal(
    trace.writeStacks.reduce((sum, chain) => sum + chain.count, 0),
    trace.write.count,
  );
  assert.ok(trace.writeStacks.every(({ frames }) => frames.length > 0 && frames.every((f) => !/\+\d+$/.test(f))));
  assert.ok(trace.writeStacks.every(({ frames }) => !frames[0].startsWith('__mmap_lock_do_trace')));
  assert.ok(
    trace.writeStacks.some(({ frames }) => frames.some((f) => /brk|mprotect/.test(f))),
    'the arenas grow under brk or mprotect',
  );
});

test('user stacks of an audit, printed while the process ran: each frame a symbol and the object it is in', () => {
  const trace = summarizeTrace(captured('audit-workers.json'));
  assert.ok(trace.writeUserStacks.length > 0);
  // a stack per write that had one to walk (a write with no user stack is not keyed)
  assert.ok(trace.writeUserStacks.reduce((sum, chain) => sum + chain.count, 0) <= trace.write.count);
  // glibc has no frame pointers: the walk stops in its system call wrapper, in libc
  const [top] = trace.writeUserStacks;
  assert.match(top.frames[0].symbol, /^(__brk|__GI_mprotect|munmap|__mmap64)$/);
  assert.match(top.frames[0].object, /libc\.so/);
});

test('a user stack bpftrace printed empty is counted apart, not shown as a chain of no frames', () => {
  // captured on a run where bpftrace keyed most writes' user stacks as empty text
  const output = captured('audit-workers.json');
  const empty = output.maps.write_ustack[''];
  assert.ok(empty > 0, 'the capture has an empty user stack');
  const trace = summarizeTrace(output);
  assert.equal(trace.writeUserStacksMissing, empty);
  assert.ok(trace.writeUserStacks.every((chain) => chain.frames.length > 0));
});

test('user stacks printed after the process exited cannot be resolved, and are read as unresolved', () => {
  const trace = summarizeTrace(captured('audit-exited.json'));
  assert.ok(trace.write.count > 0);
  const frames = trace.writeUserStacks.flatMap((chain) => chain.frames);
  assert.ok(frames.length > 0);
  assert.ok(frames.every((frame) => frame.symbol === null && frame.object === null));
});

test("summarizeTrace: each process's main thread's waits (thread id = pid), zero where it took none", () => {
  const summary = summarizeTrace({
    maps: {
      cnt_per_pid_write: { '100,node': 10, '200,node': 5 },
      main_write_cnt: { 100: 4 },
      main_write_ns: { 100: 4000 },
      main_read_cnt: { 100: 2, 200: 1 },
      main_read_ns: { 100: 300, 200: 50 },
    },
    hists: {},
  });
  assert.deepEqual(
    summary.processes.map(({ pid, main }) => ({ pid, main })),
    [
      { pid: 100, main: { writes: 4, writeNs: 4000, reads: 2, readNs: 300 } },
      { pid: 200, main: { writes: 0, writeNs: 0, reads: 1, readNs: 50 } },
    ],
  );
});
