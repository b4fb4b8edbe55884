// An advise run: a sweep of its candidates, with its ranking beside the points.
import { adviceAnswer } from './model.js';
import { adviceModel } from './model.js';
import { sweepModel } from '../sweep/model.js';
import sweep from '../sweep/kind.js';

/** @typedef {import('../sweep/document.js').SweepDocument} Document */

/** @type {import('../../view/kind.js').Kind} */
export default {
  ...sweep,
  name: 'advise',
  commands: ['advise'],
  // its ranking first
  models: (/** @type {Document} */ document, { verbose, width }) =>
    verbose
      ? [adviceModel(/** @type {any} */ (document)), sweepModel(document, { width })]
      : [adviceAnswer(/** @type {any} */ (document))],
};
