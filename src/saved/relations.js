// What a results file's schema cannot say: fields that are each of the right type but do not
// agree with each other (a split of the rounds' spread whose shares add up to 1.8, a schedule read
// after round 0 from 50 rounds). Each is checked where a reader computes from it, so an edited
// file is refused naming the field, never printed as "rounds -7-0".
import { quoted } from './validate.js';
import { SCALES } from '../stats/noise.js';

/** Shares that must add up to 1, as saved (rounded by nothing, so a rounding's room is enough). */
const addsUp = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a + b - 1) <= 1e-6;

/**
 * The first relation a point's noise split or schedule breaks, in words, or null.
 * @param {any} point  a compare's document, or a sweep's point
 * @param {string} at  the point's place in the file (`` or `points[2].`)
 * @returns {string | null}
 */
function pointInconsistency(point, at) {
  const { noise, sizing } = point;
  if (noise) {
    if (!addsUp(noise.trees, noise.windows))
      return `${at}noise.trees ${noise.trees} and noise.windows ${noise.windows} are the shares of one spread, so they add up to 1`;
    if (noise.floor) {
      if (!SCALES.includes(noise.floor.scale))
        return `${at}noise.floor.scale must be one of the window lengths it is sought among, ${SCALES.join(', ')} (it is ${quoted(noise.floor.scale)})`;
      // the floor is the fastest of the window lengths, this run's (scale 1) among them
      if (noise.seconds !== null && noise.floor.seconds > noise.seconds)
        return `${at}noise.floor.seconds ${noise.floor.seconds} is more than noise.seconds ${noise.seconds}, the time at this run's window, one of those the floor is the least of`;
    }
  }
  const scheduled = sizing?.scheduled;
  if (scheduled) {
    if (scheduled.after < 1 || scheduled.rounds < 1 || scheduled.rounds > scheduled.after)
      return `${at}sizing.scheduled read ${scheduled.rounds} rounds after round ${scheduled.after}: it reads 1 or more rounds, none after the one it follows`;
    const last = Math.max(0, ...(point.rounds ?? []).map((/** @type {any} */ round) => round?.index ?? 0));
    if (point.rounds?.length && scheduled.after > last)
      return `${at}sizing.scheduled.after is round ${scheduled.after}, but the last round kept is ${last}`;
    if (!addsUp(scheduled.trees, scheduled.windows))
      return `${at}sizing.scheduled.trees ${scheduled.trees} and .windows ${scheduled.windows} are the shares of one spread, so they add up to 1`;
    if (!SCALES.includes(scheduled.scale))
      return `${at}sizing.scheduled.scale must be one of the window lengths it is chosen among, ${SCALES.join(', ')} (it is ${quoted(scheduled.scale)})`;
    if (scheduled.scale > 1 && scheduled.floorSeconds > scheduled.seconds)
      return `${at}sizing.scheduled.floorSeconds ${scheduled.floorSeconds} is more than its seconds ${scheduled.seconds}, though the longer window was chosen for being sooner`;
  }
  return null;
}

/**
 * The first relation between a results document's fields that it breaks, in words, or null.
 * @param {any} document  checked against the schema first
 * @returns {string | null}
 */
export function firstInconsistency(document) {
  if (Array.isArray(document.points)) {
    for (const [i, point] of document.points.entries()) {
      const found = pointInconsistency(point, `points[${i}].`);
      if (found) return found;
    }
    return null;
  }
  return document.config ? pointInconsistency(document, '') : null;
}
