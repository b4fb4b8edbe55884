// Where the kernel can end a started tree whole. PR_SET_PDEATHSIG (children.js) reaches only the
// processes this CLI starts itself: what a task starts, and what that starts, goes to init when
// the CLI is SIGKILLed. So each tree that runs a user's code gets a cgroup v2 leaf of its own
// where this process may make one: no process leaves a cgroup by forking, detaching or
// reparenting, and the kernel kills a cgroup whole (cgroup.kill). Something must still write
// cgroup.kill once the CLI is gone, however it went: a watcher, a shell in a session of its own
// that reads a pipe only the CLI holds, and ends the run's group when the pipe closes. Where no
// cgroup can be made, each tree carries a marker in its environment (TREE_VARIABLE), which what
// it starts inherits however it detaches: a tree's end, and the watcher, kill the processes that
// carry it, and the process groups of the cells still running.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adopt, diesWithParent } from './children.js';
import { MmapbenchError, usageError } from '../errors.js';

// the watcher's script: a POSIX shell is on every machine the cells run on, and costs little
const WATCHER = fileURLToPath(new URL('./watcher.sh', import.meta.url));

/** Set to 0 to keep cells out of cgroups (the watcher then ends their process groups). */
export const CGROUP_VARIABLE = 'MMAPBENCH_CGROUP';

/** Without a cgroup, the marker each started tree carries in its environment. */
export const TREE_VARIABLE = 'MMAPBENCH_TREE';

/**
 * @typedef {object} RunGroup
 * @property {string | null} dir  the run's cgroup: a leaf per started tree in it; null without
 * @property {string} why  without a cgroup, why not (for the docs' "what is guaranteed where")
 * @property {import('node:child_process').ChildProcess} watcher
 */

/** @type {RunGroup | undefined} */
let run;

/**
 * The cgroup v2 folder this process is in, as mounted here; null with the reason where there is
 * none (cgroup v1 only, or the hierarchy is not mounted where this process can see it).
 * @returns {{ dir: string | null, why: string }}
 */
export function ownCgroup(
  mountinfo = readOr('/proc/self/mountinfo'),
  cgroup = readOr('/proc/self/cgroup'),
  env = process.env,
) {
  const wanted = env[CGROUP_VARIABLE];
  if (wanted !== undefined && wanted !== '0' && wanted !== '1')
    throw usageError(
      `${CGROUP_VARIABLE}=${wanted} is neither 0 (cells without a cgroup of their own) nor 1 (the default); set one of them or unset it`,
    );
  if (wanted === '0') return { dir: null, why: `${CGROUP_VARIABLE}=0` };
  const own = /^0::(\/.*)$/m.exec(cgroup)?.[1];
  if (own === undefined) return { dir: null, why: 'no cgroup v2 hierarchy' };
  // mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE SUPEROPTIONS
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ');
    if (!after?.startsWith('cgroup2 ')) continue;
    const [, , , root, mountpoint] = before.split(' ').map(unescape);
    const relative = root === '/' ? own : own === root || own.startsWith(`${root}/`) ? own.slice(root.length) : null;
    if (relative !== null) return { dir: resolve(mountpoint, `.${relative}`), why: '' };
  }
  return { dir: null, why: 'cgroup v2 is not mounted' };
}

/** mountinfo escapes spaces and the like as octal: `\040`. */
const unescape = (/** @type {string} */ text) =>
  text.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));

const readOr = (/** @type {string} */ path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/**
 * The run's group and its watcher, made at the first tree started. A group is usable when a
 * shell placed in a leaf of it really lands there (creating the folder is not enough: moving a
 * process needs write access to the common ancestor's cgroup.procs).
 * @returns {RunGroup}
 */
function runGroup() {
  if (run) return run;
  const own = ownCgroup();
  let dir = null;
  let why = own.why;
  const candidate = own.dir ? join(own.dir, `mmapbench-${process.pid}-${randomBytes(4).toString('hex')}`) : null;
  // the watcher first, told the group's name before it exists: a kill between the mkdir and a
  // later spawn would leave the group for good
  const watcher = spawn('/bin/sh', [WATCHER, candidate ?? ''], {
    // a session of its own: a terminal's Ctrl-C or hang-up, which stop the CLI, must not stop it
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  watcher.stdin?.on('error', () => {}); // a watcher killed by hand: the cells still end with their cell
  watcher.unref();
  if (own.dir && candidate) {
    try {
      mkdirSync(candidate);
      const probe = join(candidate, 'probe');
      mkdirSync(probe);
      const placed = spawnSync('/bin/sh', ['-c', 'echo 0 > "$1"', 'sh', join(probe, 'cgroup.procs')], {
        stdio: 'ignore',
      });
      rmdirSync(probe);
      if (placed.status === 0) dir = candidate;
      else {
        rmdirSync(candidate);
        why = `cannot move a process into ${own.dir}`;
      }
    } catch (error) {
      why = `cannot make a cgroup in ${own.dir} (${/** @type {NodeJS.ErrnoException} */ (error).code})`;
    }
  }
  run = { dir, why, watcher };
  return run;
}

let holders = 0;

/**
 * Holds the run's group while a call of the library starts trees: when the last call that holds
 * it lets go, its watcher is told the run is over (it removes the run's cgroup and exits), and a
 * later call makes a group of its own. The CLI holds none: its end is the run's.
 * @returns {() => void}  lets go, once
 */
export function holdTrees() {
  holders++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--holders > 0 || !run) return;
    run.watcher.stdin?.end();
    run = undefined;
  };
}

/**
 * Names to the watcher a cgroup folder outside the run's group (a fault round's v1 memory limit,
 * memory-limit.js) before it is made: once the CLI is gone, however it went, the watcher kills
 * what is in it and removes it.
 * @param {string} dir  a path without white space
 */
export function watchFolder(dir) {
  runGroup().watcher.stdin?.write(`!${dir}\n`);
}

/**
 * Whether trees started from here are put in cgroups, and if not, why not.
 * @returns {{ cgroup: string | null, why: string }}
 */
export function containment() {
  const { dir, why } = runGroup();
  return { cgroup: dir, why };
}

/**
 * A started tree's place: its cgroup leaf, or the process group its host leads.
 * @typedef {object} Box
 * @property {string | null} dir  the leaf; null without cgroups
 * @property {Record<string, string>} env  what the tree's environment must hold: without a cgroup,
 *   its marker (TREE_VARIABLE), by which what it starts is found
 * @property {(pid: number | undefined) => void} started  the host is running, leading a process
 *   group of its own (`detached`): without a cgroup, the watcher kills that group if the CLI dies
 * @property {() => Promise<number[]>} end  kills whatever is left in the leaf, removes it, and
 *   resolves with the pids it killed
 */

/**
 * The command that starts `file` so that it dies with the CLI (diesWithParent), in a box of its
 * own: in its cgroup leaf before it runs anything (a shell places itself there, then execs:
 * the pid stays the file's), where cgroups can be had, so that nothing it starts, at any depth,
 * outlives the box's end or the CLI.
 * @param {string} file
 * @param {string[]} fileArgs
 * @param {string} [signal]  what the kernel sends it when the CLI dies (default SIGKILL)
 * @returns {{ command: [string, string[]], box: Box }}
 */
export function diesWithParentBoxed(file, fileArgs, signal) {
  const [command, args] = diesWithParent(file, fileArgs, signal);
  return boxed(command, args);
}

/**
 * A short command run to its end in a box (diesWithParentBoxed): a Node probe of a user's module
 * (what its top level starts ends with it), npm installing a Node. Ctrl-C (`interrupt`) ends it
 * as an interruption. Resolves with execa's result, never rejecting on the command's own
 * failure: each caller reads its answer. execa loads only here, where such a command runs.
 * @param {string} file
 * @param {string[]} args
 * @param {{ interrupt?: AbortSignal, signal?: string, env?: Record<string, string> } & Record<string, unknown>} options
 *   signal: what the kernel sends it if the CLI dies; env: beside the box's (the CLI's
 *   environment is inherited); more of execa's (timeout, killSignal, maxBuffer)
 */
export async function runBoxed(file, args, { interrupt, signal, env = {}, ...options }) {
  const { execa } = await import('execa');
  const {
    command: [command, commandArgs],
    box,
  } = diesWithParentBoxed(file, args, signal);
  const subprocess = adopt(
    execa(command, commandArgs, {
      reject: false,
      cancelSignal: interrupt,
      stdin: 'ignore',
      ...options,
      env: { ...env, ...box.env },
    }),
  );
  // what it started and left holding its output (a daemon a wrapper script forked) ends when it
  // exits: its output then ends too, rather than the CLI waiting on it, deaf to Ctrl-C
  subprocess.once('exit', () => void box.end());
  const result = await subprocess.finally(() => box.end());
  if (result.isCanceled) throw new MmapbenchError('interrupted', { kind: 'interrupted', signal: interrupt?.reason });
  return result;
}

/**
 * @param {string} file
 * @param {string[]} args
 * @returns {{ command: [string, string[]], box: Box }}
 */
function boxed(file, args) {
  const group = runGroup();
  if (!group.dir) return { command: [file, args], box: processGroupBox(group) };
  const dir = join(group.dir, `tree-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(dir);
  } catch {
    return { command: [file, args], box: processGroupBox(group) };
  }
  const place = 'echo 0 > "$1" || exit 126; shift; exec "$@"';
  return {
    command: ['/bin/sh', ['-c', place, 'mmapbench', join(dir, 'cgroup.procs'), file, ...args]],
    box: cgroupBox(dir),
  };
}

/** @param {RunGroup} group @returns {Box} */
function processGroupBox(group) {
  /** @type {number | undefined} */
  let leader;
  /** @type {Promise<number[]> | undefined} */
  let ended;
  const tree = randomBytes(8).toString('hex');
  group.watcher.stdin?.write(`=${tree}\n`);
  return {
    dir: null,
    env: { [TREE_VARIABLE]: tree },
    started(pid) {
      if (pid === undefined) return;
      leader = pid;
      group.watcher.stdin?.write(`+${pid}\n`);
    },
    // once: a second call (the box's owner, after its process's exit ended it) gets the same
    end: () =>
      (ended ??= (async () => {
        if (leader !== undefined) group.watcher.stdin?.write(`-${leader}\n`);
        leader = undefined;
        // what it started and left, in its process group or out of it (setsid, an orphan of init)
        const left = await endMarked(`${TREE_VARIABLE}=${tree}`);
        group.watcher.stdin?.write(`~${tree}\n`);
        return left;
      })()),
  };
}

/**
 * The processes whose environment carries `marker` (a NUL-separated entry of /proc/PID/environ),
 * zombies aside.
 * @param {string} marker
 */
export function processesCarrying(marker) {
  const entry = Buffer.from(`\0${marker}\0`);
  const first = Buffer.from(`${marker}\0`);
  /** @type {number[]} */
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`);
      if (!(environ.includes(entry) || environ.subarray(0, first.length).equals(first))) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] !== 'Z') found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * Kills the processes that carry `marker`, again until none is left (one may start another
 * while it dies), and resolves with the pids it killed.
 * @param {string} marker
 */
async function endMarked(marker) {
  const killed = new Set();
  for (let tries = 0; tries < 100; tries++) {
    const left = processesCarrying(marker);
    if (!left.length) break;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {}
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return [...killed];
}

/** @param {string} dir @returns {Box} */
function cgroupBox(dir) {
  /** @type {Promise<number[]> | undefined} */
  let ended;
  return {
    dir,
    env: {},
    started() {},
    end: () => (ended ??= endLeaf(dir)),
  };
}

/** The processes in a cgroup that have not exited. @param {string} dir */
export const pidsIn = (dir) => readOr(join(dir, 'cgroup.procs')).split('\n').filter(Boolean).map(Number);

/**
 * Kills everything in a leaf at once (cgroup.kill; before Linux 5.14, each process, until none
 * is left), waits until it is empty and removes it.
 * @param {string} dir
 * @returns {Promise<number[]>}
 */
async function endLeaf(dir) {
  const left = pidsIn(dir);
  const kill = join(dir, 'cgroup.kill');
  const canKillWhole = existsSync(kill);
  for (let tries = 0; tries < 200 && existsSync(dir); tries++) {
    const now = pidsIn(dir);
    if (now.length) {
      if (canKillWhole) writeFileSync(kill, '1');
      else
        for (const pid of now) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
    }
    try {
      rmdirSync(dir);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return left;
}
