// Before each test file's modules load: Herald's in-process loggers write nothing unless
// HERALD_TEST_LOG_LEVEL asks for a level (e.g. `HERALD_TEST_LOG_LEVEL=debug npm test -- <path>`).
// A LOG_LEVEL in the shell, meant for running Herald, does not reach the tests.
process.env.LOG_LEVEL = process.env.HERALD_TEST_LOG_LEVEL || 'silent';
