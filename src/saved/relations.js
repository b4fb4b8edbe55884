// What a results file's schema cannot say: fields that are each of the right type but do not
// agree with each other (a split of the rounds' spread whose shares add up to 1.8, a schedule read
// after round 0 from 50 rounds). Each is checked where a reader computes from it, so an edited
// file is refused naming the field, never printed as "rounds -7-0".
import { fileURLToPath } from 'node:url';
import { quoted } from './validate.js';
import { SCALES } from '../stats/noise.js';
import { MARGIN, verdictOf } from '../stats/sequential.js';

/** Shares that must add up to 1, as saved (rounded by nothing, so a rounding's room is enough). */
const addsUp = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a + b - 1) <= 1e-6;

/**
 * What is wrong with a kept task module's address, or null: a user's task is a file on this
 * machine, kept as a `file:` URL without a host (readers turn it back into a path).
 * @param {unknown} module
 */
function moduleProblem(module) {
  if (typeof module !== 'string') return `is ${quoted(module)}, not a file: URL`;
  try {
    const url = new URL(module);
    if (url.protocol !== 'file:') return `is ${quoted(module)}, a ${url.protocol} URL, not a file: URL`;
    fileURLToPath(url);
    return null;
  } catch {
    return `is ${quoted(module)}, not a file: URL of this machine`;
  }
}

/**
 * The first relation a point's task breaks, in words, or null: a user's task (builtin false)
 * names its module as a local file URL.
 * @param {any} config
 * @param {string} at
 */
function taskInconsistency(config, at) {
  const task = config?.task;
  if (!task || typeof task !== 'object' || task.builtin !== false) return null;
  const problem = moduleProblem(task.module);
  return problem && `${at}config.task.module ${problem}; a user's task is kept as the file: URL of its module`;
}

/** Two figures equal but for the last bits of their arithmetic. */
const same = (/** @type {number} */ a, /** @type {number} */ b) =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The first relation a point's verdict breaks, in words, or null: a verdict is read from the
 * rounds' ratios by one rule (stats/sequential.js), so its outcome and interval are those its
 * ratios give at its look and margin, and rounds that have a ratio have a verdict.
 * @param {any} point
 * @param {string} at
 */
function verdictInconsistency(point, at) {
  const { ratio, verdict } = point;
  const samples = ratio?.samples;
  if (!Array.isArray(samples) || !samples.length) return null;
  if (verdict === null || verdict === undefined)
    return `${at}verdict is ${quoted(verdict)}, but ${at}ratio has ${samples.length} rounds' ratios, from which a verdict is read`;
  // a verdict from before outcomes is its sentence as saved
  if (!verdict.outcome || !verdict.look) return null;
  const read = verdictOf(samples, { look: verdict.look, margin: verdict.margin ?? MARGIN });
  const interval = (/** @type {[number, number] | null} */ pair) =>
    pair ? `[${pair.map((end) => Number(end.toPrecision(4))).join(', ')}]` : 'null';
  const sameInterval =
    read.interval === null
      ? verdict.interval === null || verdict.interval === undefined
      : Array.isArray(verdict.interval) &&
        same(verdict.interval[0], read.interval[0]) &&
        same(verdict.interval[1], read.interval[1]);
  if (!sameInterval)
    return `${at}verdict.interval ${interval(verdict.interval)} is not the ${interval(read.interval)} its ${samples.length} rounds' ratios give at look ${verdict.look}`;
  if (verdict.outcome !== read.outcome)
    return `${at}verdict.outcome ${quoted(verdict.outcome)} is not the ${quoted(read.outcome)} its interval ${interval(read.interval)} decides within ±${verdict.margin ?? MARGIN}`;
  return null;
}

/**
 * The first relation a point's noise split or schedule breaks, in words, or null.
 * @param {any} point  a compare's document, or a sweep's point
 * @param {string} at  the point's place in the file (`` or `points[2].`)
 * @returns {string | null}
 */
function pointInconsistency(point, at) {
  const task = taskInconsistency(point.config, at) ?? verdictInconsistency(point, at);
  if (task) return task;
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
  // a compare's task is its run's, beside its one point
  const task = document.config?.task && Array.isArray(document.points) ? taskInconsistency(document.config, '') : null;
  if (task) return task;
  if (Array.isArray(document.points)) {
    for (const [i, point] of document.points.entries()) {
      const found = pointInconsistency(point, `points[${i}].`);
      if (found) return found;
    }
    return null;
  }
  return document.config ? pointInconsistency(document, '') : null;
}
