// `--node 26`, `--node 24.19`: a Node release by its version number. The newest matching release
// already in the cache is used; otherwise the newest in the npm registry's node-<os>-<arch>
// package (the official binaries, republished there) is installed into the cache, once.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, usageError } from '../errors.js';
import { alive } from './children.js';
import { runBoxed } from './containment.js';
import { ensurePrivateDir, fileError } from './safe-fs.js';
import { cacheHome } from './user-folders.js';

/**
 * @typedef {{ major: number, minor: number | null, patch: number | null }} VersionSpec
 *   a release line (24), a minor line (24.19) or one release (24.19.0): system/node.js reads it
 */

/** The oldest major `--node VERSION` installs: the oldest mmapbench is tested on. */
const MIN_INSTALL_MAJOR = 20;

/** The npm package that carries this platform's Node binaries. */
export const PACKAGE = `node-${process.platform}-${process.arch}`;

export const nodeCacheDir = () => join(cacheHome(), 'mmapbench', 'node');

/** @param {VersionSpec} spec */
const specText = ({ major, minor, patch }) => [major, minor, patch].filter((n) => n !== null).join('.');

/** @param {string} version  `24.21.0` or `v24.21.0` */
const parts = (version) => version.replace(/^v/, '').split('.').map(Number);

/** Whether release `version` (24.21.0) is one `spec` asks for. */
export const satisfies = (/** @type {VersionSpec} */ spec, /** @type {string} */ version) => {
  const [major, minor, patch] = parts(version);
  return (
    major === spec.major &&
    (spec.minor === null || minor === spec.minor) &&
    (spec.patch === null || patch === spec.patch)
  );
};

/** Orders releases newest first. */
export const newestFirst = (/** @type {string} */ a, /** @type {string} */ b) => {
  const [x, y] = [parts(a), parts(b)];
  return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
};

/** The folder one release is installed in: npm's prefix layout, named by package and version. */
export const releaseDir = (/** @type {string} */ cache, /** @type {string} */ version) =>
  join(cache, `${PACKAGE}-${version}`);
/** The binary of a release installed in `dir`. */
export const binaryIn = (/** @type {string} */ dir) => join(dir, 'node_modules', PACKAGE, 'bin', 'node');

// An install in progress: a folder of its own, renamed to releaseDir() only once npm is done,
// so a killed install never leaves a binary the next run would take for whole.
const PARTIAL = new RegExp(`^\\.${PACKAGE}-(\\d+\\.\\d+\\.\\d+)\\.(\\d+)\\.partial$`);
const partialDir = (/** @type {string} */ cache, /** @type {string} */ version) =>
  join(cache, `.${PACKAGE}-${version}.${process.pid}.partial`);

/**
 * The releases installed in `cache`, newest first.
 * @param {string} cache
 * @returns {string[]}
 */
export function installedReleases(cache) {
  let names;
  try {
    names = readdirSync(cache);
  } catch {
    return [];
  }
  const prefix = `${PACKAGE}-`;
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+\.\d+\.\d+$/.test(name.slice(prefix.length)))
    .map((name) => name.slice(prefix.length))
    .filter((version) => existsSync(binaryIn(releaseDir(cache, version))))
    .sort(newestFirst);
}

/**
 * The newest release in the cache that `spec` matches, or null: what listing and estimates use,
 * so that showing what could run downloads nothing.
 * @param {VersionSpec} spec
 * @param {string} [cache]
 * @returns {string | null} its binary
 */
export function cachedBinary(spec, cache = nodeCacheDir()) {
  const cached = installedReleases(cache).find((version) => satisfies(spec, version));
  return cached ? binaryIn(releaseDir(cache, cached)) : null;
}

/**
 * The binary for `--node VERSION`: the newest matching release in the cache, else the newest in
 * the registry, installed first (with a line on stderr, as it takes a while).
 * @param {string} given  the option's value, for messages
 * @param {VersionSpec} spec
 * @param {{ interrupt?: AbortSignal, cache?: string, say?: (line: string) => void }} [context]  say: how
 *   the install is told (default: not at all; the CLI's stderr through resolveNode)
 * @returns {Promise<string>}
 */
export async function releaseBinary(given, spec, { interrupt, cache = nodeCacheDir(), say = () => {} } = {}) {
  if (spec.major < MIN_INSTALL_MAJOR)
    throw usageError(
      `--node ${given}: mmapbench installs Node ${MIN_INSTALL_MAJOR} or newer, the oldest it is tested on; to run an older Node anyway, pass its binary's path`,
    );
  ensurePrivateDir(cache, 'the Node cache', 'set XDG_CACHE_HOME to a folder of your own');
  const cached = cachedBinary(spec, cache);
  if (cached) return cached;
  const version = await newestInRegistry(given, spec, { interrupt, cache });
  return install(version, { interrupt, cache, say });
}

// npm retries a failed request for a minute by default; one attempt says "offline" at once
const NPM_FLAGS = ['--fetch-retries=0', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'];

/**
 * @param {string} given
 * @param {VersionSpec} spec
 * @param {{ interrupt?: AbortSignal, cache: string }} context
 */
async function newestInRegistry(given, spec, { interrupt, cache }) {
  const result = await npm(['view', `${PACKAGE}@${specText(spec)}`, 'version', '--json', ...NPM_FLAGS], {
    given,
    cache,
    interrupt,
  });
  let answer;
  try {
    answer = JSON.parse(result.stdout || 'null');
  } catch {
    answer = null;
  }
  const code = answer?.error?.code;
  if (code === 'E404' || (result.exitCode === 0 && (answer === null || (Array.isArray(answer) && !answer.length))))
    throw usageError(
      `--node ${given}: the npm registry's ${PACKAGE} has no Node ${specText(spec)}; pass a released version (e.g. --node 24, --node 26) or a binary's path`,
    );
  if (code || result.exitCode !== 0) throw offline(given, cache, answer?.error?.summary ?? result.stderr);
  const versions = (Array.isArray(answer) ? answer : [answer]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const [newest] = versions.filter((version) => satisfies(spec, version)).sort(newestFirst);
  if (!newest)
    throw usageError(
      `--node ${given}: the npm registry's ${PACKAGE} has no Node ${specText(spec)} release; pass a released version or a binary's path`,
    );
  return newest;
}

/**
 * Installs one release: npm into a folder of this process's own, then one rename. Whatever a
 * killed install left behind is removed first.
 * @param {string} version
 * @param {{ interrupt?: AbortSignal, cache: string, say: (line: string) => void }} context
 */
async function install(version, { interrupt, cache, say }) {
  removeAbandoned(cache);
  const partial = partialDir(cache, version);
  const target = releaseDir(cache, version);
  const started = Date.now();
  say(`installing Node ${version} from the npm registry (${PACKAGE}) into ${cache}, once`);
  try {
    const result = await npm(
      [
        'install',
        '--prefix',
        partial,
        '--no-save',
        '--no-package-lock',
        '--ignore-scripts',
        `${PACKAGE}@${version}`,
        ...NPM_FLAGS,
      ],
      { given: version, cache, interrupt },
    );
    if (result.exitCode !== 0) {
      const why = result.stderr
        .trim()
        .split('\n')
        .find((line) => /ENOSPC|EDQUOT|EROFS|EACCES/.test(line));
      if (why)
        throw fileError(Object.assign(new Error(why), { code: /E[A-Z]+/.exec(why)?.[0] }), cache, 'XDG_CACHE_HOME');
      throw offline(version, cache, result.stderr);
    }
    if (!existsSync(binaryIn(partial)))
      throw environmentError(`npm installed ${PACKAGE}@${version} without bin/node; pass a binary's path with --node`);
    try {
      renameSync(partial, target);
    } catch (error) {
      // another run installed it meanwhile: theirs is as good
      if (!existsSync(binaryIn(target))) throw fileError(error, target, 'XDG_CACHE_HOME');
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  say(`installed Node ${version} in ${Math.round((Date.now() - started) / 1000)} s: ${binaryIn(target)}`);
  return binaryIn(target);
}

/** Removes the folders of installs whose process is gone (killed half-way). */
export function removeAbandoned(/** @type {string} */ cache) {
  for (const name of readdirSync(cache)) {
    const match = PARTIAL.exec(name);
    if (match && !alive(Number(match[2]))) rmSync(join(cache, name), { recursive: true, force: true });
  }
}

/**
 * @param {string[]} args
 * @param {{ given: string, cache: string, interrupt?: AbortSignal }} context
 */
async function npm(args, { given, cache, interrupt }) {
  // npm dies with the CLI, as every process mmapbench starts does (system/children.js)
  const result = await runBoxed('npm', args, { interrupt, signal: 'SIGTERM' });
  if (result.failed && result.exitCode === undefined)
    throw environmentError(
      `--node ${given} installs Node with npm, which could not be started (${result.code ?? result.shortMessage}); install npm, or pass a binary's path (the cache is ${cache})`,
      result,
    );
  // setpriv runs npm by name: one that is not on PATH is its exit code 127
  if (result.exitCode === 127 && !result.stdout)
    throw environmentError(
      `--node ${given} installs Node with npm, which is not on PATH; install npm, or pass a binary's path (the cache is ${cache})`,
    );
  return result;
}

/**
 * @param {string} given
 * @param {string} cache
 * @param {string} why  npm's own words
 */
const offline = (given, cache, why) =>
  environmentError(
    `--node ${given}: could not reach the npm registry to install it (${firstLine(why)}); connect, or pass a binary's path; releases already installed in ${cache} are used without the registry`,
  );

const firstLine = (/** @type {string} */ text) =>
  text
    .split('\n')
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
    .find(Boolean)
    ?.slice(0, 160) ?? 'no answer';
