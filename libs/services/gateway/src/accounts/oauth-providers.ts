import type { GatewaySettings } from '../gateway.settings.js';

/** The OAuth providers configured by environment (none by default), with their client ids. */
export function oauthProviders(settings: GatewaySettings): { id: string; clientId: string }[] {
  return [
    ...(settings.GITHUB_CLIENT_ID ? [{ id: 'github', clientId: settings.GITHUB_CLIENT_ID }] : []),
    ...(settings.GOOGLE_CLIENT_ID ? [{ id: 'google', clientId: settings.GOOGLE_CLIENT_ID }] : []),
  ];
}
