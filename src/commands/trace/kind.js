// An audit (trace --pid, trace -- COMMAND): one process tree's kernel waits, no workers/procs
// rounds. A traced compare is a compare.
import { auditModel } from './audit.js';

/** @typedef {import('./audit.js').AuditDocument} Document */

/** @type {import('../../view/kind.js').Kind} */
export default {
  name: 'audit',
  commands: ['trace'],
  command: () => 'trace',
  environment: (/** @type {Document} */ document) => document.environment,
  status: (/** @type {Document} */ document) => document.status,
  settings: () => ({}),
  nodes: (/** @type {Document} */ document) => document.environment.node.version,
  tasks: () => null,
  title: (/** @type {Document} */ document) => `trace pid ${document.target.pid}`,
  resumeWith: () => 'a trace audit; resume it with a new `mmapbench trace`',
  points: null,
  noRounds: 'an audit (trace --pid or trace -- COMMAND)',
  models: (/** @type {Document} */ document) => [auditModel(document)],
  // the page's code (and its chart library) loads only when a page is drawn
  section: async (saved, shown) => (await import('./html.js')).auditSection(saved, shown),
};
