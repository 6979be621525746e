export * from './trace-context.js';
export * from './tracing.config.js';
export * from './tracing-setup.js';
