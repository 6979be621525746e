export * from './call-contract.js';
export * from './contacts/contacts.calls.js';
export * from './domains/domains.calls.js';
export * from './gateway/gateway.calls.js';
export * from './segments/segments.calls.js';
export * from './sending/intake-request.js';
export * from './sending/sending.calls.js';
