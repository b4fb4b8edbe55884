/**
 * Every cell a run finished: a compare's rounds', or a sweep's points' rounds'.
 * @param {object} document  a results document, or one being built
 * @returns {Array<Record<string, any>>}
 */
const cellsIn = (document) =>
  /** @type {Array<{ rounds?: Array<Record<string, any>> }>} */ (
    'points' in document && Array.isArray(document.points) ? document.points : [document]
  )
    .flatMap((part) => part.rounds ?? [])
    .flatMap((round) => [round.workers, round.procs].filter(Boolean));

/**
 * Whether any cell of a run finished. A run that measured nothing is not saved, so nothing says
 * how to go on with it.
 * @param {object} document
 */
export const measuredIn = (document) => cellsIn(document).length > 0;

/**
 * What a run's task left running when its cells ended (and mmapbench killed), in a line; null
 * when it left nothing.
 * @param {object} document
 * @returns {string | null}
 */
export function straysText(document) {
  const cells = cellsIn(document).filter((cell) => cell.strays);
  if (!cells.length) return null;
  const processes = cells.reduce((sum, cell) => sum + cell.strays, 0);
  return `the task left ${processes} process${processes === 1 ? '' : 'es'} running when ${cells.length === 1 ? 'its cell' : `${cells.length} of its cells`} ended; mmapbench killed them: end the processes a task starts in its teardown`;
}
