/**
 * Standalone Herald without the segments service (its read model not fed): the reference of
 * bench/segments-track, which compares /v1/track capacity with and without it. Bench only.
 */
import { runStandalone } from '@herald/runtime';
import { allServices } from '@herald/service-catalog';

await runStandalone(allServices.filter((s) => s.name !== 'segments'));
