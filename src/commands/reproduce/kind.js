// A reproduce run's results file: its header, a record per cell and claim, and how it ended.
import { reproducePoints } from '../../saved/reproduce-file.js';
import { savedReportModels } from './models.js';
import { renderReproduce } from './list.js';

/**
 * @typedef {Pick<import('../../saved/reproduce-file.js').ResultsFile, 'header' | 'records' | 'end'>} Document
 */

// its models name the file it was read from
const modelsOf = (/** @type {Document} */ document, /** @type {string} */ path) =>
  savedReportModels({ ...document, path });

/** @type {import('../../view/kind.js').Kind} */
export default {
  name: 'reproduce',
  // its file is told apart by its first line (a run header), not by a command
  commands: [],
  command: () => 'reproduce',
  environment: (/** @type {Document} */ { header }) => header.environment,
  status: (/** @type {Document} */ { end }) => end?.status ?? 'incomplete',
  settings: (/** @type {Document} */ { header }) => header.options,
  nodes: (/** @type {Document} */ { header }) => header.environment.node.version,
  tasks: () => null,
  title: () => 'reproduce',
  resumeWith: () => "a reproduce run's results file; resume it with `mmapbench reproduce --resume`",
  points: reproducePoints,
  noRounds: null,
  models: (document, { path }) => modelsOf(document, path),
  print: (document, format, stream, { verbose, path }) =>
    renderReproduce(modelsOf(document, path), format, stream, { verbose }),
  // the page's code (and its chart library) loads only when a page is drawn
  section: async (saved, shown) => (await import('./html.js')).reproduceSection(saved, shown),
};
