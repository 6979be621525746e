import type { Contact } from './contact.entity.js';

/** A contact as the API shows it. */
export interface ContactView {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const contactView = (c: Contact): ContactView => ({
  id: c.id,
  email: c.email,
  subscribed: c.subscribed,
  data: c.data,
  createdAt: new Date(c.createdAt).toISOString(),
  updatedAt: new Date(c.updatedAt).toISOString(),
});

/** Maps a row of the contacts table as read with CONTACT_COLUMNS (deleted fields left out). */
export const contactFromRow = (r: Record<string, unknown>): Contact =>
  ({
    id: r.id as string,
    projectId: r.project_id as string,
    email: r.email as string,
    subscribed: r.subscribed as boolean,
    data: (r.data ?? {}) as Record<string, unknown>,
    deletionsApplied: String(r.deletions_applied ?? '0'),
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  }) as Contact;
