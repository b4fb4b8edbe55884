// mmapbench often runs as root (trace, THP) and writes into folders other users may share
// (/tmp, a team's results folder). Every file it writes goes through here, so a symbolic link
// or hard link planted by someone else is never followed into a file root owns.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { environmentError, MmapbenchError, usageError } from '../errors.js';
import { formatSize } from '../words/spelling.js';

/** A name no one can have created beforehand, beside `path`. */
export const temporaryBeside = (/** @type {string} */ path, suffix = 'tmp') =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.${suffix}`);

/**
 * Replaces `path` with `data` all at once: the data goes to a new file (`wx`: created here, so
 * never a planted link), is flushed, then renamed over `path`; a reader sees the old file or the
 * new one, never half of one. Anything not a regular file is refused. A symbolic link at `path`
 * is never followed (into a file root owns): where the user named the path (`--export`,
 * `--html`) it is refused and left as it is (as root, /dev/stdout is one); where mmapbench named
 * it in a folder it holds (REPORT.md, a lock's owner: `links: 'replace'`) a link planted there is
 * replaced.
 * @param {string} path
 * @param {string | NodeJS.ArrayBufferView} data
 * @param {{ mode?: number, links?: 'refuse' | 'replace' }} [options]
 */
export function writeFileAtomic(path, data, { mode = 0o644, links = 'refuse' } = {}) {
  const special = unwritable(path, links);
  if (special)
    throw usageError(
      `${path} is ${special}; mmapbench writes only regular files, never through a link: pass a file name`,
    );
  const temporary = writtenBeside(path, data, mode);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * `data` in a new file beside `path` (`wx`: created here, so never a planted link), flushed and
 * closed: what writeFileAtomic renames over a file and saveResults links to a new name. Removed
 * again if the write fails.
 * @param {string} path
 * @param {string | NodeJS.ArrayBufferView} data
 * @returns {string} the temporary file's path
 */
export function writtenBeside(path, data, mode = 0o644) {
  const temporary = temporaryBeside(path);
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    closeSync(fd);
  }
  return temporary;
}

/**
 * What `path` is when it exists and is not a regular file (through a symbolic link: /dev/stdout
 * is one), else null. A device, a FIFO or a folder named as an output is refused: as root, the
 * rename that writes a file would replace /dev/full itself.
 * @param {string} path
 * @returns {string | null}  `a character device`, `a FIFO (named pipe)`, ...
 */
export function specialFile(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return null; // not there (or a link to nothing): written anew
  }
  return stats.isFile() ? null : kindOf(stats);
}

/**
 * What is wrong with `path` as a file writeFileAtomic replaces, or null: something that exists
 * and is not a regular file, read without following a link; and a symbolic link (to anything,
 * or to nothing) unless `links` is 'replace' (renamed over, never followed).
 * @param {string} path
 * @param {'refuse' | 'replace'} [links]
 * @returns {string | null}
 */
export function unwritable(path, links = 'refuse') {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return null; // not there: written anew
  }
  if (stats.isSymbolicLink()) return links === 'refuse' ? `a symbolic link (to ${readlinkSync(path)})` : null;
  return stats.isFile() ? null : `${kindOf(stats)}, not a regular file`;
}

/**
 * Refuses an output the user named that is a symbolic link, or exists and is not a regular
 * file, before anything runs: each is left as it is.
 * @param {string} path
 * @param {string} as  how the user named it: `--html page.html`, `--export bencher=FILE`
 */
export function checkOutput(path, as) {
  const problem = unwritable(path);
  if (problem)
    throw usageError(
      `${as} is ${problem}; mmapbench writes only regular files, never through a link: pass a file name`,
    );
}

/**
 * Appends to a file someone else may have made (GitHub's step summary): opened without blocking
 * (a FIFO with no reader would block the open, and no signal handler runs meanwhile), and
 * written only when it is a regular file.
 * @param {string} path
 * @param {string} data
 * @returns {string | null}  what is wrong with it, when nothing was written
 */
export function appendRegularFile(path, data) {
  const special = specialFile(path);
  if (special) return `it is ${special}, not a regular file`;
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOCTTY,
    0o644,
  );
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return `it is ${kindOf(stats)}, not a regular file`;
    writeFileSync(fd, data);
    return null;
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
 * @param {string} [fix]  how a user names another place: `pass --out` by default
 */
export function fileError(error, path, what, fix = `pass ${what}`) {
  if (error instanceof MmapbenchError) return error;
  const code = error.code ?? '';
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return environmentError(
      `no space left to write ${path} (${code}); free some space or ${fix} another folder`,
      error,
    );
  if (code === 'EROFS')
    return environmentError(`${path} is on a read-only file system (EROFS); ${fix} a writable folder`, error);
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR')
    return usageError(`${what} ${path}: a file is in the way of a folder (${code}); ${fix} a folder`, error);
  if (code === 'EACCES' || code === 'EPERM')
    return usageError(`${path} is not writable (${code}); ${fix} a folder you can write`, error);
  if (code === 'ELOOP')
    return usageError(
      `${path} is a symbolic link; mmapbench does not write through links: ${fix} another folder`,
      error,
    );
  return environmentError(`could not write ${path} (${code || error.message}); ${fix} another folder`, error);
}

/** What a file that is not a regular one is, as a user would name it. */
const KINDS = /** @type {const} */ ([
  ['isDirectory', 'a folder'],
  ['isFIFO', 'a FIFO (named pipe)'],
  ['isCharacterDevice', 'a character device'],
  ['isBlockDevice', 'a block device'],
  ['isSocket', 'a socket'],
]);

/**
 * What is wrong with `stats` as a file to read whole, or null: not a regular file (a read of a
 * FIFO waits for a writer, /dev/zero never ends), or larger than `limit`.
 * @param {import('node:fs').Stats} stats
 * @param {number} limit
 */
export function notAFile(stats, limit = Infinity) {
  if (!stats.isFile()) return `${kindOf(stats)}, not a regular file`;
  return stats.size > limit ? `${formatSize(stats.size)}, more than the ${formatSize(limit)} it may be` : null;
}

/** @param {import('node:fs').Stats} stats */
const kindOf = (stats) => KINDS.find(([test]) => stats[test]())?.[1] ?? 'not a regular file';

const CHUNK = 64 * 1024;

/**
 * Reads a file the user named, whatever they named. It is opened without blocking (a FIFO with
 * no writer would block the open itself, and no signal handler runs while the main thread is
 * blocked), checked to be a regular file of at most `limit` bytes, and only then read: a
 * regular file's read never waits, so Ctrl-C still ends the CLI. A file that grows past `limit`
 * while it is read (or a /proc file, whose size says 0) is refused when it does.
 * @param {string} path
 * @param {number} limit  the most a file of its purpose may hold
 * @param {(problem: string, cause?: unknown) => Error} refuse  the error for a problem such as
 *   `no such file`, `a FIFO (named pipe), not a regular file`
 * @returns {string}
 */
export const readUserFile = (path, limit, refuse) => readUserBytes(path, limit, refuse).toString('utf8');

/**
 * The SHA-256 of a file the user named (a task module), read as readUserFile reads: what says
 * whether it is the file a run measured.
 * @param {string} path
 * @param {number} limit
 * @param {(problem: string, cause?: unknown) => Error} refuse
 */
export const sha256Of = (path, limit, refuse) =>
  createHash('sha256')
    .update(readUserBytes(path, limit, refuse))
    .digest('hex');

/**
 * @param {string} path
 * @param {number} limit
 * @param {(problem: string, cause?: unknown) => Error} refuse
 * @returns {Buffer}
 */
function readUserBytes(path, limit, refuse) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    throw refuse(code === 'ENOENT' ? 'no such file' : `not readable (${code ?? error})`, error);
  }
  try {
    const problem = notAFile(fstatSync(fd), limit);
    if (problem) throw refuse(problem);
    /** @type {Buffer[]} */
    const chunks = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      let read;
      try {
        read = readSync(fd, chunk, 0, CHUNK, null);
      } catch (error) {
        // /proc/self/mem (EIO), a write-only /proc file (EINVAL): a file no one reads whole
        const code = /** @type {NodeJS.ErrnoException} */ (error).code;
        throw refuse(`not readable as a file (${code ?? error})`, error);
      }
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > limit) throw refuse(`more than the ${formatSize(limit)} it may be`);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/**
 * Where `path` is, as one string whatever it is called: its device and inode when it exists
 * (through a symbolic link, and a hard link is the same inode), else its real folder and name.
 * @param {string} path
 */
function identity(path) {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    // a symbolic link to a file not written yet (a results file the run will write) is that file
    for (let hops = 0; hops < 40; hops++) {
      try {
        if (!lstatSync(path).isSymbolicLink()) break;
        path = resolve(dirname(path), readlinkSync(path));
      } catch {
        break;
      }
    }
    let folder = resolve(dirname(path));
    try {
      folder = realpathSync(folder);
    } catch {
      // a folder not there: the path as given
    }
    return join(folder, basename(path));
  }
}

/**
 * Refuses a file a command would write that is a file it reads, or another it writes, by
 * whatever name: writing it would replace what was read (a results file replaced by a page) or
 * what was just written.
 * @param {Array<{ path: string, what: string }>} reads  what each is, for the message (`a.json,
 *   which report reads`)
 * @param {Array<{ path: string, as: string, what: string }>} writes  as the user named each
 *   (`--html page.html`), and what it is (`the page --html page.html writes`)
 */
export function checkDistinct(reads, writes) {
  for (const file of sameFiles(reads, writes))
    throw usageError(
      `${file.as} would replace ${file.other.what}${file.other.path === file.path ? '' : ' (the same file by another name)'}; write it to another file`,
    );
}

/**
 * Each file of `writes` that is a file of `reads` or an earlier write, by whatever name, with the
 * one it is.
 * @param {Array<{ path: string, what: string }>} reads
 * @param {Array<{ path: string, as: string, what: string }>} writes
 */
export function sameFiles(reads, writes) {
  const found = [];
  const seen = reads.map((file) => ({ ...file, id: identity(file.path) }));
  for (const file of writes) {
    const id = identity(file.path);
    const other = seen.find((earlier) => earlier.id === id);
    if (other) found.push({ ...file, other });
    seen.push({ ...file, id });
  }
  return found;
}
