import { jest } from '@jest/globals';
import { CursorQueryDto } from '@herald/http';
import type { ReferenceDirectory } from '@herald/messaging';
import type { DataSource } from 'typeorm';
import type { ContactStore } from '../contacts/contacts.store.js';
import { EventsService } from './events.service.js';
import type { TrackedEventsStore } from './tracked-events.store.js';

/** An EventsService over mocked stores. */
function serviceWith(events: Record<string, unknown>, contacts: Record<string, unknown> = {}) {
  return new EventsService(
    {} as DataSource,
    {} as ReferenceDirectory,
    events as unknown as TrackedEventsStore,
    contacts as unknown as ContactStore,
  );
}

describe('EventsService: reading timelines and deleting custom events over the stores', () => {
  it("a contact's timeline of a contact the project does not have is 404, and pages nothing", async () => {
    const page = jest.fn();
    const service = serviceWith({ page }, { exists: async () => false });
    await expect(service.forContact('prj_1', 'cnt_none', new CursorQueryDto())).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(page).not.toHaveBeenCalled();
  });

  it('the stats total the per-name counts, and those of the last 24 hours', async () => {
    const last = new Date('2030-01-01T00:00:00Z');
    const service = serviceWith({
      counts: async () => [
        { name: 'signup', count: '5', last, recent: '2' },
        { name: 'login', count: '3', last, recent: '0' },
      ],
    });
    expect(await service.stats('prj_1')).toEqual({
      total: 8,
      last24Hours: 2,
      events: [
        { name: 'signup', count: 5, lastSeenAt: last.toISOString() },
        { name: 'login', count: 3, lastSeenAt: last.toISOString() },
      ],
    });
  });

  it('refuses to delete the events of a system name (SYSTEM_EVENT_NOT_DELETABLE) and deletes nothing', async () => {
    const deleteByName = jest.fn(async () => 0);
    const service = serviceWith({ deleteByName });
    for (const name of ['email.sent', 'contact.unsubscribed', 'segment.vip.entry'])
      await expect(service.deleteByName('prj_1', name)).rejects.toMatchObject({ code: 'SYSTEM_EVENT_NOT_DELETABLE' });
    expect(deleteByName).not.toHaveBeenCalled();
    deleteByName.mockResolvedValueOnce(4);
    expect(await service.deleteByName('prj_1', 'signup')).toEqual({ deleted: 4 });
  });
});
