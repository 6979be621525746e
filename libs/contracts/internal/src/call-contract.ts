// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Class<T> = new (...args: any[]) => T;

/** One problem of a call's request, named by its path (`items[3].to`): the spec's field error. */
export interface CallProblem {
  field: string;
  message: string;
  code: string;
}

/** A request checked by a parser of its own (a body that class-validator cannot describe). */
export type ParsedRequest<Req> = { ok: true; value: Req } | { ok: false; problems: CallProblem[] };

/**
 * A synchronous call from one service to another (docs/architecture.md, "Synchronous calls";
 * ADR 0016): what the caller sends, what the owner answers and the error codes it may throw. Both
 * ends check the request with the same rule: a class-validator class (`request`) or, for a body
 * whose problems are named per item, a parser (`parse`). `Res` is the answer's type: plain JSON
 * values only (no `Date`, no class instances), the same in process and over HTTP.
 */
export interface CallContract<Req extends object, Res> {
  /** The service that answers. */
  readonly owner: string;
  /** `<owner>.<call>`: the route `POST /internal/calls/<name>` in distributed mode. */
  readonly name: string;
  readonly request?: Class<Req>;
  readonly parse?: (raw: unknown) => ParsedRequest<Req>;
  /**
   * The producers whose events feed the copies the owner reads to answer: the call waits until those
   * copies applied the caller's writes (read-your-writes). Empty: the owner reads its own tables only.
   */
  readonly observes: readonly string[];
  /** The domain error codes the owner answers besides validation and unavailability. */
  readonly errors: readonly string[];
  /** Over HTTP: how long the caller waits for the answer (default 10 s). */
  readonly timeoutMs?: number;
  /** Never set: carries the answer's type. */
  readonly answer?: Res;
}

/** How a call is declared inside {@link defineCalls} (the owner and the name are added there). */
export type CallDefinition<Req extends object, Res> = Omit<
  CallContract<Req, Res>,
  'owner' | 'name' | 'observes' | 'errors'
> & {
  readonly observes?: readonly string[];
  readonly errors?: readonly string[];
};

/** Declares one call: `call<Request, Answer>({ request: RequestClass, errors: ['CONTACT_NOT_FOUND'] })`. */
export function call<Req extends object, Res>(definition: CallDefinition<Req, Res>): CallDefinition<Req, Res> {
  if (!definition.request === !definition.parse)
    throw new Error('a call is checked by a request class or by a parser, exactly one of the two');
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinitions = Record<string, CallDefinition<any, any>>;

/** Every call a service answers, under their short names: what one client per owner is built from. */
export type CallGroup<D extends AnyDefinitions = AnyDefinitions> = {
  readonly owner: string;
  readonly calls: {
    readonly [K in keyof D]: D[K] extends CallDefinition<infer Req, infer Res> ? CallContract<Req, Res> : never;
  };
};

const owners = new Map<string, CallGroup>();

/** Declares the calls `owner` answers; a name is declared once (`<owner>.<call>`). */
export function defineCalls<D extends AnyDefinitions>(owner: string, definitions: D): CallGroup<D> {
  if (owners.has(owner)) throw new Error(`the calls of ${owner} are declared twice`);
  const calls: Record<string, CallContract<object, unknown>> = {};
  for (const [short, definition] of Object.entries(definitions)) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(short)) throw new Error(`call name ${short}: camelCase letters and digits`);
    calls[short] = {
      ...definition,
      owner,
      name: `${owner}.${short}`,
      observes: definition.observes ?? [],
      errors: definition.errors ?? [],
    };
  }
  const group = { owner, calls } as CallGroup<D>;
  owners.set(owner, group as unknown as CallGroup);
  return group;
}

/** The call named `<owner>.<call>`, if declared (the HTTP side of a call finds it by its name). */
export function callNamed(name: string): CallContract<object, unknown> | undefined {
  const [owner, short] = name.split('.', 2);
  const group = owner === undefined ? undefined : owners.get(owner);
  return short === undefined || !group
    ? undefined
    : (group.calls as Record<string, CallContract<object, unknown>>)[short];
}
