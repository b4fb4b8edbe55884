// An advise run: a sweep of its candidates, with its ranking beside the points.
import { adviceAnswer } from '../models/advice.js';
import { adviceModel } from '../models/advice.js';
import { sweepModel } from '../models/sweep.js';
import sweep from './sweep.js';

/** @typedef {import('../document/sweep.js').SweepDocument} Document */

/** @type {import('./kind.js').Kind} */
export default {
  ...sweep,
  name: 'advise',
  commands: ['advise'],
  resumeWith: () => 'an advise run, which does not go on: start a new `mmapbench advise`',
  // its ranking first
  models: (/** @type {Document} */ document, { verbose, width }) =>
    verbose
      ? [adviceModel(/** @type {any} */ (document)), sweepModel(document, { width })]
      : [adviceAnswer(/** @type {any} */ (document))],
};
