// A compare, workers or procs run (a traced compare too): one point, its trade-off, its answer.
import { compareAnswer } from './answer.js';
import { traceAnswer } from '../trace/model.js';
import { compareModel, singleModel } from './model.js';
import { traceModel } from '../trace/model.js';
import { measurePoints, pointView, RUN_FIELDS } from '../../document/points-of.js';

/** @typedef {import('../../document/document.js').MeasureDocument} Document */

/** @param {import('../../document/document.js').ResultsDocument} document  its view */
const whole = (document) => [
  document.command === 'compare' ? compareModel(document) : singleModel(/** @type {any} */ (document)),
  ...(document.trace ? [traceModel(/** @type {any} */ (document))] : []),
];

/** @type {import('../../view/kind.js').Kind} */
export default {
  name: 'compare',
  commands: ['compare', 'workers', 'procs'],
  ...RUN_FIELDS,
  nodes: (/** @type {Document} */ document) => document.environment.node.version,
  tasks: (/** @type {Document} */ document) => document.config.task.name,
  title: (/** @type {Document} */ document) =>
    `${document.command} ${document.config.task.name}, k=${document.config.k}`,
  points: measurePoints,
  // a workers or procs run has no answer of its own: its table is the answer
  models: (/** @type {Document} */ saved, { verbose }) => {
    const document = pointView(saved);
    return verbose || document.command !== 'compare'
      ? whole(document)
      : [compareAnswer(document), ...(document.trace ? [traceAnswer(/** @type {any} */ (document))] : [])];
  },
  // the page's code (and its chart library) loads only when a page is drawn
  section: async ({ path, document }, shown) =>
    (await import('./html.js')).compareSection({ path, document: pointView(document) }, shown),
};
