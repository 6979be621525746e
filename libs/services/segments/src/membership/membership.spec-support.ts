import { Outbox } from '@herald/messaging';
import type { DataSource } from 'typeorm';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { SEGMENTS } from '../consumer.js';
import { EvaluationStore } from './evaluation.store.js';
import { MembershipEngine } from './membership-engine.js';
import { SegmentCompute } from './segment-compute.js';
import { SegmentsStore } from './segments.store.js';

/** The stores, the engine and the compute of the service on a data source, wired as its module wires them (integration specs). */
export function membershipOn(ds: DataSource) {
  const readModel = new ReadModelStore();
  const segments = new SegmentsStore(readModel);
  const evaluation = new EvaluationStore(ds);
  const engine = new MembershipEngine(new Outbox(SEGMENTS, ds), segments, evaluation, readModel);
  const compute = new SegmentCompute(ds, segments, evaluation, engine);
  return { readModel, segments, evaluation, engine, compute };
}
