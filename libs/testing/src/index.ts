export * from './smtp/smtp-sink.js';
export * from './dns/dns-server.js';
export * from './kafka/kafka-broker.js';
export * from './postgres/test-database.js';
export * from './processes/service-process.js';
export * from './http/principal-headers.js';
export * from './wait.js';
