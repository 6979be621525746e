/** The contact an email is rendered for: its built-in fields and its data. */
export interface RenderContact {
  id: string;
  email: string;
  subscribed: boolean;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  data: Record<string, unknown>;
}

/** The contact's own subscription links, signed for this contact (and the email they appear in). */
export interface SubscriptionUrls {
  unsubscribeUrl: string;
  subscribeUrl: string;
  manageUrl: string;
}

/**
 * Variables every rendering provides beside the contact's data keys. A data key (stored or
 * non-persistent) of one of these names never reaches the template: the built-in value wins.
 * `locale` is the one built-in that lives in data (spec: stored in data, also read for localisation).
 */
export const BUILT_IN_VARIABLES = [
  'email',
  'id',
  'subscribed',
  'createdAt',
  'updatedAt',
  'locale',
  'unsubscribeUrl',
  'subscribeUrl',
  'manageUrl',
  'svc_id',
  'svc_email',
] as const;

/**
 * The variables of one rendering for one contact: its data keys, the request's non-persistent
 * values over them, then the built-in fields over both (a data key cannot shadow a built-in field).
 */
export function contactVariables(
  contact: RenderContact,
  urls: SubscriptionUrls,
  transient: Record<string, unknown> = {},
): Record<string, unknown> {
  const data: Record<string, unknown> = { ...contact.data, ...transient };
  const variables: Record<string, unknown> = { ...data };
  for (const key of BUILT_IN_VARIABLES) delete variables[key];
  const builtIn: Record<(typeof BUILT_IN_VARIABLES)[number], unknown> = {
    email: contact.email,
    id: contact.id,
    subscribed: contact.subscribed,
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
    locale: data.locale ?? null,
    unsubscribeUrl: urls.unsubscribeUrl,
    subscribeUrl: urls.subscribeUrl,
    manageUrl: urls.manageUrl,
    svc_id: contact.id,
    svc_email: contact.email,
  };
  return Object.assign(variables, builtIn);
}
