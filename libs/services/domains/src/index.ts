export * from './domains.module.js';
export * from './consumer.js';
export { DomainsServiceConfig, DomainsSettings } from './domains.settings.js';
