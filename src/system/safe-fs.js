// mmapbench often runs as root (trace, THP) and writes into folders other users may share
// (/tmp, a team's results folder). Every file it writes goes through here, so a symbolic link
// or hard link planted by someone else is never followed into a file root owns.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { environmentError, usageError } from '../errors.js';

/** A name no one can have created beforehand, beside `path`. */
export const temporaryBeside = (/** @type {string} */ path, suffix = 'tmp') =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.${suffix}`);

/**
 * Replaces `path` with `data` all at once: the data goes to a new file (`wx`: created here, so
 * never a planted link), is flushed, then renamed over `path`. A symbolic link at `path` is
 * replaced, not followed; a reader sees the old file or the new one, never half of one.
 * @param {string} path
 * @param {string | NodeJS.ArrayBufferView} data
 */
export function writeFileAtomic(path, data, { mode = 0o644 } = {}) {
  const temporary = temporaryBeside(path);
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Appends to a file this user created, refusing a symbolic link (O_NOFOLLOW), another user's
 * file, or a file with a second name (a hard link to something else).
 * @param {string} path
 * @param {string} data
 */
export function appendOwnFile(path, data) {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  try {
    const stats = fstatSync(fd);
    const problem = !stats.isFile()
      ? 'is not a regular file'
      : stats.uid !== uid()
        ? `belongs to uid ${stats.uid}`
        : stats.nlink !== 1
          ? 'has other names (hard links)'
          : null;
    if (problem) throw usageError(`${path} ${problem}; mmapbench only appends to results files it created`);
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * mkdir -p. Node's recursive mkdir reports ENOENT when the real cause is a read-only or
 * unwritable parent; this asks again one level at a time so the error names the cause.
 * @param {string} dir
 * @returns {void}
 */
export function makeFolder(dir, mode = 0o777) {
  try {
    mkdirSync(dir, { recursive: true, mode });
  } catch (error) {
    if (error.code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeFolder(dirname(dir), mode);
    try {
      mkdirSync(dir, { mode });
    } catch (again) {
      if (again.code !== 'EEXIST') throw again;
    }
  }
}

const uid = () => process.getuid?.() ?? 0;

/**
 * Creates `dir` (mode 0700) if it is missing and checks it is a folder only this user can
 * change: not a symbolic link, owned by this user, not writable by group or others.
 * @param {string} dir
 * @param {string} what  how the user names it in the fix, e.g. `--fixtures-dir`
 * @param {string} [fix]  what to do instead, when it is not passing `what` another folder
 */
export function ensurePrivateDir(dir, what, fix = `pass ${what} a folder of your own`) {
  try {
    makeFolder(dir, 0o700);
  } catch (error) {
    throw fileError(error, dir, what);
  }
  const stats = lstatSync(dir);
  const problem = stats.isSymbolicLink()
    ? 'is a symbolic link'
    : !stats.isDirectory()
      ? 'is not a folder'
      : stats.uid !== uid()
        ? `belongs to uid ${stats.uid}, not to you (uid ${uid()})`
        : stats.mode & 0o022
          ? `can be written by other users (mode ${(stats.mode & 0o777).toString(8)})`
          : null;
  if (problem) throw usageError(`${what} ${dir} ${problem}; another user could plant files in it: ${fix}`);
  return dir;
}

/**
 * Turns a failed write into a one-line error naming the file and the fix: a usage error where
 * the user chose a bad place, an environment error where the machine cannot take the data.
 * @param {NodeJS.ErrnoException} error
 * @param {string} path
 * @param {string} what  the option that named the place, e.g. `--out`
 */
export function fileError(error, path, what) {
  const code = error.code ?? '';
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return environmentError(
      `no space left to write ${path} (${code}); free some space or pass ${what} another folder`,
      error,
    );
  if (code === 'EROFS')
    return environmentError(`${path} is on a read-only file system (EROFS); pass ${what} a writable folder`, error);
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR')
    return usageError(`${what} ${path}: a file is in the way of a folder (${code}); pass ${what} a folder`, error);
  if (code === 'EACCES' || code === 'EPERM')
    return usageError(`${path} is not writable (${code}); pass ${what} a folder you can write`, error);
  if (code === 'ELOOP')
    return usageError(
      `${path} is a symbolic link; mmapbench does not write through links: pass ${what} another folder`,
      error,
    );
  return environmentError(`could not write ${path} (${code || error.message}); pass ${what} another folder`, error);
}
