// Where results are saved when --out does not say: read by the command line's help and checks,
// apart from the saving itself, which loads only when a run saves.

/** The folder results are saved in by default, relative to where mmapbench runs. */
export const DEFAULT_OUT = 'mmapbench-results';
/** $MMAPBENCH_RESULTS, else DEFAULT_OUT. */
export const defaultOut = () => process.env.MMAPBENCH_RESULTS || DEFAULT_OUT;
