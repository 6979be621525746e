export * from './gateway.module.js';
export * from './consumer.js';
export * from './gateway.settings.js';
export { ROUTES, routeFor } from './edge/route-table.js';
export { PROJECT_HEADER } from './edge/edge-auth.guard.js';
export { OpenApiController } from './edge/openapi.controller.js';
export { ApiReferenceController } from './edge/api-reference.controller.js';
