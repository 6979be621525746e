import { TestOnly } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MinLength, ValidateBy, type ValidationOptions } from 'class-validator';

const compiles = (value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
};

/** A string that compiles as a JavaScript regular expression. */
const IsRegExpSource = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isRegExpSource',
      validator: { validate: compiles, defaultMessage: (a) => `${a?.property} must be a valid regular expression` },
    },
    options,
  );

const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0)
    : value;

/** Amazon's SNS signing-certificate URLs: https, host sns.<region>.amazonaws.com(.cn), a .pem under SimpleNotificationService-. */
export const DEFAULT_SNS_CERT_URL_PATTERN =
  '^https://sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?/SimpleNotificationService-[A-Za-z0-9]+\\.pem$';
/** Amazon's subscription-confirmation URLs: https, the same hosts, Action=ConfirmSubscription. */
export const DEFAULT_SNS_SUBSCRIBE_URL_PATTERN =
  '^https://sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?/\\?Action=ConfirmSubscription&';

/** Bounce and complaint intake (POST /webhooks/ses, POST /webhooks/generic). */
export class WebhooksSettings {
  /** HMAC-SHA256 secret of POST /webhooks/generic; unset: that endpoint answers 503. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'WEBHOOK_SIGNING_SECRET must be at least 16 characters' })
  WEBHOOK_SIGNING_SECRET?: string;

  /** Only SNS topics in this comma-separated list are accepted (subscriptions and notifications); unset: none, every message is refused. */
  @IsOptional()
  @Transform(toList)
  @IsString({ each: true })
  SES_SNS_TOPIC_ARNS?: string[];

  /** Regular expression a SigningCertURL must match before Herald fetches it; another than Amazon's only in tests. */
  @IsOptional()
  @TestOnly(DEFAULT_SNS_CERT_URL_PATTERN)
  @IsRegExpSource()
  SNS_CERT_URL_PATTERN: string = DEFAULT_SNS_CERT_URL_PATTERN;

  /** Regular expression a SubscribeURL must match before Herald confirms the subscription; another than Amazon's only in tests. */
  @IsOptional()
  @TestOnly(DEFAULT_SNS_SUBSCRIBE_URL_PATTERN)
  @IsRegExpSource()
  SNS_SUBSCRIBE_URL_PATTERN: string = DEFAULT_SNS_SUBSCRIBE_URL_PATTERN;
}

export const WEBHOOKS_SETTINGS = Symbol('WEBHOOKS_SETTINGS');
