// Entry point of one child process in procs mode: prepare, report ready, block until the
// parent's release message, run the timed loop, report, exit.
import { measure, prepare, serializeError } from './agent.js';

const [specJson, indexArg] = process.argv.slice(2);
const spec = JSON.parse(specJson);
const index = Number(indexArg);

// Without a parent there is nobody to release us or read the result.
process.on('disconnect', () => process.exit(0));
// Ctrl-C reaches the whole process group; the CLI decides how the cell ends and reports it.
process.on('SIGINT', () => {});

try {
  const prepared = await prepare(spec, index, 'procs');
  const released = new Promise((resolve) => {
    process.on('message', function onMessage(message) {
      if (message?.type !== 'go') return;
      process.off('message', onMessage);
      resolve();
    });
  });
  process.send({ type: 'ready' });
  await released;
  const sample = await measure(prepared, spec.iterations);
  // Exit explicitly: a handle the task left open must not keep the cell alive.
  process.send({ type: 'result', samples: [sample] }, () => process.exit(0));
} catch (error) {
  process.send({ type: 'failed', worker: index, ...serializeError(error) }, () => process.exit(1));
}
