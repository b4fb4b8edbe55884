// Where a run will write, taken before it measures anything: a run that cannot keep its rounds,
// or that would replace another run's, is refused while it has lost nothing.
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { lockFile, lockFolder } from '../system/out-lock.js';
import { fileError } from '../system/safe-fs.js';
import { keeper, resultsFolder } from './save.js';

/**
 * Runs `body` holding where the run writes (claimResults), and lets go of it however it ends.
 * @template T
 * @param {import('./save.js').SaveTo} save
 * @param {{ path: string } | null} resumed
 * @param {NodeJS.WritableStream} stderr
 * @param {(keeping: import('./save.js').Keeper | null) => Promise<T>} body
 * @returns {Promise<T>}
 */
export async function holdingResults(save, resumed, stderr, body) {
  const { keeping, release } = await claimResults(save, resumed, stderr);
  try {
    return await body(keeping);
  } finally {
    release();
  }
}

/**
 * Takes the `--out` folder (created, checked and locked against other runs), or a resumed run's
 * file, which it replaces in place unless `--out` was given (then the file is only read, and
 * the continued run is a new file in that folder). The file is locked, so two runs going on
 * with one file cannot replace each other's rounds, and checked writable now, not after the
 * first round.
 * @param {import('./save.js').SaveTo} save
 * @param {{ path: string } | null} resumed
 * @param {NodeJS.WritableStream} stderr
 * @returns {Promise<{ keeping: import('./save.js').Keeper | null, release: () => void }>}
 */
async function claimResults(save, resumed, stderr) {
  if (!save) return { keeping: null, release: () => {} };
  const warn = (/** @type {string} */ message) => stderr.write(`mmapbench: warning: ${message}\n`);
  const inPlace = resumed !== null && !save.outGiven;
  if (inPlace) writable(dirname(resumed.path), resumed.path);
  const release = inPlace
    ? await lockFile(resumed.path, '--resume', { warn })
    : await lockFolder(resultsFolder(save.out), '--out', { warn });
  return { keeping: keeper(save, stderr, inPlace ? resumed.path : null), release };
}

/**
 * @param {string} dir  the folder a file is replaced in (through a temporary file beside it)
 * @param {string} file
 */
function writable(dir, file) {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    const refused = fileError(error, dir, '--out');
    refused.message = `--resume ${file} cannot be replaced: ${refused.message} to keep the continued run there`;
    throw refused;
  }
}
