import { ValidateBy, type ValidationArguments } from 'class-validator';

/** NODE_ENV values under which test-only settings are accepted (unset is production, as in ServiceConfig). */
const NON_PRODUCTION = ['development', 'test'];

/**
 * A setting that only serves tests and rehearsals (a clock started elsewhere, a stand-in's URL, a
 * loopback host pattern): refused at boot unless `NODE_ENV` is `development` or `test`, so that a
 * production configuration (NODE_ENV `production` or unset) cannot carry one. A value equal to
 * `productionValue` (the default of a setting that has one) is always accepted.
 */
export function TestOnly(productionValue?: unknown): PropertyDecorator {
  return ValidateBy({
    name: 'testOnly',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        value === undefined ||
        value === productionValue ||
        NON_PRODUCTION.includes(String((args?.object as { NODE_ENV?: unknown } | undefined)?.NODE_ENV)),
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} is for tests only: refused unless NODE_ENV is development or test (it is ${
          (args?.object as { NODE_ENV?: string } | undefined)?.NODE_ENV ?? 'unset, i.e. production'
        })`,
    },
  });
}
