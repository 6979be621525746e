/** The small server-rendered pages behind subscription links: plain HTML, no scripts, nothing external. */

import { escapeHtml as escape } from '../shared/escape-html.js';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}p.muted{color:#666}</style>
</head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

const form = (action: string, label: string, extra = '') =>
  `<form method="post" action="${escape(action)}">${extra}<button type="submit">${escape(label)}</button></form>`;

export const unsubscribePage = (email: string, action: string) =>
  page(
    'Unsubscribe',
    `<p>Stop marketing email to <strong>${escape(email)}</strong>?</p>${form(action, 'Unsubscribe')}`,
  );

export const subscribePage = (email: string, action: string) =>
  page(
    'Subscribe',
    `<p>Receive marketing email at <strong>${escape(email)}</strong> again?</p>${form(action, 'Subscribe')}`,
  );

export const managePage = (email: string, subscribed: boolean, action: string) =>
  page(
    'Email preferences',
    `<p><strong>${escape(email)}</strong> is ${subscribed ? 'subscribed to' : 'unsubscribed from'} marketing email.</p>` +
      form(
        action,
        subscribed ? 'Unsubscribe' : 'Subscribe',
        `<input type="hidden" name="action" value="${subscribed ? 'unsubscribe' : 'subscribe'}">`,
      ) +
      `<p class="muted">Transactional email (receipts, password resets) is sent either way.</p>`,
  );

export const donePage = (subscribed: boolean, email: string) =>
  page(
    subscribed ? 'Subscribed' : 'Unsubscribed',
    `<p><strong>${escape(email)}</strong> is now ${subscribed ? 'subscribed to' : 'unsubscribed from'} marketing email.</p>`,
  );

export const invalidLinkPage = () =>
  page('Link not valid', '<p>This link is not valid or has been altered. Use the link from the email itself.</p>');

/** A subscription link of an email sent to no contact: it names the address and changes nothing. */
export const noContactPage = (email: string) =>
  page(
    'Not on the list',
    `<p><strong>${escape(email)}</strong> is not on this sender's marketing list: there is no subscription to change, and nothing was changed.</p>`,
  );
