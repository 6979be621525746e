import path from 'node:path';
import ts from 'typescript';
import { ThrownErrors, type ThrownError } from './thrown-errors.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type Schema = Record<string, unknown>;

/** What the TypeScript sources say about one controller method. */
export interface HandlerTypes {
  /** The method's doc comment (its first sentence is the operation's summary). */
  doc: string;
  /** The resolved value's schema (a Promise unwrapped); undefined when the method answers nothing (void). */
  response: Schema | undefined;
  /** The declared type of each parameter (by position), for bodies that are not validated DTO classes. */
  params: (Schema | undefined)[];
  /** The statuses the method sets on a reply parameter (`reply.status(isNew ? 201 : 200)`): each literal it may be. */
  replyStatuses: number[];
}

/** Types the document describes by format rather than by their members. */
const OPAQUE: Record<string, Schema> = {
  Date: { type: 'string', format: 'date-time' },
  Buffer: { type: 'string', contentMediaType: 'application/octet-stream' },
  Uint8Array: { type: 'string', contentMediaType: 'application/octet-stream' },
  Readable: { type: 'string', contentMediaType: 'application/octet-stream' },
  ReadStream: { type: 'string', contentMediaType: 'application/octet-stream' },
};

/**
 * Reads the controllers' TypeScript sources (the compiler's view of the code, the same types
 * `npm run typecheck` checks) and turns the types their methods return into JSON Schemas: named
 * interfaces and classes become `components.schemas` entries, generic instantiations and anonymous
 * types are inlined. The build (SWC) keeps no type information, so this is read from the sources.
 */
export class TypeReader {
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;
  private readonly classes = new Map<string, ts.ClassDeclaration>();
  /** Named types turned into components: name → schema. */
  readonly components = new Map<string, Schema>();
  private readonly componentOf = new Map<ts.Symbol, string>();
  /** Anonymous and generic types being inlined: a recursive one ends in `{}` rather than a loop. */
  private readonly inlining = new Set<ts.Type>();
  private thrownErrors?: ThrownErrors;

  constructor(root: string, entry: string) {
    const config = ts.readConfigFile(path.join(root, 'tsconfig.base.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    this.program = ts.createProgram([path.join(root, entry)], { ...options, noEmit: true });
    this.checker = this.program.getTypeChecker();
    for (const file of this.program.getSourceFiles()) {
      if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
      file.forEachChild((node) => {
        if (ts.isClassDeclaration(node) && node.name) this.classes.set(node.name.text, node);
      });
    }
  }

  /** The declaration of the method `handler` of the class named `controller`. */
  method(controller: string, handler: string): ts.MethodDeclaration {
    const cls = this.classes.get(controller);
    if (!cls) throw new Error(`openapi: no source for the controller class ${controller}`);
    const method = cls.members.find(
      (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText() === handler,
    );
    if (!method) throw new Error(`openapi: ${controller}.${handler} not found in its source`);
    return method;
  }

  /** The errors the method `handler` of the class named `controller` may answer (thrown-errors.ts). */
  thrown(controller: string, handler: string, statusOfKind: (kind: string) => number | undefined): ThrownError[] {
    this.thrownErrors ??= new ThrownErrors(this.program, this.checker, statusOfKind);
    return this.thrownErrors.of(this.method(controller, handler));
  }

  /** The method `handler` of the class named `controller`. */
  handler(controller: string, handler: string): HandlerTypes {
    const method = this.method(controller, handler);
    const signature = this.checker.getSignatureFromDeclaration(method)!;
    let result = this.checker.getReturnTypeOfSignature(signature);
    result = this.checker.getAwaitedType(result) ?? result;
    const symbol = this.checker.getSymbolAtLocation(method.name);
    const doc = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(this.checker)) : '';
    const answersNothing = (result.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) !== 0;
    return {
      doc,
      response: answersNothing ? undefined : this.schemaOf(result),
      params: method.parameters.map((p) => this.schemaOf(this.checker.getTypeAtLocation(p))),
      replyStatuses: this.replyStatuses(method),
    };
  }

  private replyStatuses(method: ts.MethodDeclaration): number[] {
    const replies = new Set(
      method.parameters
        .filter((p) => /\bFastifyReply\b/.test(p.type?.getText() ?? ''))
        .map((p) => this.checker.getSymbolAtLocation(p.name)),
    );
    const statuses = new Set<number>();
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'status' &&
        replies.has(this.checker.getSymbolAtLocation(node.expression.expression)) &&
        node.arguments[0]
      ) {
        const type = this.checker.getTypeAtLocation(node.arguments[0]);
        for (const t of type.isUnion() ? type.types : [type]) if (t.isNumberLiteral()) statuses.add(t.value);
      }
      ts.forEachChild(node, visit);
    };
    if (method.body) visit(method.body);
    return [...statuses].sort((a, b) => a - b);
  }

  /** An interface of the sources, by name, as a schema (inlined). */
  named(name: string): Schema {
    for (const file of this.program.getSourceFiles()) {
      if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
      const declaration = file.statements.find(
        (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
      );
      if (declaration) return this.schemaOf(this.checker.getTypeAtLocation(declaration.name), true);
    }
    throw new Error(`openapi: no interface named ${name} in the sources`);
  }

  private schemaOf(type: ts.Type, topNamed = false): Schema {
    const c = this.checker;
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Never) return { not: {} };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: c.typeToString(type) === 'true' };
    if (f & ts.TypeFlags.TemplateLiteral) return { type: 'string' };
    if (f & ts.TypeFlags.StringLike) return { type: 'string' };
    if (f & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return { type: 'number' };
    if (f & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return {};
    if (type.isUnion()) return this.unionOf(type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)));
    if (c.isArrayType(type))
      return { type: 'array', items: this.schemaOf(c.getTypeArguments(type as ts.TypeReference)[0]!) };
    if (c.isTupleType(type)) {
      const items = c.getTypeArguments(type as ts.TypeReference).map((t) => this.schemaOf(t));
      return { type: 'array', prefixItems: items, items: false };
    }
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (symbol && OPAQUE[symbol.name]) return OPAQUE[symbol.name]!;
    if (!(f & ts.TypeFlags.Object) && !type.isIntersection()) return {};
    const name = this.componentName(type);
    if (name && !topNamed) return { $ref: `#/components/schemas/${this.register(type, name)}` };
    if (this.inlining.has(type) || this.inlining.size > 12) return {};
    this.inlining.add(type);
    try {
      return this.objectOf(type);
    } finally {
      this.inlining.delete(type);
    }
  }

  /** A named, non-generic interface, class or alias of the sources: a component. */
  private componentName(type: ts.Type): string | undefined {
    if (type.aliasSymbol) return type.aliasTypeArguments?.length ? undefined : this.ownName(type.aliasSymbol);
    const symbol = type.getSymbol();
    if (!symbol || !(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class))) return undefined;
    if ((type as ts.TypeReference).typeArguments?.length) return undefined;
    return this.ownName(symbol);
  }

  private ownName(symbol: ts.Symbol): string | undefined {
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
    return file.includes('/node_modules/') || symbol.name.startsWith('__') ? undefined : symbol.name;
  }

  private register(type: ts.Type, name: string): string {
    const symbol = (type.aliasSymbol ?? type.getSymbol())!;
    const known = this.componentOf.get(symbol);
    if (known) return known;
    let key = name;
    for (let i = 2; this.components.has(key); i++) key = `${name}${i}`;
    this.componentOf.set(symbol, key);
    this.components.set(key, {}); // a placeholder first: the type may refer to itself
    this.components.set(key, this.objectOf(type));
    return key;
  }

  private unionOf(types: ts.Type[]): Schema {
    if (types.length === 1) return this.schemaOf(types[0]!);
    const schemas = types.map((t) => this.schemaOf(t));
    const literalOf = (s: Schema) =>
      s.const !== undefined && typeof s.type === 'string' ? (s.type as string) : undefined;
    const kinds = new Set(schemas.map(literalOf));
    if (kinds.size === 1 && !kinds.has(undefined)) return { type: [...kinds][0], enum: schemas.map((s) => s.const) };
    if (schemas.length === 2 && schemas.every((s) => s.type === 'boolean')) return { type: 'boolean' };
    const nonNull = schemas.filter((s) => s.type !== 'null');
    if (nonNull.length === 1 && nonNull.length < schemas.length) return { anyOf: [nonNull[0], { type: 'null' }] };
    return { anyOf: dedupe(schemas) };
  }

  private objectOf(type: ts.Type): Schema {
    if (type.isUnion()) return this.unionOf(type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)));
    if (!(type.flags & ts.TypeFlags.Object) && !type.isIntersection()) return this.schemaOf(type);
    const c = this.checker;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const prop of c.getPropertiesOfType(type)) {
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      if (decl && (ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl))) continue;
      const propType = c.getTypeOfSymbol(prop);
      if (propType.getCallSignatures().length > 0) continue;
      const schema = { ...this.schemaOf(propType) };
      const doc = ts.displayPartsToString(prop.getDocumentationComment(c));
      if (doc) Object.assign(schema, schema.$ref ? { description: doc } : { description: doc });
      properties[prop.name] = schema;
      if (
        !(prop.flags & ts.SymbolFlags.Optional) &&
        !(propType.isUnion() && propType.types.some((t) => t.flags & ts.TypeFlags.Undefined))
      )
        required.push(prop.name);
    }
    const out: Schema = { type: 'object', properties };
    if (required.length) out.required = required;
    const index = c.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    if (index) out.additionalProperties = this.schemaOf(index.type);
    return out;
  }
}

function dedupe(schemas: Schema[]): Schema[] {
  const seen = new Set<string>();
  return schemas.filter((s) => {
    const k = JSON.stringify(s);
    return !seen.has(k) && Boolean(seen.add(k));
  });
}
