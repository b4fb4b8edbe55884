/**
 * JSON.stringify builds one large string and JSON.parse a tree of objects: both land in V8's
 * heap, whose pages come from mmap.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'json',
  description: 'JSON.parse(JSON.stringify(object)) per op, the object ~--size bytes as JSON',
  readsFile: false,
  reference:
    'platformatic/node-worker-mmap-lock-contention, Scope: JSON.parse/stringify of large objects allocate through the same path; no figure of its own',
  params: {
    size: { description: 'approximate bytes of the JSON text (accepts 64k, 1m)', type: 'size', default: 64 * 1024 },
  },
  setup(ctx) {
    const items = [];
    let bytes = 2;
    for (let i = 0; bytes < ctx.params.size; i++) {
      const item = { id: i, name: `item-${i}`, tags: ['a', 'b', String(i % 10)], price: i * 1.25, active: i % 2 === 0 };
      items.push(item);
      bytes += JSON.stringify(item).length + 1;
    }
    ctx.state.object = { items };
  },
  run(ctx, iterations) {
    const { object } = ctx.state;
    let count = 0;
    for (let i = 0; i < iterations; i++) count += JSON.parse(JSON.stringify(object)).items.length;
    ctx.state.count = count;
  },
});
