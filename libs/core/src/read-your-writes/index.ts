export * from './positions.js';
export * from './gate.js';
