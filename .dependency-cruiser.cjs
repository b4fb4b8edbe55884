// The layers of src/, highest first: a module may import its own folder and any folder below
// it, never one above (see docs/development.md for what lives where). `npm run lint` checks it.
const LAYERS = [
  ['cli'], // the shell: argv to a command (each command's yargs module), what it prints, exit codes
  // a folder a command (its core, document, tables and text, saved kind, HTML section): a
  // command's folder may use another's (advise runs on sweep's, trace on compare's), without a cycle
  ['commands'],
  ['core'], // what every command runs on: the option table, the run loop, the end of a run
  ['view'], // models to text, markdown, JSON and HTML: tables and a first screen's fit, charts, the page, progress
  ['saved'], // files on disk: save, load and check, resume, exports
  ['document'], // what a run saves: the document's builders, and the sentences its figures make
  ['points'], // the one point model every reader shares, the measures, a point's name
  ['run'], // plan, rounds, cells, the hosts that run a task in a fresh process tree
  // what a cell runs; numbers in, numbers out; published figures; the kernel tracer (bpftrace)
  ['tasks', 'stats', 'reference', 'trace'],
  ['system'], // outside Node: environment, THP, bpftrace, files, locks, child processes
  ['words', 'errors.js', 'escape.js', 'version.js'], // how things are spelled; the one error class; text made safe to show; versions
];

const path = (names) => `^src/(${names.map((name) => name.replace('.', '\\.')).join('|')})(/|$)`;

module.exports = {
  forbidden: [
    ...LAYERS.slice(1).map((names, index) => ({
      name: `${names.join('-').replaceAll('.js', '')}-looks-down`,
      comment: `${names.join(', ')} may import only what lies below it: ${LAYERS.slice(index + 2)
        .flat()
        .join(', ')}`,
      severity: 'error',
      from: { path: path(names) },
      to: { path: path(LAYERS.slice(0, index + 1).flat()) },
    })),
    {
      name: 'no-circular',
      comment: 'a cycle makes two modules one: neither can be read, tested or moved alone',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-test-or-scripts',
      comment: 'the program never imports its tests or scripts',
      severity: 'error',
      from: { path: '^(src|bin)/' },
      to: { path: '^(test|scripts)/' },
    },
    {
      name: 'bin-only-to-cli',
      comment: 'bin/ parses, dispatches and catches; what it runs is in src/cli',
      severity: 'error',
      from: { path: '^bin/' },
      to: { path: '^src/', pathNot: '^src/(cli/|errors\\.js$|system/children\\.js$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|scripts|examples|docs)/' },
    moduleSystems: ['es6', 'cjs'],
    // a type a JSDoc comment imports (`import('../words/report-model.js').ReportModel`) ties two
    // modules as an import does: the layers and cycles count it
    detectJSDocImports: true,
  },
};
