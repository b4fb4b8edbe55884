import { execFileSync } from 'node:child_process';
import { usageError } from '../errors.js';
import { ldconfig, readable } from './allocators.js';

/** Where distributions put libjemalloc.so.2 when ldconfig does not list it. */
const USUAL_PATHS = [
  '/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so',
];

const INSTALL_HINT =
  'install it (Debian/Ubuntu: apt-get install libjemalloc2; Fedora: dnf install jemalloc) or pass --jemalloc PATH';

/**
 * The first libjemalloc in `ldconfig -p` output for this architecture, or null.
 * @param {string} listing
 */
export function fromLdconfig(listing, arch = process.arch) {
  const want = arch === 'x64' ? /x86-64/ : arch === 'arm64' ? /AArch64/ : /./;
  for (const line of listing.split('\n')) {
    const match = /^\s*libjemalloc\.so(?:\.\d+)?\s+\(([^)]*)\)\s+=>\s+(\S+)/.exec(line);
    if (match && want.test(match[1])) return match[2];
  }
  return null;
}

/**
 * Finds the jemalloc library the jemalloc experiment preloads: `--jemalloc PATH` (which must
 * exist), else ldconfig's cache, else the usual paths.
 * @param {string | undefined} given
 * @param {{ listing?: () => string, exists?: (path: string) => boolean, paths?: string[] }} [seams]
 * @returns {{ path: string | null, how: string | null, why: string | null }}
 */
export function findJemalloc(given, { listing = ldconfig, exists = readable, paths = USUAL_PATHS } = {}) {
  if (given) {
    if (!exists(given))
      throw usageError(`--jemalloc ${given} is not a readable file; pass the path of libjemalloc.so.2`);
    return { path: given, how: '--jemalloc', why: null };
  }
  const cached = fromLdconfig(listing());
  if (cached && exists(cached)) return { path: cached, how: 'ldconfig -p', why: null };
  const found = paths.find(exists);
  if (found) return { path: found, how: 'usual path', why: null };
  return {
    path: null,
    how: null,
    why: `libjemalloc not found (ldconfig -p and ${paths.length} usual paths); ${INSTALL_HINT}`,
  };
}

/**
 * Whether `node` really runs with the library preloaded: the dynamic loader ignores a preload
 * it cannot load (wrong architecture, a static binary) with only a warning.
 * @param {string} nodePath
 * @param {string} library
 * @returns {string | null} why it did not load, or null when it did
 */
export function preloadProblem(nodePath, library, env = process.env) {
  // one answer per node and library and run: each setting of a sweep that preloads asks again
  const key = `${nodePath}\u0000${library}`;
  if (!preloadAnswers.has(key)) preloadAnswers.set(key, askLoader(nodePath, library, env));
  return /** @type {string | null} */ (preloadAnswers.get(key));
}

/** @type {Map<string, string | null>} */
const preloadAnswers = new Map();

/**
 * @param {string} nodePath
 * @param {string} library
 * @param {NodeJS.ProcessEnv} env
 */
function askLoader(nodePath, library, env) {
  try {
    const maps = execFileSync(
      nodePath,
      ['-e', 'process.stdout.write(require("fs").readFileSync("/proc/self/maps", "utf8"))'],
      {
        encoding: 'utf8',
        env: { ...env, LD_PRELOAD: library },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 15_000,
      },
    );
    // LD_PRELOAD may list several libraries, separated by spaces or colons
    const missing = library
      .split(/[\s:]+/)
      .filter(Boolean)
      .find((lib) => !maps.includes(lib.includes('/') ? lib : `/${lib}`));
    return missing ? `LD_PRELOAD=${missing} did not load into ${nodePath}` : null;
  } catch (error) {
    return `${nodePath} with LD_PRELOAD=${library} failed: ${
      String(error.stderr || error.message)
        .trim()
        .split('\n')[0]
    }`;
  }
}
