// A tinypool worker's module (its `filename`): every pool task goes to work.js.
export { poolTask as default } from './work.js';
