import { invalidInput } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/** A query flag: the strings "true" and "false" only (anything else stays as it is and fails IsBoolean). */
const flag = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);

/** Query of `POST /contacts/import`. */
export class StartImportQueryDto {
  /** Run the checks of POST /v1/verify on every row's address and report a verdict per row. */
  @IsOptional()
  @Transform(flag)
  @IsBoolean({ message: 'verify must be "true" or "false"' })
  verify?: boolean;

  /** With verify=true: rows with the verdict invalid_domain or disposable are not imported. */
  @IsOptional()
  @Transform(flag)
  @IsBoolean({ message: 'skipInvalid must be "true" or "false"' })
  skipInvalid?: boolean;
}

export interface ImportOptions {
  verify: boolean;
  skipInvalid: boolean;
}

/** The import's options from its query; skipInvalid=true asks for verify=true (422 on skipInvalid otherwise). */
export function importOptions(query: StartImportQueryDto): ImportOptions {
  const verify = query.verify === true;
  const skipInvalid = query.skipInvalid === true;
  if (skipInvalid && !verify)
    throw invalidInput([
      {
        field: 'skipInvalid',
        message: 'skipInvalid=true needs verify=true: only verified rows can be invalid',
        code: 'invalid',
      },
    ]);
  return { verify, skipInvalid };
}
