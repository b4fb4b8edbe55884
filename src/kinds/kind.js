// What one kind of saved file answers, as a type: kept apart from the list of kinds (index.js),
// so each kind's module names it without importing the list that imports it.

/**
 * One kind of saved file. Every function takes the document as the command saved it (a
 * reproduce run's: its header, records and end), from a live run or from its file alike.
 * @typedef {object} Kind
 * @property {string} name
 * @property {string[]} commands  the commands whose documents are of this kind
 * @property {(document: any) => string} command  the command that wrote it
 * @property {(document: any) => import('../document/document.js').Environment} environment  its machine
 * @property {(document: any) => string} status  `complete`, or how it did not finish
 * @property {(document: any) => { protocol?: string, quick?: boolean }} settings  what changes its figures
 * @property {(document: any) => string} nodes  the Node versions it ran
 * @property {(document: any) => string | null} tasks  the tasks it ran, for a gate; null: not gated
 * @property {(document: any) => string} title  the run in a few words, as a step summary heads it
 * @property {(document: any) => string | null} resumeWith  how to go on with it when `--resume` of
 *   a measuring command cannot; null: it can
 * @property {((document: any) => import('../points/points.js').Point[]) | null} points  its
 *   workers/procs points; null for a kind that has none (noRounds says why)
 * @property {string | null} noRounds  why it has no workers/procs rounds, or null
 * @property {(document: any, options: Shown) => import('../words/report-model.js').ReportModel[]} models
 *   the tables it prints as: its answer, or with `verbose` its whole text (the report page's too)
 * @property {((document: any, format: 'terminal'|'markdown', stream: import('../view/index.js').Stream, options: Omit<Shown, 'width'>) => string)} [print]
 *   how it prints when that is not its models one after another (a reproduce run's report)
 * @property {(saved: import('../saved/load.js').Saved, shown: { facts: Record<string, string>, models: import('../words/report-model.js').ReportModel[] }) => Promise<import('../view/html-page.js').Section>} section
 *   its section of the report page
 */

/**
 * How a document is shown: its answer or (verbose) its whole text, at a width; path: the file it
 * was read from, or `this run`.
 * @typedef {{ verbose: boolean, width: number, path: string }} Shown
 */

export {};
