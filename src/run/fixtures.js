import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { join, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { ensurePrivateDir, fileError, temporaryBeside } from '../system/safe-fs.js';
import { escapeText } from '../escape.js';
import { cacheHome } from '../system/user-folders.js';
import { formatSize, parseSize } from '../words/spelling.js';

/** The investigation's four files (its /tmp/fs-contention-files). */
export const NAMED_FILES = { small: 128, med: 64 * 1024, large: 1024 * 1024, huge: 8 * 1024 * 1024 };

/**
 * Fixtures are a cache, and a per-user one: a fixed name in a world-writable /tmp would let
 * another user plant links there for root to write through.
 */
export const defaultFixturesDir = () => join(cacheHome(), 'mmapbench', 'fixtures');
export const FIXTURES_DIR_DESCRIPTION = '$XDG_CACHE_HOME/mmapbench/fixtures (~/.cache/mmapbench/fixtures)';

/** The largest file --file SIZE creates: bigger ones are better made once, by hand. */
const MAX_FIXTURE_BYTES = 1024 ** 3;
const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Writes a file of random bytes unless one of that size is already there. The folder must be
 * one ensurePrivateDir() checked; a link in it is refused, never followed.
 * @param {string} path
 * @param {number} size
 */
function ensureFixture(path, size) {
  let stats = null;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  if (stats && !stats.isFile()) {
    throw usageError(
      `fixture ${path} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; remove it and run again`,
    );
  }
  if (stats?.size === size) return false;
  // A new file (`wx`, a name no one can guess) then a rename: never a planted link, and a
  // concurrent run never reads a half-written fixture.
  const partial = temporaryBeside(path, 'partial');
  const fd = openSync(partial, 'wx', 0o644);
  try {
    const chunk = Buffer.allocUnsafe(Math.min(size, CHUNK_BYTES));
    for (let written = 0; written < size; written += chunk.length) {
      const part = chunk.subarray(0, Math.min(chunk.length, size - written));
      randomFillSync(part);
      writeSync(fd, part);
    }
    closeSync(fd);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return true;
}

/**
 * Checks the fixtures folder and creates one fixture, with errors a user can act on.
 * @param {string} dir
 * @param {string} name
 * @param {number} size
 */
export function fixtureIn(dir, name, size) {
  ensurePrivateDir(dir, '--fixtures-dir');
  const path = join(dir, name);
  try {
    return { path, created: ensureFixture(path, size) };
  } catch (error) {
    throw error.kind ? error : fileError(error, path, '--fixtures-dir');
  }
}

/**
 * Resolves `--file NAME|SIZE|PATH`: a name from the investigation, a size (a random file of
 * that size is created in the fixtures folder), or an existing readable file.
 * @param {string} spec
 * @param {string} [fixturesDir]
 * @param {string} [cwd]  what a relative path is relative to
 * @returns {{ path: string, size: number, label: string }}
 */
export function resolveFile(spec, fixturesDir, cwd = process.cwd()) {
  const named = Object.hasOwn(NAMED_FILES, spec) ? NAMED_FILES[/** @type {keyof NAMED_FILES} */ (spec)] : undefined;
  const size = named ?? (/[/\\]/.test(spec) ? null : parseSize(spec));
  if (size !== null) {
    if (size < 1) throw usageError(`--file ${spec}: a size must be at least 1 byte`);
    if (size > MAX_FIXTURE_BYTES)
      throw usageError(
        `--file ${spec}: mmapbench creates files of at most ${formatSize(MAX_FIXTURE_BYTES)}; make a bigger one yourself and pass its path`,
      );
    const { path } = fixtureIn(fixturesDir ?? defaultFixturesDir(), named ? spec : `size-${size}`, size);
    return { path, size, label: named ? `${spec} (${formatSize(size)})` : formatSize(size) };
  }
  const path = resolve(cwd, spec);
  let stats;
  try {
    stats = statSync(path);
    accessSync(path, constants.R_OK);
  } catch (error) {
    const why = error.code === 'ENOENT' ? 'does not exist' : `is not readable (${error.code})`;
    throw usageError(
      `--file ${printable(spec)} ${why}; pass small, med, large, huge, a size such as 64k, or a readable file`,
      error,
    );
  }
  if (!stats.isFile())
    throw usageError(`--file ${printable(spec)} is not a regular file; pass a file, a name (med) or a size (64k)`);
  // a file the ops cannot read (/proc/self/mem: EIO) is refused here, not after measuring
  const unreadable = firstReadFails(path);
  if (unreadable)
    throw usageError(
      `--file ${printable(spec)} cannot be read as a file (${unreadable}); pass a file the task can read, a name (med) or a size (64k)`,
    );
  return { path, size: stats.size, label: printable(spec) };
}

/**
 * Why the first bytes of a file cannot be read, as its error's code, or null: what every op of a
 * task that reads it would meet.
 * @param {string} path  a regular file
 */
function firstReadFails(path) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    readSync(fd, Buffer.allocUnsafe(4096), 0, 4096, 0);
    return null;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code ?? String(error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A name as one line of output: control characters (a newline in a file name) escaped. */
const printable = escapeText;
