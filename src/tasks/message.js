import { readUserFile } from '../system/safe-fs.js';
import { formatSize } from '../words/spelling.js';

/**
 * One round trip per op: the worker sends a message to its parent, whose main thread sends it
 * straight back, as a pool's job and its result. K workers share the one parent in both modes.
 */
/** @typedef {import('./index.js').Task} Task */

/**
 * The most a message may hold, and a file of messages: a message crosses the channel whole, in
 * every copy its mode makes (a process sends a Buffer as JSON text, over two characters a byte,
 * and V8's strings end at 512 MiB; a structured clone copies it each way), in each of K workers
 * at once. At 64 MiB one round trip of a Buffer between processes takes seconds and a few GiB.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 ** 2;

/** What an op can send (docs/tasks.md says what each is). */
const SHAPES = ['object', 'json', 'buffer', 'transfer', 'shared'];
// a process has no transfer list and no shared memory: the nearest it has
const NEAREST = '--shape buffer --serialization advanced (a copy, with no conversion to JSON)';

/**
 * A plain object whose JSON is about `bytes` long: rows of a small record, as a job's payload.
 * @param {number} bytes
 */
export function objectOf(bytes) {
  /** @type {Array<{ id: number, name: string, value: number, tags: string[] }>} */
  const rows = [];
  const object = { kind: 'job', rows };
  for (let length = 25; length < bytes;) {
    const row = { id: rows.length, name: `item-${rows.length}`, value: rows.length * 1.5, tags: ['a', 'b'] };
    rows.push(row);
    length += JSON.stringify(row).length + 1;
  }
  return object;
}

/** The deepest a message may nest: an app's own messages are far shallower. */
export const MAX_DEPTH = 1000;

/**
 * How deep the arrays and objects of JSON text nest, read without recursion (a file of 100,000
 * open brackets must not overflow the reader's own stack).
 * @param {string} text
 */
export function nestingOf(text) {
  let depth = 0;
  let most = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) most = Math.max(most, ++depth);
    else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
  }
  return most;
}

/**
 * A file of the user's own messages: a JSON array of them, one JSON value, or JSON lines.
 * @param {string} path
 * @returns {unknown[]}
 * @throws {Error} with the problem and the fix, when the file is missing, empty or not JSON
 */
export function readMessages(path) {
  const text = readUserFile(
    path,
    MAX_MESSAGE_BYTES,
    (problem) => new Error(`--message ${path}: ${problem}; pass a JSON or JSON-lines file of messages`),
  );
  const empty = () => new Error(`--message ${path} holds no message; put at least one message in it, as JSON`);
  if (!text.trim()) throw empty();
  const depth = nestingOf(text);
  // a message is cloned, serialized and parsed by recursion, in each mode: past some thousands
  // of levels that overflows a stack or hangs a worker
  if (depth > MAX_DEPTH)
    throw new Error(
      `--message ${path} nests ${depth} levels deep, more than the ${MAX_DEPTH} a message may (cloning or serializing it would overflow a stack); flatten it`,
    );
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined; // JSON lines: one message a line
  }
  if (value !== undefined) {
    if (Array.isArray(value) && !value.length) throw empty();
    return Array.isArray(value) ? value : [value];
  }
  const lines = text.split('\n').filter((line) => line.trim());
  return lines.map((line, i) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(
        `--message ${path} is neither JSON nor JSON lines (line ${i + 1} does not parse); pass a JSON array of messages, or one JSON message a line`,
      );
    }
  });
}

/**
 * advise's candidates for a message: the other ways to send it. Changing the shape changes the
 * user's code on both sides; the serialization is a fork option and applies to processes alone;
 * a transfer list and shared memory exist only between threads.
 * @param {Record<string, any>} params  resolved
 * @returns {import('./index.js').TaskFix[]}
 */
export function fixesFor(params) {
  /** @type {import('./index.js').TaskFix[]} */
  const fixes = [];
  if (params.message === undefined) {
    if (params.shape === 'object')
      fixes.push({
        name: 'send JSON text',
        params: { shape: 'json' },
        change: 'postMessage(JSON.stringify(job)) and JSON.parse on the other side, instead of the object',
      });
    if (params.shape === 'json')
      fixes.push({
        name: 'send the object',
        params: { shape: 'object' },
        change: 'postMessage(job) with the object itself, instead of its JSON text',
      });
    // a Buffer's bytes only: an object would first have to be encoded, which this would not time
    if (params.shape === 'buffer')
      fixes.push(
        {
          name: 'transfer',
          params: { shape: 'transfer' },
          mode: 'workers',
          change:
            'put the bytes in an ArrayBuffer and move it: postMessage(buf, [buf]) (threads only; the sender loses it until it comes back)',
        },
        {
          name: 'SharedArrayBuffer',
          params: { shape: 'shared' },
          mode: 'workers',
          change:
            'share a SharedArrayBuffer once, write the bytes into it and post only a number (threads only; the two sides must take turns)',
        },
      );
  }
  const other = params.serialization === 'json' ? 'advanced' : 'json';
  fixes.push({
    name: `serialization ${other}`,
    params: { serialization: other },
    mode: 'procs',
    change:
      other === 'advanced'
        ? "fork(module, { serialization: 'advanced' }): the structured clone, which sends a Buffer as bytes rather than as JSON"
        : "fork(module) with the default serialization, 'json'",
  });
  return fixes;
}

export default /** @satisfies {Task} */ ({
  name: 'message',
  description:
    "one round trip to the worker's parent per op: a message of --shape and --size (or --message FILE's) sent, and sent straight back by the parent's main thread",
  readsFile: false,
  reference:
    'rtfeldman/node-test-runner#674, nodejs/node#43657, nodejs/node#3145: the cost of talking to a worker depends on the message; no figure of its own',
  parent: true,
  fixesFor,
  params: {
    shape: {
      description:
        'what an op sends: object (rows of about --size bytes as JSON), json (the same as a string), buffer (copied), transfer (an ArrayBuffer moved; threads only), shared (a SharedArrayBuffer written, a number sent; threads only)',
      type: 'string',
      choices: SHAPES,
      default: 'object',
    },
    size: { description: 'bytes a message holds (accepts 100, 4k, 64k, 1m)', type: 'size', default: 100 },
    serialization: {
      description: "procs: fork's serialization, json (the default) or advanced (the structured clone)",
      type: 'string',
      choices: ['json', 'advanced'],
      default: 'json',
    },
    message: {
      description:
        'a JSON array, JSON value or JSON-lines file of your own messages, sent in turn instead of --shape (left out: --shape and --size)',
      type: 'path',
    },
  },
  /**
   * @param {Record<string, any>} params
   * @param {Array<'workers'|'procs'>} modes
   */
  checkParams(params, modes) {
    if (params.size > MAX_MESSAGE_BYTES)
      return `--size ${formatSize(params.size)} is more than a message may hold (${formatSize(MAX_MESSAGE_BYTES)}: each of K workers holds several copies of it, and a process's JSON channel cannot carry much more); pass --size ${formatSize(MAX_MESSAGE_BYTES).replace(' MiB', 'm')} or less`;
    if (params.message !== undefined) {
      try {
        readMessages(params.message);
      } catch (error) {
        return /** @type {Error} */ (error).message;
      }
      return null;
    }
    if (modes.includes('procs') && (params.shape === 'transfer' || params.shape === 'shared'))
      return `--shape ${params.shape} cannot cross a process (no ${params.shape === 'transfer' ? 'transfer list' : 'shared memory'} between processes); the nearest a process has is ${NEAREST}, or run \`mmapbench workers\` for threads alone`;
    return null;
  },
  setup(ctx) {
    const { params, state } = ctx;
    if (!ctx.parent) throw new Error('the message task needs a parent to talk to; mmapbench gives it one');
    if (params.message !== undefined) {
      state.messages = readMessages(params.message);
      state.next = 0;
      return;
    }
    const size = Math.max(1, params.size);
    if (params.shape === 'object') state.payload = objectOf(size);
    else if (params.shape === 'json') state.payload = JSON.stringify(objectOf(size));
    else if (params.shape === 'buffer') state.payload = Buffer.alloc(size, 7);
    else if (params.shape === 'transfer') state.payload = new ArrayBuffer(size);
    else {
      state.shared = new Uint8Array(new SharedArrayBuffer(size));
      // shared once, in setup: the parent holds the same memory from here on
      return ctx.parent.request(state.shared.buffer).then(() => {});
    }
  },
  async run(ctx, iterations) {
    const { params, state } = ctx;
    const parent = /** @type {import('./index.js').ParentChannel} */ (ctx.parent);
    if (state.messages) {
      for (let i = 0; i < iterations; i++) {
        await parent.request(state.messages[state.next]);
        state.next = (state.next + 1) % state.messages.length;
      }
    } else if (params.shape === 'transfer') {
      // moved there and back: the reply is the same memory, moved back
      for (let i = 0; i < iterations; i++) state.payload = await parent.request(state.payload, [state.payload]);
    } else if (params.shape === 'shared') {
      for (let i = 0; i < iterations; i++) {
        state.shared[i % state.shared.length] = i & 0xff;
        await parent.request(i);
      }
    } else for (let i = 0; i < iterations; i++) await parent.request(state.payload);
  },
});
