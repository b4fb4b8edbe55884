// reproduce's options, declared once: the command line reads them, and a kept run's are
// checked by them (options.js).
import { THP_PATH } from '../../system/environment.js';
import { defaultRestoreFile } from '../../system/thp-file.js';
import { ROUNDS } from './bounds.js';
import { DEFAULTS } from '../../run/defaults.js';
import { PROTOCOL_CHOICES } from './protocols.js';
import { COMMON, EXPORT, fixturesOption, forceOption, nodeOption, timeoutOption } from '../../core/options.js';
import { percent, positiveInteger, positiveNumber } from '../../words/vocabulary.js';

const flag = (/** @type {string} */ describe, more = {}) => ({
  kind: /** @type {const} */ ('flag'),
  describe,
  ...more,
});
const RESUME = /** @type {const} */ (['resume']);
const GIVEN_AGAIN = /** @type {const} */ (['resume', 'again']);

export const SPECS = {
  ...COMMON,
  list: flag('list the experiments: the claim each tests, what it needs, whether it runs here, estimated time', {
    conflicts: ['resume'],
  }),
  quick: flag('short cells and 2 rounds: every experiment in about a minute on 2 cores (smoke; decides little)', {
    conflicts: ['rounds', 'duration'],
  }),
  smoke: flag('', { hidden: true, conflicts: ['rounds', 'duration'] }),
  k: {
    takes: 'count',
    describe: 'workers or processes side by side (default: the published 8, or the number of CPUs if fewer)',
    read: positiveInteger('-k'),
  },
  rounds: {
    takes: 'count',
    describe: `run exactly this many rounds per experiment (default: ${ROUNDS.min}, then more until every claim is decided, or within --precision)`,
    read: positiveInteger('--rounds'),
  },
  precision: {
    takes: 'percent',
    describe:
      "add rounds until every claim's interval is within ± this, rather than until every claim is decided (the default)",
    read: percent('--precision'),
    conflicts: ['rounds'],
  },
  maxRounds: {
    takes: 'count',
    describe: `most rounds an undecided experiment gets (default: ${ROUNDS.max})`,
    read: positiveInteger('--max-rounds'),
  },
  duration: {
    takes: 'seconds',
    describe: `target seconds per cell (default: ${DEFAULTS.duration})`,
    read: positiveNumber('--duration'),
  },
  protocol: {
    takes: 'name',
    describe:
      "fresh: warm cells of --duration, the investigation's claims decided on each worker's first 2,000 ops and shown once warm beside; steady: warm only; published: 2,000 iterations, no warmup, as the investigation ran them; both: published and steady cells, each claim under each (default: fresh)",
    choices: PROTOCOL_CHOICES,
  },
  timeout: timeoutOption,
  force: forceOption(),
  node: nodeOption,
  // what may be given with --resume (tagged `resume`; the rest shape the measurement, which the
  // results file keeps), and what the file may not choose alone (`again`: option-spec.js, Tag)
  out: {
    takes: 'dir',
    describe: 'folder for REPORT.md and the results file (default: ./mmapbench-reproduce)',
    tags: RESUME,
  },
  resume: {
    takes: 'file',
    describe:
      'continue the run whose results file this is (a .json, or the .jsonl of an earlier mmapbench), with the options it was started with',
    tags: RESUME,
  },
  jemalloc: {
    takes: 'path',
    describe:
      'path of libjemalloc.so for the jemalloc experiment (default: found with ldconfig -p or in the usual paths)',
    tags: GIVEN_AGAIN,
  },
  thpPath: {
    takes: 'path',
    describe: `the THP setting file the thp experiment changes, a stand-in for tests (default: ${THP_PATH})`,
    tags: GIVEN_AGAIN,
    default: THP_PATH,
  },
  thpRestoreFile: {
    takes: 'file',
    describe: `where the original THP mode is kept while it is changed (default: ${defaultRestoreFile()})`,
    tags: RESUME,
  },
  fixturesDir: fixturesOption,
  markdown: flag('print the report as markdown (REPORT.md is always markdown)', { tags: RESUME }),
  ...EXPORT,
};
