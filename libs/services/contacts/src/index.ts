export * from './contacts.module.js';
export * from './consumer.js';
// the internal upsert as other services reach it (test/integration: workflows' UPDATE_CONTACT, once per step run)
export { ContactsService } from './contacts/contacts.service.js';
export { ContactWriter } from './contacts/contact-writer.js';
export { FieldRegistry } from './fields/field-registry.js';
export { ContactsCallHandlers } from './internal/contacts.calls.js';
