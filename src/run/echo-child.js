// The calibration's parent for a task that talks to its parent over a process's channel: a child
// that sends every message straight back (parent-channel.js, forkedParent), and ends with the
// channel.
process.on('message', (message) => process.send?.(message));
process.on('disconnect', () => process.exit(0));
