export * from './principal-token.js';
export * from './principal.strategy.js';
export * from './principal.guard.js';
export * from './principal.decorators.js';
export * from './auth.module.js';
export * from './internal-client.js';
