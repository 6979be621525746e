import { toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';

/** Herald's own SMTP listener for inbound mail (docs/inbound.md): off unless INBOUND_SMTP_PORT is set. */
export class InboundSettings {
  /** Port of the inbound SMTP listener (25 behind the MX record, or any port a proxy forwards to). Unset: no listener. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  INBOUND_SMTP_PORT?: number;

  /** Address the inbound SMTP listener binds. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  INBOUND_SMTP_HOST: string = '0.0.0.0';

  /** Host name the listener announces in its greeting (the MX record's target); unset: the machine's host name. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.-]{1,253}$/, { message: 'INBOUND_SMTP_HOSTNAME must be a host name' })
  INBOUND_SMTP_HOSTNAME?: string;

  /** Largest message accepted, in bytes (advertised as SIZE; a larger one is refused with 552). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(50 * 1024 * 1024)
  INBOUND_MAX_MESSAGE_BYTES: number = 10 * 1024 * 1024;

  /** Attachment bytes (decoded) kept per message, in their order; the rest are listed without their content. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  INBOUND_MAX_ATTACHMENT_BYTES: number = 5 * 1024 * 1024;

  /** PEM private key file of the listener's STARTTLS (with INBOUND_TLS_CERT_FILE); unset: no STARTTLS. */
  @ValidateIf((s: InboundSettings) => s.INBOUND_TLS_KEY_FILE !== undefined || s.INBOUND_TLS_CERT_FILE !== undefined)
  @IsString({ message: 'INBOUND_TLS_KEY_FILE must be set together with INBOUND_TLS_CERT_FILE' })
  INBOUND_TLS_KEY_FILE?: string;

  /** PEM certificate chain file of the listener's STARTTLS (with INBOUND_TLS_KEY_FILE). */
  @ValidateIf((s: InboundSettings) => s.INBOUND_TLS_KEY_FILE !== undefined || s.INBOUND_TLS_CERT_FILE !== undefined)
  @IsString({ message: 'INBOUND_TLS_CERT_FILE must be set together with INBOUND_TLS_KEY_FILE' })
  INBOUND_TLS_CERT_FILE?: string;
}

export const INBOUND_SETTINGS = Symbol('INBOUND_SETTINGS');
