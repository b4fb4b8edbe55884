// A folder a command (compare/, sweep/, advise/, trace/, reproduce/, report/, diff/, tasks/), and
// here the kinds of saved file they write, found by one lookup: each command's kind.js says what
// it saved, how every reader reads it, its points, the tables it prints as, and its section of
// the report page. A command that saves a new kind adds a line to KINDS (docs/development.md,
// "Adding a command"). Only what reads any kind of file loads this: report, diff, --resume and
// trace --pid.
import { usageError } from '../errors.js';
import { checkedDocument, readSaved } from '../saved/load.js';
import { renderKind } from '../view/index.js';
import { resumeOnly } from '../core/typed-options.js';
import { resumable, resumedFile } from '../saved/resume.js';
import advise from './advise/kind.js';
import audit from './trace/kind.js';
import compare from './compare/kind.js';
import reproduce from './reproduce/kind.js';
import sweep from './sweep/kind.js';

/**
 * @typedef {import('../view/kind.js').Kind} Kind
 * @typedef {import('../view/kind.js').Shown} Shown
 */

/** @type {Kind[]} */
export const KINDS = [compare, sweep, advise, audit, reproduce];

/**
 * The kind of a document a command has just built or saved, by its command.
 * @param {{ command: string }} document
 * @returns {Kind}
 */
export function kindOf({ command }) {
  const kind = KINDS.find((one) => one.commands.includes(command));
  if (!kind) throw new Error(`no kind of saved file for the command ${command}`);
  return kind;
}

/**
 * A saved file, checked and of a known kind.
 * @param {string} path
 * @param {string} [what]  how the command names the file in its messages (e.g. `diff BASE`)
 * @returns {import('../saved/load.js').Saved<Kind>}
 */
export const loadSaved = (path, what = path) => readSaved(path, what, KINDS);

/**
 * The run a --resume names, for `command` to go on with, by every measuring command the same way:
 * the options given beside it are only those tagged `resume` (the rest the file keeps), and the
 * file, read as any kind, is an unfinished run of this command.
 * @param {Record<string, any>} given  the options given (and reproduce's
 *   experiment names, where any are)
 * @param {'compare'|'workers'|'procs'|'sweep'|'advise'|'reproduce'} command
 * @param {import('../core/option-spec.js').Specs} specs  the command's
 */
export function resumedRun(given, command, specs) {
  resumeOnly(given, specs);
  return resumable(loadSaved(resumedFile(given.resume), `--resume ${given.resume}`), command);
}

/**
 * A document given as it is (the API's report(document)), checked as a saved file is.
 * @param {unknown} document
 * @param {string} what  how the caller names it
 */
export const checkDocument = (document, what) =>
  checkedDocument(document, what, KINDS, (why) =>
    usageError(`${what} is not a document an mmapbench function returned (${why}); pass one as it was returned`),
  );

/**
 * A document as the user asked to see it: its answer, or with `verbose` its whole text.
 * @param {{ command: string }} document  as the run built it, or as it was saved
 * @param {import('../view/index.js').Format} format
 * @param {import('../view/index.js').Stream} [stream]  where it goes: its width and whether it takes color
 * @param {{ verbose?: boolean }} [options]
 */
export const render = (document, format, stream = process.stdout, { verbose = false } = {}) =>
  renderKind(kindOf(document), document, format, stream, { verbose });

/**
 * One saved file as its run printed it.
 * @param {import('../saved/load.js').Saved<Kind>} saved
 * @param {'terminal'|'markdown'} format
 * @param {import('../view/index.js').Stream} stream
 * @param {{ verbose?: boolean }} [options]  the whole text rather than the answer
 */
export const renderSaved = ({ kind, path, document }, format, stream, { verbose = false } = {}) =>
  renderKind(kind, document, format, stream, { verbose, path });
