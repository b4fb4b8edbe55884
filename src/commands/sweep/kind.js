// A sweep: a compare at every point of its axes.
import { sweepAnswer } from './model.js';
import { sweepModel } from './model.js';
import { RUN_FIELDS, sweepPoints } from '../../document/points-of.js';

/** @typedef {import('./document.js').SweepDocument} Document */

/** @type {import('../../view/kind.js').Kind} */
export default {
  name: 'sweep',
  commands: ['sweep'],
  ...RUN_FIELDS,
  nodes: (/** @type {Document} */ document) => document.axes.node.map((node) => node.version).join(', '),
  tasks: (/** @type {Document} */ document) => document.axes.task.join(','),
  title: (/** @type {Document} */ document) => document.command,
  points: sweepPoints,
  models: (/** @type {Document} */ document, { verbose, width }) =>
    verbose ? [sweepModel(document, { width })] : [sweepAnswer(document)],
  // the page's code (and its chart library) loads only when a page is drawn
  section: async (saved, shown) => (await import('./html.js')).sweepSection(saved, shown),
};
