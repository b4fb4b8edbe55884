const PAGE = 64 * 1024; // WebAssembly page size

/**
 * WebAssembly.Memory.grow maps more address space (mmap/mprotect: the mmap_lock taken for
 * write); dropping the memory unmaps it when V8 collects it.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'wasm-grow',
  description: 'new WebAssembly.Memory, grown by --size, one byte per page written, then dropped, per op',
  readsFile: false,
  reference:
    'platformatic/node-worker-mmap-lock-contention, Scope: WebAssembly.Memory.grow is mmap/mremap and takes mmap_lock for write; no figure of its own',
  params: {
    size: {
      description: 'bytes to grow by, rounded up to 64 KiB pages (accepts 1m)',
      type: 'size',
      default: 1024 * 1024,
    },
  },
  run(ctx, iterations) {
    const pages = Math.ceil(ctx.params.size / PAGE);
    let sink = 0;
    for (let i = 0; i < iterations; i++) {
      const memory = new WebAssembly.Memory({ initial: 1, maximum: pages + 1 });
      memory.grow(pages);
      const bytes = new Uint8Array(memory.buffer);
      for (let offset = 0; offset < bytes.length; offset += PAGE) bytes[offset] = 1;
      sink += bytes.length;
    }
    ctx.state.sink = sink;
  },
});
