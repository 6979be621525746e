import { GatewaySettings } from '../gateway.settings.js';
import { identityOf, oauthProviders, oauthStrategies } from './oauth-providers.js';

const settings = (values: Partial<GatewaySettings>): GatewaySettings => Object.assign(new GatewaySettings(), values);

describe('OAuth providers (ADR 0029)', () => {
  it('offers a provider only when both its client id and secret are set', () => {
    expect(oauthProviders(settings({ GITHUB_CLIENT_ID: 'id' }))).toEqual([]);
    expect(
      oauthProviders(settings({ GITHUB_CLIENT_ID: 'gh', GITHUB_CLIENT_SECRET: 's', GOOGLE_CLIENT_ID: 'g' })),
    ).toEqual([{ id: 'github', clientId: 'gh' }]);
    expect([...oauthStrategies(settings({ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's' })).keys()]).toEqual([
      'google',
    ]);
  });

  it("takes GitHub's primary address with its own verified flag, not another verified one", () => {
    const profile = {
      displayName: 'Ada',
      emails: [
        { value: 'ada@users.noreply.example', primary: false, verified: true },
        { value: 'ada@example.com', primary: true, verified: false },
      ],
    };
    expect(identityOf(profile)).toEqual({ email: 'ada@example.com', verified: false, name: 'Ada' });
  });

  it("reads Google's single address and email_verified, given as a boolean or as the string 'true'", () => {
    expect(identityOf({ emails: [{ value: 'bo@example.com', verified: true }] })).toMatchObject({ verified: true });
    expect(identityOf({ emails: [{ value: 'bo@example.com', verified: 'true' }] })).toMatchObject({ verified: true });
    expect(identityOf({ emails: [{ value: 'bo@example.com' }] })).toMatchObject({ verified: false, name: null });
  });

  it('finds no identity without an address', () => {
    expect(identityOf({ displayName: 'No Mail' })).toBeNull();
    expect(identityOf({ emails: [] })).toBeNull();
  });
});
