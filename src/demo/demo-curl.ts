import { wikiDemoCurlLines } from '../wiki/wiki.demo.ts';
import { codeblocksDemoCurlLines } from '../codeblocks/codeblocks.demo.ts';
import { trackerDemoCurlLines } from '../tracker/tracker.demo.ts';
import { optionsDemoCurlLines } from '../fieldeditor/options/options.demo.ts';

/**
 * Ready-to-run curl lines against the demo data, printed at first start. Features add theirs. They only read:
 * a reader may run them any number of times, before or after the examples of docs/, and get what those say.
 */
export function demoCurlLines(baseUrl: string): string[] {
  return [`curl -u alice:alice ${baseUrl}/rest/api/2/myself`, ...wikiDemoCurlLines(baseUrl), ...codeblocksDemoCurlLines(baseUrl), ...trackerDemoCurlLines(baseUrl), ...optionsDemoCurlLines(baseUrl)];
}
