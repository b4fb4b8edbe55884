import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { environmentError } from '../errors.js';
import { readChoice, THP_PATH } from './environment.js';

export const THP_MODES = ['always', 'madvise', 'never'];

/** Where the original THP mode is kept while a run has changed it; it outlives a SIGKILL. */
export const defaultRestoreFile = () =>
  path.join(process.env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state'), 'mmapbench', 'thp-restore.json');

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
    writeFileSync(restoreFile, `${JSON.stringify({ path: file, original, pid: process.pid, date: new Date().toISOString() })}\n`, { flag: 'wx' });
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    throw leftover(restoreFile);
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
export const leftover = (restoreFile) => {
  const command = restoreFile === defaultRestoreFile() ? 'mmapbench restore' : `mmapbench restore --thp-restore-file ${restoreFile}`;
  return environmentError(`a previous run left THP changed (${restoreFile} exists); run \`${command}\` first`);
};

/**
 * `mmapbench restore`: puts back the mode a run that died (SIGKILL, power loss) left in its
 * restore file. Returns what it did, or null when there was nothing to restore.
 */
export function restoreThp({ restoreFile = defaultRestoreFile() } = {}) {
  let saved;
  try {
    saved = JSON.parse(readFileSync(restoreFile, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw environmentError(`${restoreFile} is not a restore file mmapbench wrote (${error.message}); check it and remove it by hand`);
  }
  if (!THP_MODES.includes(saved.original) || typeof saved.path !== 'string') {
    throw environmentError(`${restoreFile} does not hold a THP mode; check it and remove it by hand`);
  }
  const before = readChoice(saved.path);
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
