// The points of a compare's and a sweep's document (points/points.js: the one model every reader
// shares), read the same way from a run that has just finished and from its saved file.
import { MODES } from '../words/spelling.js';
import { pointOf } from '../points/points.js';

/** @typedef {import('../points/points.js').Point} Point @typedef {import('../points/points.js').Round} Round */

/**
 * The cells of a measure document's rounds (one mode or both), and their plain trees.
 * @param {import('../document/document.js').SavedRound[]} rounds
 * @returns {Round[]}
 */
const roundsOf = (rounds) =>
  rounds
    // a pilot round ran other work (it sized the cells): it counts in no figure, here neither
    .filter((round) => !round.pilot)
    .map((round) => ({
      ...Object.fromEntries(MODES.map((mode) => [mode, round[mode]])),
      // the plain trees beside its cells, where the run had them (a measure they read is theirs)
      ...(round.plain ? { plain: round.plain } : {}),
    }));

/**
 * A compare, workers or procs document read as its one point with the run around it: the flat
 * view every reader of such a run's figures takes (the answer, the tables, the page, the diff),
 * as a sweep's reader takes one of its points with the sweep around it.
 * @param {import('../document/document.js').MeasureDocument} document
 * @returns {import('../document/document.js').ResultsDocument}
 */
export const pointView = ({ points, order, ...run }) => /** @type {any} */ ({ ...run, ...points[0] });

/**
 * What a run concluded of a point, as every measuring command saves it (buildPoint in
 * commands/compare/document.js).
 * @param {string} id
 * @param {Pick<import('../document/document.js').ResultsDocument, 'ratio' | 'account' | 'phases' | 'seconds' | 'workers' | 'procs' | 'measures'>} saved
 */
const concluded = (id, saved) => ({
  id,
  ratio: saved.ratio ?? null,
  account: saved.account ?? null,
  phases: saved.phases ?? null,
  seconds: saved.seconds,
  summary: { workers: saved.workers, procs: saved.procs },
  measureRatios: saved.measures,
});

/**
 * The point of a compare, workers or procs document, read through its view (pointView).
 * @param {import('../document/document.js').ResultsDocument} document
 * @returns {Point[]}
 */
export const viewPoints = (document) => {
  const { config } = document;
  return [
    pointOf(
      {
        task: config.task.name,
        file: config.file,
        k: config.k,
        env: config.env,
        params: config.params,
        cycles: config.end?.cycles,
        pool: document.pool ?? null,
      },
      roundsOf(document.rounds),
      concluded('p1', document),
    ),
  ];
};

/**
 * The point of a compare, workers or procs document.
 * @param {import('../document/document.js').MeasureDocument} saved
 */
export const measurePoints = (saved) => viewPoints(pointView(saved));

/**
 * The points of a sweep or advise document (its points as the sweep's document saves them).
 * @param {{ axes: { node: unknown[], variant: unknown[] }, points: any[] }} document
 * @returns {Point[]}
 */
export const sweepPoints = ({ axes, points }) =>
  points.map((point) =>
    pointOf(
      {
        task: point.task,
        file: point.file,
        k: point.k,
        env: point.config.env,
        params: point.params,
        // two Nodes in one sweep are two points; otherwise the Node is what a diff compares
        node: axes.node.length > 1 ? point.node.version : null,
        variant: axes.variant.length > 1 ? point.variant.name : null,
        cycles: point.cycles,
        pool: point.pool ?? null,
      },
      roundsOf(point.rounds),
      concluded(point.id, point),
    ),
  );

/**
 * What every document laid out with points (a compare's, a sweep's, an advise's) answers alike,
 * where each keeps it: its command, its machine, its status and its run's settings, and no
 * refusal to resume.
 * @type {{ command: (document: any) => string, environment: (document: any) => any, status: (document: any) => string,
 *   settings: (document: any) => any, resumeWith: () => null, noRounds: null }}
 */
export const RUN_FIELDS = {
  command: (document) => document.command,
  environment: (document) => document.environment,
  status: (document) => document.status,
  settings: (document) => document.config,
  resumeWith: () => null,
  noRounds: null,
};
