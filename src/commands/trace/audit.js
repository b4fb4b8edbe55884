import { sumBySyscall } from '../../trace/counts.js';
import { histogramTable, syscallReading } from './model.js';
import { duration, ops, percentText } from '../../words/spelling.js';
import { SCHEMA, version } from '../../version.js';
import { basename } from 'node:path';

const TOP_STACKS = 8;
const clip = (/** @type {string} */ text, most = 80) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);
// frames every chain ends in: the system call entry, which says nothing about the caller
const ENTRY = /^(entry_SYSCALL|do_syscall_64|x64_sys_call)/;

/**
 * The results document of an audit (`trace --pid` or `trace -- COMMAND`), docs/json.md.
 * @param {Awaited<ReturnType<typeof import('./audit-trace.js').audit>>} run
 * @param {import('../../document/document.js').Environment} environment
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
      writeUserStacks: trace.writeUserStacks.slice(0, 50),
      writeUserStacksMissing: trace.writeUserStacksMissing,
      userStacksResolved: run.resolvedAlive,
    },
  };
}

/** @typedef {ReturnType<typeof buildAuditResults>} AuditDocument */

/** @type {Record<string, string>} */
const stopText = {
  exited: 'the target exited',
  time: '--seconds ran out',
  interrupted: 'stopped by Ctrl-C',
};

/**
 * The audit as a report: per process, by system call, the write-wait histogram, and the kernel
 * call chains of the writes.
 * @param {AuditDocument} document
 * @returns {import('../../words/report-model.js').ReportModel}
 */
export function auditModel(document) {
  const { trace, target } = document;
  const who = clip(target.command ? target.command.join(' ') : (target.commandLine ?? '(gone)'), 60);
  const lines = [
    `${stopText[document.stop] ?? document.stop} after ${document.seconds.toFixed(1)} s${document.exit ? ` (exit ${document.exit.code ?? document.exit.signal})` : ''}; bpftrace ${document.bpftrace.version}; every process it started is included`,
  ];
  const notes = [];
  if (!trace.write.count && !trace.read.count) {
    notes.push('no mmap_lock acquisition by the target or what it started: was it idle?');
  }
  const perProcess = processTable(trace);
  const total = {
    head: ['all processes', 'acquisitions', 'wait', 'avg', 'max'],
    rows: /** @type {const} */ (['write', 'read']).map((kind) => [
      kind,
      ops(trace[kind].count),
      duration(trace[kind].totalNs),
      maybe(trace[kind].avgNs),
      maybe(trace[kind].maxNs),
    ]),
  };
  const bySyscall = /** @type {const} */ (['write', 'read']).map((kind) => {
    const all = trace.bySyscall[kind].reduce((sum, row) => sum + row.totalNs, 0);
    return {
      head: [`${kind}s by syscall in flight`, 'acquisitions', 'wait', 'share of wait'],
      rows: trace.bySyscall[kind].map((row) => [
        row.name,
        ops(row.count),
        duration(row.totalNs),
        all ? `${percentText(row.totalNs / all)}` : '-',
      ]),
    };
  });
  const users = trace.writeUserStacks ?? [];
  const { stacks, userTable } = stackTables(trace);
  const reading = syscallReading('the target', trace.bySyscall.write);
  if (reading) notes.push(reading);
  notes.push(...userStackNotes(users, trace.userStacksResolved));
  if (users.length && trace.writeUserStacksMissing)
    notes.push(
      `bpftrace printed no user stack for ${ops(trace.writeUserStacksMissing)} of the writes; the chains above are the others'`,
    );
  return {
    title: `mmapbench trace: mmap_lock waits of pid ${target.pid} (${who})`,
    lines,
    // a target that took no acquisition has no rows to show: no table is drawn for them
    tables: [
      total,
      ...[perProcess, ...bySyscall].filter((table) => table.rows.length),
      ...(trace.write.count || trace.read.count
        ? [histogramTable({ modes: { 'all processes': trace } }, ['all processes'], { suffix: '' })]
        : []),
      ...[stacks, userTable].filter((table) => table.rows.length),
    ],
    notes,
  };
}

/**
 * Each process the trace saw: its command, its writes and their wait, its reads.
 * @param {AuditDocument['trace']} trace
 */
function processTable(trace) {
  return {
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
}

/**
 * The kernel's and the user's call chains of the write acquisitions, the most frequent first.
 * @param {AuditDocument['trace']} trace
 */
function stackTables(trace) {
  const users = trace.writeUserStacks ?? [];
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
  const frame = (/** @type {{ symbol: string | null, object: string | null }} */ { symbol, object }) =>
    `${symbol ?? '?'} (${object ? basename(object) : 'unknown object'})`;
  const userTable = {
    head: ['writes', 'user call chain of the write acquisitions (innermost first)'],
    rows: users.slice(0, TOP_STACKS).map(({ frames, count }) => [ops(count), frames.map(frame).join(' < ')]),
    align: ['right', 'left'],
    widths: [8, 90],
  };
  return { stacks, userTable };
}

/** @param {number | null} ns */
const maybe = (ns) => (ns === null ? '-' : duration(ns));

/**
 * What the user stacks can and cannot say, in plain words.
 * @param {AuditDocument['trace']['writeUserStacks']} users
 * @param {boolean} resolved
 */
function userStackNotes(users, resolved) {
  if (!users.length)
    return [
      'User callers: run with --stacks for the user stacks of the writes (best effort: Node and glibc have no frame pointers).',
    ];
  const notes = [];
  if (resolved === false)
    notes.push(
      'The target had exited when bpftrace printed its maps, so user frames could not be resolved: audit with --seconds to resolve them while it runs.',
    );
  const total = users.reduce((sum, chain) => sum + chain.count, 0);
  const stopped = users.filter(({ frames }) => frames.length <= 2 && /libc\.so/.test(frames.at(-1)?.object ?? ''));
  const share = stopped.reduce((sum, chain) => sum + chain.count, 0) / total;
  if (share > 0.5)
    notes.push(
      `${percentText(share)} of the user stacks stop inside libc after its system call wrapper: glibc is built without frame pointers, so who called malloc or mmap is not visible (perf with DWARF unwinding, or a frame-pointer build of glibc and Node, would show it); the system call and the process are what say which path asked.`,
    );
  const objects = [...new Set(users.flatMap(({ frames }) => frames.flatMap((f) => f.object ?? [])))];
  if (objects.length) notes.push(`objects in the user stacks: ${objects.map((o) => basename(o)).join(', ')}`);
  return notes;
}
