// The kinds of saved file, one descriptor each, found by one lookup: what the command that wrote
// it saved, how every reader reads it, its points, the tables it prints as, and its section of
// the report page. A command that saves a new kind adds a file here and a line to KINDS
// (docs/development.md, "Adding a command").
import { readSaved } from '../saved/load.js';
import { renderModels } from '../view/index.js';
import advise from './advise.js';
import audit from './audit.js';
import compare from './compare.js';
import reproduce from './reproduce.js';
import sweep from './sweep.js';

/**
 * One kind of saved file. Every function takes the document as the command saved it (a
 * reproduce run's: its header, records and end), from a live run or from its file alike.
 * @typedef {object} Kind
 * @property {string} name
 * @property {string[]} commands  the commands whose documents are of this kind
 * @property {(document: any) => string} command  the command that wrote it
 * @property {(document: any) => import('../document/document.js').Environment} environment  its machine
 * @property {(document: any) => string} status  `complete`, or how it did not finish
 * @property {(document: any) => { protocol?: string, quick?: boolean }} settings  what changes its figures
 * @property {(document: any) => string} nodes  the Node versions it ran
 * @property {(document: any) => string | null} tasks  the tasks it ran, for a gate; null: not gated
 * @property {(document: any) => string} title  the run in a few words, as a step summary heads it
 * @property {(document: any) => string | null} resumeWith  how to go on with it when `--resume` of
 *   a measuring command cannot; null: it can
 * @property {((document: any) => import('../points/points.js').Point[]) | null} points  its
 *   workers/procs points; null for a kind that has none (noRounds says why)
 * @property {string | null} noRounds  why it has no workers/procs rounds, or null
 * @property {(document: any, options: Shown) => import('../view/table.js').ReportModel[]} models
 *   the tables it prints as: its answer, or with `verbose` its whole text (the report page's too)
 * @property {((document: any, format: 'terminal'|'markdown', stream: import('../view/index.js').Stream, options: Omit<Shown, 'width'>) => string)} [print]
 *   how it prints when that is not its models one after another (a reproduce run's report)
 * @property {(saved: import('../saved/load.js').Saved, shown: { facts: Record<string, string>, models: import('../view/table.js').ReportModel[] }) => Promise<import('../view/html-page.js').Section>} section
 *   its section of the report page
 */

/**
 * How a document is shown: its answer or (verbose) its whole text, at a width; path: the file it
 * was read from, or `this run`.
 * @typedef {{ verbose: boolean, width: number, path: string }} Shown
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
 * @returns {import('../saved/load.js').Saved}
 */
export const loadSaved = (path, what = path) => readSaved(path, what, KINDS);

/**
 * The models a document prints as: its answer, or with `verbose` its whole text.
 * @param {{ command: string }} document
 * @param {{ verbose?: boolean, width?: number }} [options]
 */
export const modelsOf = (document, { verbose = false, width = 80 } = {}) =>
  kindOf(document).models(document, { verbose, width, path: 'this run' });

/**
 * A document as the user asked to see it: its answer, or with `verbose` its whole text.
 * @param {{ command: string }} document  as the run built it, or as it was saved
 * @param {import('../view/index.js').Format} format
 * @param {import('../view/index.js').Stream} [stream]  where it goes: its width and whether it takes color
 * @param {{ verbose?: boolean }} [options]
 */
export const render = (document, format, stream = process.stdout, { verbose = false } = {}) =>
  renderModels(document, (width) => modelsOf(document, { verbose, width }), format, stream);

/**
 * One saved file as its run printed it.
 * @param {import('../saved/load.js').Saved} saved
 * @param {'terminal'|'markdown'} format
 * @param {import('../view/index.js').Stream} stream
 * @param {{ verbose?: boolean }} [options]  the whole text rather than the answer
 */
export function renderSaved({ kind, path, document }, format, stream, { verbose = false } = {}) {
  if (kind.print) return kind.print(document, format, stream, { verbose, path });
  return renderModels(document, (width) => kind.models(document, { verbose, width, path }), format, stream);
}
