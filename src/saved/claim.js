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
 * @param {(warning: { code: string, text: string }) => void} warn
 * @param {(keeping: import('./save.js').Keeper | null) => Promise<T>} body
 * @returns {Promise<T>}
 */
export async function holdingResults(save, resumed, warn, body) {
  const { keeping, release } = await claimResults(save, resumed, warn);
  try {
    return await body(keeping);
  } finally {
    release();
  }
}

/**
 * Takes the `--out` folder (created, checked and locked against other runs), or a resumed run's
 * file, which it replaces in place unless `--out` was given (then the file is only read, and
 * the continued run is a new file in that folder). A resumed file is locked either way, so two
 * runs going on with one file cannot replace each other's rounds, nor each continue it into a
 * folder of its own; it is checked writable now, not after the first round. Replaced in place,
 * its folder is locked too: the run that is still writing it holds that folder.
 * @param {import('./save.js').SaveTo} save
 * @param {{ path: string } | null} resumed
 * @param {(warning: { code: string, text: string }) => void} warning
 * @returns {Promise<{ keeping: import('./save.js').Keeper | null, release: () => void }>}
 */
async function claimResults(save, resumed, warning) {
  if (!save) return { keeping: null, release: () => {} };
  const warn = (/** @type {string} */ text) => warning({ code: 'unlocked', text });
  const inPlace = resumed !== null && !save.outGiven;
  if (inPlace) writable(dirname(resumed.path), resumed.path);
  const releaseFile = resumed ? await lockResumed(resumed.path, inPlace, warn) : () => {};
  let releaseFolder = () => {};
  try {
    // the folder it writes in: --out, or the resumed file's own, which the run still writing
    // that file holds (a new run holds its folder, not yet its file)
    releaseFolder = inPlace
      ? await lockFolder(dirname(resumed.path), '--resume', { warn, fix: 'pass --out DIR to go on in another folder' })
      : await lockFolder(resultsFolder(save.out), '--out', { warn });
  } catch (error) {
    releaseFile();
    throw error;
  }
  return {
    keeping: keeper(save, warning, inPlace ? resumed.path : null),
    release: () => {
      releaseFolder();
      releaseFile();
    },
  };
}

/**
 * The lock of a resumed file. Read only (`--out` elsewhere), a file in a folder this user cannot
 * write cannot be locked, nor by any other run of theirs: it is read without, and said so.
 * @param {string} file
 * @param {boolean} inPlace  the file is replaced
 * @param {(message: string) => void} warn
 */
async function lockResumed(file, inPlace, warn) {
  if (!inPlace) {
    try {
      accessSync(dirname(file), constants.W_OK | constants.X_OK);
    } catch {
      warn(
        `--resume ${file} is in a folder this run cannot write, so it is not locked against another run going on with it`,
      );
      return () => {};
    }
  }
  return lockFile(file, '--resume', { warn });
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
