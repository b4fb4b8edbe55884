// The processes a cell's hosts started, at any depth: a task may spawn children, and a child that
// outlives its cell would run on into the next cell's measurement, and after the CLI.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * @typedef {{ pid: number, ppid: number, pgrp: number, state: string, started: string }} ProcessStat
 */

/** Every process /proc shows now, from its stat line. @returns {ProcessStat[]} */
function processes() {
  /** @type {ProcessStat[]} */
  const all = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // the command name is in parentheses and may hold spaces: the fields after it are fixed
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      all.push({
        pid: Number(name),
        state: fields[0],
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        started: fields[19],
      });
    } catch {
      // it exited while we looked
    }
  }
  return all;
}

/**
 * The living descendants of `roots` (children, their children, ...), as they are now.
 * @param {number[]} roots
 * @returns {ProcessStat[]}
 */
export function descendantsOf(roots) {
  const all = processes();
  const found = new Set(roots);
  /** @type {ProcessStat[]} */
  const descendants = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const process of all) {
      if (found.has(process.pid) || !found.has(process.ppid)) continue;
      found.add(process.pid);
      descendants.push(process);
      grew = true;
    }
  }
  return descendants.filter((process) => process.state !== 'Z');
}

/**
 * Kills what is left of a finished cell: every process still in one of `groups` (each host
 * leads a process group of its own, which its task's children join unless they leave it), and
 * each of `seen` (descendants found while the hosts lived) that is still the same process.
 * Returns the pids it killed.
 * @param {number[]} groups  the hosts' pids, which are their process groups' ids
 * @param {ProcessStat[]} seen
 * @returns {number[]}
 */
export function killStrays(groups, seen) {
  const leaders = new Set(groups);
  const earlier = new Map(seen.map((process) => [process.pid, process.started]));
  const strays = processes().filter(
    (process) => process.state !== 'Z' && (leaders.has(process.pgrp) || earlier.get(process.pid) === process.started),
  );
  /** @type {number[]} */
  const killed = [];
  for (const { pid } of strays) {
    try {
      globalThis.process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // gone already
    }
  }
  return killed;
}

/**
 * Resolves once none of `pids` runs any more, or after `ms`: a killed process is not gone at
 * once, and the CLI must not exit (or start the next cell) before. One that has exited and
 * waits to be reaped by whoever adopted it (a zombie: init here reaps every few seconds) runs
 * nothing and holds no memory but its process table entry.
 * @param {number[]} pids
 */
export async function gone(pids, ms = 2000) {
  const end = Date.now() + ms;
  const running = (/** @type {number} */ pid) => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  };
  while (pids.some(running) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}
