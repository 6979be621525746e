import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';

type Class<T> = new () => T;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads a config class from environment variables. Property names are the variable names; values
 * are converted by the class's class-transformer decorators and checked by its class-validator
 * decorators. Fails with every bad or missing variable named.
 */
export function loadConfig<T extends object>(cls: Class<T>, env: NodeJS.ProcessEnv = process.env): T {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') raw[k] = v;
  const config = plainToInstance(cls, raw, { exposeDefaultValues: true, excludeExtraneousValues: false });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(errors.map((e) => describe(e, raw[e.property])));
  return config;
}

const describe = (e: ValidationError, raw: string | undefined): string => {
  const value = raw === undefined ? 'missing' : `got ${JSON.stringify(raw)}`;
  return `${e.property} (${value}): ${Object.values(e.constraints ?? {}).join(', ')}`;
};

/** Variables a config class requires (no default, not optional): used by deployment checks. */
export function requiredVariables(cls: Class<object>): string[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const all = new Set(metas.map((m) => m.propertyName));
  const optional = new Set(metas.filter((m) => m.type === 'conditionalValidation').map((m) => m.propertyName));
  const defaults = new cls() as Record<string, unknown>;
  return [...all].filter((p) => !optional.has(p) && defaults[p] === undefined).sort();
}
