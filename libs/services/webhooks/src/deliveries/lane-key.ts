/**
 * The lane of an event's deliveries to an endpoint: its partitioning key (the contact, or the
 * campaign or project where no contact is involved) hashed (FNV-1a) onto the endpoint's `lanes`. One
 * lane attempts its deliveries one at a time in event order, so one contact's events reach an
 * endpoint in the order they happened, while other contacts' go out beside them.
 */
export function laneOf(key: string, lanes: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % Math.max(1, lanes);
}
