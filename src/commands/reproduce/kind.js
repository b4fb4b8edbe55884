// A reproduce run's results document: its options, the machine, a record per calibration and
// finished cell, the experiments it skipped, and how it ended.
import { reproduceAnswer, reproducePoints, savedReportModels } from './models.js';
import { statusSentence } from '../../document/status-words.js';

/**
 * @typedef {import('./types.js').ReproduceDocument} Document
 */

/** @type {import('../../view/kind.js').Kind} */
export default {
  name: 'reproduce',
  commands: ['reproduce'],
  command: () => 'reproduce',
  environment: (/** @type {Document} */ { environment }) => environment,
  status: statusSentence,
  settings: (/** @type {Document} */ { options }) => options,
  nodes: (/** @type {Document} */ { environment }) => environment.node.version,
  tasks: () => null,
  title: () => 'reproduce',
  resumeWith: () => null,
  points: reproducePoints,
  noRounds: null,
  // the answer is every claim's verdict; --verbose the whole report, as REPORT.md has it
  models: (document, { verbose, path }) =>
    verbose ? savedReportModels(document, path) : reproduceAnswer(savedReportModels(document, path)),
  // the page's code (and its chart library) loads only when a page is drawn
  section: async (saved, shown) => (await import('./html.js')).reproduceSection(saved, shown),
};
