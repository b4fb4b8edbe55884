// WebAssembly is a global in Node, but its types live in TypeScript's DOM library, which would
// also declare browser globals Node lacks; the wasm-grow task needs only this much of it.
declare namespace WebAssembly {
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
}
