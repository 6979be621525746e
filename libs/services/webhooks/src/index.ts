export * from './webhooks.module.js';
export * from './consumer.js';
export { WebhooksServiceConfig, WebhooksServiceSettings } from './webhooks.settings.js';
