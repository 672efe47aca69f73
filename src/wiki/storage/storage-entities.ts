// The named character references storage XHTML may use. Wiki storage documents are
// XHTML fragments without a DTD, yet editors and the host write `&nbsp;`, `&auml;`,
// `&mdash;` and friends freely, so the parser must know the XHTML 1.0 set
// (HTML 4 lat1 + symbol + special, 252 names). quot/amp/lt/gt are built into the XML
// parser; the table holds the other 248 plus apos, which XHTML 1.0 defines as well.

// Latin-1: nbsp..yuml are U+00A0..U+00FF in exactly this order.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr ' +
  'deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest ' +
  'Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ' +
  'ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml ' +
  'eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

// Greek runs are contiguous too (U+0391..U+03A1, U+03A3..U+03A9, U+03B1..U+03C9).
const GREEK_UPPER_1 =
  'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho';
const GREEK_UPPER_2 = 'Sigma Tau Upsilon Phi Chi Psi Omega';
const GREEK_LOWER =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho ' +
  'sigmaf sigma tau upsilon phi chi psi omega';

// The rest as name:decimal-code pairs.
const SCATTERED =
  'apos:39 fnof:402 thetasym:977 upsih:978 piv:982 ' +
  'bull:8226 hellip:8230 prime:8242 Prime:8243 oline:8254 frasl:8260 ' +
  'weierp:8472 image:8465 real:8476 trade:8482 alefsym:8501 ' +
  'larr:8592 uarr:8593 rarr:8594 darr:8595 harr:8596 crarr:8629 ' +
  'lArr:8656 uArr:8657 rArr:8658 dArr:8659 hArr:8660 ' +
  'forall:8704 part:8706 exist:8707 empty:8709 nabla:8711 isin:8712 notin:8713 ni:8715 ' +
  'prod:8719 sum:8721 minus:8722 lowast:8727 radic:8730 prop:8733 infin:8734 ang:8736 ' +
  'and:8743 or:8744 cap:8745 cup:8746 int:8747 there4:8756 sim:8764 cong:8773 asymp:8776 ' +
  'ne:8800 equiv:8801 le:8804 ge:8805 sub:8834 sup:8835 nsub:8836 sube:8838 supe:8839 ' +
  'oplus:8853 otimes:8855 perp:8869 sdot:8901 lceil:8968 rceil:8969 lfloor:8970 rfloor:8971 ' +
  'lang:9001 rang:9002 loz:9674 spades:9824 clubs:9827 hearts:9829 diams:9830 ' +
  'OElig:338 oelig:339 Scaron:352 scaron:353 Yuml:376 circ:710 tilde:732 ' +
  'ensp:8194 emsp:8195 thinsp:8201 zwnj:8204 zwj:8205 lrm:8206 rlm:8207 ' +
  'ndash:8211 mdash:8212 lsquo:8216 rsquo:8217 sbquo:8218 ldquo:8220 rdquo:8221 bdquo:8222 ' +
  'dagger:8224 Dagger:8225 permil:8240 lsaquo:8249 rsaquo:8250 euro:8364';

function addRun(target: Record<string, string>, names: string, firstCode: number): void {
  names.split(' ').forEach((name, i) => {
    target[name] = String.fromCodePoint(firstCode + i);
  });
}

function buildTable(): Readonly<Record<string, string>> {
  const table: Record<string, string> = Object.create(null) as Record<string, string>;
  addRun(table, LATIN1, 0xa0);
  addRun(table, GREEK_UPPER_1, 0x391);
  addRun(table, GREEK_UPPER_2, 0x3a3);
  addRun(table, GREEK_LOWER, 0x3b1);
  for (const pair of SCATTERED.split(' ')) {
    const [name, code] = pair.split(':');
    if (name !== undefined && code !== undefined) table[name] = String.fromCodePoint(Number(code));
  }
  return Object.freeze(table);
}

/** Named entity → replacement text, for every XHTML 1.0 entity besides the XML five. */
export const XHTML_ENTITIES: Readonly<Record<string, string>> = buildTable();
