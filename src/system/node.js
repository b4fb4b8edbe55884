import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageError } from '../errors.js';
import { runBoxed } from './containment.js';

const MIN_MAJOR = 18;

/** A module of the harness every cell loads, for the check that a binary runs it. */
const HARNESS = fileURLToPath(new URL('../version.js', import.meta.url));
/** What a Node given by --node runs: its version, its Buffer.poolSize, and proof it ran JavaScript. */
const PROBE = `import(require('node:url').pathToFileURL(process.argv[1]).href).then(() => console.log(
  process.version, Buffer.poolSize, require('node:crypto').createHash('sha256').update(process.argv[2]).digest('hex'),
  encodeURIComponent(process.execPath)))`;

/**
 * `26`, `v24.19`, `24.19.0`: the release asked for; null when `spec` is not a version (a path).
 * @param {string} spec
 * @returns {import('./node-release.js').VersionSpec | null}
 */
export function parseVersionSpec(spec) {
  const match = /^v?(\d{1,4})(?:\.(\d{1,4}))?(?:\.(\d{1,4}))?$/.exec(spec);
  if (!match) return null;
  const [, major, minor, patch] = match;
  return {
    major: Number(major),
    minor: minor === undefined ? null : Number(minor),
    patch: patch === undefined ? null : Number(patch),
  };
}

/** A line on stderr, as the CLI says what it does (a release being installed). */
export const stderrLine = (/** @type {string} */ line) => void process.stderr.write(`mmapbench: ${line}\n`);

/**
 * A Node that runs the cells: its binary, its version, and what of its defaults the tasks depend
 * on, read from it (Buffer.poolSize: 8 KiB before 24.18.0 and 26.3.0, 64 KiB from them,
 * src/reference/node-changes.js).
 * @typedef {{ path: string, version: string, poolSize: number, wrapper?: true }} NodeBinary  wrapper:
 *   the path is no Node binary but runs one (a script that execs node)
 */

// One answer per binary and run: a sweep or reproduce plans many settings on the same node, and
// asking it again costs a process start each time.
/** @type {Map<string, Promise<NodeBinary>>} */
const checked = new Map();

/**
 * `--node PATH` or `--node VERSION` (26, 24.19: installed from the npm registry into the cache
 * on first use, node-release.js). Checks that the binary is an executable Node.js and asks it
 * for its version, so a typo is a usage error here rather than K spawn failures inside a cell.
 * @param {string | undefined} spec
 * @param {AbortSignal} [interrupt]
 * @param {(line: string) => void} [say]  how a release being installed says so (the CLI's
 *   stderr; the API's caller hears nothing)
 * @param {string} [cwd]  what a relative path is relative to
 * @returns {Promise<NodeBinary>}
 */
export function resolveNode(spec, interrupt, say = stderrLine, cwd = process.cwd()) {
  if (!spec) return Promise.resolve({ path: process.execPath, version: process.version, poolSize: Buffer.poolSize });
  const release = parseVersionSpec(spec);
  const key = release ? `version ${spec.replace(/^v/, '')}` : resolve(cwd, spec);
  if (!checked.has(key)) {
    // the installer loads only when a release is asked for
    const found = release
      ? import('./node-release.js')
          .then(({ releaseBinary }) => releaseBinary(spec, release, { interrupt, say }))
          .then((path) => check(spec, path, interrupt))
      : check(spec, key, interrupt);
    checked.set(key, found);
    // a failed install may succeed on the next ask (a sweep plans each point)
    found.catch(() => checked.delete(key));
  }
  return /** @type {Promise<NodeBinary>} */ (checked.get(key));
}

/**
 * A Node version from the cache alone, checked as resolveNode checks it; null when it is not
 * installed (a run would install it).
 * @param {string} spec  a version: 24, 26.4
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<NodeBinary | null>}
 */
export async function cachedNode(spec, interrupt) {
  const release = parseVersionSpec(spec);
  const path = release ? (await import('./node-release.js')).cachedBinary(release) : null;
  return path ? resolveNode(spec, interrupt) : null;
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
      `--node ${spec} is not an executable file (${error.code ?? error.message}) nor a Node version; pass a version such as --node 24 or the path of a node binary, e.g. --node "$(which node)"`,
      error,
    );
  }
  // A script that prints a version is not a Node: the binary must load a module of the harness
  // the cells run and answer a question only a JavaScript runtime can (the SHA-256 of a nonce).
  const nonce = randomBytes(8).toString('hex');
  // contained as a cell is (runBoxed): a wrapper script that forks something and then execs
  // node leaves nothing behind, nor keeps the CLI waiting on the output it holds
  const result = await runBoxed(path, ['-e', PROBE, HARNESS, nonce], {
    interrupt,
    timeout: 15000,
    killSignal: 'SIGKILL',
    maxBuffer: 1024 * 1024,
    env: { NODE_OPTIONS: '' },
  });
  if (result.failed)
    throw usageError(
      `--node ${spec} did not run as Node.js (${result.shortMessage ?? result.message}); pass the path of a node binary`,
    );
  const [version = '', poolSize, proof, execPath = ''] = String(result.stdout).trim().split(' ');
  const major = Number(/^v(\d+)\./.exec(version.trim())?.[1]);
  if (!major)
    throw usageError(
      `--node ${spec} printed "${version.trim().slice(0, 40)}" instead of a Node.js version; pass the path of a node binary`,
    );
  if (major < MIN_MAJOR)
    throw usageError(
      `--node ${spec} is Node ${version.trim()}; mmapbench needs Node ${MIN_MAJOR} or newer in its cells`,
    );
  if (!(Number(poolSize) > 0))
    throw usageError(`--node ${spec} did not say its Buffer.poolSize; pass the path of a node binary`);
  if (proof !== createHash('sha256').update(nonce).digest('hex'))
    throw usageError(
      `--node ${spec} printed a version but did not run mmapbench's harness (${HARNESS}) as Node.js does; pass the path of a node binary`,
    );
  // a script that execs node: what it starts before the exec is its own, not the task's
  const wrapper = realOrSelf(decodeURIComponent(execPath)) !== realOrSelf(path);
  return {
    path,
    version: version.trim(),
    poolSize: Number(poolSize),
    ...(wrapper ? { wrapper: /** @type {const} */ (true) } : {}),
  };
}

/** @param {string} path */
const realOrSelf = (path) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};
