import { Matches } from 'class-validator';

/**
 * An email address as Herald stored it. Addresses are validated in full (validator.js `isEmail`)
 * where they enter Herald — the API's DTOs, CSV rows, /v1/send — and normalised; an event carries
 * one of those. Its contract checks the shape a consumer relies on (one `@`, no spaces): repeating
 * the full check on every event built and received cost more than writing the event.
 */
export const IsEmailAddress = (): PropertyDecorator => Matches(/^[^\s@]+@[^\s@]+$/, { message: '$property must be an email address' });
