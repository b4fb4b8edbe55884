import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { usageError } from '../errors.js';
import { alive } from './alive.js';
import { fileError, writeFileAtomic } from './safe-fs.js';

// proper-lockfile keeps the lock's mtime fresh while we hold it; one older than this belongs
// to a holder that died (SIGKILL, power loss) and is taken over.
const STALE_MS = 3000;
const LOCK = '.mmapbench.lock';
const OWNER = '.mmapbench.lock.owner';

/** @returns {{ pid?: number, started?: string } | null} */
const owner = (/** @type {string} */ dir) => {
  try {
    return JSON.parse(readFileSync(join(dir, OWNER), 'utf8'));
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
 * @param {{ warn?: (message: string) => void }} [options]
 * @returns {Promise<() => void>} release
 */
export async function lockFolder(dir, what, { warn = () => {} } = {}) {
  const options = {
    realpath: false,
    lockfilePath: join(dir, LOCK),
    stale: STALE_MS,
    onCompromised: (/** @type {Error} */ error) =>
      warn(`the lock on ${dir} was lost (${error.message}); another run may now write there too`),
  };
  let release;
  try {
    release = await lockfile.lock(dir, options);
  } catch (error) {
    if (error.code !== 'ELOCKED') throw fileError(error, dir, what);
    const holder = owner(dir);
    if (holder?.pid && alive(holder.pid)) {
      throw usageError(
        `${what} ${dir} is in use by another mmapbench run (pid ${holder.pid}, started ${holder.started}); wait for it to finish or pass another folder`,
      );
    }
    // The holder is gone: its lock goes stale within STALE_MS.
    try {
      release = await lockfile.lock(dir, { ...options, retries: { retries: 8, minTimeout: 500, maxTimeout: 500 } });
    } catch (again) {
      if (again.code !== 'ELOCKED') throw fileError(again, dir, what);
      throw usageError(
        `${what} ${dir} is locked by another mmapbench run (${join(dir, LOCK)}); wait for it to finish or pass another folder`,
      );
    }
  }
  try {
    writeFileAtomic(join(dir, OWNER), `${JSON.stringify({ pid: process.pid, started: new Date().toISOString() })}\n`);
  } catch (error) {
    await release();
    throw fileError(error, dir, what);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(join(dir, OWNER), { force: true });
    lockfile.unlockSync(dir, { realpath: false, lockfilePath: join(dir, LOCK) });
  };
}
