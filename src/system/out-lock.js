import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { usageError } from '../errors.js';
import { alive } from './children.js';
import { fileError, writeFileAtomic } from './safe-fs.js';
import { stateHome } from './user-folders.js';

// proper-lockfile keeps the lock's mtime fresh while we hold it; one older than this belongs
// to a holder that died (SIGKILL, power loss) and is taken over.
const STALE_MS = 3000;
const LOCK = '.mmapbench.lock';
const OWNER = '.mmapbench.lock.owner';

/** @returns {{ pid?: number, started?: string } | null} */
const owner = (/** @type {string} */ path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
};

/**
 * Takes the folder for this run alone, so two runs never replace each other's REPORT.md or
 * measure the same cells twice. A live holder is refused at once, naming its pid; a dead
 * holder's lock is waited out until it is stale, then taken over.
 * @param {string} dir  an existing folder
 * @param {string} what  how the user named it, for the message
 * @param {{ warn?: (message: string) => void, fix?: string }} [options]  fix: what to do instead of waiting
 * @returns {Promise<() => void>} release
 */
export const lockFolder = (dir, what, options) =>
  take(dir, { lock: join(dir, LOCK), owner: join(dir, OWNER), place: dir, noun: 'folder' }, what, options);

/**
 * Where the second lock of a results file is: keyed by its device and inode, so every name of one
 * file (a hard link, in any folder) takes it, in this user's state folder
 * (`~/.local/state/mmapbench/locks`); null where that folder cannot be made.
 * @param {string} file  an existing file
 * @param {NodeJS.ProcessEnv} [env]
 */
export function inodeLockOf(file, env = process.env) {
  const { dev, ino } = statSync(file);
  const dir = join(stateHome(env), 'mmapbench', 'locks');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return join(dir, `${dev}-${ino}.lock`);
  } catch {
    return null;
  }
}

/**
 * Takes a results file for this run alone (a `--resume`d run replaces it after every round):
 * two runs going on with one file, by whatever name, would each replace the other's rounds. Two
 * locks: one beside it (`FILE.lock`), held by its name, which the file replaced after a round
 * keeps; one keyed by the inode it had when the run began, which a hard link to it shares.
 * @param {string} file  an existing file
 * @param {string} what  how the user named it, for the message
 * @param {{ warn?: (message: string) => void }} [options]
 * @returns {Promise<() => void>} release
 */
export async function lockFile(file, what, options) {
  const byInode = inodeLockOf(file);
  const paths = (/** @type {string} */ lock) => ({
    lock,
    owner: `${lock}.owner`,
    place: dirname(file),
    noun: 'file',
    shown: file,
  });
  const releaseName = await take(file, paths(`${file}.lock`), what, options);
  if (!byInode) return releaseName;
  try {
    // its own target: proper-lockfile holds one lock a target
    const releaseInode = await take(byInode.replace(/\.lock$/, ''), paths(byInode), what, options);
    return () => {
      releaseInode();
      releaseName();
    };
  } catch (error) {
    releaseName();
    throw error;
  }
}

/**
 * @param {string} target  the folder or file taken
 * @param {{ lock: string, owner: string, place: string, noun: string, shown?: string }} paths  the
 *   lock, the file naming its holder, the folder a failure to write them is about, what the target
 *   is, and how a message names it (the target, unless said)
 * @param {string} what
 * @param {{ warn?: (message: string) => void, fix?: string }} [options]  fix: what the user can do
 *   instead of waiting (another folder or file, by default)
 * @returns {Promise<() => void>}
 */
async function take(target, paths, what, { warn = () => {}, fix = `pass another ${paths.noun}` } = {}) {
  const options = {
    realpath: false,
    lockfilePath: paths.lock,
    stale: STALE_MS,
    onCompromised: (/** @type {Error} */ error) =>
      warn(`the lock on ${paths.shown ?? target} was lost (${error.message}); another run may now write there too`),
  };
  const elsewhere = (/** @type {string} */ how) =>
    usageError(`${what} ${paths.shown ?? target} is ${how}; wait for it to finish or ${fix}`);
  let release;
  try {
    release = await lockfile.lock(target, options);
  } catch (error) {
    if (error.code !== 'ELOCKED') throw fileError(error, paths.place, what);
    const holder = owner(paths.owner);
    if (holder?.pid && alive(holder.pid))
      throw elsewhere(`in use by another mmapbench run (pid ${holder.pid}, started ${holder.started})`);
    // The holder is gone: its lock goes stale within STALE_MS.
    try {
      release = await lockfile.lock(target, { ...options, retries: { retries: 8, minTimeout: 500, maxTimeout: 500 } });
    } catch (again) {
      if (again.code !== 'ELOCKED') throw fileError(again, paths.place, what);
      throw elsewhere(`locked by another mmapbench run (${paths.lock})`);
    }
  }
  try {
    writeFileAtomic(paths.owner, `${JSON.stringify({ pid: process.pid, started: new Date().toISOString() })}\n`, {
      links: 'replace',
    });
  } catch (error) {
    await release();
    throw fileError(error, paths.place, what);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(paths.owner, { force: true });
    lockfile.unlockSync(target, { realpath: false, lockfilePath: paths.lock });
  };
}
