// What one kind of saved file answers, as a type: kept apart from the list of kinds (index.js),
// so each kind's module names it without importing the list that imports it.

/**
 * One kind of saved file. Every function takes the document as the command saved it, from a
 * live run or from its file alike.
 * @typedef {import('../saved/load.js').FileKind & KindShown} Kind
 * @typedef {object} KindShown  how it is shown
 * @property {(document: any, options: Shown) => import('../words/report-model.js').ReportModel[]} models
 *   the tables it prints as: its answer, or with `verbose` its whole text (the report page's too)
 * @property {(saved: import('../saved/load.js').Saved<Kind>, shown: { facts: Record<string, string>, models: import('../words/report-model.js').ReportModel[] }) => Promise<import('./html-page.js').Section>} section
 *   its section of the report page
 */

/**
 * How a document is shown: its answer or (verbose) its whole text, at a width; path: the file it
 * was read from, or `this run`.
 * @typedef {{ verbose: boolean, width: number, path: string }} Shown
 */

export {};
