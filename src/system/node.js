import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { usageError } from '../errors.js';

const MIN_MAJOR = 18;

// One answer per binary and run: a sweep or reproduce plans many settings on the same node, and
// asking it again costs a process start each time.
/** @type {Map<string, Promise<{ path: string, version: string }>>} */
const checked = new Map();

/**
 * Checks that `--node PATH` is an executable Node.js and asks it for its version, so a typo is
 * a usage error here rather than K spawn failures inside a cell.
 * @param {string | undefined} spec
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<{ path: string, version: string }>}
 */
export function resolveNode(spec, interrupt) {
  if (!spec) return Promise.resolve({ path: process.execPath, version: process.version });
  const path = resolve(spec);
  if (!checked.has(path)) checked.set(path, check(spec, path, interrupt));
  return /** @type {Promise<{ path: string, version: string }>} */ (checked.get(path));
}

/**
 * @param {string} spec
 * @param {string} path
 * @param {AbortSignal} [interrupt]
 */
async function check(spec, path, interrupt) {
  try {
    if (!statSync(path).isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    accessSync(path, constants.X_OK);
  } catch (error) {
    throw usageError(
      `--node ${spec} is not an executable file (${error.code ?? error.message}); pass the path of a node binary, e.g. --node "$(which node)"`,
      error,
    );
  }
  let version;
  try {
    ({ stdout: version } = await execa(path, ['-p', 'process.version'], {
      timeout: 15000,
      env: { NODE_OPTIONS: '' },
      cancelSignal: interrupt,
    }));
  } catch (error) {
    throw usageError(
      `--node ${spec} did not run as Node.js (${error.shortMessage ?? error.message}); pass the path of a node binary`,
      error,
    );
  }
  const major = Number(/^v(\d+)\./.exec(version.trim())?.[1]);
  if (!major)
    throw usageError(
      `--node ${spec} printed "${version.trim().slice(0, 40)}" instead of a Node.js version; pass the path of a node binary`,
    );
  if (major < MIN_MAJOR)
    throw usageError(
      `--node ${spec} is Node ${version.trim()}; mmapbench needs Node ${MIN_MAJOR} or newer in its cells`,
    );
  return { path, version: version.trim() };
}
