import ts from 'typescript';

/** An error a handler may answer: the HTTP status and, when the code says it, the error code. */
export interface ThrownError {
  status: number;
  /** `error.code` of the answer; undefined when the code is computed (not a constant of the sources). */
  code: string | undefined;
}

/** A value as the sources give it: a string or number constant, or unknown. */
type Value = string | number | undefined;

/** What a parameter of the function being read is bound to, by the call that got there. */
type Bindings = Map<ts.ParameterDeclaration, Value[]>;

/**
 * The errors a controller method can answer, read from the TypeScript sources rather than written
 * beside them: every call its body makes is followed (methods of the injected services, their use
 * cases, helpers, callbacks; an interface's or abstract method's implementations of the sources),
 * and every `new DomainError(kind, code, …)` (`@herald/core`, the factories `conflictError`, … build
 * one) and `new HeraldException(status, code, …)` (`@herald/http`) reached with a constant kind or
 * status is one answer: its status by `statusOfKind` (the global filter's mapping), its code the
 * constant passed along the calls (`SegmentErrors.inUse` → `conflictError(SegmentErrorCode.InUse, …)`).
 * Libraries (node_modules) are not read. A computed kind (another service's error answer mapped
 * back by an HTTP client) is not one: that answer is the other operation's.
 */
export class ThrownErrors {
  private readonly memo = new Map<string, ThrownError[]>();
  private readonly reading = new Set<string>();
  private implementations?: Map<ts.Symbol, ts.ClassLikeDeclaration[]>;
  private readonly ids = new Map<ts.Node, number>();

  constructor(
    private readonly program: ts.Program,
    private readonly checker: ts.TypeChecker,
    private readonly statusOfKind: (kind: string) => number | undefined,
  ) {}

  /** The errors `method` may answer (each status and code once). */
  of(method: ts.FunctionLikeDeclaration): ThrownError[] {
    const seen = new Set<string>();
    return this.read(method, new Map()).filter((e) => {
      const key = `${e.status} ${e.code}`;
      return !seen.has(key) && Boolean(seen.add(key));
    });
  }

  private read(fn: ts.SignatureDeclaration, bindings: Bindings): ThrownError[] {
    const body = (fn as ts.FunctionLikeDeclaration).body;
    if (!body || fn.getSourceFile().isDeclarationFile || fn.getSourceFile().fileName.includes('/node_modules/'))
      return [];
    const key = `${this.idOf(fn)}(${[...bindings].map(([p, v]) => `${this.idOf(p)}=${v.join('|')}`).join(',')})`;
    const known = this.memo.get(key);
    if (known) return known;
    if (this.reading.has(key)) return []; // recursion: what it throws is counted where it started
    this.reading.add(key);
    const found: ThrownError[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) found.push(...this.call(node, bindings));
      ts.forEachChild(node, visit);
    };
    visit(body);
    this.reading.delete(key);
    this.memo.set(key, found);
    return found;
  }

  private call(node: ts.CallExpression | ts.NewExpression, bindings: Bindings): ThrownError[] {
    const args = [...(node.arguments ?? [])];
    if (ts.isNewExpression(node)) {
      const made = this.checker.getTypeAtLocation(node).getSymbol()?.name;
      const [first, second] = [this.values(args[0], bindings), this.values(args[1], bindings)];
      if (made === 'DomainError')
        return first
          .flatMap((kind) => second.map((code) => ({ status: this.statusOfKind(String(kind)), code: asCode(code) })))
          .filter(known);
      if (made === 'HeraldException')
        return first
          .flatMap((status) => second.map((code) => ({ status: Number(status), code: asCode(code) })))
          .filter(known);
    }
    const declaration = this.checker.getResolvedSignature(node)?.declaration;
    if (!declaration || ts.isJSDocSignature(declaration)) return [];
    return this.targets(declaration).flatMap((target) => {
      const bound: Bindings = new Map();
      target.parameters.forEach((p, i) => {
        if (args[i]) bound.set(p, this.values(args[i], bindings));
      });
      return this.read(target, bound);
    });
  }

  /** The bodies a call may run: the declaration's own, or the implementations of an interface's or abstract method. */
  private targets(declaration: ts.SignatureDeclaration): ts.SignatureDeclaration[] {
    if ((declaration as ts.FunctionLikeDeclaration).body) return [declaration];
    if (!ts.isMethodSignature(declaration) && !ts.isMethodDeclaration(declaration)) return [];
    const owner = declaration.parent;
    const symbol =
      (ts.isInterfaceDeclaration(owner) || ts.isClassLike(owner)) && owner.name
        ? this.checker.getSymbolAtLocation(owner.name)
        : undefined;
    const name = declaration.name.getText();
    return (symbol ? (this.implementationsOf().get(symbol) ?? []) : []).flatMap((cls) =>
      cls.members.filter(
        (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText() === name && Boolean(m.body),
      ),
    );
  }

  /** Classes of the sources by what they implement or extend (interfaces and abstract classes). */
  private implementationsOf(): Map<ts.Symbol, ts.ClassLikeDeclaration[]> {
    if (this.implementations) return this.implementations;
    const index = new Map<ts.Symbol, ts.ClassLikeDeclaration[]>();
    for (const file of this.program.getSourceFiles()) {
      if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isClassDeclaration(node))
          for (const clause of node.heritageClauses ?? [])
            for (const base of clause.types) {
              let symbol = this.checker.getSymbolAtLocation(base.expression);
              if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
              if (symbol) index.set(symbol, [...(index.get(symbol) ?? []), node]);
            }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    return (this.implementations = index);
  }

  /**
   * The constants an argument may be: its literal type, or what the caller bound a parameter to. A
   * union type is a computed value (`kindForStatus(status)`: any kind), not a constant.
   */
  private values(arg: ts.Expression | undefined, bindings: Bindings): Value[] {
    if (!arg) return [undefined];
    if (ts.isIdentifier(arg)) {
      const declaration = this.checker.getSymbolAtLocation(arg)?.valueDeclaration;
      if (declaration && ts.isParameter(declaration) && bindings.has(declaration)) return bindings.get(declaration)!;
    }
    const type = this.checker.getTypeAtLocation(arg);
    return [type.isStringLiteral() || type.isNumberLiteral() ? type.value : undefined];
  }

  private idOf(node: ts.Node): number {
    let id = this.ids.get(node);
    if (id === undefined) this.ids.set(node, (id = this.ids.size));
    return id;
  }
}

const asCode = (v: Value): string | undefined => (typeof v === 'string' ? v : undefined);
const known = (e: { status: number | undefined; code: string | undefined }): e is ThrownError =>
  typeof e.status === 'number' && !Number.isNaN(e.status);
