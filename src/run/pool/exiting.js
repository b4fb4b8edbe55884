// The channel on which a pool's thread says it is exiting (process.exit in the task, work.js):
// tinypool's and piscina's threads end without settling the task they ran, so their host
// (host.js) would wait out --timeout; a thread the pool ends (terminate) says nothing. Its own
// file: the host loads nothing of the workers' code.
export const EXITING = 'mmapbench-pool-exiting';
