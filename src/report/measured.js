/**
 * Whether any cell of a run finished: a compare's rounds, or a sweep's points' rounds. A run
 * that measured nothing is not saved, so nothing says how to go on with it.
 * @param {object} document  a results document, or one being built
 */
export const measuredIn = (document) =>
  /** @type {Array<{ rounds?: Array<{ workers?: unknown, procs?: unknown }> }>} */ (
    'points' in document && Array.isArray(document.points) ? document.points : [document]
  ).some((part) => (part.rounds ?? []).some((round) => round.workers || round.procs));
