// Where mmapbench keeps what it caches (fixtures, Node releases) and the state it must find
// again (the THP mode to put back): the XDG folders, else under HOME. Each variable is checked
// where it is read, so a bad one is a line naming it (its control characters escaped, as every
// error's are), not a folder made somewhere unexpected.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { usageError } from '../errors.js';

/**
 * `$NAME`, checked to be an absolute path that is a folder where it exists, else HOME's
 * `fallback` folder, HOME checked to be a folder.
 * @param {'XDG_CACHE_HOME' | 'XDG_STATE_HOME'} name
 * @param {string[]} fallback  under HOME: ['.cache']
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
function userFolder(name, fallback, env = process.env) {
  const given = env[name];
  if (given) {
    const shown = `${name}=${given}`;
    // the XDG specification: a relative path is invalid (it would land under the current folder)
    if (!isAbsolute(given))
      throw usageError(
        `${shown} is not an absolute path; set it to one (such as $HOME/${fallback.join('/')}) or unset it`,
      );
    const kind = kindOf(given);
    if (kind) throw usageError(`${shown} is ${kind}, not a folder; set it to a folder of your own or unset it`);
    return given;
  }
  const home = homedir();
  const kind = kindOf(home) ?? (exists(home) ? null : 'not there');
  if (kind)
    throw usageError(
      `HOME=${home} is ${kind === 'not there' ? 'a folder that does not exist' : `${kind}, not a folder`}; set HOME to your home folder, or ${name} to a folder of your own`,
    );
  return join(home, ...fallback);
}

/** What a path that exists and is not a folder is, or null. */
function kindOf(/** @type {string} */ path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return null;
  }
  if (stats.isDirectory()) return null;
  return stats.isFIFO() ? 'a FIFO (named pipe)' : stats.isFile() ? 'a file' : 'not a folder';
}

const exists = (/** @type {string} */ path) => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};

/** $XDG_CACHE_HOME, else ~/.cache: fixtures and Node releases go in its `mmapbench` folder. */
export const cacheHome = (env = process.env) => userFolder('XDG_CACHE_HOME', ['.cache'], env);

/** $XDG_STATE_HOME, else ~/.local/state: the THP mode a reproduce run puts back. */
export const stateHome = (env = process.env) => userFolder('XDG_STATE_HOME', ['.local', 'state'], env);
