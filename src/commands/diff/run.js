// `diff`: what changed between two saved runs, as a document, with its gate when one is asked.
import { usageError } from '../../errors.js';
import { loadSaved } from '../index.js';
import { diffResults, sameKind } from './files.js';
import { changeGate } from '../../document/gate.js';

/**
 * @param {string} basePath  the results file to compare against
 * @param {string} newPath  the results file that may have changed
 * @param {{ maxWorsening?: number, maxSlowdown?: number, failInconclusive?: boolean }} opts  from readOptions
 * @returns {ReturnType<typeof diffResults> & { gate?: import('../../document/gate.js').Gate }}
 */
export function diffFiles(basePath, newPath, opts) {
  const gated = opts.maxWorsening !== undefined || opts.maxSlowdown !== undefined;
  if (opts.failInconclusive && !gated)
    throw usageError('--fail-inconclusive needs a gate: add --max-worsening PERCENT or --max-slowdown PERCENT');
  const [base, next] = [loadSaved(basePath, `diff ${basePath}`), loadSaved(newPath, `diff ${newPath}`)];
  // a gate compares like with like: a different command or task is a mistake, not a change
  if (gated) sameKind(base, next);
  const diff = diffResults(base, next);
  const gate = gated
    ? changeGate(diff.points, {
        maxWorsening: opts.maxWorsening,
        maxSlowdown: opts.maxSlowdown,
        failInconclusive: Boolean(opts.failInconclusive),
        differences: diff.differences.map((difference) => difference.fact),
      })
    : null;
  return gate ? { ...diff, gate } : diff;
}
