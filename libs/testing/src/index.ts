export * from './smtp/smtp-sink.js';
export * from './dns/dns-server.js';
