// Where results are saved when --out does not say: read by the command line's help and checks,
// apart from the saving itself, which loads only when a run saves.

/** The folder results are saved in by default, relative to where mmapbench runs. */
export const DEFAULT_OUT = 'mmapbench-results';
/** $MMAPBENCH_RESULTS, else DEFAULT_OUT. */
export const defaultOut = () => process.env.MMAPBENCH_RESULTS || DEFAULT_OUT;

/**
 * The most a results file may hold, to be read back: about 10 KB a round, so tens of thousands
 * of rounds, far beyond any run's; past it a file is not one mmapbench wrote, and parsing it
 * would take gigabytes of the CLI's memory.
 */
export const MAX_RESULTS_BYTES = 256 * 1024 ** 2;
