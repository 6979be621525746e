import type { SingleStatementWrite } from '@herald/persistence';
import type { EntityManager } from 'typeorm';

/**
 * What the write path tells the field registry about the data it stored: the type of each path not
 * seen before gets recorded, in the write's transaction or as a part of its single statement. A port:
 * the fields feature provides it (`FieldRegistry`; the module wires it), so that contacts, which
 * every other feature builds on, imports none of them.
 */
export abstract class FieldTypeRecorder {
  abstract register(m: EntityManager, projectId: string, data: Record<string, unknown>): Promise<void>;
  abstract registerMany(m: EntityManager, projectId: string, datas: Record<string, unknown>[]): Promise<void>;
  /** `registerMany` as a part of a single-statement write, remembered once it committed. */
  abstract registerIn(write: SingleStatementWrite, projectId: string, datas: Record<string, unknown>[]): void;
}
