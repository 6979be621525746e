export * from './address-checks.js';
export * from './domain-dns.js';
export * from './email-verifier.js';
export * from './list-verdicts.js';
export * from './list-verifier.js';
export * from './role-addresses.js';
export * from './verification.module.js';
export * from './verify.settings.js';
