import { which } from './which.js';

/**
 * Every process this CLI has started and not yet seen exit: cells, calibration, bpftrace. The
 * CLI kills them before it exits, whatever the path out (a second Ctrl-C, process.exit from a
 * task module's top level), so no cell outlives the command that measures it.
 * @typedef {{ once(event: 'exit' | 'error', listener: () => void): unknown,
 *   kill(signal?: NodeJS.Signals): boolean }} Child  a child_process or execa subprocess
 * @type {Set<Child>}
 */
const live = new Set();

/**
 * Follows a started process until it exits.
 * @template {Child} P
 * @param {P} subprocess
 */
export function adopt(subprocess) {
  live.add(subprocess);
  const forget = () => live.delete(subprocess);
  subprocess.once('exit', forget);
  subprocess.once('error', forget);
  return subprocess;
}

/** Sends `signal` to every process still alive; returns how many there were. */
/** @param {NodeJS.Signals} [signal] */
export function killChildren(signal = 'SIGKILL') {
  for (const subprocess of live) {
    try {
      subprocess.kill(signal);
    } catch {}
  }
  return live.size;
}

/** @type {string | undefined} */
let setpriv;
/**
 * The command that starts `file` so that the kernel sends it `signal` when this CLI dies, even
 * by SIGKILL, when no handler here can run (prctl PR_SET_PDEATHSIG, via util-linux's setpriv,
 * which then execs the file: the pid, the IPC channel and the environment stay the file's).
 * Without setpriv the file is started as it is.
 * @param {string} file
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function diesWithParent(file, args, signal = 'SIGKILL') {
  setpriv ??= which('setpriv') ?? '';
  return setpriv ? [setpriv, ['--pdeathsig', signal.replace(/^SIG/, ''), file, ...args]] : [file, args];
}

/**
 * Whether a process with this pid exists (EPERM: it does, but belongs to another user).
 * @param {number} pid
 */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
