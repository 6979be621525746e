// mailauth's DKIM verifier module has no typings of its own (the package types only its index).
declare module 'mailauth/lib/dkim/verify.js' {
  export interface DkimVerifyResult {
    results: { signingDomain: string; selector: string; status: { result: string; comment?: string } }[];
  }
  export function dkimVerify(
    input: Buffer | string,
    options: { resolver?: (name: string, type: string) => Promise<unknown> },
  ): Promise<DkimVerifyResult>;
}
