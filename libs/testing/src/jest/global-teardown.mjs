// Stops what the global setups started, last first (the shared topology before PostgreSQL). Both
// projects name this file, and Jest runs one module once.
export default async function globalTeardown() {
  const stops = globalThis.__heraldTestTeardown ?? [];
  while (stops.length > 0)
    await stops
      .pop()()
      .catch((err) => console.error('herald: teardown failed:', err));
}
