// The malloc replacements a task can be run with by preloading them (LD_PRELOAD), found on this
// machine the way the dynamic loader would: ldconfig's cache first, then the usual folders.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An allocator `advise` tries: the library's file name pattern and how to install it.
 * @typedef {{ name: string, library: RegExp, install: string }} Allocator
 */

/** @type {Allocator[]} */
const ALLOCATORS = [
  {
    name: 'jemalloc',
    library: /^libjemalloc\.so\.2$/,
    install: 'Debian: apt-get install libjemalloc2; Fedora: dnf install jemalloc',
  },
  {
    name: 'tcmalloc',
    library: /^libtcmalloc_minimal\.so\.4$/,
    install: 'Debian: apt-get install libtcmalloc-minimal4; Fedora: dnf install gperftools-libs',
  },
  {
    name: 'mimalloc',
    library: /^libmimalloc\.so\.2(\.\d+)*$/,
    install: 'Debian: apt-get install libmimalloc2.0; Fedora: dnf install mimalloc',
  },
];

/** Where distributions put shared libraries that ldconfig's cache may not list. */
const USUAL_FOLDERS = [
  '/lib/x86_64-linux-gnu',
  '/usr/lib/x86_64-linux-gnu',
  '/lib/aarch64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib64',
  '/usr/lib',
  '/usr/local/lib',
];

/** Whether a file can be read: a library the loader could open. */
export const readable = (/** @type {string} */ path) => {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

/** `ldconfig -p`: the loader's cache of libraries, or nothing where there is no ldconfig. */
export const ldconfig = () => {
  try {
    return execFileSync('ldconfig', ['-p'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
};

const listFolder = (/** @type {string} */ folder) => {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
};

/**
 * Each allocator, found (its library's path) or not (how to install it), for this architecture.
 * @param {{ listing?: () => string, exists?: (path: string) => boolean, folders?: string[],
 *   list?: (folder: string) => string[], arch?: string }} [seams]
 * @returns {Array<Allocator & { path: string | null }>}
 */
export function findAllocators({
  listing = ldconfig,
  exists = readable,
  folders = USUAL_FOLDERS,
  list = listFolder,
  arch = process.arch,
} = {}) {
  const want = arch === 'x64' ? /x86-64/ : arch === 'arm64' ? /AArch64/ : /./;
  const cache = listing()
    .split('\n')
    .flatMap((line) => {
      const match = /^\s*(\S+)\s+\(([^)]*)\)\s+=>\s+(\S+)/.exec(line);
      return match && want.test(match[2]) ? [{ file: match[1], path: match[3] }] : [];
    });
  return ALLOCATORS.map((allocator) => {
    const cached = cache.find(({ file, path }) => allocator.library.test(file) && exists(path));
    const found =
      cached?.path ??
      folders
        .flatMap((folder) =>
          list(folder)
            .filter((file) => allocator.library.test(file))
            .map((file) => join(folder, file)),
        )
        .find(exists) ??
      null;
    return { ...allocator, path: found };
  });
}
