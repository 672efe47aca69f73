// Every failure of reading a wiki space export is one WikiExportError whose message is one line naming the
// cause (a truncated zip, no entities.xml, XML that is not an export …): the command line and the REST upload
// show it as it is, never a stack trace. `kind` lets callers and tests tell the causes apart.

export type WikiExportErrorKind =
  | 'unreadable'
  | 'not-zip'
  | 'truncated'
  | 'no-entities'
  | 'unsupported-zip'
  | 'malformed-xml'
  | 'not-export'
  | 'bad-value'
  | 'no-room'
  | 'text-too-large';

export class WikiExportError extends Error {
  constructor(
    readonly kind: WikiExportErrorKind,
    message: string,
  ) {
    super(message.replace(/\s*\n\s*/g, ' '));
    this.name = 'WikiExportError';
  }
}
