import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { ThrownErrors } from '../../scripts/openapi/thrown-errors.js';

/**
 * The OpenAPI document lists 409 (and its codes) on the operations whose code can throw one
 * (scripts/openapi/thrown-errors.ts, ADR 0017): read from the sources by following the handler's
 * calls. A small program of its own shows each path the reading must take.
 */
const SOURCES: Record<string, string> = {
  'errors.ts': `
    export type Kind = 'conflict' | 'not_found' | 'invalid';
    export class DomainError extends Error {
      constructor(readonly kind: Kind, readonly code: string, message: string) { super(message); }
    }
    export function conflictError(code: string, message: string): DomainError {
      return new DomainError('conflict', code, message);
    }
    export const KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';
    export const ThingErrors = {
      inUse: () => conflictError('THING_IN_USE', 'in use'),
      conflict: (code: string) => conflictError(code, 'conflict'),
    };
    export function fromStatus(status: number): Kind { return status === 409 ? 'conflict' : 'invalid'; }
  `,
  'store.ts': `
    import { DomainError } from './errors';
    export interface Store { save(): Promise<void>; }
    export class PgStore implements Store {
      async save(): Promise<void> { throw new DomainError('not_found', 'THING_NOT_FOUND', 'gone'); }
    }
  `,
  'service.ts': `
    import { conflictError, fromStatus, DomainError, KEY_REUSED, ThingErrors } from './errors';
    import type { Store } from './store';
    export class Idempotent {
      async run<T>(work: () => Promise<T>): Promise<T> {
        if (Math.random() > 2) throw conflictError(KEY_REUSED, 'reused');
        return work();
      }
    }
    export class Things {
      constructor(private readonly store: Store, private readonly idem: Idempotent) {}
      create(): Promise<void> { return this.idem.run(() => this.store.save()); }
      remove(): void { throw ThingErrors.inUse(); }
      link(): void { throw ThingErrors.conflict('THING_LINKED'); }
      relay(status: number): void { throw new DomainError(fromStatus(status), 'REMOTE', 'remote'); }
      read(): string { return 'thing'; }
    }
  `,
  'controller.ts': `
    import { Things } from './service';
    export class ThingsController {
      constructor(private readonly things: Things) {}
      create() { return this.things.create(); }
      remove() { return this.things.remove(); }
      link() { return this.things.link(); }
      relay() { return this.things.relay(409); }
      read() { return this.things.read(); }
    }
  `,
};

const STATUS: Record<string, number> = { conflict: 409, not_found: 404, invalid: 422 };

describe('the errors an operation can answer, read from its code', () => {
  let dir: string;
  let thrown: (handler: string) => string[];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'herald-thrown-'));
    for (const [name, text] of Object.entries(SOURCES)) writeFileSync(path.join(dir, name), text);
    const program = ts.createProgram([path.join(dir, 'controller.ts')], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
    });
    const reader = new ThrownErrors(program, program.getTypeChecker(), (kind) => STATUS[kind]);
    const controller = program.getSourceFile(path.join(dir, 'controller.ts'))!.statements.find(ts.isClassDeclaration)!;
    thrown = (handler) => {
      const method = controller.members.find(
        (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText() === handler,
      )!;
      return reader
        .of(method)
        .map((e) => `${e.status} ${e.code}`)
        .sort();
    };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('follows a service into a helper that takes a callback, and an interface into its implementation', () => {
    expect(thrown('create')).toEqual(['404 THING_NOT_FOUND', '409 IDEMPOTENCY_KEY_REUSED']);
  });

  it('names the code a factory is given, through one factory or two', () => {
    expect(thrown('remove')).toEqual(['409 THING_IN_USE']);
    expect(thrown('link')).toEqual(['409 THING_LINKED']);
  });

  it('counts no error whose kind is computed (another service answer mapped back), and none where nothing throws', () => {
    expect(thrown('relay')).toEqual([]);
    expect(thrown('read')).toEqual([]);
  });
});
