import { IsFQDN, IsString, Matches, MaxLength } from 'class-validator';

export class CreateDomainDto {
  /** A lower-case host name with a top-level domain: `example.com`, `mail.example.com` (IDNs as `xn--` punycode). */
  @IsString()
  @MaxLength(253)
  @Matches(/^[a-z0-9.-]+$/, { message: 'domain must be lower case (letters, digits, dots and hyphens)' })
  @IsFQDN(
    { require_tld: true, allow_underscores: false, allow_trailing_dot: false, allow_numeric_tld: false },
    { message: 'domain must be a host name such as mail.example.com' },
  )
  domain!: string;
}
