// A plain workerpool app's worker script: registers plain-task.js's pool task, through the
// workerpool the plain app resolved, named in the environment its workers inherit (build.js).
import { createRequire } from 'node:module';
import plainTask from './plain-task.js';

const workerpool = createRequire(import.meta.url)(/** @type {string} */ (process.env.MMAPBENCH_POOL_MODULE));
workerpool.worker({ run: plainTask });
