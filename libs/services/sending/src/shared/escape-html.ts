/**
 * HTML escaping shared by the rendered emails (render/) and the pages behind subscription links
 * (links/): a folder of its own that imports no feature, so neither imports the other for it.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and attribute values. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
