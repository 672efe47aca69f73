/**
 * The one XML writer of every XML body (code-block lists and errors, host 401 bodies). Text is escaped
 * exactly once, here: the xmlbuilder2 package used before (since removed) left `&` alone when it precedes something that looks like an
 * entity or character reference (`&copy;`, `&#65;`, `&amp;`), which writes undefined entities, invalid
 * references or a different text than stored. Element names are our own constants, never input.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };

/**
 * Characters XML 1.0 cannot carry (C0 controls except tab, LF, CR; U+FFFE, U+FFFF; lone surrogates). The
 * input boundary refuses them on every save; values stored before that are written as U+FFFD, so a body
 * always parses.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Element text: `&`, `<`, `>` and CR as references (`>` so that `]]>` never appears; CR so that a reader does
 * not normalise it to LF), characters XML 1.0 lacks as U+FFFD. Quotes need no escape in element text.
 */
export function escapeXmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>\r]/g, (c) => ESCAPES[c]!);
}

/** An element of text (`value`) or of child elements, in the order given. */
export type XmlNode = readonly [name: string, value: string | number | readonly XmlNode[]];

function write(node: XmlNode): string {
  const [name, value] = node;
  const inner = typeof value === 'object' ? value.map(write).join('') : escapeXmlText(String(value));
  return `<${name}>${inner}</${name}>`;
}

/** A whole document: the declaration and the root element, without indentation. */
export function xmlDocument(root: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${write(root)}`;
}
