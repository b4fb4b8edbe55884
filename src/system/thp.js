import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { environmentError, usageError } from '../errors.js';
import { alive } from './children.js';
import { readChoice, THP_PATH } from './environment.js';
import { readUserFile } from './safe-fs.js';
import { commandLine } from '../words/command-line.js';

const THP_MODES = ['always', 'madvise', 'never'];

export { defaultRestoreFile } from './thp-file.js';
import { defaultRestoreFile } from './thp-file.js';

/**
 * Takes charge of the THP setting for one run. The original mode is written to the restore
 * file before anything changes, and only if no such file exists: a leftover file means a run
 * died with the setting changed, and its "original" would be the changed value. Restores on
 * `restore()`, and on process exit (a second Ctrl-C, an uncaught error) as a last resort.
 * Only the CLI process calls this, never a worker.
 * @param {{ path?: string, restoreFile?: string }} [options]
 */
export function takeThp({ path: file = THP_PATH, restoreFile = defaultRestoreFile() } = {}) {
  const original = readChoice(file);
  if (!original) throw environmentError(`cannot read the THP mode from ${file}; the thp experiment needs it`);
  mkdirSync(path.dirname(restoreFile), { recursive: true });
  try {
    writeFileSync(
      restoreFile,
      `${JSON.stringify({ path: file, original, pid: process.pid, date: new Date().toISOString() })}\n`,
      { flag: 'wx' },
    );
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    throw leftover(restoreFile, file);
  }
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.off('exit', restore);
    writeFileSync(file, original);
    rmSync(restoreFile, { force: true });
  };
  process.on('exit', restore);
  return {
    original,
    /** @param {string} mode one of THP_MODES */
    set(mode) {
      if (restored) throw new Error('THP was already restored');
      writeFileSync(file, mode);
      const now = readChoice(file);
      if (now !== mode) throw environmentError(`wrote "${mode}" to ${file} but it reads "${now}"`);
    },
    restore,
  };
}

/** The refusal while a killed run's restore file is there, naming the command that clears it. */
export const leftover = (/** @type {string} */ restoreFile, file = THP_PATH) => {
  const command = commandLine([
    'mmapbench',
    'restore',
    ...(restoreFile === defaultRestoreFile() ? [] : ['--thp-restore-file', restoreFile]),
    ...(file === THP_PATH ? [] : ['--thp-path', file]),
  ]);
  return environmentError(`a previous run left THP changed (${restoreFile} exists); run \`${command}\` first`);
};

/**
 * `mmapbench restore`: puts back the mode a run that died (SIGKILL, power loss) left in its
 * restore file. The file is data, not an instruction: it may only name the real THP file (or
 * the stand-in the user gives again), it must hold a THP mode, and its writer must be gone.
 * Returns what it did, or null when there was nothing to restore.
 * @param {{ restoreFile?: string, thpPath?: string }} [options]
 */
export function restoreThp({ restoreFile = defaultRestoreFile(), thpPath = THP_PATH } = {}) {
  let saved;
  try {
    saved = JSON.parse(
      readUserFile(restoreFile, 64 * 1024, (problem, cause) =>
        Object.assign(new Error(problem), { code: /** @type {any} */ (cause)?.code }),
      ),
    );
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw environmentError(
      `${restoreFile} is not a restore file mmapbench wrote (${error.message}); check it and remove it by hand`,
    );
  }
  if (!THP_MODES.includes(saved?.original) || typeof saved.path !== 'string') {
    throw environmentError(`${restoreFile} does not hold a THP mode; check it and remove it by hand`);
  }
  const allowed = [THP_PATH, path.resolve(thpPath)];
  if (!allowed.includes(path.resolve(saved.path))) {
    throw usageError(
      `${restoreFile} names ${saved.path}, which is not the THP setting ${THP_PATH}; if that is the stand-in the run used, pass --thp-path ${saved.path}`,
    );
  }
  if (Number.isInteger(saved.pid) && saved.pid !== process.pid && alive(saved.pid)) {
    throw usageError(
      `the run that changed THP (pid ${saved.pid}) is still running and will put it back itself; stop it first`,
    );
  }
  const before = readChoice(saved.path);
  if (!before) throw environmentError(`cannot read the THP mode from ${saved.path}; nothing was written`);
  writeFileSync(saved.path, saved.original);
  rmSync(restoreFile);
  return { path: saved.path, from: before, to: saved.original };
}

/**
 * Why this run cannot change the THP mode at `file`, or null when it can. A stand-in file (a
 * test's, --thp-path) needs no root.
 */
export function thpProblem(file = THP_PATH, { uid = process.getuid?.() } = {}) {
  if (!readChoice(file)) return `no THP setting at ${file} (a kernel without transparent hugepages)`;
  if (file === THP_PATH && uid !== 0) return `changing ${file} needs root; run with sudo`;
  try {
    accessSync(file, constants.W_OK);
  } catch (error) {
    return `${file} is not writable (${error.code}; a read-only /sys, as in most containers)`;
  }
  return null;
}
