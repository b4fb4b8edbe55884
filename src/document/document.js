// What a results document is: compare's (and each point of a sweep's), its rounds, its settings and
// its environment: types only, which every layer above reads. The builder is
// commands/compare/document.js.
/**
 * @typedef {import('../stats/ratio.js').Summary} Summary
 * @typedef {import('../stats/cell-summary.js').CellResult} CellResult
 * @typedef {import('../stats/histogram.js').Histogram} Histogram
 */

/**
 * @typedef {object} Config  what the run was asked and did
 * @property {{ name: string, builtin: boolean, module: string | null, metrics: Record<string, import('../tasks/index.js').TaskMetric>,
 *   parent?: boolean, readsFile?: false }} task  parent: its ops are round trips to the workers'
 *   parent (message); readsFile: false when its ops read no file (no header names one)
 * @property {Record<string, any>} params
 * @property {{ path: string, size: number, label: string }} file
 * @property {number} k
 * @property {boolean} [kDefault]  k was the default, one per usable CPU (absent when -k gave it)
 * @property {number | null} iterations  per worker, calibrated or given
 * @property {Partial<Record<'workers'|'procs', number>>} [iterationsByMode]  a task that talks to its
 *   parent, sized mode by mode: each mode's ops per worker
 * @property {number | null} duration
 * @property {import('../run/plan.js').Warmup | null} warmup  per worker, or 'steady': until the rate stops trending
 * @property {number | null} rounds  fixed by --rounds or --quick; null: stopped on precision or time
 * @property {number | null} precision  the target relative half-width, when --precision set one
 * @property {true} [sequential]  the rounds stopped once the verdict was decided (stats/sequential.js)
 * @property {number} [margin]  "equal" is within ± this (absent in a file from before it)
 * @property {number | null} maxTime  the wall-time budget in seconds, when not fixed
 * @property {Record<string, string>} env  the --env values
 * @property {string} node
 * @property {number} timeout
 * @property {'steady'|'published'} protocol  published: 2,000 iterations and no warmup, as the investigation measured
 * @property {boolean} quick
 * @property {boolean} trace
 * @property {number} [semiSpaceMb]  MiB of V8's semi-space in each worker (--semi-space)
 * @property {{ settleMs: number, cycles: number }} [end]  how each cell's parent ended its workers
 *   (--settle, --cycles)
 * @property {{ everyMs: number, size: number, aloneMs: number, request: 'default'|'task' } | null} [main]
 *   the app's own load on the parent's main thread while the workers ran (null: --main off;
 *   absent in a document from before it was measured)
 */

/**
 * @typedef {'workers'|'procs'} Mode
 * @typedef {import('../points/points.js').ModeSummary} ModeSummary
 * @typedef {import('../points/points.js').ModeHistogram} ModeHistogram
 * @typedef {object} SavedRound  one round as saved; a mode's cell is null when it did not finish
 * @property {number} index
 * @property {Mode[]} order
 * @property {boolean} complete
 * @property {true} [pilot]  it sized the cells after it and counts in no figure
 * @property {CellResult | null} [workers]
 * @property {CellResult | null} [procs]
 * @property {number} [ratio]  workers/procs, complete rounds of a compare
 * @property {Partial<Record<Mode, CellResult | null>>} [traced]  with --trace
 * @property {Partial<Record<Mode, import('../stats/trees.js').PlainTree>>} [plain]  the plain trees
 *   beside its cells (run/plain-tree.js), where the run had them
 * @typedef {ReturnType<typeof import('../system/environment.js').describeEnvironment>} Environment
 * @typedef {{ bpftrace: { path: string, version: string }, script: string, window: 'timed'|'cell',
 *   published: typeof import('../reference/published.js').MMAP_LOCK_WAITS } & ReturnType<typeof import('../trace/counts.js').traceResults>} TraceSection
 */

/**
 * A compare, workers or procs run's document as its readers see it (document/points-of.js
 * pointView): the run's fields and its one point's, side by side. The file keeps the point under
 * `points` (MeasureDocument).
 * @typedef {object} ResultsDocument
 * @property {string} mmapbench  its version
 * @property {number} schema  the layout's version (SCHEMA)
 * @property {'workers'|'procs'|'compare'} command
 * @property {'complete'|'failed'|'interrupted'|'incomplete'} status  incomplete: kept after a round
 *   of a run still going, or killed before it could finish
 * @property {import('../run/plan.js').MeasureOptions} [resume]  in a document that did not
 *   finish: the options it was started with, for --resume
 * @property {{ kind: string, message: string, worker: number | null } | null} error
 * @property {Config} config
 * @property {Environment} environment
 * @property {import('../run/calibrate.js').Calibration | null} calibration
 * @property {import('../run/scheduler.js').Sizing | null} sizing  how the first round sized the cells
 * @property {SavedRound[]} rounds
 * @property {ModeSummary | null} [workers]
 * @property {ModeSummary | null} [procs]
 * @property {'workers'|'procs'|null} aa  an A/A run: both arms ran this mode (workers = arm A, procs = arm B)
 * @property {'rounds'|'precision'|'decided'|'max-time'|'interrupted'|'failed'|'dropped'|'ordered'|null} stop  why the rounds stopped (dropped, ordered: an advise candidate's race)
 * @property {number} seconds  wall time of the run, calibration included
 * @property {import('../system/machine-load.js').MachineCheck | null} machine  the machine check before the first round
 * @property {(import('../stats/ratio.js').RatioStats & { halfWidth: number | null }) | null} [ratio]  compare only
 * @property {(import('../stats/sequential.js').Verdict & { text?: string }) | null} [verdict]  compare only;
 *   text: its sentence, in files saved before the sentences were drawn when shown (commands/compare/words.js)
 * @property {AppAlone} [appAlone]  the app alone, before its workers started (appAlone)
 * @property {Record<string, import('../stats/ratio.js').RatioStats>} [measures]  compare only: each
 *   measure beyond throughput (measures.js) as a workers/procs ratio, by its key
 * @property {string | null} [next]  what to run next, in files saved before it was drawn when shown
 * @property {NonNullable<ReturnType<typeof import('../stats/stopping.js').budgetShortfall>>} [shortBudget]  compare only: the
 *   --max-time budget ran out before an interval (fewer than 3 rounds counted); with none
 *   counted the ratio is null and the command exits 6
 * @property {import('./gate.js').Gate} [gate]  with --fail-below, on a complete run
 * @property {ReturnType<typeof import('../stats/account.js').accountResults> & { words?: import('./account-text.js').AccountWords }} [account]
 *   where each mode's time per op went (words: what that says, in files saved before it was
 *   drawn when shown)
 * @property {import('../stats/phases.js').PhasesSummary} [phases]  where a round's time went
 * @property {Partial<Record<Mode, import('../stats/spread.js').SpreadAttribution>>} [spread]  why
 *   the cells disagree: what each mode's log throughput goes with, cell by cell
 * @property {import('../stats/noise.js').NoiseSplit} [noise]  where the rounds' noise lives:
 *   between fresh trees or between windows of one, and the floor it sets (stats/noise.js)
 * @property {TraceSection} [trace]  with --trace
 * @property {{ name: string, version: string, from: string, runtimes: Record<Mode, string>,
 *   batch: number | null, batchGiven?: boolean, isolate: boolean, dispatch: Partial<Record<Mode, number | null>>,
 *   perTaskUs?: Partial<Record<Mode, number | null>> }} [pool]  with --pool:
 *   the pool the cells built (its version, and whose: the project's or mmapbench's), its two
 *   runtimes as the arms, the ops of a pool task (batchGiven: --batch set them), a fresh worker
 *   a task (isolate), and each mode's dispatch share and its time a pool task
 * @property {import('../run/fault-cell.js').FaultRound} [fault]  with --fault: what one failing
 *   worker took down in each mode, in a round after the measured ones
 */

/**
 * @typedef {{ cells: number, requests: number, p50Ns: number, p99Ns: number,
 *   lagP99Ns?: number, loopDelayP99Ns?: number, histogram: ModeHistogram }} AppAlone  lagP99Ns:
 *   the timer's lag, every cell's ticks pooled; loopDelayP99Ns: in a file saved before that, the
 *   median over cells of Node's loop delay monitor's p99
 */

/**
 * A measured point as every measuring command saves it (buildPoint): its figures and rounds.
 * @typedef {Pick<ResultsDocument, 'stop' | 'seconds' | 'workers' | 'procs' | 'ratio' | 'verdict' | 'measures' | 'account' | 'spread' | 'phases' | 'noise'
 *   | 'calibration' | 'sizing' | 'rounds' | 'appAlone' | 'trace' | 'fault' | 'pool'> & Required<Pick<ResultsDocument, 'workers' | 'procs' | 'ratio' | 'verdict'>>} MeasuredPoint
 *   workers, procs, ratio, verdict: null where the run has none; a run of one mode (workers, procs)
 *   has neither the other mode's nor a ratio and a verdict
 */

/**
 * What a compare, workers or procs run saves and `--json` prints (docs/json.md): laid out as a
 * sweep's, its run's fields, the rounds' `order` and one point holding its figures and rounds.
 * @typedef {Pick<ResultsDocument, 'mmapbench' | 'schema' | 'command' | 'status' | 'resume' | 'error' | 'config' | 'environment' | 'aa' | 'seconds' | 'machine' | 'next' | 'shortBudget' | 'gate'>
 *   & { order: Array<{ index: number, points: string[] }>, points: Array<{ id: string } & MeasuredPoint> }} MeasureDocument
 */
