// Reads results back: a document a command saved (or printed with --json), or a reproduce run
// an earlier mmapbench saved as lines. A file is data: it is checked before anything reads it, and
// a bad one is a one-line usage error naming the file and the fix.
import { usageError } from '../errors.js';
import { readUserFile } from '../system/safe-fs.js';
import { MAX_RESULTS_BYTES } from './out.js';
import { machineFacts } from '../document/machine-facts.js';
import { changedFile, firstBadField, MAX_DEPTH, nestsDeeperThan, printable, quoted } from './validate.js';
import { firstInconsistency } from './relations.js';
import { checkSchema, fromReproduceLines, upgraded } from './migrate.js';

/**
 * What every reader of a saved file asks of its kind, answered once per kind (each command's
 * `kind.js`, which adds how each is shown). Every function takes the document as the command saved it,
 * from a live run or from its file alike.
 * @typedef {object} FileKind
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
 */

/**
 * A saved file: its kind, where it is, and its document, as the command saved it.
 * @template {FileKind} [K=FileKind]
 * @typedef {{ kind: K, path: string, document: any }} Saved
 */

/**
 * @param {string} path
 * @param {string} what  how the command names the file in its messages (e.g. `diff BASE`)
 * @template {FileKind} K
 * @param {K[]} kinds  the kinds of saved file there are (src/commands/index.js)
 * @returns {Saved<K>}
 */
export function readSaved(path, what, kinds) {
  const text = readUserFile(path, MAX_RESULTS_BYTES, (problem, cause) =>
    usageError(`${what}: ${problem}; pass a results file mmapbench saved (in ./mmapbench-results by default)`, cause),
  );
  const notOurs = (/** @type {string} */ why) =>
    usageError(
      `${what} is not an mmapbench results document (${why}); pass a file that compare, workers, procs, trace, sweep, advise or reproduce saved`,
    );
  // a reproduce run saved as lines, by an mmapbench before reproduce saved a document
  if (/^\{"type":"run"/.test(text))
    return { ...checkedDocument(fromReproduceLines(text, notOurs), what, kinds, notOurs), path };
  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw text.trimStart().startsWith('{')
      ? usageError(
          `${what} is cut off or damaged (${error.message}); a saved file is written whole, so pass the file as mmapbench saved it`,
        )
      : notOurs('not JSON');
  }
  return { ...checkedDocument(document, what, kinds, notOurs), path };
}

/**
 * Checks a document (parsed from a file, or given to the API) as a results file's is checked
 * before anything reads it, and returns its kind and the document in this mmapbench's layout
 * (a copy, when it was saved by an earlier one: migrate.js).
 * @template {FileKind} K
 * @param {any} document
 * @param {string} what  how the command names it in its messages
 * @param {K[]} kinds
 * @param {(why: string) => Error} notOurs
 * @returns {{ kind: K, document: any }}
 */
export function checkedDocument(document, what, kinds, notOurs) {
  if (nestsDeeperThan(document)) throw notOurs(`nested more than ${MAX_DEPTH} deep`);
  if (typeof document?.mmapbench !== 'string') throw notOurs('no "mmapbench" version field');
  checkSchema(document, what);
  const kind = kinds.find((one) => one.commands.includes(document.command));
  if (!kind) throw notOurs(`"command" is ${quoted(document.command)}`);
  const bad = firstBadField(document);
  if (bad) throw changedFile(what, bad);
  // what the layout of today always has, checked again once an earlier file is brought to it,
  // and how its fields agree, in that layout
  const today = upgraded(document);
  const missing = (today === document ? null : firstBadField(today)) ?? firstInconsistency(today);
  if (missing) throw changedFile(what, missing);
  return { kind, document: printable(today) };
}

/**
 * The facts of a run that can change its figures: its Node, its machine's, and how it measured.
 * @param {Saved} saved
 * @returns {Record<string, string>}
 */
export function factsOf(saved) {
  const { kind, document } = saved;
  const { protocol, quick } = kind.settings(document);
  return {
    Node: kind.nodes(document),
    ...machineFacts(kind.environment(document)),
    protocol: protocol ?? 'steady',
    '--quick': quick ? 'yes (not a measurement)' : 'no',
  };
}

/**
 * The points of a saved file; `what` a command does with them, for the error on a file that has
 * none (an audit).
 * @param {Saved} saved
 * @returns {import('../points/points.js').Point[]}
 */
export function pointsOf(saved, what = 'diff') {
  const { noRounds, points } = saved.kind;
  if (!points)
    throw usageError(
      `${saved.path} is ${noRounds}: it has no workers/procs rounds to ${what}; ${what} compare, sweep or reproduce results`,
    );
  return points(saved.document);
}
