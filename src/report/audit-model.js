import { sumBySyscall } from '../stats/trace.js';
import { syscallReading } from './sentences.js';
import { histogramTable } from './trace-model.js';
import { duration, ops } from './table.js';
import { SCHEMA, version } from '../version.js';

const TOP_STACKS = 8;
const clip = (text, most = 80) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);
// frames every chain ends in: the system call entry, which says nothing about the caller
const ENTRY = /^(entry_SYSCALL|do_syscall_64|x64_sys_call)/;

/**
 * The results document of an audit (`trace --pid` or `trace -- COMMAND`), docs/json.md.
 * @param {Awaited<ReturnType<typeof import('../system/trace/audit.js').audit>>} run
 * @param {object} environment
 */
export function buildAuditResults(run, environment) {
  const { trace } = run;
  return {
    mmapbench: version,
    schema: SCHEMA,
    command: 'trace',
    // Ctrl-C is how an open-ended audit is ended: the report is whole either way (stop says how)
    status: 'complete',
    error: null,
    target: run.target,
    stop: run.stop,
    exit: run.exit,
    seconds: run.seconds,
    environment,
    bpftrace: run.bpftrace,
    script: 'mmap-lock.bt',
    trace: {
      windowNs: trace.windowNs,
      write: trace.write,
      read: trace.read,
      trylockFailed: trace.trylockFailed,
      writeHoldNs: trace.writeHoldNs,
      bySyscall: { write: sumBySyscall([trace], 'write'), read: sumBySyscall([trace], 'read') },
      processes: trace.processes.map((p) => ({ ...p, commandLine: run.commands[p.pid] ?? null })),
      writeStacks: trace.writeStacks.slice(0, 50),
    },
  };
}

const stopText = {
  exited: 'the target exited',
  time: '--seconds ran out',
  interrupted: 'stopped by Ctrl-C',
};

/**
 * The audit as a report: per process, by system call, the write-wait histogram, and the kernel
 * call chains of the writes.
 * @returns {import('./table.js').ReportModel}
 */
export function auditModel(results) {
  const { trace, target } = results;
  const who = clip(target.command ? target.command.join(' ') : (target.commandLine ?? '(gone)'), 60);
  const lines = [
    `${stopText[results.stop] ?? results.stop} after ${results.seconds.toFixed(1)} s${results.exit ? ` (exit ${results.exit.code ?? results.exit.signal})` : ''}; bpftrace ${results.bpftrace.version}; every process it started is included`,
  ];
  const notes = [];
  if (!trace.write.count && !trace.read.count) {
    notes.push('no mmap_lock acquisition by the target or what it started: was it idle?');
  }
  const perProcess = {
    head: ['process', 'command', 'writes', 'write wait', 'avg', 'max', 'reads', 'read wait'],
    rows: trace.processes.map((p) => [
      String(p.pid),
      clip(p.commandLine ?? p.comm),
      ops(p.writes),
      duration(p.writeNs),
      p.writes ? duration(p.writeNs / p.writes) : '-',
      duration(p.writeMaxNs),
      ops(p.reads),
      duration(p.readNs),
    ]),
    align: ['right', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
    widths: [9, 28, 8, 11, 9, 9, 8, 11],
  };
  const total = {
    head: ['all processes', 'acquisitions', 'wait', 'avg', 'max'],
    rows: ['write', 'read'].map((kind) => [
      kind,
      ops(trace[kind].count),
      duration(trace[kind].totalNs),
      trace[kind].avgNs === null ? '-' : duration(trace[kind].avgNs),
      trace[kind].maxNs === null ? '-' : duration(trace[kind].maxNs),
    ]),
  };
  const bySyscall = ['write', 'read'].map((kind) => {
    const all = trace.bySyscall[kind].reduce((sum, row) => sum + row.totalNs, 0);
    return {
      head: [`${kind}s by syscall in flight`, 'acquisitions', 'wait', 'share of wait'],
      rows: trace.bySyscall[kind].map((row) => [
        row.name,
        ops(row.count),
        duration(row.totalNs),
        all ? `${Math.round((row.totalNs / all) * 100)}%` : '-',
      ]),
    };
  });
  const stacks = {
    head: ['writes', 'kernel call chain of the write acquisitions (innermost first)'],
    rows: trace.writeStacks.slice(0, TOP_STACKS).map(({ frames, count }) => [
      ops(count),
      frames
        .filter((f) => !ENTRY.test(f))
        .slice(0, 5)
        .join(' < '),
    ]),
    align: ['right', 'left'],
    widths: [8, 90],
  };
  const reading = syscallReading('the target', trace.bySyscall.write);
  if (reading) notes.push(reading);
  notes.push(
    'User-space callers are not resolved: Node and glibc are built without frame pointers, so user stacks stop inside libc; the process and the system call say which library asked.',
  );
  return {
    title: `mmapbench trace: mmap_lock waits of pid ${target.pid} (${who})`,
    lines,
    tables: [
      total,
      perProcess,
      ...bySyscall,
      histogramTable({ modes: { 'all processes': trace } }, ['all processes'], { suffix: '' }),
      ...(stacks.rows.length ? [stacks] : []),
    ],
    notes,
  };
}
