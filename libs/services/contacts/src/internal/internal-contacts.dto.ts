// The contract's request and answer (@herald/internal-contracts), under the names contacts' code used before.
export type {
  UpsertContactRequest as ServiceUpsertContactDto,
  UpsertContactAnswer as ServiceUpsertResult,
  ExportedContact,
} from '@herald/internal-contracts';
