// Every measuring command keeps what it measured: the document `--json` prints, written to
// `--out` as `<command>-<UTC timestamp>.json`. Minutes of measurement are never only on a
// screen that scrolls away.
import { accessSync, constants, linkSync, lstatSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import stringify from 'json-stringify-pretty-compact';
import { usageError } from '../errors.js';
import { escapeText } from '../escape.js';
import { measuredIn } from '../document/sentences.js';
import { fileError, makeFolder, writeFileAtomic, writtenBeside } from '../system/safe-fs.js';

// the default folder (MMAPBENCH_RESULTS moves it), in a module of its own for the command line
export { DEFAULT_OUT, defaultOut } from './out.js';

/**
 * Makes sure `dir` can take a results file before the run starts, so a bad --out costs no
 * measurement: created if missing, a folder (not a file, not a link) this user can write.
 * @param {string} dir
 * @returns {string} the folder
 */
export function resultsFolder(dir) {
  try {
    makeFolder(dir);
  } catch (error) {
    throw fileError(error, dir, '--out');
  }
  const stats = lstatSync(dir);
  if (stats.isSymbolicLink())
    throw usageError(`--out ${dir} is a symbolic link; mmapbench does not write through links: pass --out a folder`);
  if (!stats.isDirectory()) throw usageError(`--out ${dir} is not a folder; pass --out a folder`);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw fileError(error, dir, '--out');
  }
  return dir;
}

/** `2026-11-22T08:46:17.123Z` as a file name part: `20261122T084617.123Z`. */
const stamp = (/** @type {Date} */ date) => date.toISOString().replace(/[-:]/g, '');

/**
 * A document as it is saved: indented, with a short array or object (a histogram's bucket, a
 * list of samples) on one line, so that a file of many cells stays readable and a third of the
 * size `JSON.stringify(document, null, 2)` makes it.
 * @param {unknown} document
 */
const documentText = (document) => `${stringify(document, { maxLength: 100 })}\n`;

/**
 * Writes `document` into `dir` all at once and never over another file: the JSON goes to a new
 * temporary file (`wx`), is flushed, then gets its final name by link(2), which fails rather
 * than replace anything (a planted link included); the temporary name is then removed. A kill
 * at any moment leaves no file or a complete one under the final name.
 * @param {{ command: string }} document  a results document (docs/json.md)
 * @param {string} dir  a folder checked by resultsFolder()
 * @param {{ name?: string, now?: Date }} [options]  name: the command the file is named after
 * @returns {string} the path written
 */
export function saveResults(document, dir, { name: command = document.command, now = new Date() } = {}) {
  const name = `${command}-${stamp(now)}`;
  const data = documentText(document);
  /** @type {string | undefined} */
  let temporary;
  try {
    temporary = writtenBeside(join(dir, `${name}.json`), data);
    for (let n = 1; ; n++) {
      const path = join(dir, n === 1 ? `${name}.json` : `${name}-${n}.json`);
      try {
        linkSync(temporary, path);
        return path;
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
    }
  } catch (error) {
    throw fileError(error, dir, '--out');
  } finally {
    if (temporary) rmSync(temporary, { force: true });
  }
}

/** The path as the user would type it from here, its control characters escaped (a line of its own). */
export const shown = (/** @type {string} */ path) => {
  const near = relative(process.cwd(), path);
  return escapeText(near && !near.startsWith('..') ? near : path);
};

/**
 * @typedef {{ rounds: Array<{ workers?: unknown, procs?: unknown }> }} Measured
 * @typedef {{ command: string } & (Measured | { points: Measured[] } | { trace: object } | { records: object[] })} Document
 *   what a measuring command saves: its rounds, a sweep's points with theirs, an audit's trace, or
 *   a reproduce run's records
 */

/**
 * Where a measuring command keeps its results: null with --no-save. fixedName (`--ci`): always
 * this file, replaced all at once, so a CI job's next step finds it. outGiven: `--out` was
 * given (a resumed run then writes there, not over its file).
 * @typedef {{ out: string, command: string, fixedName?: string, outGiven?: boolean } | null} SaveTo
 */

/**
 * Writes `document` as `<dir>/<name>.json`, replacing one there (atomically: a reader sees the
 * old file or the new one).
 * @param {object} document
 * @param {string} dir
 * @param {string} name
 * @returns {string} the path written
 */
function saveResultsAs(document, dir, name) {
  const path = join(dir, `${name}.json`);
  try {
    writeFileAtomic(path, documentText(document));
  } catch (error) {
    throw fileError(error, dir, '--out');
  }
  return path;
}

/**
 * A run's document kept on disk as it goes: written whole after every round, the first time
 * under a new name as saveResults picks one (or the fixed `--ci` name), then replaced all at
 * once, so a kill loses at most the round under way and a reader always finds a whole document.
 * A write that fails is said once and the run goes on: its tables still print, and the save at
 * the end says the error again.
 * @typedef {{ keep: (document: Document) => void, write: (document: Document) => string,
 *   discard: () => string | null }} Keeper  discard: the file kept as it went, removed (a new
 *   one's, never a resumed one's), its path; null where there is none, or it could not go
 * @param {NonNullable<SaveTo>} save  with `out` checked by resultsFolder()
 * @param {(warning: { code: string, text: string }) => void} warn
 * @param {string | null} [resumed]  the file of a resumed run: it is replaced, holding its old
 *   rounds and the new
 * @returns {Keeper}
 */
export function keeper(save, warn, resumed = null) {
  /** @type {string | null} */
  let path = resumed;
  let failed = false;
  /** @param {Document} document */
  const write = (document) => {
    if (path === null)
      path = save.fixedName
        ? saveResultsAs(document, save.out, save.fixedName)
        : saveResults(document, save.out, { name: save.command });
    else
      try {
        writeFileAtomic(path, documentText(document));
      } catch (error) {
        throw fileError(error, dirname(path), '--out');
      }
    return path;
  };
  return {
    write,
    discard() {
      if (path === null || path === resumed) return null;
      try {
        rmSync(path);
        return path;
      } catch {
        return null;
      }
    },
    keep(document) {
      if (failed) return;
      try {
        write(document);
      } catch (error) {
        failed = true;
        warn({ code: 'save-failed', text: `${error.message}; measuring on: the results print at the end` });
      }
    },
  };
}

/**
 * The end of a measuring command: save its results (with their status, so an interrupted or
 * failed run is kept too). A run that failed before any cell finished measured nothing and
 * leaves no file. Nothing is printed here: the command prints the document first, with a save
 * that failed in it, then `saved` (savedLine).
 * @param {Document} document
 * @param {SaveTo} save  with `out` checked by resultsFolder()
 * @param {Error | null | undefined} runError
 * @param {Keeper | null} [kept]  where the run kept its document as it went: the file it replaces
 * @returns {{ path: string } | { error: Error } | null}  null when nothing was to be saved
 */
export function saveDocument(document, save, runError, kept = null) {
  if (!save || (runError && !measuredIn(document))) return null;
  try {
    return {
      path: kept
        ? kept.write(document)
        : save.fixedName
          ? saveResultsAs(document, save.out, save.fixedName)
          : saveResults(document, save.out, { name: save.command }),
    };
  } catch (error) {
    // the file kept after an earlier round says fewer rounds than ran: it goes, and the line says so
    const removed = kept?.discard();
    if (removed && error instanceof Error)
      error.message = `${error.message}; ${shown(removed)}, kept as the run went, is removed: it held fewer rounds than ran, which print above`;
    return { error };
  }
}

/**
 * After the results are printed: the path they were saved at, then the run's own error, whose
 * line comes last. A save that failed is reported; it never hides the run's own error.
 * @param {ReturnType<typeof saveDocument>} saved
 * @param {Error | null | undefined} runError
 * @param {NodeJS.WritableStream} stderr
 */
export function savedLine(saved, runError, stderr) {
  if (saved && 'path' in saved) stderr.write(`mmapbench: saved ${shown(saved.path)}\n`);
  const saveError = saved && 'error' in saved ? saved.error : null;
  if (runError) {
    if (saveError) stderr.write(`mmapbench: ${saveError.message}\n`);
    throw runError;
  }
  if (saveError) throw saveError;
}

/**
 * The document as it is printed after its save: one whose save failed says so (status failed,
 * the save's error), as the exit code will, unless the run failed on its own first.
 * @template {object} D
 * @param {D} document
 * @param {ReturnType<typeof saveDocument>} saved
 * @param {Error | null | undefined} runError
 * @returns {D}
 */
export const asSaved = (document, saved, runError) =>
  saved && 'error' in saved && !runError
    ? /** @type {D} */ ({ .../** @type {object} */ (document), ...endOf(/** @type {any} */ (saved.error)) })
    : document;

/**
 * How a run ended, as its document says it: complete, or its error and whether it was stopped.
 * @param {{ kind: string, message: string, worker?: number | null } | null | undefined} error
 * @returns {Pick<import('../document/document.js').ResultsDocument, 'status' | 'error'>}
 */
export const endOf = (error) => ({
  status: error ? (error.kind === 'interrupted' ? 'interrupted' : 'failed') : 'complete',
  error: error ? { kind: error.kind, message: error.message, worker: error.worker ?? null } : null,
});
