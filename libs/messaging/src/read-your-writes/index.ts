export * from './hosted-controllers.js';
export * from './local-relays.js';
export * from './positions-edge.js';
export * from './positions.controller.js';
export * from './producer-positions-client.js';
export * from './read-your-writes.gate.js';
