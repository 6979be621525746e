import { hashApiKey } from '../projects/api-keys.js';
import { CredentialsService } from './credentials.service.js';
import type { CredentialsStore, KeyOwner } from './credentials.store.js';

const key = (c: string) => `sk_${c.repeat(48)}`;

/** A store knowing the keys of `owners`; `lookups` lists the hashes of each call, in order. */
function serviceWith(owners: Record<string, KeyOwner>) {
  const lookups: string[][] = [];
  const store = {
    keyOwners: async (hashes: string[]) => {
      lookups.push(hashes);
      return new Map(Object.entries(owners).map(([k, owner]) => [hashApiKey(k), owner]));
    },
    member: async (userId: string, projectId: string) =>
      userId === 'usr_1' ? { role: 'ADMIN', disabled: projectId === 'prj_off' } : null,
  } as unknown as CredentialsStore;
  return { credentials: new CredentialsService(store), lookups };
}

const owner: KeyOwner = { projectId: 'prj_a', kind: 'secret', testMode: false, disabled: false };

describe('CredentialsService: who a credential belongs to', () => {
  it('a malformed key has no owner and is not looked up', async () => {
    const { credentials, lookups } = serviceWith({});
    expect(await credentials.keyOwner('sk_short')).toBeNull();
    expect(await credentials.keyOwner(`xx_${'a'.repeat(48)}`)).toBeNull();
    expect(lookups).toEqual([]);
  });

  it('a test key (sk_test_…, pk_test_…) is looked up like a live one, and its owner says test mode', async () => {
    const testKey = `sk_test_${'c'.repeat(48)}`;
    const tester: KeyOwner = { ...owner, testMode: true };
    const { credentials, lookups } = serviceWith({ [testKey]: tester });
    expect(await credentials.keyOwner(testKey)).toEqual(tester);
    expect(await credentials.keyOwner(`pk_test_${'d'.repeat(48)}`)).toBeNull();
    expect(await credentials.keyOwner(`sk_tset_${'c'.repeat(48)}`)).toBeNull();
    expect(lookups.flat()).toEqual([hashApiKey(testKey), hashApiKey(`pk_test_${'d'.repeat(48)}`)]);
  });

  it('keys asked for together are looked up in one query, by their hashes only', async () => {
    const { credentials, lookups } = serviceWith({ [key('a')]: owner });
    const answers = await Promise.all([credentials.keyOwner(key('a')), credentials.keyOwner(key('b'))]);
    expect(answers).toEqual([owner, null]);
    expect(lookups).toEqual([[hashApiKey(key('a')), hashApiKey(key('b'))]]);
  });

  it("a request's key is looked up once, whoever asks first; another request's is looked up again", async () => {
    const { credentials, lookups } = serviceWith({ [key('a')]: owner });
    const request = {};
    expect(await credentials.keyOwnerFor(request, key('a'))).toEqual(owner);
    expect(await credentials.keyOwnerFor(request, key('a'))).toEqual(owner);
    expect(lookups).toHaveLength(1);
    await credentials.keyOwnerFor({}, key('a'));
    expect(lookups).toHaveLength(2);
  });

  it("a session's membership comes from the store as it is", async () => {
    const { credentials } = serviceWith({});
    expect(await credentials.member('usr_1', 'prj_off')).toEqual({ role: 'ADMIN', disabled: true });
    expect(await credentials.member('usr_2', 'prj_a')).toBeNull();
  });
});
