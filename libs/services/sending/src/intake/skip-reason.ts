import type { IntakeItem, IntakeSkipReason } from '@herald/internal-contracts';

/**
 * Why an intake item is stored but never sent, or undefined when it is sent: an invalid address,
 * then a suppressed one (a hard bounce or a complaint: sending to it again hurts the sender's
 * reputation, so not even a test goes), then marketing mail to a contact that is unsubscribed or
 * unknown, except a campaign's test send, which goes to the address it names whatever its contact's
 * state (docs/sending.md, "Internal intake").
 */
export function skipReasonOf(
  item: Pick<IntakeItem, 'category' | 'test'>,
  address: string | null,
  suppressed: boolean,
  contact: { subscribed: boolean } | undefined,
): IntakeSkipReason | undefined {
  if (!address) return 'invalid_address';
  if (suppressed) return 'suppressed';
  if (item.category === 'marketing' && !item.test && !contact?.subscribed) return 'unsubscribed';
  return undefined;
}
