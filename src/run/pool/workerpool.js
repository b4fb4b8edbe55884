// A workerpool worker's script: registers work.js's pool task, through the workerpool the host
// resolved (the user's, or mmapbench's own), named in the environment it gave its workers.
import { createRequire } from 'node:module';
import { poolTask } from './work.js';

const workerpool = createRequire(import.meta.url)(/** @type {string} */ (process.env.MMAPBENCH_POOL_MODULE));
workerpool.worker({ run: poolTask });
