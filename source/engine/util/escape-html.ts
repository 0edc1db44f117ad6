/**
 * Every string from a run folder (labels, repository names, settings) is escaped before it goes
 * into the HTML page or its SVG: a label is whatever the user typed, and the page must show it,
 * not run it. Quotes too, since some strings go into attributes.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}
