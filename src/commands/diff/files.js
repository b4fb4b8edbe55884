// `mmapbench diff BASE NEW`: what changed between two saved runs (document.js builds it from
// their points and machine facts, read here from the files).
import { usageError } from '../../errors.js';
import { factsOf, pointsOf } from '../../saved/load.js';
import { diffDocument } from './document.js';

/** @typedef {import('../../saved/load.js').Saved} Saved */

/**
 * The diff document (commands/diff/document.js) of two saved files: their points and machine facts.
 * @param {import('../../saved/load.js').Saved} base
 * @param {import('../../saved/load.js').Saved} next
 */
export function diffResults(base, next) {
  return diffDocument(
    { run: runOf(base), points: pointsOf(base), facts: factsOf(base), fault: faultOf(base) },
    { run: runOf(next), points: pointsOf(next), facts: factsOf(next), fault: faultOf(next) },
  );
}

/**
 * Two runs a gate may compare: the same command, and the same task (a sweep: the same tasks).
 * Anything else is a usage error, since a gate would judge the change of setting, not of code.
 * @param {import('../../saved/load.js').Saved} base
 * @param {import('../../saved/load.js').Saved} next
 */
export function sameKind(base, next) {
  const [baseCommand, newCommand] = [commandOf(base), commandOf(next)];
  if (baseCommand !== newCommand)
    throw usageError(
      `a diff gate needs two runs of one command: ${base.path} is a ${baseCommand}, ${next.path} a ${newCommand}; gate two ${newCommand} runs`,
    );
  const tasks = (/** @type {Saved} */ saved) => saved.kind.tasks(saved.document);
  if (tasks(base) !== tasks(next))
    throw usageError(
      `a diff gate needs two runs of one task: ${base.path} ran ${tasks(base)}, ${next.path} ran ${tasks(next)}; gate two runs of the same task`,
    );
}

/** @param {Saved} saved */
const commandOf = (saved) => saved.kind.command(saved.document);
/**
 * A run as the diff names it: its file, command and date, and its status when it did not
 * finish (a kept file of a killed run, an interrupted or failed one), so the reader knows.
 * @param {Saved} saved
 */
const runOf = ({ kind, path, document }) => {
  const status = kind.status(document);
  return {
    path,
    command: kind.command(document),
    date: kind.environment(document).date,
    ...(status === 'complete' ? {} : { status }),
  };
};

/**
 * A compare's fault round (--fault), with its k; null for any other run.
 * @param {Saved} saved
 * @returns {{ round: import('../../run/fault-cell.js').FaultRound, k: number } | null}
 */
const faultOf = ({ kind, document }) => {
  const fault = kind.name === 'compare' ? document.points[0].fault : null;
  return fault ? { round: fault, k: Number(document.config.k) } : null;
};
